// Package retryafter holds only benchmarks and tests: it compares mcperr's
// Retry-After parsing with go-retryablehttp v0.7.8's, and proves the
// latter's known bugs. It is a module of its own so that mcperr's root
// module does not require go-retryablehttp.
package retryafter

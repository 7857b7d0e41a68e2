//go:build race

package ratelimit

// limiterKeys is the number of distinct keys the eviction tests pass: fewer
// under the race detector, which is ten times slower.
const limiterKeys = 100_000

// Package ratelimit reads what an HTTP response says about rate limits,
// and answers requests over a limit as a server.
//
// # Reading a response
//
// ParseRetryAfter and RetryAfter read the Retry-After field of RFC 9110:
// delay-seconds or an HTTP-date in any of its three forms, a date
// measured against the response's own Date field so that clock skew does
// not matter. A date in the past is a delay of 0, a value too large
// saturates at MaxRetryAfter instead of wrapping, and a malformed value
// counts as absent, so the delay reported is never negative. A 429 that
// carries no usable Retry-After reports DefaultRetryAfter (60 seconds,
// long enough for a per-minute limit to reset): the parsers report such
// a value as absent, and the code that builds the caller's error value
// applies the default (package envelope does; RetryAfterOrDefault is the
// shortcut).
//
// Parse reads everything else too: the X-RateLimit-Limit, -Remaining and
// -Reset fields most APIs send (a Reset of 1e9 or more is a Unix epoch,
// 1e12 or more one in milliseconds, anything smaller seconds until the
// reset; a Parser can fix the form), and the RateLimit-Policy and
// RateLimit structured fields of draft-ietf-httpapi-ratelimit-headers-11
// as well as the RateLimit-Limit, -Remaining and -Reset fields of its
// earlier drafts. A reset is believed only when it is bounded: one in the
// past, more than a year away (MaxReset) or too large to count is absent,
// like a malformed field. A malformed field is ignored, and Retry-After wins where
// it and the limit fields both say how long to wait (Info.Wait). None of
// these functions panic, whatever bytes a header holds.
//
// # Answering as a server
//
// A Limiter keeps a token bucket per key (a token, an API key, a source
// address) on golang.org/x/time/rate: each request takes a token, a
// bucket of size b refills at r tokens a second, and a request that finds
// its bucket empty is refused. The refusal is an HTTP 429 whose
// Retry-After (whole seconds, at least 1) says when a token will be
// there, with the X-RateLimit-* and RateLimit fields beside it
// (Decision.SetHeaders). Idle keys are evicted, so memory stays bounded
// however many distinct keys pass through.
//
// A Guard counts requests per key in a fixed window and blocks a key that
// goes over its limit for a block period, the way an edge flood rule does
// (by default 100 requests per 10 seconds, then a 10-second block). A
// Budget counts what each key spends per minute and per month: messages,
// and credits priced per call, reserved at a call's worst case before it
// runs and settled at its actual price after.
//
// The state of all three sits behind the Store interface; MemoryStore
// keeps it in the process, and replicas of a server share it in Redis
// with module github.com/mcperr/mcperr/redisstore, without changing their
// callers. Keys longer than MaxKeyLen bytes are kept as their digest, so
// keys an outsider controls cost the same memory at any length.
//
// Every method that reads the clock has a twin that takes the time
// (AllowAt beside Allow), and a Limiter's or Guard's Now field sets the
// clock that Allow and its Wrap middleware read, so tests never sleep.
package ratelimit

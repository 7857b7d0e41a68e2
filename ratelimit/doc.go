// Package ratelimit limits the requests a server accepts from each key.
//
// A key is whatever a server tells its callers apart by (a token, an API
// key, a source address), and every limit here is counted per key. A
// request over a limit is refused with the time until it would be
// allowed, and a Decision writes its figures into the response as the
// Retry-After, X-RateLimit-* and RateLimit fields clients read
// (Decision.SetHeaders). Reading those fields on the client side is the
// job of package github.com/mcperr/mcperr/ratelimit/header.
//
// # Limits, guards and budgets
//
// A Limiter keeps a token bucket per key on golang.org/x/time/rate: each
// request takes a token, a bucket of size b refills at r tokens a second,
// and a request that finds its bucket empty is refused. The refusal is an
// HTTP 429 whose Retry-After (whole seconds, at least 1) says when a token
// will be there, with the X-RateLimit-* and RateLimit fields beside it
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

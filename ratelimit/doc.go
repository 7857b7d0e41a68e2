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
// # Limiters and stores
//
// A Limiter keeps a token bucket per key on golang.org/x/time/rate: each
// request takes a token, a bucket of size b refills at r tokens a second,
// and a request that finds its bucket empty is refused. The refusal is an
// HTTP 429 whose Retry-After (whole seconds, at least 1) says when a token
// will be there, with the X-RateLimit-* and RateLimit fields beside it
// (Decision.SetHeaders). Idle keys are evicted, so memory stays bounded
// however many distinct keys pass through.
//
// The state sits behind the Store interface, whose three primitives also
// serve limits of a server's own making: a token bucket (Take), a counter
// with an expiry (Add: a fixed window, a block period) and quotas charged
// all or nothing (Spend: messages a minute, credits a month, reserved
// before a call and settled after). MemoryStore keeps them in the
// process, and replicas of a server share them in Redis with module
// github.com/mcperr/mcperr/redisstore, without changing their callers.
// Long keys are kept as their digest (ShortKey), so keys an outsider
// controls cost the same memory at any length.
//
// Every method that reads the clock has a twin that takes the time
// (AllowAt beside Allow), and a Limiter's Now field sets the clock that
// Allow and its Wrap middleware read, so tests never sleep.
package ratelimit

// Package header reads the rate-limit fields of an HTTP response.
//
// A client that calls a rate-limited API needs two answers from each
// response: how long to wait before the next request, and how much of the
// limit is left. The answers come in three families of fields, and this
// package reads all of them into plain values: a time.Duration for a wait,
// a Limits for the figures. It reads and never writes; a server that
// limits its own callers writes these fields with package ratelimit
// (Decision.SetHeaders).
//
// # Retry-After
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
// applies the default (package envelope does).
//
// # Limits
//
// Parse reads everything else too: the delays APIs send beside RFC 9110's
// Retry-After (a Retry-After in decimal seconds such as "2.0", and the
// Retry-After-Ms and X-Ms-Retry-After-Ms fields in milliseconds; the
// longest wins), the X-RateLimit-Limit, -Remaining and -Reset fields most
// APIs send, or the X-Rate-Limit-* spelling of the same three (a Reset of
// 1e9 or more is a Unix epoch,
// 1e12 or more one in milliseconds, anything smaller seconds until the
// reset), and the RateLimit-Policy and
// RateLimit structured fields of draft-ietf-httpapi-ratelimit-headers-11
// as well as the RateLimit-Limit, -Remaining and -Reset fields of its
// earlier drafts. A reset is believed only when it is bounded: one in the
// past, more than a year away (maxReset) or too large to count is absent,
// like a malformed field. A malformed field is ignored, and Retry-After
// wins where it and the limit fields both say how long to wait
// (Info.Wait).
//
// None of these functions panic, whatever bytes a header holds, and none
// reads the clock: each takes the time the response was received.
package header

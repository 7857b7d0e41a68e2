// Package demoapi is an embedded Vexlo API for the vexlo example server,
// its tests and the tour: the routes of the Vexlo API over sample data.
//
// It holds thirty traces of four services owned by three teams, each trace
// with four steps addressed by base32 paths (the encoding of the step's
// position: "AA" is the first top-level step, "AAAA" its first child). Bearer
// tokens carry a role and a team-set; a trace of a team outside the set is
// not found, exactly as one that does not exist. Read routes need the read
// role and are limited to DefaultReadLimit requests a second per token by a
// ratelimit.Limiter, which answers 429 with Retry-After and X-RateLimit-*.
// In NoAuth mode there are no tokens and no limit.
//
// Every error is the envelope {"error":{"code","message","details"}}, and
// every code of the contract can be reached: unauthenticated (401, "token
// revoked" after Revoke), forbidden_role (403, a write token), the three
// *_not_found codes (404), invalid_request and invalid_cursor (400),
// too_many_paths (422, more than MaxPaths paths), rate_limited (429) and
// internal_error (500, BrokenTraceID). Under SetDiskPressure(true),
// /v1/health answers 503 with the degraded body, which is data, not an
// error.
package demoapi

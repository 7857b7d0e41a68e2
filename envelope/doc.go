// Package envelope reads an upstream HTTP response into the caller's data or
// a kind-tagged [*Error].
//
// Error or data is decided by the body's shape, never by the status alone.
// A [Reader] reads the body once, within a size bound, and asks one
// question: is its top-level object the upstream's error envelope,
// {"error":{"code","message","details"}} by default? If so, the envelope's
// code and the status go through an [errkind.Taxonomy] to a kind. If not,
// the body is decoded into the caller's value, whatever the status, so a 503
// health body {"status":"degraded"} is data. A body that is neither is
// malformed_response with the client's own sentence, and a request that
// threw is network_error. On a 429 the error carries the Retry-After delay
// (60 seconds when the response gave none) and the X-RateLimit-* figures,
// and every error read from a response carries that response's header, so
// a caller can refine the kind on a field such as X-Maintenance-Mode.
//
// A tool handler that wraps one upstream call is then three lines:
//
//	var page SearchPage
//	if err := reader.Do(req, &page); err != nil {
//		return wire.ErrorResult(err), nil // the kind object, isError
//	}
//	return wire.Success(page)
//
// An *Error is a wire.KindError: package wire renders it as the JSON kind
// object inside an isError tool result, the same object its MarshalJSON
// writes. Results and JSON-RPC errors themselves are package wire's job.
//
// A credential the request carried in its Authorization header never appears
// in an *Error, whatever the upstream echoes back.
package envelope

// Package envelope turns what crosses the wire into values and back: an
// upstream HTTP response into the caller's data or a kind-tagged [*Error],
// and errors and results into the MCP tool results and JSON-RPC error
// responses a client expects.
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
//		return envelope.ErrorResult(err), nil // the kind object, isError
//	}
//	return envelope.Success(page)
//
// Out, an *Error renders as the JSON kind object inside a tool result
// ([ErrorResult]), a success as structuredContent plus the same JSON as text
// ([Success]), and a refusal at the transport as a JSON-RPC error response
// ([WriteRPCError], [Front]). The values are plain structs: no MCP SDK is
// imported, so they serve any server.
//
// A credential the request carried in its Authorization header never appears
// in an *Error, whatever the upstream echoes back.
package envelope

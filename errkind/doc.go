// Package errkind is the vocabulary of failed tool calls: the kinds an agent
// branches on, the move each one calls for, and the rules that map an
// upstream HTTP API's answer onto them.
//
// A [Kind] names what happened in the terms of HTTP, so it fits any API:
// invalid_arguments, authentication_failed, permission_denied, not_found,
// conflict, rate_limited, unavailable, server_error, malformed_response,
// network_error. Each kind comes with [Advice]: the agent's next [Move]
// (fix the argument, try another id, re-read then retry, wait then retry,
// retry, stop, or report), whether retrying the same call can help, and
// which members its JSON kind object carries:
//
//	{"kind":"not_found","code":"trace_not_found","message":"no trace with id ...","details":{...}}
//
// A [Taxonomy] decides the kind: an ordered list of [Rule]s, each matching a
// code (in any case style, with a "*" at either end as a wildcard), a status
// or a status range; the first rule that matches wins. [Standard] maps the
// HTTP statuses and the well-known code vocabularies (gRPC and Google API
// status names, the common API error types) onto the ten kinds. A code a rule
// knows decides the kind; a code nobody knows falls back on the status, so
// a newer upstream is less specific rather than unusable. A server whose
// upstream has codes of its own declares them ahead of the standard rules
// with [Taxonomy.With], and may declare kinds of its own with their advice.
//
// Protocol errors, where the request never reached a tool, are JSON-RPC
// codes ([Code]); the catalogue gives the HTTP status each travels with on
// Streamable HTTP and the client's move.
//
// On the client side, [ParseText] reads a failed tool result's text back:
// the JSON kind object, or the MCP layer's own sentence, such as
//
//	MCP error -32602: Input validation error: Invalid arguments for tool get_values: Too big: expected array to have <=8 items at path
package errkind

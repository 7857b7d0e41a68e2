// Package errkind names the ways a tool call fails, so an agent can branch on
// them: what happened ([Kind]), what to do next ([Advice]), and how an
// upstream HTTP API's answer maps onto them ([Taxonomy]).
//
// A failed tool call arrives in one of two shapes. When the server answered
// with an error, the tool result's text is a JSON kind object:
//
//	{"kind":"not_found","code":"trace_not_found","message":"no trace with id ...","details":{...}}
//
// When the MCP layer rejected the call before it reached the tool, the text
// is one line of prose:
//
//	MCP error -32602: Input validation error: Invalid arguments for tool vexlo_get_values: Too big: expected array to have <=8 items at path
//
// [ParseText] tells them apart (only the first starts with "{") and reads out
// what each carries.
//
// A kind is decided by a taxonomy: an ordered list of rules, each matching an
// exact code, a code suffix, a status or a status range; the first rule that
// matches wins. [Standard] is the taxonomy of nine kinds most HTTP APIs fit.
// A server with its own codes declares its own rules the same way, and a code
// no rule knows falls back on the HTTP status, so a newer upstream is less
// specific rather than unusable.
//
// Each kind comes with the agent's next move: stop, fix the argument, try
// another id, wait and retry, retry at once, or report. The constants'
// comments say when each is raised and how to tell it from its neighbour.
// The standard taxonomy:
//
//	kind                       raised by                                   next move            retry helps
//	authentication_failed      401 unauthenticated                         stop                 no
//	wrong_role                 403 forbidden_role                          stop                 no
//	not_found                  any *_not_found code, or any other 404      try another id       no
//	invalid_arguments          invalid_request, invalid_cursor, other 4xx  fix the argument     no
//	too_many_values_requested  422 too_many_paths                          ask for fewer        no
//	rate_limited               429                                         wait, then retry     yes
//	server_error               internal_error, or any status >= 500        report               no
//	malformed_response         a body neither envelope nor expected shape  report               no
//	network_error              the request threw (refused, DNS, timeout)   retry                yes
//
// Protocol errors, where the request never reached a tool, are JSON-RPC
// codes ([Code]); the catalogue gives the HTTP status each travels with on
// Streamable HTTP and whether a retry can help.
package errkind

// Package mcperr helps an MCP server report failures the way an agent can act
// on them. It holds no code of its own: the work is done by small packages
// that each stand alone.
//
// # Two failure shapes
//
// A failed tool call reaches an agent in one of two shapes, and the agent has to
// tell them apart before it parses anything.
//
// When the tool ran and its upstream answered with an error, the tool result
// has isError set and one text block holding a JSON kind object. The kind is a
// stable string to branch on; the upstream's own code and message ride along:
//
//	{"content":[{"type":"text","text":"{\"kind\":\"not_found\",\"code\":\"trace_not_found\",\"message\":\"no trace with id deadbeefdeadbeefdeadbeefdeadbeef\",\"details\":{\"trace_id\":\"deadbeefdeadbeefdeadbeefdeadbeef\"}}"}],"isError":true}
//
// When the MCP layer rejected the call before the tool ran (its arguments
// failed the input schema), the one text block is a sentence instead:
//
//	MCP error -32602: Input validation error: Invalid arguments for tool vexlo_get_values: Too big: expected array to have <=8 items at path
//
// Only the first starts with "{". Protocol errors, where the request never
// reached a tool at all, are JSON-RPC errors with an HTTP status of their own
// (404 -32601, 405 and 415 -32600, 400 -32602, -32020 and -32022, 429 -32000,
// or -31000 from revision 2026-07-28 on: errkind.RPCCode.On has the table).
//
// # The packages
//
//   - errkind: the taxonomy. Kinds (not_found, rate_limited, ...), what each
//     tells the agent to do next, the rules that map an upstream code and HTTP
//     status to a kind, the JSON kind object and its schema, and the
//     catalogue of JSON-RPC protocol errors. For clients, errkind.Read reads
//     any tool outcome back into a kind, a move and a wait.
//   - envelope: reads an upstream *http.Response into either data or a
//     kind-tagged *envelope.Error, deciding by the body's shape and never by
//     the status alone.
//   - wire: the one model of what a server sends back. MCP tool results
//     (success as structuredContent and text, errors as the kind object, a
//     server's own JSON or prose) and JSON-RPC error objects and responses,
//     as plain values that marshal to exactly MCP's JSON; and the JSON-RPC
//     message check every transport applies before an SDK sees a message.
//   - front: fronts an MCP endpoint on Streamable HTTP with the
//     transport-level refusals (Host and Origin, path, method, Content-Type)
//     and the JSON-RPC message check of package wire, so no message an SDK
//     would choke on reaches it and ids come back exactly as sent; and
//     per-client limits that answer with the wait.
//   - ratelimit: limits a server's callers per key: a token bucket per key
//     (Limiter), on a Store whose primitives (a bucket, a counter with an
//     expiry, quotas charged all or nothing) also serve limits of a server's
//     own making, and writes the rate-limit fields of each answer.
//   - ratelimit/header: reads the rate-limit fields of an upstream's
//     response (Retry-After, X-RateLimit-* and the IETF RateLimit fields)
//     into a wait and the limit's figures.
//   - retry: the single short retry. A 429 whose Retry-After is at most two
//     seconds is waited out and sent once more; nothing else is retried. A
//     second policy re-sends a GET once on a 5xx or a network error.
//   - schemaerr: validates tool arguments against their JSON Schema and words
//     the rejection exactly as agents know it from the MCP TypeScript SDK, or
//     as a JSON-RPC -32602 error with a machine code and a did-you-mean hint.
//
// No package of this module imports an MCP SDK: they produce plain values
// that marshal to MCP's JSON. Modules of their own put them into an SDK or a
// store: github.com/mcperr/mcperr/gosdk (the official Go SDK),
// github.com/mcperr/mcperr/mcpgo (mark3labs/mcp-go),
// github.com/mcperr/mcperr/redisstore (limits shared by replicas in Redis) and
// github.com/mcperr/mcperr/ecmaregexp (patterns RE2 cannot run, for
// schemaerr). The examples module (github.com/mcperr/mcperr/examples) builds
// three complete servers on the gosdk adapter.
//
// # Install
//
//	go get github.com/mcperr/mcperr
//
// brings the packages of this module; each module named above has its own line,
// such as go get github.com/mcperr/mcperr/gosdk.
package mcperr

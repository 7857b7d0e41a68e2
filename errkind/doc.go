// Package errkind is the vocabulary of failed tool calls: the kinds an agent
// branches on, the move each one calls for, and the rules that map an
// upstream HTTP API's answer onto them; and, in its reader*.go files, the
// client's reader of any tool call's answer in that vocabulary ([Read]).
//
// A [Kind] names what happened in the terms of HTTP, so it fits any API. The
// standard kinds and their moves:
//
//	kind                   what happened                                   move
//	invalid_arguments      the call was understood and refused (400, 422)  fix_argument
//	authentication_failed  the caller is not known (401)                   stop
//	permission_denied      the caller is known and refused (403)           stop
//	not_found              the id names nothing the caller can see (404)   try_another_id
//	conflict               the resource's state moved (409)                reread_then_retry
//	rate_limited           the caller is too fast for now (429)            wait_then_retry
//	unavailable            nobody is being served for now (502, 503, 504)  wait_then_retry
//	server_error           the upstream failed (500)                       report
//	malformed_response     the answer could not be read                    report
//	network_error          no answer came back                             retry_safe
//
// Each constant's comment says when to use it and how to tell it from its
// neighbour. A conflict's move is to re-read, not to retry blindly: the
// same call, unchanged, is not expected to succeed, but the agent can read
// the resource again and redo its change, or see that it is already done.
//
// Each kind comes with [Advice]: its [Move], whether retrying the same call
// can help, a sentence for the agent, and the members its JSON kind object
// carries ([Object]):
//
//	{"kind":"not_found","code":"trace_not_found","message":"no trace with id ...","details":{...}}
//	{"kind":"rate_limited","retryAfterSeconds":1,"limit":20,"remaining":0,"resetSeconds":1}
//
// [ObjectSchema] is that object's JSON Schema, for a tool's outputSchema.
//
// A [Taxonomy] decides the kind: an ordered list of [Rule]s, each matching a
// code (in any case style, with a "*" at either end as a wildcard), a status
// or a status range; the first rule that matches wins. [Standard] maps the
// HTTP statuses and the well-known code vocabularies (gRPC and Google API
// status names, the common API error types) onto the ten kinds. A code a
// rule knows decides the kind; a code nobody knows falls back on the
// status, so a newer upstream is less specific rather than unusable. The
// zero Taxonomy, a nil one, and one whose Rules are nil classify as
// Standard does. A server whose upstream has codes of its own declares them
// ahead of the standard rules with [Taxonomy.With], and declares the kinds
// it adds with their advice.
//
// Protocol errors, where the request never reached a tool, are JSON-RPC
// codes ([RPCCode]); the catalogue gives the HTTP status each travels with on
// Streamable HTTP and the client's move.
//
// # The reader for clients
//
// [Read] (in reader.go, reader_sdks.go, reader_issues.go, reader_general.go
// and reader_json.go) takes what a tool call returned, in whichever
// dialect the server spoke, and gives back the kind, the move, the wait and
// the arguments at fault: the kind object; a code object such as
// {"error":"...","code":"not_found","retry_after_secs":3}; the MCP SDKs'
// own texts, such as the TypeScript SDK's
//
//	MCP error -32602: Input validation error: Invalid arguments for tool get_values: Too big: expected array to have <=8 items at path
//
// a JSON-RPC error, with or without data.code or a kind object in data; a
// client's text for an HTTP error; prose whose opening a server's taxonomy
// declares (Rule.Text); and, whatever SDK or framework wrote it, a failure
// text read by what it says: arguments refused (a required property
// missing, a wrong type, a value out of range or not allowed, an unknown
// property), a tool the server does not have, an HTTP status, a rate limit
// or a wait in words, a timeout, a cancellation or a closed connection.
// testdata/answers.jsonl is the corpus of SDK answers it is checked
// against, each with where it came from. Its time is linear in what it
// reads, and a success allocates nothing. The TypeScript SDK's texts are
// defined once, in the module, for schemaerr, which writes them, and Read,
// which reads them.
//
// Kinds and moves are strings: compare them with ==. errkind holds no error
// type; a Go error carries its kind in a type of its own (such as
// envelope.Error), which errors.As finds.
package errkind

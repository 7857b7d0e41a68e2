// Package mcpserver is the news index example server of mcperr: a story
// index served over MCP and REST with one code vocabulary, the news error
// contract, and credits.
//
// Failures travel in the shape that tells a client what to do:
//
//   - An HTTP status where no session can open or the message was not read:
//     401 for a missing or invalid key (a JSON body, never a JSON-RPC
//     envelope), 429 with Retry-After and code message_rate_limited when the
//     key's messages this minute are spent (the MCP handshake counts).
//   - A JSON-RPC error for a call that never ran and cost nothing: -32601 for
//     an unknown tool; -32602 with error.data.code unknown_parameter (with a
//     did-you-mean hint, through schemaerr's hint dialect), unknown_signal or
//     invalid_parameter.
//   - A tool error (isError, one text block holding a JSON object with error,
//     code, detail, retry_after_secs and the credit figures) for a call that
//     was priced or ran: suspended, insufficient_credits,
//     credit_rate_limited, credit_budget_exceeded, upstream_unavailable,
//     not_found, watch_limit, unsupported. [Taxonomy] declares them as
//     errkind kinds with the contract's retry advice.
//   - A success carries structuredContent matching the tool's outputSchema
//     and one text block of the same JSON, encoded once, with
//     credits_charged; search-shaped results say whether they are complete
//     (total, total_relation, has_more, partial, coverage, from_clamped).
//
// REST at /v1/... mirrors the tools and answers every 4xx and 5xx with the
// same JSON error body and code. [Server.MCP] is the local server
// (stdio: no key, no watch store); [Server.Handler] is the hosted endpoint.
package mcpserver

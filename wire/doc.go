// Package wire is the one model of what an MCP server sends back: the tool
// result, its content blocks, and the JSON-RPC error object with its data.
//
// The values are plain structs that marshal to exactly the JSON the MCP
// specification, the go-sdk and the TypeScript SDK use, so a server built on
// any SDK, or on none, can return them. No MCP SDK is imported.
//
// A tool's outcome is a [ToolResult], built by one of four constructors:
//
//	Success(v)       structuredContent and one text block of the same JSON, encoded once
//	ErrorResult(err) isError, and the JSON kind object as the text
//	JSONError(v)     isError, and a server's own error object as the text
//	TextError(s)     isError, and prose (such as the TypeScript SDK's rejection text)
//
// isError is written only when true: the go-sdk's CallToolResult omits a
// false isError, the TypeScript SDK writes the member only where a handler
// or its own rejection set it, and a client reads an absent isError as
// false. ErrorResult
// asks the first [KindError] in the error's chain (such as an
// *envelope.Error) to write its kind object, the errkind.Object; an error
// that carries no kind is the errkind.Object of kind server_error with the
// error's text as the message, the kind envelope.KindOf reports for it.
//
// A refusal before any tool runs is a protocol error: an [RPCError] with an
// errkind.RPCCode, a message and optional data. [ErrorData] is the data of the
// hint dialect, {"code":"unknown_parameter"}, that a client switches on.
// [WriteRPCError] writes the whole JSON-RPC error response with the HTTP
// status the code travels with on Streamable HTTP.
//
// Text in results and JSON-RPC errors is encoded without HTML escaping: it
// is read by an agent, not a browser, so <, > and & stay as they are.
package wire

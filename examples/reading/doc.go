// Package reading checks, from the client's side, that errkind.Read reads
// every failure an MCP server answers with the right kind and move: both Go
// SDKs' clients (through gosdk.Outcome and mcpgo.Outcome) and, with
// MCPERR_NODE=1, the TypeScript SDK's 1.x and 2.x clients, against servers
// built without mcperr on the go-sdk, on mcp-go and on the TypeScript SDK
// 1.x and 2.x (over Streamable HTTP and over stdio), and on mcperr's
// adapters, limits included, over Streamable HTTP. It has no code of its
// own; see its test.
package reading

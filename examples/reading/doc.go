// Package reading checks, from the client's side, that errkind.Read reads
// every failure an MCP server answers with the right kind and move: both Go
// SDKs' clients (through gosdk.Outcome and mcpgo.Outcome) against servers
// built on either SDK without mcperr and on mcperr's adapters, limits
// included, over Streamable HTTP. It has no code of its own; see its test.
package reading

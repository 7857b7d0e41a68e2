// Package sdktext holds the texts the MCP TypeScript SDK writes for a tool
// call it refuses before the tool runs, so that schemaerr, which writes
// them, and errkind, which reads them back, share one definition. Each is
// the text of an McpError: "MCP error <code>: " followed by the message.
package sdktext

const (
	// MCPErrorPrefix begins every McpError text; the JSON-RPC code and ": "
	// follow.
	MCPErrorPrefix = "MCP error "

	// InvalidArgumentsPrefix begins the text of a call whose arguments
	// failed the tool's input schema. The tool's name, ": " and the issues
	// follow, one a line, each "<message>" or "<message> at <path>".
	InvalidArgumentsPrefix = "MCP error -32602: Input validation error: Invalid arguments for tool "

	// ArgumentsRefusedPrefix begins the text of a call whose arguments were
	// refused whole: for their size or shape, before validation, or for the
	// time validating them took. The tool's name, ": " and one sentence
	// follow.
	ArgumentsRefusedPrefix = "MCP error -32602: Invalid arguments for tool "

	// UnknownToolPrefix and UnknownToolSuffix frame the name of a tool the
	// server does not have; see [UnknownTool].
	UnknownToolPrefix = "MCP error -32602: Tool "
	UnknownToolSuffix = " not found"
)

// The TypeScript SDK 2.x (@modelcontextprotocol/server) throws its refusals
// as a ProtocolError, whose message has no "MCP error <code>: ": its frames
// are those above without their "MCP error -32602: ". Its validation
// text then holds the issues on one line, separated by ", ", each
// "<path>: <message>" (the path's segments joined by ".") or "<message>".
const (
	InvalidArgumentsPrefix2 = "Input validation error: Invalid arguments for tool "
	ArgumentsRefusedPrefix2 = "Invalid arguments for tool "
	// UnknownToolPrefix2 begins the message of the JSON-RPC error (code
	// -32602) the 2.x SDK answers a call to a tool it does not have with;
	// UnknownToolSuffix ends it.
	UnknownToolPrefix2 = "Tool "
)

// UnknownTool returns the TypeScript SDK's text for a call to a tool the
// server does not have: "MCP error -32602: Tool <tool> not found".
func UnknownTool(tool string) string {
	return UnknownToolPrefix + tool + UnknownToolSuffix
}

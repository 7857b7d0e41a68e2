package schemaerr

import "github.com/mcperr/mcperr/wire"

// Dialect is how a server words its refusal of a tools/call: of arguments
// the schema refused ([Dialect.Refuse]) and of a call to a tool the server
// does not have ([Dialect.RefuseTool]). Each SDK adapter answers in the
// dialect its options name. The zero value is [TypeScript].
type Dialect int

const (
	// TypeScript answers as the MCP TypeScript SDK 1.x
	// (@modelcontextprotocol/sdk) does, with the text of an isError tool
	// result. Refused arguments read "MCP error -32602: Input validation
	// error: Invalid arguments for tool <tool>: " followed by the issues, one
	// per line, each its message then " at " and its path
	// ("filter.window.hours", "tags[2]"). Arguments refused whole (for their
	// size, their shape or the work validating them takes) get the SDK's
	// maxToolInputElements wording instead: "MCP error -32602: Invalid
	// arguments for tool <tool>: arguments contain more than the maximum of
	// N elements". A call to a tool the server does not have reads "MCP
	// error -32602: Tool <tool> not found".
	//
	// The issues take at most 64 KiB: those that do not fit (and those a
	// list cut at Bounds.MaxIssues left out) are counted on a last line,
	// "and N more issues"; a first issue longer alone is cut and ends with
	// "…". The SDK, which has no such bound, writes the same text for every
	// refusal within it. TypeScript is the default.
	TypeScript Dialect = iota

	// Hint answers with a JSON-RPC error, code -32602, whose message is one
	// sentence per issue and whose data.code is unknown_parameter when an
	// argument is not declared (those sentences come first, since a misspelt
	// name often explains the rest), else invalid_parameter. The sentences:
	//
	//	Unknown parameter 'langauge'. Did you mean 'language'?
	//	Unknown parameter 'xyz'.
	//	Missing required parameter 'query'.
	//	Invalid value for 'limit': must be between 1 and 50.
	//	Invalid value for 'limit': must be an integer.
	//	Invalid value for 'order': must be one of 'asc', 'desc'.
	//	Invalid value for 'query': must be between 3 and 20 characters long.
	//	Invalid value for 'path': must have at most 8 items.
	//	Invalid value for 'service': must match the pattern /^[a-z]+$/.
	//	Invalid value for 'environment': must match one of its accepted forms.
	//
	// The sentences take at most 64 KiB, as in TypeScript; those left out
	// are counted in a last sentence, "And N more issues.". A call to a tool
	// the server does not have is -32602 with data.code unknown_tool,
	// "Unknown tool 'get_trac'. Did you mean 'get_trace'?", the
	// did-you-mean from the server's tools (see [Suggest]).
	Hint

	// TypeScriptV2 answers as the MCP TypeScript SDK 2.x
	// (@modelcontextprotocol/server) does. Refused arguments are the text of
	// an isError tool result, "Input validation error: Invalid arguments for
	// tool <tool>: " and then the issues on one line, separated by ", ",
	// each its path first: "<path>: <message>", the path's segments joined
	// by "." (array indices too: "tags.2"), or the message alone for an
	// issue about the arguments as a whole:
	//
	//	Input validation error: Invalid arguments for tool get_values: path: Too big: expected array to have <=8 items, limit: Too big: expected number to be <=100
	//
	// Arguments refused whole (for their size, their shape or the work
	// validating them takes) read "Invalid arguments for tool <tool>:
	// arguments contain more than the maximum of N elements". The issues
	// take at most 64 KiB, as in TypeScript, the count of those left out
	// last: ", and N more issues". A call to a tool the server does not
	// have is not a tool result but a JSON-RPC error, code -32602, message
	// "Tool <tool> not found".
	TypeScriptV2
)

// A Refusal is a dialect's answer to a tools/call it refuses: exactly one
// of the text of an isError tool result and a JSON-RPC error is set. The
// zero Refusal refuses nothing.
type Refusal struct {
	// Text is the one text block of an isError tool result; "" when Error
	// is set.
	Text string

	// Error is the JSON-RPC error to answer with, nil when the refusal is a
	// tool result.
	Error *wire.RPCError
}

// Refuse is d's refusal of the arguments of a call to tool, in which
// [Schema.Validate] found issues; the zero Refusal for no issues.
func (d Dialect) Refuse(tool string, issues []Issue) Refusal {
	switch {
	case len(issues) == 0:
		return Refusal{}
	case d == Hint:
		return Refusal{Error: hints(issues)}
	case d == TypeScriptV2:
		return Refusal{Text: textV2(tool, issues)}
	}
	return Refusal{Text: text(tool, issues)}
}

// RefuseTool is d's refusal of a call to tool, which the server does not
// have; known are the server's tool names, from which the hint dialect
// suggests the one meant.
func (d Dialect) RefuseTool(tool string, known []string) Refusal {
	switch d {
	case Hint:
		return Refusal{Error: unknown(codeUnknownTool, "tool", tool, known)}
	case TypeScriptV2:
		return Refusal{Error: unknownToolV2(tool)}
	}
	return Refusal{Text: unknownTool(tool)}
}

// codeUnknownTool is the hint dialect's data.code for a call to a tool the
// server does not have (adapter.UnknownTool).
const codeUnknownTool = "unknown_tool"

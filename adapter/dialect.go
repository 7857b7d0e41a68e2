package adapter

import (
	"errors"

	"github.com/mcperr/mcperr/schemaerr"
	"github.com/mcperr/mcperr/wire"
)

// Dialect is how an adapter's validation answers refused arguments and
// calls to a tool the server does not have: Invalid and Unknown give its
// answers, each SDK's adapter sends them.
type Dialect int

const (
	// TypeScript answers as the MCP TypeScript SDK does: an isError tool
	// result whose one text block is "MCP error -32602: Input validation
	// error: Invalid arguments for tool <tool>: ..." (one line per issue;
	// see schemaerr.Text), or "MCP error -32602: Tool <tool> not found". It
	// is the default.
	TypeScript Dialect = iota

	// Hint answers with a JSON-RPC error, code -32602, whose data.code is
	// unknown_parameter or invalid_parameter and whose message is one
	// sentence per issue, with a did-you-mean for a misspelt parameter
	// (schemaerr.Hints). An unknown tool is -32602 with data.code
	// UnknownTool and a did-you-mean for a misspelt tool name.
	Hint

	// TypeScript2 answers as the MCP TypeScript SDK 2.x
	// (@modelcontextprotocol/server) does: an isError tool result whose one
	// text block is "Input validation error: Invalid arguments for tool
	// <tool>: <path>: <message>, ..." (the issues on one line, each its path
	// first; see schemaerr.Text2), and for a tool the server does not have a
	// JSON-RPC error, code -32602, "Tool <tool> not found".
	TypeScript2
)

// UnknownTool is the hint dialect's data.code for a call to a tool the
// server does not have.
const UnknownTool = "unknown_tool"

// A Refusal is a dialect's answer to a tools/call: the text of an isError
// tool result, or a JSON-RPC error. The zero Refusal refuses nothing.
type Refusal struct {
	// Text is the one text block of an isError tool result; "" when Error
	// is set.
	Text string

	// Error is the JSON-RPC error to answer with, nil when the refusal is a
	// tool result.
	Error *wire.RPCError
}

// Invalid is d's refusal of arguments to tool that schemaerr found the
// issues in; the zero Refusal for no issues.
func (d Dialect) Invalid(tool string, issues []schemaerr.Issue) Refusal {
	switch {
	case len(issues) == 0:
		return Refusal{}
	case d == Hint:
		return Refusal{Error: rpcError(schemaerr.Hints(issues))}
	case d == TypeScript2:
		return Refusal{Text: schemaerr.Text2(tool, issues)}
	}
	return Refusal{Text: schemaerr.Text(tool, issues)}
}

// Unknown is d's refusal of a call to tool, which the server does not
// have; known are the server's tool names, sorted, from which the hint
// dialect suggests the one meant.
func (d Dialect) Unknown(tool string, known []string) Refusal {
	switch d {
	case Hint:
		return Refusal{Error: rpcError(schemaerr.Unknown(UnknownTool, "tool", tool, known))}
	case TypeScript2:
		return Refusal{Error: rpcError(schemaerr.UnknownTool2(tool))}
	}
	return Refusal{Text: schemaerr.UnknownTool(tool)}
}

// rpcError is the *wire.RPCError in err, which schemaerr's hint-dialect
// errors carry.
func rpcError(err error) *wire.RPCError {
	var e *wire.RPCError
	errors.As(err, &e)
	return e
}

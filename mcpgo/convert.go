package mcpgo

import (
	"encoding/json"
	"maps"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcperr/mcperr/wire"
)

// This file is the only place that converts mcperr's wire values to the
// SDK's types: one function for each.

// Result converts an mcperr tool result to the SDK's: each text block,
// isError, _meta, and structuredContent as it was encoded once (a
// json.RawMessage the SDK writes unchanged). Result(nil) is nil.
func Result(r *wire.ToolResult) *mcp.CallToolResult {
	if r == nil {
		return nil
	}
	out := &mcp.CallToolResult{IsError: r.IsError, Content: make([]mcp.Content, 0, len(r.Content))}
	for _, c := range r.Content {
		out.Content = append(out.Content, mcp.TextContent{Type: "text", Text: c.Text})
	}
	if r.StructuredContent != nil {
		out.StructuredContent = r.StructuredContent
	}
	if r.Meta != nil {
		out.Meta = mcp.NewMetaFromMap(maps.Clone(r.Meta)) // it deletes progressToken from the map it is given
	}
	return out
}

// textResult is schemaerr's refusal as the SDK's result: isError and one
// text block.
func textResult(text string) *mcp.CallToolResult {
	r := wire.TextError(text)
	out := &mcp.CallToolResult{IsError: r.IsError, Content: make([]mcp.Content, 0, len(r.Content))}
	for _, c := range r.Content {
		out.Content = append(out.Content, mcp.TextContent{Type: c.Type, Text: c.Text})
	}
	return out
}

// rpcBody is a hint-dialect refusal as the JSON of a JSON-RPC error object,
// {"code":-32602,"message":...,"data":{"code":...}}.
func rpcBody(e *wire.RPCError) json.RawMessage {
	b, _ := json.Marshal(e) // plain strings and an int: it marshals
	return b
}

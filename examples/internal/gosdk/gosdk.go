// Package gosdk hands mcperr's plain values to the official MCP Go SDK
// (github.com/modelcontextprotocol/go-sdk). The library packages import no
// MCP SDK; a wire.ToolResult marshals to MCP's JSON as it is, and Result
// converts it to the SDK's own type for a tool handler to return.
package gosdk

import (
	"github.com/mcperr/mcperr/wire"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Result converts a wire tool result to the go-sdk's CallToolResult: each
// text block, isError, _meta, and structuredContent as it was encoded once
// (a json.RawMessage the SDK writes unchanged).
func Result(r *wire.ToolResult) *mcp.CallToolResult {
	out := &mcp.CallToolResult{IsError: r.IsError, Content: make([]mcp.Content, 0, len(r.Content))}
	for _, c := range r.Content {
		out.Content = append(out.Content, &mcp.TextContent{Text: c.Text})
	}
	if r.StructuredContent != nil {
		out.StructuredContent = r.StructuredContent
	}
	if r.Meta != nil {
		out.Meta = r.Meta
	}
	return out
}

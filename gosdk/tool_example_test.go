package gosdk_test

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/gosdk"
)

// AddTool adds a typed tool whose arguments are checked and decoded once.
// Here Validate is not installed, so the tool checks them itself, in the
// TypeScript SDK's words; with Validate, Validate does and the tool does
// not check again.
func ExampleAddTool() {
	s := mcp.NewServer(&mcp.Implementation{Name: "traces", Version: "1.0.0"}, nil)
	gosdk.AddTool(s, &mcp.Tool{Name: "get_trace"}, func(_ context.Context, _ *mcp.CallToolRequest, in TraceIn) (Trace, error) {
		return Trace{ID: in.ID, Spans: 3}, nil
	})
	cs, done := connect(s)
	defer done()
	ctx := context.Background()
	show(cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_trace", Arguments: map[string]any{"id": "abc"}}))
	show(cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_trace", Arguments: map[string]any{"id": 7}}))
	// Output:
	// isError=false {"id":"abc","spans":3}
	// structuredContent {"id":"abc","spans":3}
	// isError=true MCP error -32602: Input validation error: Invalid arguments for tool get_trace: Invalid input: expected string, received number at id
}

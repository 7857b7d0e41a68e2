package mcpgo_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// BenchmarkSDKDecode shows what mcp-go v1.2.1 itself costs a valid
// tools/call, the part of ServeStdio's valid row no adapter can change:
// "HandleMessage" is the server's HandleMessage for one tools/call to a tool
// that answers at once (no middleware, no hooks), which decodes the message
// four times (the envelope, the protocol revision's _meta, the _meta again
// for trace context, then the whole request, whose params' UnmarshalJSON
// decodes the params twice more: once raw, then the arguments into a map);
// "one decode" is the floor of a server that decodes the request once, as
// a patch to HandleMessage could (one decode of the envelope with params
// kept raw, the _meta read from it once): json.Unmarshal into
// mcp.CallToolRequest and the same handler.
//
//	go test -run '^$' -bench SDKDecode -benchmem -count 5 ./mcpgo
func BenchmarkSDKDecode(b *testing.B) {
	msg := json.RawMessage(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_trace","arguments":{"id":"abc"}}}`)
	handler := func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(req.GetString("id", "")), nil
	}
	s := server.NewMCPServer("traces", "1.0.0")
	s.AddTool(mcp.NewTool("get_trace", mcp.WithString("id", mcp.Required())), handler)
	ctx := context.Background()
	b.Run("HandleMessage", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := s.HandleMessage(ctx, msg).(mcp.JSONRPCResponse); !ok {
				b.Fatal("no result")
			}
		}
	})
	b.Run("one decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var req mcp.CallToolRequest
			if err := json.Unmarshal(msg, &req); err != nil {
				b.Fatal(err)
			}
			if _, err := handler(ctx, req); err != nil {
				b.Fatal(err)
			}
		}
	})
}

package stdio_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcperr/mcperr/examples/internal/rpctest"
	"github.com/mcperr/mcperr/examples/internal/stdio"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// FuzzTransport drives arbitrary bytes through a whole MCP server on the
// transport, in-process: the session survives whatever arrives, every line
// written is JSON, and every request whose id can be read gets exactly one
// answer carrying that id byte for byte (see rpctest.Check).
func FuzzTransport(f *testing.F) {
	const (
		initLine    = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`
		initialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	)
	for _, s := range []string{
		initLine + "\ngarbage\n",
		`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n\n[]\n",
		initLine + "\n" + initialized + "\n" + `{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"slow","arguments":{"path":[1]}}}` + "\n" + `{"jsonrpc":"2.0","id":"a","method":"ping"}`,
		`{"jsonrpc":"2.0","id":"\u0041","method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":"A","method":"ping"}` + "\n",
		`{"jsonrpc":"2.0","id":1e400,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
		`{"jsonrpc":"2.0","method":"notifications/progress","params":` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + "}\n",
		initLine + "\n" + initialized + "\n" + `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"slow"}}` + "\n" + `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}` + "\n",
		`{"jsonrpc":"2.0","id":7,"result":{}}` + "\n" + `{"jsonrpc":"2.0","id":7,"error":{"code":1,"message":"m"}}`,
	} {
		f.Add([]byte(s))
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "fuzz", Version: "0"}, nil)
	server.AddTool(&mcp.Tool{Name: "slow", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		select {
		case <-time.After(time.Millisecond):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil
	})
	d := stdio.NewServer(server)
	f.Fuzz(func(t *testing.T, in []byte) {
		rpctest.Check(t, d, in)
	})
}

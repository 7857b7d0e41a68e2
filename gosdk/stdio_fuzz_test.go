package gosdk_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// FuzzTransport drives arbitrary bytes through a whole MCP server on the
// transport, in-process: the session survives whatever arrives, every line
// written is JSON, and every request whose id can be read gets exactly one
// answer carrying that id byte for byte, a cancelled call's included (see
// check).
func FuzzTransport(f *testing.F) {
	for _, s := range []string{
		initLine + "\ngarbage\n",
		`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n\n[]\n",
		initLine + "\n" + initialized + "\n" + `{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"slow","arguments":{"path":[1]}}}` + "\n" + `{"jsonrpc":"2.0","id":"a","method":"ping"}`,
		`{"jsonrpc":"2.0","id":"\u0041","method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":"A","method":"ping"}` + "\n",
		`{"jsonrpc":"2.0","id":1e400,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
		`{"jsonrpc":"2.0","method":"notifications/progress","params":` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + "}\n",
		initLine + "\n" + initialized + "\n" + `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"slow"}}` + "\n" + `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}` + "\n",
		initLine + "\n" + initialized + "\n" + `{"jsonrpc":"2.0","id":"\u0041","method":"tools/call","params":{"name":"slow"}}` + "\n" + `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"A"}}` + "\n" + `{"jsonrpc":"2.0","id":"A","method":"tools/call","params":{"name":"slow"}}` + "\n",
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
	f.Fuzz(func(t *testing.T, in []byte) {
		check(t, server, in)
	})
}

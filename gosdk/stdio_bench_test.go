package gosdk_test

import (
	"context"
	"encoding/json"
	"io"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/gosdk"
)

// BenchmarkStdioTransport is the transport's whole path, line in and answer
// out, with a tool that does nothing: tools/call requests pipelined 16 in
// flight over a pair of pipes, through the SDK (Server unset) and through
// the direct path (Server set). What it measures beyond the tool is the
// transport's and the SDK's (go test -run '^$' -bench StdioTransport
// -cpuprofile cpu.out .).
func BenchmarkStdioTransport(b *testing.B) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "0"}, nil)
	srv.AddTool(&mcp.Tool{Name: "bound", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "expected array to have <=8 items & >0"}}, IsError: true}, nil
	})
	const params = `{"name":"bound","arguments":{}}`
	for _, path := range []struct {
		name   string
		server *mcp.Server
	}{{"sdk", nil}, {"direct", srv}} {
		b.Run(path.name, func(b *testing.B) {
			pipeline(b, func(ctx context.Context, in io.Reader, out io.Writer) error {
				return srv.Run(ctx, &gosdk.StdioTransport{In: in, Out: out, Server: path.server})
			}, params)
		})
	}
}

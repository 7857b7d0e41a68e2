package stdio_test

import (
	"context"
	"encoding/json"
	"io"
	"testing"

	"github.com/mcperr/mcperr/examples/internal/rpctest"
	"github.com/mcperr/mcperr/examples/internal/stdio"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkTransport is the transport's whole path, line in and answer
// out, with a tool that does nothing: tools/call requests pipelined 16 in
// flight over a pair of pipes, through the SDK (srv.Run) and through the
// direct path (stdio.Server). What it measures beyond the tool is the
// transport's and the SDK's (go test -run '^$' -bench Transport
// -cpuprofile cpu.out ./internal/stdio).
func BenchmarkTransport(b *testing.B) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "0"}, nil)
	srv.AddTool(&mcp.Tool{Name: "bound", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "expected array to have <=8 items & >0"}}, IsError: true}, nil
	})
	d := stdio.NewServer(srv)
	const params = `{"name":"bound","arguments":{}}`
	b.Run("sdk", func(b *testing.B) {
		rpctest.Pipeline(b, func(ctx context.Context, in io.Reader, out io.Writer) error {
			return srv.Run(ctx, &stdio.Transport{In: in, Out: out})
		}, params)
	})
	b.Run("direct", func(b *testing.B) {
		rpctest.Pipeline(b, func(ctx context.Context, in io.Reader, out io.Writer) error {
			return d.Run(ctx, &stdio.Transport{In: in, Out: out})
		}, params)
	})
}

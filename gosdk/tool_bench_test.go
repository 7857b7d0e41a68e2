package gosdk_test

import (
	"context"
	"io"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/gosdk"
)

// BenchmarkAddTool is a valid call of the package doc's tool with a handler
// that returns at once, over StdioTransport's direct path, pipelined: the
// tool added with mcp.AddTool and Handle (the SDK validates and decodes the
// arguments again) and with AddTool (once). Both servers run Validate.
// (go test -run '^$' -bench AddTool -benchmem .)
func BenchmarkAddTool(b *testing.B) {
	local := func(_ context.Context, _ *mcp.CallToolRequest, in TraceIn) (Trace, error) {
		return Trace{ID: in.ID, Spans: 3}, nil
	}
	for _, add := range []struct {
		name string
		add  func(*mcp.Server)
	}{
		{"mcp.AddTool", func(s *mcp.Server) { mcp.AddTool(s, &mcp.Tool{Name: "get_trace"}, gosdk.Handle(local)) }},
		{"gosdk.AddTool", func(s *mcp.Server) { gosdk.AddTool(s, &mcp.Tool{Name: "get_trace"}, local) }},
	} {
		b.Run(add.name, func(b *testing.B) {
			s := mcp.NewServer(&mcp.Implementation{Name: "traces", Version: "1.0.0"}, nil)
			add.add(s)
			s.AddReceivingMiddleware(gosdk.Validate(nil))
			pipeline(b, func(ctx context.Context, in io.Reader, out io.Writer) error {
				return s.Run(ctx, &gosdk.StdioTransport{In: in, Out: out, Server: s})
			}, `{"name":"get_trace","arguments":{"id":"abc"}}`)
		})
	}
}

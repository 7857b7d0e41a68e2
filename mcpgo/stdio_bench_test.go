package mcpgo_test

import (
	"context"
	"io"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcperr/mcperr/adapter/adaptertest"
	"github.com/mcperr/mcperr/mcpgo"
)

// BenchmarkServeStdio is the package doc's server (get_trace with
// mcp.WithInputSchema, mcpgo.Handle, mcpgo.Validate) served by ServeStdio,
// whose handler answers at once: tools/call requests pipelined 16 in
// flight over a pair of pipes, each row one of the three answers the load
// driver measures against the TypeScript SDK (BENCHMARKS.md, "mcpgo over
// stdio"). What it measures beyond the handler is the adapter's and
// mcp-go's (go test -run '^$' -bench ServeStdio -cpuprofile cpu.out .).
func BenchmarkServeStdio(b *testing.B) {
	for _, row := range []struct{ name, params string }{
		{"rejected", `{"name":"get_trace","arguments":{}}`},
		{"unknown", `{"name":"get_traces","arguments":{"id":"abc"}}`},
		{"valid", `{"name":"get_trace","arguments":{"id":"abc"}}`},
	} {
		b.Run(row.name, func(b *testing.B) {
			s := server.NewMCPServer("traces", "1.0.0")
			s.AddTool(mcp.NewTool("get_trace", mcp.WithDescription("Get a trace"), mcp.WithInputSchema[TraceIn]()), mcpgo.Handle(
				func(_ context.Context, _ mcp.CallToolRequest, in TraceIn) (Trace, error) {
					return Trace{ID: in.ID, Spans: 3}, nil
				}))
			v := mcpgo.Validate(s, nil)
			pipeline(b, s, v, row.params)
		})
	}
}

// pipeline serves s with ServeStdio over pipes, and sends b.N tools/call
// requests with params, at most 16 in flight, reading every answer
// (adaptertest.Pipeline, which reports cpu-ns/op too).
func pipeline(b *testing.B, s *server.MCPServer, v *mcpgo.Validator, params string) {
	adaptertest.Pipeline(b, func(ctx context.Context, in io.Reader, out io.Writer) error {
		return mcpgo.ServeStdio(ctx, s, &mcpgo.StdioOptions{Validator: v, In: in, Out: out})
	}, stdioInit, params)
}

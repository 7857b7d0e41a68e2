package mcpgo_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

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
// requests with params, at most 16 in flight, reading every answer.
func pipeline(b *testing.B, s *server.MCPServer, v *mcpgo.Validator, params string) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mcpgo.ServeStdio(ctx, s, &mcpgo.StdioOptions{Validator: v, In: inR, Out: outW}) }()
	defer func() {
		inW.Close()
		cancel()
		outR.Close()
		<-done
	}()
	r := bufio.NewReaderSize(outR, 1<<20)
	io.WriteString(inW, stdioInit+"\n"+stdioInitialized+"\n")
	if _, err := r.ReadBytes('\n'); err != nil {
		b.Fatal(err)
	}
	slots := make(chan struct{}, 16)
	b.ReportAllocs()
	b.ResetTimer()
	c0 := cpuTime()
	go func() {
		w := bufio.NewWriter(inW)
		for i := range b.N {
			if len(slots) == cap(slots) {
				w.Flush()
			}
			slots <- struct{}{}
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`+"\n", i+2, params)
		}
		w.Flush()
	}()
	for range b.N {
		if _, err := r.ReadBytes('\n'); err != nil {
			b.Fatal(err)
		}
		<-slots
	}
	b.ReportMetric(float64(cpuTime()-c0)/float64(b.N), "cpu-ns/op")
}

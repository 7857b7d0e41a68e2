package mcpserver

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/mcperr/mcperr/examples/internal/stdio"
)

// BenchmarkStdio is the local server as command news runs it, over the
// shared stdio transport, with tools/call requests pipelined 16 in flight:
// the in-process view of the news rows of examples/interop/load, for
// profiling (go test -run '^$' -bench Stdio -cpuprofile cpu.out ./news/mcpserver).
func BenchmarkStdio(b *testing.B) {
	s := mustNew(b, Config{})
	for _, c := range []struct{ name, params string }{
		{"get_article", `{"name":"get_article","arguments":{"id":"a-00042"}}`},
		{"unknown_parameter", `{"name":"get_article","arguments":{"id":"a-00001","limit":3}}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			srv := s.MCP()
			pipelineBench(b, func(ctx context.Context, in io.Reader, out io.Writer) error {
				return srv.Run(ctx, &stdio.Transport{In: in, Out: out})
			}, c.params)
		})
	}
}

// pipelineBench runs serve on a pair of pipes, initializes the session and
// sends b.N tools/call requests with params, at most 16 in flight, reading
// every answer.
func pipelineBench(b *testing.B, serve func(ctx context.Context, in io.Reader, out io.Writer) error, params string) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, inR, outW) }()
	defer func() {
		inW.Close()
		cancel()
		outR.Close()
		<-done
	}()
	r := bufio.NewReaderSize(outR, 1<<20)
	io.WriteString(inW, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}`+"\n"+
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	if _, err := r.ReadBytes('\n'); err != nil {
		b.Fatal(err)
	}
	slots := make(chan struct{}, 16)
	b.ReportAllocs()
	b.ResetTimer()
	go func() {
		w := bufio.NewWriter(inW)
		for i := range b.N {
			if len(slots) == cap(slots) {
				w.Flush()
			}
			slots <- struct{}{}
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`+"\n", i+1, params)
		}
		w.Flush()
	}()
	for range b.N {
		if _, err := r.ReadBytes('\n'); err != nil {
			b.Fatal(err)
		}
		<-slots
	}
}

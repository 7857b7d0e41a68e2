package mcpserver

import (
	"context"
	"io"
	"testing"

	"github.com/mcperr/mcperr/examples/internal/rpctest"
	"github.com/mcperr/mcperr/gosdk"
)

// BenchmarkStdio is the local server as command news runs it, over the
// gosdk.StdioTransport, with tools/call requests pipelined 16 in flight:
// the in-process view of the news rows of examples/interop/load, for
// profiling (go test -run '^$' -bench Stdio -cpuprofile cpu.out ./news/mcpserver).
func BenchmarkStdio(b *testing.B) {
	s := mustNew(b, Config{})
	for _, c := range []struct{ name, params string }{
		{"get_article", `{"name":"get_article","arguments":{"id":"a-00042"}}`},
		{"unknown_parameter", `{"name":"get_article","arguments":{"id":"a-00001","limit":3}}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			rpctest.Pipeline(b, func(ctx context.Context, in io.Reader, out io.Writer) error {
				return s.RunStdio(ctx, &gosdk.StdioTransport{In: in, Out: out})
			}, c.params)
		})
	}
}

package mcpserver

import (
	"context"
	"io"
	"net/http/httptest"
	"testing"

	"github.com/mcperr/mcperr/examples/internal/rpctest"
	"github.com/mcperr/mcperr/examples/vexlo/demoapi"
	"github.com/mcperr/mcperr/gosdk"
)

// BenchmarkStdio is the server as command vexlo runs it, over the shared
// stdio transport, with tools/call requests pipelined 16 in flight: the
// in-process view of the rows of examples/interop/load, for profiling
// (go test -run '^$' -bench Stdio -cpuprofile cpu.out ./vexlo/mcpserver).
func BenchmarkStdio(b *testing.B) {
	api := demoapi.New(nil)
	api.NoAuth = true
	up := httptest.NewServer(api)
	defer up.Close()
	for _, c := range []struct{ name, params string }{
		{"schema_rejection", `{"name":"vexlo_search_traces","arguments":{"limit":101}}`},
		{"unknown_tool", `{"name":"vexlo_no_such_tool","arguments":{}}`},
		{"success", `{"name":"vexlo_get_trace","arguments":{"traceId":"` + demoapi.SampleTraceID + `"}}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			s, err := New(Config{BaseURL: up.URL})
			if err != nil {
				b.Fatal(err)
			}
			rpctest.Pipeline(b, func(ctx context.Context, in io.Reader, out io.Writer) error {
				return s.Run(ctx, &gosdk.StdioTransport{In: in, Out: out})
			}, c.params)
		})
	}
}

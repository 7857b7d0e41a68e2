package gosdk_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/gosdk"
	"github.com/mcperr/mcperr/schemaerr"
)

// perRequestServer is the 20-tool server of BenchmarkPerRequest, built anew:
// with opts, gosdk.Validate(opts) is its receiving middleware; sdkCache is
// the SDK's own SchemaCache, shared by every server as github-mcp-server
// shares it.
func perRequestServer(opts *gosdk.Options, sdkCache *mcp.SchemaCache) *mcp.Server {
	ok := func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "[]"}}}, nil
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "per-request", Version: "1"}, &mcp.ServerOptions{SchemaCache: sdkCache})
	for i := range 20 {
		s.AddTool(&mcp.Tool{Name: fmt.Sprintf("tool_%d", i), InputSchema: perRequestSchema(i)}, ok)
	}
	if opts != nil {
		s.AddReceivingMiddleware(gosdk.Validate(opts))
	}
	return s
}

// BenchmarkPerRequestHTTP is a server built per HTTP request as users build
// one (github-mcp-server's way: the SDK's Streamable HTTP handler, stateless,
// whose getServer builds a new 20-tool server for every request, and one
// SchemaCache of the SDK's shared by all), over loopback HTTP: "bare" is
// that server, "validate" the same with gosdk.Validate and one
// schemaerr.Cache shared by every server's Options, as Options.Cache says.
// They alternate in blocks of 20 requests; it reports the CPU time of the
// process (client and server) per request of each, and validate's ratio
// against bare. The goal (issue 33): at most 1.10. In BENCHMARKS.md:
//
//	go test -run '^$' -bench PerRequestHTTP -benchtime 3000x -count 5 ./gosdk
func BenchmarkPerRequestHTTP(b *testing.B) {
	sdkCache := mcp.NewSchemaCache()
	cache := &schemaerr.Cache{}
	so := &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}
	sides := []struct {
		name string
		h    http.Handler
	}{
		{"bare", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return perRequestServer(nil, sdkCache) }, so)},
		{"validate", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server {
			return perRequestServer(&gosdk.Options{Validation: gosdk.Validation{Cache: cache}}, sdkCache)
		}, so)},
	}
	const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"tool_7","arguments":{"owner":"mcperr","repo":"mcperr","state":"open","perPage":30}}}`
	calls := make([]func() error, len(sides))
	for i, s := range sides {
		srv := httptest.NewServer(s.h)
		b.Cleanup(srv.Close)
		c := srv.Client()
		calls[i] = func() error {
			req, _ := http.NewRequest("POST", srv.URL, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("MCP-Protocol-Version", "2025-06-18")
			resp, err := c.Do(req)
			if err != nil {
				return err
			}
			defer resp.Body.Close()
			got, err := io.ReadAll(resp.Body)
			if err == nil && (resp.StatusCode != 200 || !bytes.Contains(got, []byte(`"text":"[]"`))) {
				err = fmt.Errorf("%s: %d %s", s.name, resp.StatusCode, got)
			}
			return err
		}
	}
	interleave(b, []string{"bare", "validate"}, calls)
}

// interleave runs calls alternately in blocks of 20, so that each sees the
// same machine load, and reports each one's CPU time (the process's: client
// and server) and allocations per call, named by names, and the ratio of
// the last one's CPU to the first's.
func interleave(b *testing.B, names []string, calls []func() error) {
	for range 50 { // warm: the caches filled, connections open
		for _, call := range calls {
			if err := call(); err != nil {
				b.Fatal(err)
			}
		}
	}
	const block = 20
	var (
		cpu    = make([]time.Duration, len(calls))
		allocs = make([]uint64, len(calls))
		n      int
		ms     runtime.MemStats
	)
	b.ResetTimer()
	for i := 0; i < b.N; i += block {
		for side, call := range calls {
			runtime.ReadMemStats(&ms)
			m0 := ms.Mallocs
			c0 := cpuTime()
			for range block {
				if err := call(); err != nil {
					b.Fatal(err)
				}
			}
			cpu[side] += cpuTime() - c0
			runtime.ReadMemStats(&ms)
			allocs[side] += ms.Mallocs - m0
		}
		n += block
	}
	b.StopTimer()
	for side, name := range names {
		b.ReportMetric(float64(cpu[side].Nanoseconds())/float64(n), "cpu-ns/"+name)
		b.ReportMetric(float64(allocs[side])/float64(n), "allocs/"+name)
	}
	b.ReportMetric(float64(cpu[len(cpu)-1])/float64(cpu[0]), "ratio")
}

package mcpgo_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcperr/mcperr/adapter/adaptertest"
	"github.com/mcperr/mcperr/mcpgo"
)

// ValuesIn and ValuesOut are the benchmark tool's typed arguments and result.
type ValuesIn struct {
	Path  []string `json:"path"`
	Limit int      `json:"limit,omitempty"`
}

type ValuesOut struct {
	Values []string `json:"values"`
	Total  int      `json:"total"`
}

func values(ctx context.Context, _ mcp.CallToolRequest, in ValuesIn) (ValuesOut, error) {
	return ValuesOut{Values: in.Path, Total: len(in.Path)}, nil
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// roundTrip is one way of making the benchmark's tools/call.
type roundTrip struct {
	name string
	call func() error
}

// measure runs the round trips interleaved in blocks of 100 calls, so all see
// the same machine load, and reports each one's CPU time (the process's: the
// client's and the server's work) and allocations per call, and each one's
// CPU ratio against the first (1.05 means 5% more).
func measure(b *testing.B, trips []roundTrip) {
	for range 200 { // warm: schemas compiled, buffers grown
		for _, t := range trips {
			if err := t.call(); err != nil {
				b.Fatal(t.name, err)
			}
		}
	}
	const block = 100
	cpu := make([]time.Duration, len(trips))
	allocs := make([]uint64, len(trips))
	calls := 0
	var ms runtime.MemStats
	b.ResetTimer()
	for n := 0; n < b.N; n += block {
		for i, t := range trips {
			runtime.ReadMemStats(&ms)
			m0 := ms.Mallocs
			c0 := cpuTime()
			for range block {
				if err := t.call(); err != nil {
					b.Fatal(t.name, err)
				}
			}
			cpu[i] += cpuTime() - c0
			runtime.ReadMemStats(&ms)
			allocs[i] += ms.Mallocs - m0
		}
		calls += block
	}
	b.StopTimer()
	for i, t := range trips {
		b.ReportMetric(float64(cpu[i].Nanoseconds())/float64(calls), "cpu-ns/"+t.name)
		b.ReportMetric(float64(allocs[i])/float64(calls), "allocs/"+t.name)
		if i > 0 {
			b.ReportMetric(float64(cpu[i])/float64(cpu[0]), "ratio/"+t.name)
		}
	}
}

// benchTool is the same tool and schema on every server of the benchmarks.
func benchTool() mcp.Tool {
	return mcp.NewToolWithRawSchema("get_values", "", json.RawMessage(adaptertest.ValuesSchema))
}

var benchArgs = json.RawMessage(`{"path":["a","b","c"],"limit":10}`)

// BenchmarkToolCall measures a tools/call round trip through mcp-go's
// in-process client (client, transport and server in this process), on the
// same tool: "plain" is the server without mcperr that validates arguments
// with mcp-go's own WithInputSchemaValidation and mcp-go's typed handler
// (NewStructuredToolHandler); "unchecked" is that server without any
// validation; "adapter" is Handle and Validate. Ratios are against plain.
func BenchmarkToolCall(b *testing.B) {
	ctx := context.Background()
	client := func(s *server.MCPServer) func() error {
		c, err := mcpclient.NewInProcessClient(s)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { c.Close() })
		if err := c.Start(ctx); err != nil {
			b.Fatal(err)
		}
		init := mcp.InitializeRequest{}
		init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
		if _, err := c.Initialize(ctx, init); err != nil {
			b.Fatal(err)
		}
		req := mcp.CallToolRequest{}
		req.Params.Name = "get_values"
		req.Params.Arguments = benchArgs
		return func() error {
			res, err := c.CallTool(ctx, req)
			if err == nil && res.IsError {
				err = fmt.Errorf("isError: %+v", res.Content)
			}
			return err
		}
	}
	plain := server.NewMCPServer("bench", "1", server.WithInputSchemaValidation())
	plain.AddTool(benchTool(), mcp.NewStructuredToolHandler(values))
	unchecked := server.NewMCPServer("bench", "1")
	unchecked.AddTool(benchTool(), mcp.NewStructuredToolHandler(values))
	adapted := server.NewMCPServer("bench", "1")
	adapted.AddTool(benchTool(), mcpgo.Handle(values))
	mcpgo.Validate(adapted, nil)
	measure(b, []roundTrip{{"plain", client(plain)}, {"unchecked", client(unchecked)}, {"adapter", client(adapted)}})
}

// BenchmarkHTTPToolCall measures a tools/call round trip over loopback HTTP
// (stateless, JSON responses): "plain" is mcp-go's own Streamable HTTP server
// on a server validating with WithInputSchemaValidation; "adapter" is
// HTTPHandler, whose Validator reads every tools/call before mcp-go does, on
// the adapted server. Ratios are against plain.
func BenchmarkHTTPToolCall(b *testing.B) {
	plain := server.NewMCPServer("bench", "1", server.WithInputSchemaValidation())
	plain.AddTool(benchTool(), mcp.NewStructuredToolHandler(values))
	adapted := server.NewMCPServer("bench", "1")
	adapted.AddTool(benchTool(), mcpgo.Handle(values))
	v := mcpgo.Validate(adapted, nil)
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_values","arguments":` + string(benchArgs) + `}}`
	measure(b, []roundTrip{
		post(b, "plain", server.NewStreamableHTTPServer(plain, server.WithStateLess(true)), body, `"total":3`),
		post(b, "adapter", mcpgo.HTTPHandler(adapted, &mcpgo.HTTPOptions{Validator: v}), body, `"total":3`),
	})
}

// post is the round trip that POSTs body to /mcp of h, served over
// loopback HTTP, and wants HTTP 200 and want in the answer.
func post(b *testing.B, name string, h http.Handler, body, want string) roundTrip {
	srv := httptest.NewServer(h)
	b.Cleanup(srv.Close)
	c := srv.Client()
	return roundTrip{name, func() error {
		req, _ := http.NewRequest("POST", srv.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := c.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		got, err := io.ReadAll(resp.Body)
		if err == nil && (resp.StatusCode != 200 || !bytes.Contains(got, []byte(want))) {
			err = fmt.Errorf("%s: %d %s", name, resp.StatusCode, got)
		}
		return err
	}}
}

// BenchmarkSessionMemory reports the heap one session of a stateful
// HTTPHandler holds (B/session: the SDK's session and the adapter's table
// entry), from 2,000 sessions opened and left open; package session's doc
// gives the figure.
func BenchmarkSessionMemory(b *testing.B) {
	for range b.N {
		s := server.NewMCPServer("bench", "1")
		s.AddTool(benchTool(), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("ok"), nil
		})
		h := mcpgo.HTTPHandler(s, &mcpgo.HTTPOptions{Stateful: true})
		per, err := adaptertest.SessionBytes(h, 2000)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(per, "B/session")
	}
}

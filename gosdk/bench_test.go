package gosdk_test

import (
	"context"
	"encoding/json"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/adapter/adaptertest"
	"github.com/mcperr/mcperr/gosdk"
)

// ValuesIn and ValuesOut are the benchmark tool's typed arguments and result.
type ValuesIn struct {
	Path  []string `json:"path" jsonschema:"the values' paths"`
	Limit int      `json:"limit,omitempty" jsonschema:"at most this many"`
}

type ValuesOut struct {
	Values []string `json:"values"`
	Total  int      `json:"total"`
}

func values(ctx context.Context, _ *mcp.CallToolRequest, in ValuesIn) (ValuesOut, error) {
	return ValuesOut{Values: in.Path, Total: len(in.Path)}, nil
}

// benchServers returns the same typed tool served without mcperr (the SDK's
// own handler and validation) and with the adapter (Handle and Validate).
func benchServers() (plain, adapted *mcp.Server) {
	plain = mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	mcp.AddTool(plain, &mcp.Tool{Name: "get_values"}, func(ctx context.Context, req *mcp.CallToolRequest, in ValuesIn) (*mcp.CallToolResult, ValuesOut, error) {
		out, err := values(ctx, req, in)
		return nil, out, err
	})
	adapted = mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	mcp.AddTool(adapted, &mcp.Tool{Name: "get_values"}, gosdk.Handle(values))
	adapted.AddReceivingMiddleware(gosdk.Validate(nil))
	return plain, adapted
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkToolCall measures a tools/call round trip over the SDK's
// in-memory transport (client and server in this process), on the same typed
// tool without mcperr and with the adapter, interleaved in blocks of 50 calls
// so both sides see the same machine load. It reports each side's wall time,
// CPU time (both goroutines' work: the client's and the server's) and
// allocations per call, and the adapter's CPU and wall ratios against the
// plain server (1.05 means 5% more).
func BenchmarkToolCall(b *testing.B) {
	plainSrv, adaptedSrv := benchServers()
	sessions := [2]*mcp.ClientSession{}
	for i, s := range []*mcp.Server{plainSrv, adaptedSrv} {
		cs, done := connect(s)
		b.Cleanup(done)
		sessions[i] = cs
	}
	ctx := context.Background()
	params := &mcp.CallToolParams{Name: "get_values", Arguments: json.RawMessage(`{"path":["a","b","c"],"limit":10}`)}
	call := func(side int) {
		res, err := sessions[side].CallTool(ctx, params)
		if err != nil || res.IsError {
			b.Fatalf("side %d: %v %+v", side, err, res)
		}
	}
	for range 200 { // warm both: schemas compiled, buffers grown
		call(0)
		call(1)
	}
	const block = 50
	var (
		wall, cpu [2]time.Duration
		allocs    [2]uint64
		calls     int
		ms        runtime.MemStats
	)
	b.ResetTimer()
	for i := 0; i < b.N; i += block {
		for side := range 2 {
			runtime.ReadMemStats(&ms)
			m0 := ms.Mallocs
			c0, t0 := cpuTime(), time.Now()
			for range block {
				call(side)
			}
			wall[side] += time.Since(t0)
			cpu[side] += cpuTime() - c0
			runtime.ReadMemStats(&ms)
			allocs[side] += ms.Mallocs - m0
		}
		calls += block
	}
	b.StopTimer()
	n := float64(calls)
	b.ReportMetric(float64(wall[0].Nanoseconds())/n, "wall-ns/plain")
	b.ReportMetric(float64(wall[1].Nanoseconds())/n, "wall-ns/adapter")
	b.ReportMetric(float64(cpu[0].Nanoseconds())/n, "cpu-ns/plain")
	b.ReportMetric(float64(cpu[1].Nanoseconds())/n, "cpu-ns/adapter")
	b.ReportMetric(float64(allocs[0])/n, "allocs/plain")
	b.ReportMetric(float64(allocs[1])/n, "allocs/adapter")
	b.ReportMetric(float64(cpu[1])/float64(cpu[0]), "cpu-ratio")
	b.ReportMetric(float64(wall[1])/float64(wall[0]), "wall-ratio")
}

// BenchmarkValidate is the middleware's own cost on a valid call, without
// transport or SDK: the lookup of the tool and schemaerr's validation. Compare
// it with BenchmarkToolCall's cpu-ns/plain, the round trip it is added to.
func BenchmarkValidate(b *testing.B) {
	tool := &mcp.Tool{Name: "get_values", InputSchema: json.RawMessage(adaptertest.ValuesSchema)}
	res := &mcp.CallToolResult{}
	next := func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "tools/list" {
			return &mcp.ListToolsResult{Tools: []*mcp.Tool{tool}}, nil
		}
		return res, nil
	}
	h := gosdk.Validate(nil)(next)
	req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "get_values", Arguments: json.RawMessage(`{"path":["a","b","c"],"limit":10}`)}}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if r, err := h(ctx, "tools/call", req); err != nil || r != res {
			b.Fatal(r, err)
		}
	}
}

// BenchmarkSessionMemory reports the heap one session of a stateful
// HTTPHandler holds (B/session: the SDK's session and the adapter's table
// entry), from 2,000 sessions opened and left open; package session's doc
// gives the figure.
func BenchmarkSessionMemory(b *testing.B) {
	for range b.N {
		_, s := benchServers()
		h := gosdk.HTTPHandler(s, &gosdk.HTTPOptions{Streamable: &mcp.StreamableHTTPOptions{JSONResponse: true}})
		per, err := adaptertest.SessionBytes(h, 2000)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(per, "B/session")
	}
}

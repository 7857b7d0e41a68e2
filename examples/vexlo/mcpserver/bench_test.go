package mcpserver

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/examples/vexlo/demoapi"
)

// bareServer is the anchor: the same two tools on a bare go-sdk server that
// does the upstream call without mcperr, as a server written without it
// would: the SDK's typed AddTool validates the arguments (with its own
// jsonschema-go), the handler GETs the route and returns the body as text
// (and as structuredContent, so a success is the same answer on the wire),
// an error when the status is 400 or more.
func bareServer(base string) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: Name, Version: Version}, nil)
	client := &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	get := func(ctx context.Context, path string) (*mcp.CallToolResult, error) {
		req, err := http.NewRequestWithContext(ctx, "GET", base+path, nil)
		if err != nil {
			return nil, err
		}
		resp, err := client.Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			return nil, err
		}
		res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}, IsError: resp.StatusCode >= 400}
		if !res.IsError {
			res.StructuredContent = json.RawMessage(b) // the same answer on the wire as the Vexlo server's
		}
		return res, nil
	}
	type traceIn struct {
		TraceID string `json:"traceId"`
	}
	type valuesIn struct {
		TraceID string   `json:"traceId"`
		Path    []string `json:"path"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "vexlo_get_trace", InputSchema: json.RawMessage(tools[1].schema)},
		func(ctx context.Context, _ *mcp.CallToolRequest, in traceIn) (*mcp.CallToolResult, any, error) {
			res, err := get(ctx, "/v1/traces/"+seg(in.TraceID))
			return res, nil, err
		})
	mcp.AddTool(s, &mcp.Tool{Name: "vexlo_get_values", InputSchema: json.RawMessage(tools[4].schema)},
		func(ctx context.Context, _ *mcp.CallToolRequest, in valuesIn) (*mcp.CallToolResult, any, error) {
			path := "/v1/traces/" + seg(in.TraceID) + "/values?"
			for _, p := range in.Path {
				path += "path=" + p + "&"
			}
			res, err := get(ctx, path)
			return res, nil, err
		})
	return s
}

// BenchmarkCall is a tools/call round trip through an in-process go-sdk
// client: the Vexlo server (mcperr) beside the bare anchor, for a success, a
// not_found and a schema rejection. The upstream is the demo API in no-auth
// mode (no read limit) on a loopback port.
func BenchmarkCall(b *testing.B) {
	api := demoapi.New(nil)
	api.NoAuth = true
	up := httptest.NewServer(api)
	defer up.Close()
	s, err := New(Config{BaseURL: up.URL})
	if err != nil {
		b.Fatal(err)
	}
	servers := []struct {
		name string
		srv  *mcp.Server
	}{{"mcperr", s.MCP()}, {"bare", bareServer(up.URL)}}
	calls := []struct {
		name, tool, args string
		isError          bool
	}{
		{"success", "vexlo_get_trace", `{"traceId":"` + demoapi.SampleTraceID + `"}`, false},
		{"not_found", "vexlo_get_trace", `{"traceId":"deadbeefdeadbeefdeadbeefdeadbeef"}`, true},
		{"schema_rejection", "vexlo_get_values", `{"traceId":"` + demoapi.SampleTraceID + `","path":["","AA","AB","AC","AD","AE","AF","AG","AH"]}`, true},
	}
	ctx := context.Background()
	for _, c := range calls {
		for _, sv := range servers {
			b.Run(c.name+"/"+sv.name, func(b *testing.B) {
				cs := connect2(b, sv.srv)
				p := &mcp.CallToolParams{Name: c.tool, Arguments: json.RawMessage(c.args)}
				b.ReportAllocs()
				cpu0 := cpuTime()
				for b.Loop() {
					res, err := cs.CallTool(ctx, p)
					if err != nil || res.IsError != c.isError {
						b.Fatalf("%v %+v", err, res)
					}
				}
				// CPU time of the whole process (client, server and
				// upstream) per call: steadier than wall time on a
				// machine shared with other work.
				b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

// connect2 connects a client to srv over an in-memory transport.
func connect2(b *testing.B, srv *mcp.Server) *mcp.ClientSession {
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st, nil)
	if err != nil {
		b.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, nil).
		Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

package telemetry_test

import (
	"bufio"
	"context"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	mcpgoclient "github.com/mark3labs/mcp-go/client"
	mcpgomcp "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/mcperr/mcperr/gosdk"
	"github.com/mcperr/mcperr/mcpgo"
	"github.com/mcperr/mcperr/telemetry"
)

// Trace contexts a client puts in _meta: its parent sampled, and not.
const (
	sampledParent   = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	unsampledParent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00"
)

// callTool makes one tools/call, with meta as its _meta, on a server of
// sdk ("gosdk" or "mcpgo") built by goSDKServer or mcpgoServer with r's
// options.
func callTool(t *testing.T, r *rig, sdk, tool string, args, meta map[string]any) {
	t.Helper()
	var parents []string
	api := fakeAPI(t, &parents).URL
	ctx := context.Background()
	switch sdk {
	case "gosdk":
		cs := connect(t, goSDKServer(r, api))
		p := &mcp.CallToolParams{Name: tool, Arguments: args}
		if meta != nil {
			p.SetMeta(meta)
		}
		cs.CallTool(ctx, p)
	case "mcpgo":
		c, err := mcpgoclient.NewInProcessClient(mcpgoServer(r, api))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if err := c.Start(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Initialize(ctx, mcpgomcp.InitializeRequest{Params: mcpgomcp.InitializeParams{ProtocolVersion: "2025-11-25"}}); err != nil {
			t.Fatal(err)
		}
		req := mcpgomcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = tool, args
		if meta != nil {
			req.Params.Meta = &mcpgomcp.Meta{AdditionalFields: meta}
		}
		c.CallTool(ctx, req)
	}
}

// toolPoints is the number of points of mcp.server.operation.duration
// recorded for tools/call.
func (r *rig) toolPoints(t *testing.T) uint64 {
	t.Helper()
	return r.histogramCount(t, "mcp.server.operation.duration", func(a attribute.Set) bool {
		v, _ := a.Value("mcp.method.name")
		return v.AsString() == "tools/call"
	})
}

// toolSpans is the number of tools/call spans ended.
func (r *rig) toolSpans() int {
	n := 0
	for _, s := range r.ended() {
		if strings.HasPrefix(s.Name, "tools/call ") {
			n++
		}
	}
	return n
}

// TestRefusalSpans: on both adapters, a tools/call refused before any
// handler runs, of an expected kind (its arguments, a tool the server does
// not have), records a point of mcp.server.operation.duration and one of
// the failure counter, and a span only when its _meta carries a sampled
// parent or Options.RefusalSpans is set.
func TestRefusalSpans(t *testing.T) {
	type want struct {
		Spans    int
		Points   uint64
		Failures map[string]int64
	}
	refusals := []struct {
		name, tool string
		args       map[string]any
		failure    string
	}{
		{"arguments", "get_trace", map[string]any{"id": 7}, "get_trace invalid_arguments expected=true"},
		{"unknown tool", "get_trac", map[string]any{"id": "abc"}, "get_trac invalid_arguments expected=true"},
	}
	cases := []struct {
		name    string
		meta    map[string]any
		all     bool // Options.RefusalSpans
		spanned bool
	}{
		{"no parent", nil, false, false},
		{"parent not sampled", map[string]any{"traceparent": unsampledParent}, false, false},
		{"parent sampled", map[string]any{"traceparent": sampledParent}, false, true},
		{"RefusalSpans", nil, true, true},
	}
	for _, sdk := range []string{"gosdk", "mcpgo"} {
		for _, rf := range refusals {
			for _, c := range cases {
				t.Run(sdk+"/"+rf.name+"/"+c.name, func(t *testing.T) {
					r := newRig()
					r.opts.RefusalSpans = c.all
					callTool(t, r, sdk, rf.tool, rf.args, c.meta)
					w := want{Points: 1, Failures: map[string]int64{rf.failure: 1}}
					if c.spanned {
						w.Spans = 1
					}
					got := want{Spans: r.toolSpans(), Points: r.toolPoints(t), Failures: r.failures(t)}
					if diff := cmp.Diff(w, got); diff != "" {
						t.Errorf("(-want +got):\n%s", diff)
					}
				})
			}
		}
	}
}

// TestHandlerSpanIsParent: a call that reaches its handler has its span,
// started when the handler is entered, and the upstream call the handler
// makes is its child, on both adapters.
func TestHandlerSpanIsParent(t *testing.T) {
	for _, sdk := range []string{"gosdk", "mcpgo"} {
		t.Run(sdk, func(t *testing.T) {
			r := newRig()
			callTool(t, r, sdk, "get_trace", map[string]any{"id": "abc"}, nil)
			var server, upstream []string
			for _, s := range r.spans.Ended() {
				if s.Name() == "tools/call get_trace" {
					server = append(server, s.SpanContext().SpanID().String())
				} else if s.Name() == "GET" {
					upstream = append(upstream, s.Parent().SpanID().String())
				}
			}
			if diff := cmp.Diff(server, upstream); diff != "" || len(server) != 1 {
				t.Errorf("the upstream span's parent is not the one server span (-server +upstream's parent):\n%s", diff)
			}
		})
	}
}

// TestServeStdioRefusalPoints: the refusals mcpgo.ServeStdio's Validator
// answers before mcp-go reads the message record, through Failures, the
// points a go-sdk server records for them: a duration point and a failure
// counter point, with the same attributes but mcp.protocol.version (the
// go-sdk's session says it; mcp-go's stdio points have none); no span.
func TestServeStdioRefusalPoints(t *testing.T) {
	const session = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"0"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_trace","arguments":{"id":7}}}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_trac","arguments":{"id":"abc"}}}
`
	points := func(r *rig) map[string][]string {
		var rm metricdata.ResourceMetrics
		if err := r.reader.Collect(context.Background(), &rm); err != nil {
			t.Fatal(err)
		}
		out := map[string][]string{}
		for _, sm := range rm.ScopeMetrics {
			for _, m := range sm.Metrics {
				var sets []attribute.Set
				switch d := m.Data.(type) {
				case metricdata.Histogram[float64]:
					for _, p := range d.DataPoints {
						sets = append(sets, p.Attributes)
					}
				case metricdata.Sum[int64]:
					for _, p := range d.DataPoints {
						sets = append(sets, p.Attributes)
					}
				}
				for _, s := range sets {
					if v, _ := s.Value("mcp.method.name"); v.AsString() != "tools/call" {
						continue
					}
					f, _ := attribute.NewSetWithFiltered(s.ToSlice(), func(kv attribute.KeyValue) bool { return kv.Key != "mcp.protocol.version" })
					out[m.Name] = append(out[m.Name], f.Encoded(attribute.DefaultEncoder()))
				}
			}
		}
		for _, v := range out {
			slices.Sort(v)
		}
		return out
	}
	serve := func(r *rig, run func(in io.Reader, out io.Writer)) {
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		done := make(chan struct{})
		go func() { run(inR, outW); outW.Close(); close(done) }()
		first, rest, _ := strings.Cut(session, "\n")
		io.WriteString(inW, first+"\n")
		out := bufio.NewReader(outR)
		out.ReadString('\n') // initialize's answer: the session is initialized
		io.WriteString(inW, rest)
		inW.Close()
		io.Copy(io.Discard, out)
		<-done
	}
	gos, mgo := newRig(), newRig()
	serve(gos, func(in io.Reader, out io.Writer) {
		s := goSDKServer(gos, "http://127.0.0.1:1")
		s.Run(context.Background(), &gosdk.StdioTransport{Server: s, In: in, Out: out})
	})
	serve(mgo, func(in io.Reader, out io.Writer) {
		// mcpgoServer's, with the Validator's refusals heard by Failures.
		s := server.NewMCPServer("traces", "1.0.0", telemetry.MCPGo(mgo.opts))
		s.AddTool(mcpgomcp.NewTool("get_trace", mcpgomcp.WithInputSchema[traceIn]()), mcpgo.Handle(func(ctx context.Context, _ mcpgomcp.CallToolRequest, in traceIn) (trace1, error) {
			return trace1(in), nil
		}))
		count := telemetry.Failures(mgo.opts)
		v := mcpgo.Validate(s, &mcpgo.Options{Validation: mcpgo.Validation{OnFailure: count}})
		mcpgo.ServeStdio(context.Background(), s, &mcpgo.StdioOptions{Validator: v, In: in, Out: out})
	})
	want := points(gos)
	if len(want["mcp.server.operation.duration"]) != 2 || len(want["mcperr.server.failures"]) != 2 {
		t.Fatalf("the go-sdk server recorded %v, want two refusals", want)
	}
	if diff := cmp.Diff(want, points(mgo)); diff != "" {
		t.Errorf("tools/call points (-gosdk +mcpgo.ServeStdio):\n%s", diff)
	}
	if n := mgo.toolSpans(); n != 0 {
		t.Errorf("%d tools/call spans, want none", n)
	}
}

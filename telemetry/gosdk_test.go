package telemetry_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/gosdk"
	"github.com/mcperr/mcperr/retry"
	"github.com/mcperr/mcperr/telemetry"
)

// rig is an instrumented server's recorders: every span ended, and the
// metrics read on demand.
type rig struct {
	spans  *tracetest.SpanRecorder
	reader *sdkmetric.ManualReader
	opts   *telemetry.Options
	tp     *sdktrace.TracerProvider
}

func newRig() *rig {
	r := &rig{spans: tracetest.NewSpanRecorder(), reader: sdkmetric.NewManualReader()}
	r.tp = sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(r.spans))
	r.opts = &telemetry.Options{
		TracerProvider: r.tp,
		MeterProvider:  sdkmetric.NewMeterProvider(sdkmetric.WithReader(r.reader)),
		Propagator:     propagation.TraceContext{},
	}
	return r
}

// span is what a test checks of one ended span.
type span struct {
	Name  string
	Kind  trace.SpanKind
	Attrs map[string]string
}

func (r *rig) ended() []span {
	var out []span
	for _, s := range r.spans.Ended() {
		a := map[string]string{}
		for _, kv := range s.Attributes() {
			a[string(kv.Key)] = kv.Value.String()
		}
		out = append(out, span{Name: s.Name(), Kind: s.SpanKind(), Attrs: a})
	}
	return out
}

// sum is the failure counter's points, each as its attributes' kind,
// expected and tool.
func (r *rig) failures(t *testing.T) map[string]int64 {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := r.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != "mcperr.server.failures" {
				continue
			}
			for _, p := range m.Data.(metricdata.Sum[int64]).DataPoints {
				kind, _ := p.Attributes.Value("mcperr.kind")
				exp, _ := p.Attributes.Value("mcperr.expected")
				tool, _ := p.Attributes.Value(attribute.Key("gen_ai.tool.name"))
				out[tool.String()+" "+kind.String()+" expected="+exp.String()] += p.Value
			}
		}
	}
	return out
}

// histogramCount is the number of measurements of the histogram name, of
// the points whose attributes keep accepts (nil: every point).
func (r *rig) histogramCount(t *testing.T, name string, keep func(attribute.Set) bool) uint64 {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := r.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	var n uint64
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name == name {
				for _, p := range m.Data.(metricdata.Histogram[float64]).DataPoints {
					if keep == nil || keep(p.Attributes) {
						n += p.Count
					}
				}
			}
		}
	}
	return n
}

type traceIn struct {
	ID string `json:"id"`
}

type trace1 struct {
	ID string `json:"id"`
}

// goSDKServer is a go-sdk server as the README builds it, instrumented in
// one line, whose get_trace reads an upstream through telemetry.Transport
// under the retry.
func goSDKServer(r *rig, api string) *mcp.Server {
	upstream := &envelope.Reader{Client: &http.Client{Transport: &retry.Transport{
		Base: &telemetry.Transport{TracerProvider: r.tp, Propagator: propagation.TraceContext{}},
	}}}
	s := mcp.NewServer(&mcp.Implementation{Name: "traces", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "get_trace"}, gosdk.Handle(func(ctx context.Context, _ *mcp.CallToolRequest, in traceIn) (trace1, error) {
		var t trace1
		req, _ := http.NewRequestWithContext(ctx, "GET", api+"/v1/traces/"+in.ID, nil)
		return t, upstream.Do(req, &t)
	}))
	s.AddReceivingMiddleware(gosdk.Validate(nil))
	telemetry.GoSDK(s, r.opts)
	return s
}

// fakeAPI answers /v1/traces/abc with a trace, /v1/traces/zzz with a 404
// problem and anything else with a 500; it records the traceparent each
// request carried.
func fakeAPI(t *testing.T, parents *[]string) *httptest.Server {
	var mu sync.Mutex // a stdio transport serves calls at once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		mu.Lock()
		*parents = append(*parents, req.Header.Get("Traceparent"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch req.URL.Path {
		case "/v1/traces/abc":
			w.Write([]byte(`{"id":"abc"}`))
		case "/v1/traces/zzz":
			w.WriteHeader(404)
			w.Write([]byte(`{"code":"trace_not_found","message":"no trace zzz"}`))
		default:
			w.WriteHeader(500)
			w.Write([]byte(`{"message":"boom"}`))
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func connect(t *testing.T, s *mcp.Server) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// TestGoSDKSpans: every tools/call gets a server span named "tools/call
// <tool>" with the conventions' attributes; a failure carries error.type
// (tool_error for an isError result) and mcperr's kind, move, upstream
// status and code and whether it is expected; an argument refusal of
// gosdk.Validate, which no handler saw, is counted and has no span
// (TestRefusalSpans).
func TestGoSDKSpans(t *testing.T) {
	r := newRig()
	var parents []string
	api := fakeAPI(t, &parents)
	cs := connect(t, goSDKServer(r, api.URL))
	ctx := context.Background()
	protocol := cs.InitializeResult().ProtocolVersion
	for _, args := range []map[string]any{{"id": "abc"}, {"id": "zzz"}, {"id": "boom"}, {"id": 7}} {
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_trace", Arguments: args}); err != nil {
			t.Fatal(err)
		}
	}
	var calls []span
	for _, s := range r.ended() {
		if s.Name == "tools/call get_trace" {
			delete(s.Attrs, "mcp.session.id") // random
			calls = append(calls, s)
		}
	}
	base := map[string]string{
		"mcp.method.name": "tools/call", "gen_ai.tool.name": "get_trace", "gen_ai.operation.name": "execute_tool",
		"mcp.protocol.version": protocol, "network.transport": "pipe",
	}
	with := func(extra map[string]string) map[string]string {
		m := map[string]string{}
		for k, v := range base {
			m[k] = v
		}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	want := []span{
		{Name: "tools/call get_trace", Kind: trace.SpanKindServer, Attrs: with(nil)},
		{Name: "tools/call get_trace", Kind: trace.SpanKindServer, Attrs: with(map[string]string{
			"error.type": "tool_error", "mcperr.kind": "not_found", "mcperr.move": string(errkind.TryAnotherID),
			"mcperr.expected": "true", "mcperr.upstream.code": "trace_not_found"})}, // a not_found kind object carries no httpStatus
		{Name: "tools/call get_trace", Kind: trace.SpanKindServer, Attrs: with(map[string]string{
			"error.type": "tool_error", "mcperr.kind": "server_error", "mcperr.move": string(errkind.Report),
			"mcperr.expected": "false", "mcperr.upstream.status": "500"})},
	}
	if diff := cmp.Diff(want, calls); diff != "" {
		t.Errorf("tool call spans (-want +got):\n%s", diff)
	}
	wantFailures := map[string]int64{
		"get_trace not_found expected=true":         1,
		"get_trace server_error expected=false":     1,
		"get_trace invalid_arguments expected=true": 1,
	}
	if diff := cmp.Diff(wantFailures, r.failures(t)); diff != "" {
		t.Errorf("failure counter (-want +got):\n%s", diff)
	}
	if n := r.histogramCount(t, "mcp.server.operation.duration", nil); n < 4 {
		t.Errorf("mcp.server.operation.duration has %d points, want at least the 4 calls", n)
	}
	// Each upstream request is a client span under its call's span, and
	// carried the trace context.
	if len(parents) != 3 {
		t.Fatalf("upstream got %d requests, want 3", len(parents))
	}
	for _, p := range parents {
		if p == "" {
			t.Errorf("an upstream request carried no traceparent")
		}
	}
	var upstream int
	for _, s := range r.spans.Ended() {
		if s.SpanKind() == trace.SpanKindClient {
			upstream++
			if !s.Parent().IsValid() {
				t.Errorf("upstream span %q has no parent", s.Name())
			}
			for _, kv := range s.Attributes() {
				if kv.Key == "url.full" || kv.Key == "url.query" {
					t.Errorf("upstream span records %s, which can hold a key", kv.Key)
				}
			}
		}
	}
	if upstream != 3 {
		t.Errorf("%d upstream spans, want 3", upstream)
	}
}

// TestGoSDKParentFromMeta: a traceparent in the request's params._meta makes
// the server span its child (SEP-414).
func TestGoSDKParentFromMeta(t *testing.T) {
	r := newRig()
	var parents []string
	cs := connect(t, goSDKServer(r, fakeAPI(t, &parents).URL))
	const tp = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	p := &mcp.CallToolParams{Name: "get_trace", Arguments: map[string]any{"id": "abc"}}
	p.SetMeta(map[string]any{"traceparent": tp})
	if _, err := cs.CallTool(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	for _, s := range r.spans.Ended() {
		if s.Name() != "tools/call get_trace" {
			continue
		}
		if got := s.Parent().TraceID().String(); got != "4bf92f3577b34da6a3ce929d0e0e4736" {
			t.Errorf("server span's trace %s, want the one in _meta", got)
		}
		if !s.Parent().IsRemote() {
			t.Errorf("server span's parent is not the remote one")
		}
		// The upstream request continues the same trace.
		if len(parents) != 1 || parents[0][3:35] != "4bf92f3577b34da6a3ce929d0e0e4736" {
			t.Errorf("upstream traceparent %q, want the caller's trace", parents)
		}
		return
	}
	t.Fatal("no tools/call span")
}

// extracts counts the Extract calls of the propagator it wraps.
type extracts struct {
	propagation.TextMapPropagator
	mu sync.Mutex
	n  int
}

func (e *extracts) Extract(ctx context.Context, c propagation.TextMapCarrier) context.Context {
	e.mu.Lock()
	e.n++
	e.mu.Unlock()
	return e.TextMapPropagator.Extract(ctx, c)
}

// TestGoSDKMetaExtract: a request's params._meta reaches the propagator
// only when it holds a field the propagator reads (traceparent,
// tracestate): a _meta of other fields (a progress token) is not read for
// a trace context.
func TestGoSDKMetaExtract(t *testing.T) {
	for _, c := range []struct {
		name string
		meta map[string]any
		want int
	}{
		{"no _meta", nil, 0},
		{"progress token only", map[string]any{"progressToken": 1}, 0},
		{"traceparent", map[string]any{"progressToken": 1, "traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}, 1},
		{"tracestate alone", map[string]any{"tracestate": "k=v"}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newRig()
			prop := &extracts{TextMapPropagator: propagation.TraceContext{}}
			r.opts.Propagator = prop
			var parents []string
			cs := connect(t, goSDKServer(r, fakeAPI(t, &parents).URL))
			p := &mcp.CallToolParams{Name: "get_trace", Arguments: map[string]any{"id": "abc"}}
			if c.meta != nil {
				p.SetMeta(c.meta)
			}
			if _, err := cs.CallTool(context.Background(), p); err != nil {
				t.Fatal(err)
			}
			prop.mu.Lock()
			defer prop.mu.Unlock()
			if diff := cmp.Diff(c.want, prop.n); diff != "" {
				t.Errorf("Extract calls (-want +got):\n%s", diff)
			}
		})
	}
}

// TestGoSDKUnknownTool: a call to a tool the server does not have is a
// failure of its own span, read as invalid_arguments (expected).
func TestGoSDKUnknownTool(t *testing.T) {
	r := newRig()
	var parents []string
	cs := connect(t, goSDKServer(r, fakeAPI(t, &parents).URL))
	cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_trac", Arguments: map[string]any{}})
	got := r.failures(t)
	if got["get_trac invalid_arguments expected=true"] != 1 {
		t.Errorf("failures %v, want one expected invalid_arguments for get_trac", got)
	}
}

// TestGoSDKSessionDuration: a session's end records a point of
// mcp.server.session.duration.
func TestGoSDKSessionDuration(t *testing.T) {
	r := newRig()
	var parents []string
	s := goSDKServer(r, fakeAPI(t, &parents).URL)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs.Close()
	ss.Wait()
	// The point is recorded by the goroutine that waits for the session's
	// end, which may run after ours.
	for deadline := time.Now().Add(5 * time.Second); r.histogramCount(t, "mcp.server.session.duration", nil) == 0 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	if n := r.histogramCount(t, "mcp.server.session.duration", nil); n != 1 {
		t.Errorf("mcp.server.session.duration has %d points, want 1", n)
	}
}

// TestGoSDKRepeatedCalls: what is made once per tool and failure (a span's
// name and fixed attributes, a failure's attributes, a metric point's set)
// carries nothing of one request into the next: a failure and a success,
// four times over two sessions, give each span the attributes of its own
// answer, and the failure counter counts every failure.
func TestGoSDKRepeatedCalls(t *testing.T) {
	r := newRig()
	var parents []string
	s := goSDKServer(r, fakeAPI(t, &parents).URL)
	ctx := context.Background()
	sessions := []*mcp.ClientSession{connect(t, s), connect(t, s)}
	for range 2 {
		for _, cs := range sessions {
			for _, id := range []string{"zzz", "abc"} {
				if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_trace", Arguments: map[string]any{"id": id}}); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	var got []map[string]string
	for _, sp := range r.ended() {
		if sp.Name == "tools/call get_trace" {
			delete(sp.Attrs, "mcp.session.id") // the SDK's in-memory sessions have none
			got = append(got, sp.Attrs)
		}
	}
	ok := map[string]string{
		"mcp.method.name": "tools/call", "gen_ai.tool.name": "get_trace", "gen_ai.operation.name": "execute_tool",
		"mcp.protocol.version": sessions[0].InitializeResult().ProtocolVersion, "network.transport": "pipe",
	}
	notFound := map[string]string{
		"error.type": "tool_error", "mcperr.kind": "not_found", "mcperr.move": string(errkind.TryAnotherID),
		"mcperr.expected": "true", "mcperr.upstream.code": "trace_not_found",
	}
	for k, v := range ok {
		notFound[k] = v
	}
	want := []map[string]string{notFound, ok, notFound, ok, notFound, ok, notFound, ok}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tool call spans (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]int64{"get_trace not_found expected=true": 4}, r.failures(t)); diff != "" {
		t.Errorf("failure counter (-want +got):\n%s", diff)
	}
}

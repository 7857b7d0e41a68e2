package telemetry_test

import (
	"context"
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcperr/mcperr/gosdk"
	"github.com/mcperr/mcperr/telemetry"
)

// discard is a span exporter that counts and drops the spans the batch
// processor hands it.
type discard struct{ spans atomic.Int64 }

func (d *discard) ExportSpans(_ context.Context, s []sdktrace.ReadOnlySpan) error {
	d.spans.Add(int64(len(s)))
	return nil
}

func (*discard) Shutdown(context.Context) error { return nil }

// flushEvery is how many spans a benchmark's loop ends before it flushes
// the batch span processor: the batch the processor exports at its
// defaults. A loop that ends spans faster than the processor's goroutine
// exports them fills its queue (2048 spans), and the processor drops each
// span that finds it full: the figure would then count a drop, not a span.
const flushEvery = 512

// exported flushes tp and fails b unless d received spans spans: none was
// dropped, so each op counted a span exported.
func exported(b *testing.B, tp *sdktrace.TracerProvider, d *discard, spans int) {
	b.Helper()
	if err := tp.ForceFlush(context.Background()); err != nil {
		b.Fatal(err)
	}
	if got := d.spans.Load(); got != int64(spans) {
		b.Fatalf("%d spans exported of %d: the batch processor dropped some", got, spans)
	}
}

// BenchmarkToolCall is one tools/call of a go-sdk server as the README
// builds it (gosdk.Handle, gosdk.Validate), over the SDK's in-memory
// transport, without telemetry and with it on through the SDK's batch span
// processor and a metric reader: the cost the instrumentation adds to a
// call. In BENCHMARKS.md: go test -run '^$' -bench ToolCall -count 5 ./telemetry
func BenchmarkToolCall(b *testing.B) {
	for _, on := range []bool{false, true} {
		name := "off"
		if on {
			name = "on"
		}
		b.Run(name, func(b *testing.B) {
			s := mcp.NewServer(&mcp.Implementation{Name: "traces", Version: "1.0.0"}, nil)
			mcp.AddTool(s, &mcp.Tool{Name: "get_trace"}, gosdk.Handle(func(ctx context.Context, _ *mcp.CallToolRequest, in traceIn) (trace1, error) {
				return trace1(in), nil
			}))
			s.AddReceivingMiddleware(gosdk.Validate(nil))
			if on {
				tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(new(discard)))
				defer tp.Shutdown(context.Background())
				mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
				telemetry.GoSDK(s, &telemetry.Options{TracerProvider: tp, MeterProvider: mp})
			}
			ct, st := mcp.NewInMemoryTransports()
			ss, err := s.Connect(context.Background(), st, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer ss.Close()
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(context.Background(), ct, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer cs.Close()
			p := &mcp.CallToolParams{Name: "get_trace", Arguments: map[string]any{"id": "abc"}}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if _, err := cs.CallTool(context.Background(), p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSpan is what OpenTelemetry's SDK alone costs for one server
// span through its batch span processor, exporting to nothing: the floor
// under any instrumentation that records a span per call. start=N is a span
// started with N attributes and ended; start=7,end=6 adds six more before
// the end, as a failed tool call's span does (7 at its start on stdio:
// method, tool, operation, protocol, transport, id, session). Each op is a
// span exported: the loop flushes the processor every flushEvery spans and
// at the end, and the benchmark fails if one was dropped (without the
// flushes the loop filled the queue: of start=0's spans, 77 to 86% were
// dropped, not exported). cpu-ns/op is the process's CPU time per span, the
// processor's goroutine and its exports included.
//
//	go test -run '^$' -bench Span -cpu 1 -count 6 ./telemetry
func BenchmarkSpan(b *testing.B) {
	attrs := make([]attribute.KeyValue, 13)
	for i := range attrs {
		attrs[i] = attribute.String("attr."+strconv.Itoa(i), "value "+strconv.Itoa(i))
	}
	for _, c := range []struct {
		name       string
		start, end int
	}{
		{"start=0", 0, 0},
		{"start=7", 7, 0},
		{"start=13", 13, 0},
		{"start=7,end=6", 7, 6},
	} {
		b.Run(c.name, func(b *testing.B) {
			d := new(discard)
			tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(d))
			defer tp.Shutdown(context.Background())
			tr := tp.Tracer("bench")
			ctx := context.Background()
			kind := trace.WithSpanKind(trace.SpanKindServer)
			b.ReportAllocs()
			start := cpuTime()
			n := 0
			for b.Loop() {
				_, s := tr.Start(ctx, "tools/call get_trace", kind, trace.WithAttributes(attrs[:c.start]...))
				if c.end > 0 {
					s.SetAttributes(attrs[c.start : c.start+c.end]...)
				}
				s.End()
				if n++; n%flushEvery == 0 {
					tp.ForceFlush(ctx)
				}
			}
			exported(b, tp, d, n)
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
		})
	}
}

// BenchmarkPoint is what OpenTelemetry's SDK alone costs for one point of a
// histogram with the attribute set of a refusal's duration point (9
// attributes: method, tool, operation, protocol, transport, error.type,
// rpc status, kind, expected), made once and passed with
// metric.WithAttributeSet as the recorder passes it, through a periodic
// reader exporting to nothing: the floor under a refusal recorded without
// a span. cpu-ns/op is the process's CPU time per point.
//
//	go test -run '^$' -bench Point -cpu 1 -count 6 ./telemetry
func BenchmarkPoint(b *testing.B) {
	attrs := make([]attribute.KeyValue, 9)
	for i := range attrs {
		attrs[i] = attribute.String("attr."+strconv.Itoa(i), "value "+strconv.Itoa(i))
	}
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewPeriodicReader(discardMetrics{})))
	defer mp.Shutdown(context.Background())
	h, err := mp.Meter("bench").Float64Histogram("mcp.server.operation.duration")
	if err != nil {
		b.Fatal(err)
	}
	set := metric.WithAttributeSet(attribute.NewSet(attrs...))
	ctx := context.Background()
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		h.Record(ctx, 0.000006, set)
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

// canned is an upstream that answers every request with its status at
// once, without a network: what an upstream costs is not measured.
type canned int

func (c canned) RoundTrip(req *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: int(c), Header: http.Header{}, Body: http.NoBody, Request: req}, nil
}

// BenchmarkTransport is one upstream request through Transport, as a tool
// handler's GET makes it (inside the tool call's span, with the W3C trace
// context and baggage propagators otlpenv installs), through the SDK's
// batch span processor exporting to nothing, against the same request
// sent to the upstream directly (telemetry=off): the cost of an upstream
// span. The upstream answers at once, 200 or 404. Each op of telemetry=on
// is a span exported: the loop flushes every flushEvery requests and at the
// end, and the benchmark fails if one was dropped (without the flushes, a
// third were).
//
//	go test -run '^$' -bench Transport -cpu 1 -count 6 ./telemetry
func BenchmarkTransport(b *testing.B) {
	for _, status := range []int{200, 404} {
		for _, on := range []bool{false, true} {
			name := strconv.Itoa(status) + "/telemetry=off"
			if on {
				name = strconv.Itoa(status) + "/telemetry=on"
			}
			b.Run(name, func(b *testing.B) {
				d := new(discard)
				tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(d))
				defer tp.Shutdown(context.Background())
				var rt http.RoundTripper = canned(status)
				if on {
					rt = &telemetry.Transport{Base: rt, TracerProvider: tp,
						Propagator: propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})}
				}
				ctx, span := tp.Tracer("bench").Start(context.Background(), "tools/call get_trace")
				defer span.End()
				req, err := http.NewRequestWithContext(ctx, "GET", "https://api.vexlo.test/v1/traces/abc?key=k", nil)
				if err != nil {
					b.Fatal(err)
				}
				req.Header.Set("Authorization", "Bearer t")
				req.Header.Set("Accept", "application/json")
				b.ReportAllocs()
				start := cpuTime()
				n := 0
				for b.Loop() {
					if _, err := rt.RoundTrip(req); err != nil {
						b.Fatal(err)
					}
					if n++; on && n%flushEvery == 0 {
						tp.ForceFlush(ctx)
					}
				}
				if on {
					exported(b, tp, d, n) // the request spans; the tool call's ends after
				}
				b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

package telemetry_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/mcperr/mcperr/gosdk"
	"github.com/mcperr/mcperr/telemetry"
)

// discard is a span exporter that drops what the batch processor hands it.
type discard struct{}

func (discard) ExportSpans(context.Context, []sdktrace.ReadOnlySpan) error { return nil }
func (discard) Shutdown(context.Context) error                             { return nil }

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
				tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(discard{}))
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

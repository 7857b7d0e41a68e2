package otlpenv

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"syscall"
	"testing"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// cpuTime is the CPU time the process has used, all its threads.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkExport is one server span with a stdio success's 7 attributes,
// started and ended through what Start installs (the SDK's batch span
// processor and the OTLP/HTTP protobuf exporter at its defaults), exported
// to an endpoint in this process that reads each request and drops it.
// The loop flushes every 512 spans (the batch the processor exports at
// its defaults) and at the end, before the clock stops: a loop this tight
// fills the processor's queue faster than one export empties it, and the
// processor drops the spans that find it full, which would leave their
// export out of the figure. cpu-ns/op is
// the process's CPU time per span: the SDK's span, the batch processor's
// goroutine, the encoding and the posts, and the endpoint's reading of
// them (which a collector in another process would spend instead).
// BenchmarkSpan in package telemetry is the same span exported to nothing.
//
//	go test -run '^$' -bench Export -cpu 1 -count 6 ./telemetry/otlpenv
func BenchmarkExport(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	defer srv.Close()
	b.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", srv.URL)
	b.Setenv("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "")
	tp, mp, prop := otel.GetTracerProvider(), otel.GetMeterProvider(), otel.GetTextMapPropagator()
	defer func() { otel.SetTracerProvider(tp); otel.SetMeterProvider(mp); otel.SetTextMapPropagator(prop) }()
	stop, _, err := Start(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	attrs := make([]attribute.KeyValue, 7)
	for i := range attrs {
		attrs[i] = attribute.String("attr."+strconv.Itoa(i), "value "+strconv.Itoa(i))
	}
	tr := otel.Tracer("bench")
	ctx := context.Background()
	opts := []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(attrs...)}
	sdk, ok := otel.GetTracerProvider().(*sdktrace.TracerProvider)
	if !ok {
		b.Fatalf("Start installed a %T, not the SDK's provider", otel.GetTracerProvider())
	}
	b.ReportAllocs()
	start := cpuTime()
	n := 0
	for b.Loop() {
		_, s := tr.Start(ctx, "tools/call get_trace", opts...)
		s.End()
		if n++; n%512 == 0 {
			sdk.ForceFlush(ctx)
		}
	}
	b.StopTimer()
	if err := stop(ctx); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

package otlptest_test

import (
	"context"
	"fmt"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/mcperr/mcperr/telemetry/otlptest"
)

// A Receiver decodes what an OTLP/HTTP exporter sends it.
func ExampleReceiver() {
	rcv := otlptest.NewReceiver()
	defer rcv.Close()
	exp, _ := otlptracehttp.New(context.Background(), otlptracehttp.WithEndpointURL(rcv.URL+"/v1/traces"))
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	_, span := tp.Tracer("example").Start(context.Background(), "tools/call get_trace")
	span.End()
	tp.Shutdown(context.Background())
	for _, s := range rcv.Spans() {
		fmt.Println(s.Name, s.Kind)
	}
	// Output: tools/call get_trace SPAN_KIND_INTERNAL
}

package otlpenv

import (
	"context"
	"testing"

	"go.opentelemetry.io/otel"

	"github.com/mcperr/mcperr/telemetry/otlptest"
)

// TestNothingWithoutEndpoint: with no OTLP endpoint in the environment,
// Start installs nothing and says so.
func TestNothingWithoutEndpoint(t *testing.T) {
	for _, k := range []string{"OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT"} {
		t.Setenv(k, "")
	}
	before := otel.GetTracerProvider()
	stop, ok, err := Start(context.Background())
	if err != nil || ok {
		t.Fatalf("Start = ok %v, err %v; want nothing installed", ok, err)
	}
	if otel.GetTracerProvider() != before {
		t.Error("Start replaced the global tracer provider")
	}
	if err := stop(context.Background()); err != nil {
		t.Error(err)
	}
}

// TestExportsToEndpoint: with OTEL_EXPORTER_OTLP_ENDPOINT set, a span and a
// metric point reach the endpoint over OTLP/HTTP by the time stop returns,
// under the service OTEL_SERVICE_NAME names; an unknown protocol is an
// error.
func TestExportsToEndpoint(t *testing.T) {
	rcv := otlptest.NewReceiver()
	defer rcv.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", rcv.URL)
	t.Setenv("OTEL_SERVICE_NAME", "traces-mcp")
	stop, ok, err := Start(context.Background())
	if err != nil || !ok {
		t.Fatalf("Start = ok %v, err %v", ok, err)
	}
	_, span := otel.Tracer("t").Start(context.Background(), "tools/call get_trace")
	span.End()
	c, _ := otel.Meter("t").Int64Counter("calls")
	c.Add(context.Background(), 1)
	if err := stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	spans := rcv.Spans()
	if len(spans) != 1 || spans[0].Name != "tools/call get_trace" || spans[0].Service != "traces-mcp" {
		t.Errorf("received spans %+v, want the one span of service traces-mcp", spans)
	}
	var points int
	for _, m := range rcv.Metrics() {
		if m.Name == "calls" && m.Value == 1 {
			points++
		}
	}
	if points != 1 {
		t.Errorf("received metrics %+v, want one point of calls", rcv.Metrics())
	}

	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json")
	if _, _, err := Start(context.Background()); err == nil {
		t.Error("Start accepted OTEL_EXPORTER_OTLP_PROTOCOL=http/json, which it cannot export")
	}
}

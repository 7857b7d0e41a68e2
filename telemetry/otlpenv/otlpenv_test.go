package otlpenv

import (
	"context"
	"slices"
	"strings"
	"testing"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"

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

// TestPropagators: OTEL_PROPAGATORS is read as the OpenTelemetry
// specification says: a comma-separated list of names in any case, each
// installed once, tracecontext and baggage when it is unset or empty, no
// propagator for none; a propagator of the contrib modules (b3, jaeger,
// xray, ottrace) or an unknown name is an error.
func TestPropagators(t *testing.T) {
	for _, tt := range []struct {
		value  string
		fields []string // the fields the propagator injects, sorted; nil for none
		err    bool
	}{
		{"", []string{"baggage", "traceparent", "tracestate"}, false},
		{" ", []string{"baggage", "traceparent", "tracestate"}, false},
		{"tracecontext,baggage", []string{"baggage", "traceparent", "tracestate"}, false},
		{"baggage, tracecontext", []string{"baggage", "traceparent", "tracestate"}, false},
		{"tracecontext", []string{"traceparent", "tracestate"}, false},
		{"TraceContext,tracecontext", []string{"traceparent", "tracestate"}, false},
		{"baggage", []string{"baggage"}, false},
		{"none", nil, false},
		{"tracecontext,none", nil, false},
		{"b3", nil, true},
		{"tracecontext,b3multi", nil, true},
		{"jaeger", nil, true},
		{"xray", nil, true},
		{"ottrace", nil, true},
		{"w3c", nil, true},
	} {
		p, err := propagators(tt.value)
		if (err != nil) != tt.err {
			t.Errorf("%q: error %v, want an error %v", tt.value, err, tt.err)
			continue
		}
		var fields []string
		if p != nil {
			fields = p.Fields()
			slices.Sort(fields)
		}
		if !slices.Equal(fields, tt.fields) {
			t.Errorf("%q: propagates %q, want %q", tt.value, fields, tt.fields)
		}
	}
}

// TestStartRefusesPropagator: a propagator Start cannot install is its
// error, and it installs nothing, no tracer provider and no propagator.
func TestStartRefusesPropagator(t *testing.T) {
	rcv := otlptest.NewReceiver()
	defer rcv.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", rcv.URL)
	t.Setenv("OTEL_PROPAGATORS", "tracecontext,b3")
	defer otel.SetTextMapPropagator(otel.GetTextMapPropagator())
	otel.SetTextMapPropagator(propagation.TraceContext{}) // one Start would replace
	tp := otel.GetTracerProvider()
	stop, ok, err := Start(context.Background())
	if err == nil || ok || !strings.Contains(err.Error(), "b3") {
		t.Errorf("Start = ok %v, err %v; want an error naming b3", ok, err)
	}
	if otel.GetTracerProvider() != tp || otel.GetTextMapPropagator() != (propagation.TraceContext{}) {
		t.Error("Start installed a provider or a propagator")
	}
	if err := stop(context.Background()); err != nil {
		t.Error(err)
	}
}

// Package otlpenv installs OpenTelemetry's SDK as the global tracer and
// meter providers, exporting over OTLP, when the standard environment
// variables ask for it, and nothing when they do not.
//
// A program calls Start once, first thing, and the stop function it returns
// on the way out (it flushes what is buffered):
//
//	stop, _, err := otlpenv.Start(ctx)
//	if err != nil {
//		log.Fatal(err)
//	}
//	defer stop(context.Background())
//
// The variables are OpenTelemetry's own, read by its exporters:
// OTEL_EXPORTER_OTLP_ENDPOINT (or the per-signal
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT and OTEL_EXPORTER_OTLP_METRICS_ENDPOINT)
// turns export on; OTEL_EXPORTER_OTLP_PROTOCOL (or the per-signal
// _TRACES_PROTOCOL, _METRICS_PROTOCOL) is http/protobuf, the default, or
// grpc; OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES name the service;
// OTEL_EXPORTER_OTLP_HEADERS, _TIMEOUT and the rest are honoured as the
// exporters document. Spans go through a batch processor, metrics through
// a periodic reader (OTEL_METRIC_EXPORT_INTERVAL, 60 s by default).
//
// OTEL_PROPAGATORS names the propagators installed with the exporters, a
// comma-separated list of tracecontext and baggage (the default, both), or
// none (no propagator is installed, the global one is left as it is). A
// propagator this package does not carry (b3, b3multi, jaeger, xray,
// ottrace, which are in go.opentelemetry.io/contrib/propagators) or an
// unknown name is an error of Start, as an unknown protocol is, and
// nothing is installed.
package otlpenv

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetricgrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// Start installs the SDK when an OTLP endpoint is set: traces when
// OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is,
// metrics when OTEL_EXPORTER_OTLP_ENDPOINT or
// OTEL_EXPORTER_OTLP_METRICS_ENDPOINT is, and the propagators
// OTEL_PROPAGATORS names with them (the W3C trace context and baggage when
// it is unset). ok reports whether it installed anything.
// stop flushes and shuts down what was installed; it is never nil.
func Start(ctx context.Context) (stop func(context.Context) error, ok bool, err error) {
	getenv := os.Getenv
	all := getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != ""
	traces := all || getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
	metrics := all || getenv("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT") != ""
	var stops []func(context.Context) error
	stop = func(ctx context.Context) error {
		var errs []error
		for _, f := range stops {
			errs = append(errs, f(ctx))
		}
		return errors.Join(errs...)
	}
	if !traces && !metrics {
		return stop, false, nil
	}
	prop, err := propagators(getenv("OTEL_PROPAGATORS"))
	if err != nil {
		return stop, false, fmt.Errorf("otlpenv: %w", err)
	}
	res, err := resource.Merge(resource.Default(), resource.Environment())
	if err != nil {
		return stop, false, fmt.Errorf("otlpenv: the resource: %w", err)
	}
	if traces {
		var exp sdktrace.SpanExporter
		switch p := protocol(getenv, "TRACES"); p {
		case "grpc":
			exp, err = otlptracegrpc.New(ctx)
		case "http/protobuf":
			exp, err = otlptracehttp.New(ctx)
		default:
			err = unsupported(p)
		}
		if err != nil {
			return stop, false, fmt.Errorf("otlpenv: the trace exporter: %w", err)
		}
		tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
		otel.SetTracerProvider(tp)
		stops = append(stops, tp.Shutdown)
	}
	if metrics {
		var exp sdkmetric.Exporter
		switch p := protocol(getenv, "METRICS"); p {
		case "grpc":
			exp, err = otlpmetricgrpc.New(ctx)
		case "http/protobuf":
			exp, err = otlpmetrichttp.New(ctx)
		default:
			err = unsupported(p)
		}
		if err != nil {
			err = fmt.Errorf("otlpenv: the metric exporter: %w", err)
			return stop, len(stops) > 0, err
		}
		mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewPeriodicReader(exp)), sdkmetric.WithResource(res))
		otel.SetMeterProvider(mp)
		stops = append(stops, mp.Shutdown)
	}
	if prop != nil {
		otel.SetTextMapPropagator(prop)
	}
	return stop, true, nil
}

// protocol is the OTLP protocol the variables name for signal (TRACES or
// METRICS), http/protobuf when none does.
func protocol(getenv func(string) string, signal string) string {
	p := getenv("OTEL_EXPORTER_OTLP_" + signal + "_PROTOCOL")
	if p == "" {
		p = getenv("OTEL_EXPORTER_OTLP_PROTOCOL")
	}
	if p == "" {
		return "http/protobuf"
	}
	return strings.ToLower(strings.TrimSpace(p))
}

func unsupported(p string) error {
	return fmt.Errorf("OTEL_EXPORTER_OTLP_PROTOCOL %q is not one this program exports with (http/protobuf or grpc)", p)
}

// propagators is the propagator the value v of OTEL_PROPAGATORS names: a
// comma-separated list, read as the OpenTelemetry specification says
// (names in any case, each installed once, in order; empty is unset, whose
// default is tracecontext,baggage), nil for none.
func propagators(v string) (propagation.TextMapPropagator, error) {
	if strings.TrimSpace(v) == "" {
		v = "tracecontext,baggage"
	}
	var ps []propagation.TextMapPropagator
	var none bool
	seen := map[string]bool{}
	for name := range strings.SplitSeq(v, ",") {
		name = strings.ToLower(strings.TrimSpace(name))
		if seen[name] {
			continue
		}
		seen[name] = true
		switch name {
		case "tracecontext":
			ps = append(ps, propagation.TraceContext{})
		case "baggage":
			ps = append(ps, propagation.Baggage{})
		case "none":
			none = true
		case "b3", "b3multi", "jaeger", "xray", "ottrace":
			return nil, fmt.Errorf("OTEL_PROPAGATORS %q: the %s propagator is not in this program (go.opentelemetry.io/contrib/propagators has it); tracecontext, baggage or none", v, name)
		default:
			return nil, fmt.Errorf("OTEL_PROPAGATORS %q: unknown propagator %q; tracecontext, baggage or none", v, name)
		}
	}
	if none {
		return nil, nil
	}
	return propagation.NewCompositeTextMapPropagator(ps...), nil
}

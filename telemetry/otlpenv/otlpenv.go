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
// OTEL_EXPORTER_OTLP_METRICS_ENDPOINT is, and the W3C trace context and
// baggage propagators with them. ok reports whether it installed anything.
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
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
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

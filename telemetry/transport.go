package telemetry

import (
	"errors"
	"net"
	"net/http"
	"strconv"
	"sync"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// Transport is an http.RoundTripper that records every upstream request as
// a client span, a child of the tool call's span, and sends the trace
// context with it (the propagator's headers, traceparent by default). Put
// it under the retry, so that each attempt is a span of its own and a retry
// shows as a second one:
//
//	upstream := &envelope.Reader{Client: &http.Client{
//		Transport: &retry.Transport{Base: &telemetry.Transport{}},
//	}}
//
// A span carries the method, the host and port, the path (never the query,
// which may hold a key) and the response status; the zero value records
// with the global providers.
type Transport struct {
	// Base sends the requests; nil means http.DefaultTransport.
	Base http.RoundTripper

	// TracerProvider and Propagator are as in Options; nil means
	// OpenTelemetry's global ones.
	TracerProvider trace.TracerProvider
	Propagator     propagation.TextMapPropagator

	once   sync.Once
	tracer trace.Tracer
	prop   propagation.TextMapPropagator
}

// RoundTrip sends req in a client span.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	t.once.Do(func() {
		tp, prop := t.TracerProvider, t.Propagator
		if tp == nil {
			tp = otel.GetTracerProvider()
		}
		if prop == nil {
			prop = otel.GetTextMapPropagator()
		}
		t.tracer, t.prop = tp.Tracer(scope), prop
	})
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	ctx, span := t.tracer.Start(req.Context(), req.Method, trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(requestAttrs(req)...))
	defer span.End()
	// A RoundTripper must not change the request it is given: the trace
	// headers go on a clone.
	out := req.Clone(ctx)
	t.prop.Inject(ctx, propagation.HeaderCarrier(out.Header))
	resp, err := base.RoundTrip(out)
	if err != nil {
		span.SetAttributes(attribute.String(attrErrorType, errorType(err)))
		span.SetStatus(codes.Error, "")
		return resp, err
	}
	span.SetAttributes(attribute.Int("http.response.status_code", resp.StatusCode))
	if resp.StatusCode >= 400 {
		span.SetAttributes(attribute.String(attrErrorType, strconv.Itoa(resp.StatusCode)))
		span.SetStatus(codes.Error, "")
	}
	return resp, nil
}

// requestAttrs are the HTTP client conventions' attributes of req that can
// hold no secret: the method, the host, the port and the path.
func requestAttrs(req *http.Request) []attribute.KeyValue {
	u := req.URL
	host, port := u.Hostname(), u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	a := []attribute.KeyValue{
		attribute.String("http.request.method", req.Method),
		attribute.String("server.address", host),
		attribute.String("url.path", u.EscapedPath()),
	}
	if p, err := strconv.Atoi(port); err == nil {
		a = append(a, attribute.Int("server.port", p))
	}
	return a
}

// errorType is the error.type of a request that got no response: timeout
// for a deadline, else the conventions' _OTHER.
func errorType(err error) string {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return "timeout"
	}
	return otherError
}

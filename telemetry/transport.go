package telemetry

import (
	"context"
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
	fields int // how many header fields prop sets at most
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
		t.tracer, t.prop, t.fields = tp.Tracer(scope), prop, len(prop.Fields())
	})
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	ctx, span := t.tracer.Start(req.Context(), req.Method, clientKind, trace.WithAttributes(requestAttrs(req)...))
	defer span.End()
	resp, err := base.RoundTrip(withTrace(ctx, req, t.prop, t.fields))
	if err != nil {
		span.SetAttributes(attribute.String(attrErrorType, errorType(err)))
		span.SetStatus(codes.Error, "")
		return resp, err
	}
	// One call for the response's attributes: the SDK grows its copy of a
	// span's attributes at every call that adds some.
	status := attribute.Int("http.response.status_code", resp.StatusCode)
	if resp.StatusCode >= 400 {
		span.SetAttributes(status, attribute.String(attrErrorType, strconv.Itoa(resp.StatusCode)))
		span.SetStatus(codes.Error, "")
	} else {
		span.SetAttributes(status)
	}
	return resp, nil
}

// clientKind is the start option of every upstream span.
var clientKind = trace.WithSpanKind(trace.SpanKindClient)

// withTrace is req with ctx and with the trace context prop injects into
// its headers. A RoundTripper must not change the request it is given, and
// the trace context changes only the headers: the copy is shallow but for
// them (not req.Clone, which copies the URL and the forms too), and its
// header map has room for the fields (at most that many) prop sets.
func withTrace(ctx context.Context, req *http.Request, prop propagation.TextMapPropagator, fields int) *http.Request {
	out := req.WithContext(ctx)
	h := make(http.Header, len(req.Header)+fields)
	for k, v := range req.Header {
		h[k] = v[:len(v):len(v)] // an append below copies, never writes into req's
	}
	out.Header = h
	prop.Inject(ctx, propagation.HeaderCarrier(h))
	return out
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
	a := make([]attribute.KeyValue, 0, 4)
	a = append(a,
		attribute.String("http.request.method", req.Method),
		attribute.String("server.address", host),
		attribute.String("url.path", u.EscapedPath()),
	)
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

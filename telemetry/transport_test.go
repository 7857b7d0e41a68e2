package telemetry_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.opentelemetry.io/otel/propagation"

	"github.com/mcperr/mcperr/telemetry"
)

// sent is an upstream that keeps the request it was sent and answers
// with its status.
type sent struct {
	status int
	req    *http.Request
}

func (s *sent) RoundTrip(req *http.Request) (*http.Response, error) {
	s.req = req
	return &http.Response{StatusCode: s.status, Header: http.Header{}, Body: http.NoBody, Request: req}, nil
}

// TestTransportLeavesRequest: Transport sends the trace context in a copy
// of the request, every header of the request kept, and leaves the request
// it was given as it was (a RoundTripper must not change it); the upstream
// span carries the request's method, host, port and path and the
// response's status, and error.type for a failed status.
func TestTransportLeavesRequest(t *testing.T) {
	for _, status := range []int{200, 503} {
		r := newRig()
		up := &sent{status: status}
		rt := &telemetry.Transport{Base: up, TracerProvider: r.tp, Propagator: propagation.TraceContext{}}
		ctx, parent := r.tp.Tracer("test").Start(context.Background(), "tools/call get_trace")
		req, err := http.NewRequestWithContext(ctx, "GET", "https://api.example.test:8443/v1/traces/abc?key=secret", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer t")
		req.Header.Add("Accept", "application/json")
		before := req.Header.Clone()
		if _, err := rt.RoundTrip(req); err != nil {
			t.Fatal(err)
		}
		parent.End()
		if diff := cmp.Diff(before, req.Header); diff != "" {
			t.Errorf("status %d: the request given changed (-before +after):\n%s", status, diff)
		}
		got := up.req.Header
		if got.Get("Traceparent") == "" || got.Get("Authorization") != "Bearer t" || got.Get("Accept") != "application/json" {
			t.Errorf("status %d: sent headers %v, want the request's and a traceparent", status, got)
		}
		if up.req.URL.String() != req.URL.String() {
			t.Errorf("status %d: sent to %s, want %s", status, up.req.URL, req.URL)
		}
		want := map[string]string{
			"http.request.method":       "GET",
			"server.address":            "api.example.test",
			"server.port":               "8443",
			"url.path":                  "/v1/traces/abc",
			"http.response.status_code": "200",
		}
		if status != 200 {
			want["http.response.status_code"] = "503"
			want["error.type"] = "503"
		}
		spans := r.ended()
		if len(spans) != 2 || spans[0].Name != "GET" {
			t.Fatalf("status %d: spans %v, want the upstream GET and its parent", status, spans)
		}
		if diff := cmp.Diff(want, spans[0].Attrs); diff != "" {
			t.Errorf("status %d: upstream span attributes (-want +got):\n%s", status, diff)
		}
	}
}

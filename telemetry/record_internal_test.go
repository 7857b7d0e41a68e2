package telemetry

import (
	"encoding/json"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
)

// TestReadKeepsEachAnswer: the failure read of an answer (a JSON-RPC
// error's code, message and data; an isError text) is kept once per shape
// and answer, and each answer, read again in any order, gets its own: the
// attributes, the expected flag and the point's set that reading it afresh
// gives. Answers past maxText are read every time, to the same result.
func TestReadKeepsEachAnswer(t *testing.T) {
	r := &recorder{meters: newMeters(metricnoop.NewMeterProvider())}
	sh := newShape(shapeKey{method: "tools/call", target: "get_article", transport: transportPipe})
	answers := []answer{
		{rpc: true, code: -32602, message: "Unknown parameter: limit", data: json.RawMessage(`{"code":"unknown_parameter"}`)},
		{rpc: true, code: -32602, message: "Unknown parameter: limit", data: json.RawMessage(`{"code":"invalid_id"}`)},
		{rpc: true, code: -32602, message: "Unknown parameter: limit"},
		{rpc: true, code: -32603, message: "failed", data: json.RawMessage(`{"kind":"rate_limited","retryAfterSeconds":3}`)},
		{rpc: true, code: -32603, message: "failed", data: json.RawMessage(`{"kind":"not_found"}`)},
		{rpc: true, code: -32603, message: "Unknown parameter: limit"},
		{rpc: true, code: -32002, message: "Article not found"},
		{rpc: true, code: -32603, message: strings.Repeat("x", maxText+1)},
		{isError: true, text: `{"kind":"rate_limited","retryAfterSeconds":3}`},
		{isError: true, text: "Unknown parameter: limit"},
		{panic: true},
	}
	for round := range 3 {
		for _, a := range answers {
			got := r.read(sh, a)
			f, _ := readFailure(a)
			want := newFailShape(failKey{sh.key, f})
			if got == nil {
				t.Fatalf("round %d: %+v read as a success", round, a)
			}
			gs, ws := attribute.NewSet(got.attrs...), attribute.NewSet(want.attrs...)
			if gs.Equivalent() != ws.Equivalent() || got.expected != want.expected {
				t.Errorf("round %d: %+v: attributes %v expected %v, want %v %v", round, a, got.attrs, got.expected, want.attrs, want.expected)
			}
		}
	}
	if n := len(r.rpcs); n != 7 {
		t.Errorf("%d JSON-RPC errors kept, want the 7 of at most maxText bytes", n)
	}
	if got := r.read(sh, answer{}); got != nil {
		t.Errorf("a success read as a failure: %v", got.attrs)
	}
}

// TestReadCachedRPCDoesNotAllocate: a JSON-RPC error already read, data
// and all, is found again without an allocation (its data, bytes, is not
// copied into a string to look it up).
func TestReadCachedRPCDoesNotAllocate(t *testing.T) {
	r := &recorder{meters: newMeters(metricnoop.NewMeterProvider())}
	sh := newShape(shapeKey{method: "tools/call", target: "get_article", transport: transportPipe})
	for _, a := range []answer{
		{rpc: true, code: -32603, message: "failed", data: json.RawMessage(`{"kind":"rate_limited","retryAfterSeconds":3}`)},
		{rpc: true, code: -32002, message: "Article not found"},
		{isError: true, text: "Unknown parameter: limit"},
	} {
		want := r.read(sh, a)
		var got *failShape
		if n := testing.AllocsPerRun(100, func() { got = r.read(sh, a) }); n != 0 {
			t.Errorf("%+v: %v allocations a read of a kept answer, want 0", a, n)
		}
		if got != want {
			t.Errorf("%+v: read again, not the kept failure", a)
		}
	}
}

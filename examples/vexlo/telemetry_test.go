package main

import (
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/examples/vexlo/demoapi"
	"github.com/mcperr/mcperr/telemetry/otlptest"
)

// TestOTLPExport runs `vexlo -demo` with OTEL_EXPORTER_OTLP_ENDPOINT set, as
// an operator would, against an OTLP/HTTP receiver that decodes what
// arrives with the OTLP protobuf definitions: one server span per call
// that reaches its handler (an expected refusal made before, the unknown
// tool, is counted without one), named "tools/call <tool>", with the MCP conventions' attributes and
// mcperr's kind for each failure shape, a client span per upstream request
// under its call's span, and the duration histogram and failure counter.
func TestOTLPExport(t *testing.T) {
	rcv := otlptest.NewReceiver()
	defer rcv.Close()
	env := []string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + rcv.URL, "OTEL_SERVICE_NAME=vexlo-mcp"}
	calls := []string{
		initialize11, initialized,
		call(2, "vexlo_get_trace", `{"traceId":"`+seedTrace+`"}`),                    // data
		call(3, "vexlo_get_trace", `{"traceId":"deadbeefdeadbeefdeadbeefdeadbeef"}`), // not_found
		call(4, "vexlo_get_trace", `{"traceId":"0f1a2b3c4d5e6f"}`),                   // arguments the upstream refuses
		call(5, "vexlo_get_trace", `{"traceId":"`+demoapi.BrokenTraceID+`"}`),        // server_error (a shard down upstream)
		call(6, "vexlo_nope", `{}`),                                                  // unknown tool
	}
	r := runBin(t, env, calls, "-demo")
	if r.code != 0 {
		t.Fatalf("exit %d, stderr %s", r.code, r.stderr)
	}

	type got struct{ Kind, ErrorType, Expected string }
	calls2 := map[string][]got{}
	var client int
	byID := map[string]otlptest.Span{}
	for _, s := range rcv.Spans() {
		byID[string(s.SpanID)] = s
	}
	for _, s := range rcv.Spans() {
		if s.Service != "vexlo-mcp" {
			t.Errorf("span %q of service %q, want vexlo-mcp", s.Name, s.Service)
		}
		switch s.Kind {
		case "SPAN_KIND_SERVER":
			if !strings.HasPrefix(s.Name, "tools/call ") {
				continue
			}
			if s.Attrs["mcp.method.name"] != "tools/call" || s.Attrs["network.transport"] != "pipe" || s.Attrs["mcp.protocol.version"] != "2025-11-25" {
				t.Errorf("span %q: attributes %v lack the conventions' method, transport or protocol", s.Name, s.Attrs)
			}
			calls2[s.Name] = append(calls2[s.Name], got{s.Attrs["mcperr.kind"], s.Attrs["error.type"], s.Attrs["mcperr.expected"]})
		case "SPAN_KIND_CLIENT":
			if len(s.Parent) == 0 {
				continue // the token check at startup, before any call
			}
			client++
			if p, ok := byID[string(s.Parent)]; !ok || p.Name != "tools/call vexlo_get_trace" {
				t.Errorf("upstream span %q is not under a tool call's span", s.Name)
			}
			for k, v := range s.Attrs {
				if strings.Contains(v, "vxl_") || strings.Contains(v, "?") {
					t.Errorf("upstream span attribute %s = %q may carry a secret or a query", k, v)
				}
			}
		}
	}
	for _, v := range calls2 {
		sort.Slice(v, func(i, j int) bool { return v[i].Kind < v[j].Kind })
	}
	want := map[string][]got{
		"tools/call vexlo_get_trace": {
			{}, // the data
			{Kind: "invalid_arguments", ErrorType: "tool_error", Expected: "true"}, // the upstream's: the handler ran
			{Kind: "not_found", ErrorType: "tool_error", Expected: "true"},
			{Kind: "server_error", ErrorType: "tool_error", Expected: "false"},
		},
		// The unknown tool, an expected refusal made before any handler
		// runs, is metric points alone: no span.
	}
	if diff := cmp.Diff(want, calls2); diff != "" {
		t.Errorf("tool call spans (-want +got):\n%s", diff)
	}
	if client < 3 {
		t.Errorf("%d upstream spans under tool calls, want one per upstream request (at least 3)", client)
	}
	failures := map[string]float64{}
	var durations uint64
	for _, m := range rcv.Metrics() {
		switch m.Name {
		case "mcperr.server.failures":
			failures[m.Attrs["gen_ai.tool.name"]+" "+m.Attrs["mcperr.kind"]] += m.Value
		case "mcp.server.operation.duration":
			durations += m.Count
		}
	}
	wantFailures := map[string]float64{
		"vexlo_get_trace invalid_arguments": 1,
		"vexlo_get_trace not_found":         1,
		"vexlo_get_trace server_error":      1,
		"vexlo_nope invalid_arguments":      1,
	}
	if diff := cmp.Diff(wantFailures, failures); diff != "" {
		t.Errorf("mcperr.server.failures (-want +got):\n%s", diff)
	}
	if durations < 5 {
		t.Errorf("mcp.server.operation.duration counts %d requests, want at least the 5 calls", durations)
	}
}

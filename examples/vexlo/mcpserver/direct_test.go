package mcpserver

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcperr/mcperr/examples/internal/rpctest"
	"github.com/mcperr/mcperr/examples/vexlo/demoapi"
)

// TestDirectMatchesSDK: command vexlo serves tools/call on stdio without the
// SDK's JSON-RPC decoding (gosdk.StdioTransport with Server set); every call of the golden
// transcripts, rejections, unknown tools, upstream failures and successes,
// gets from it the answer the SDK gives, byte for byte.
func TestDirectMatchesSDK(t *testing.T) {
	// Both paths make the same upstream calls: a clock a second on at each
	// call keeps the upstream's read limit (per second) from answering
	// the second run otherwise than the first.
	var tick atomic.Int64
	api := demoapi.New(func() time.Time { return time.Unix(tick.Add(1), 0) })
	api.NoAuth = true
	api.SetDiskPressure(true)
	up := httptest.NewServer(api)
	defer up.Close()
	s, err := New(Config{BaseURL: up.URL})
	if err != nil {
		t.Fatal(err)
	}
	trace := demoapi.SampleTraceID
	ids := `"` + strings.Repeat(trace+`","`, 100) + trace + `"`
	calls := [][2]string{
		{"vexlo_search_traces", `{"limit":101}`},
		{"vexlo_check_trace_status", `{"traceIds":[` + ids + `]}`},
		{"vexlo_find_related_traces", `{"traceId":"` + trace + `","windowHours":169}`},
		{"vexlo_get_function_examples", `{"service":"checkout","name":"handleCheckout","limit":6}`},
		{"vexlo_search_traces", `{"teams":["web"]}`},
		{"vexlo_get_function", `{"service":"checkout","name":"handleCheckout","environment":{"named":["prod"],"unset":true}}`},
		{"vexlo_nope", `{}`},
		{"vexlo_get_trace", `{"traceId":"deadbeefdeadbeefdeadbeefdeadbeef"}`},
		{"vexlo_get_trace", `{"traceId":"0f1a2b3c4d5e6f"}`},
		{"vexlo_get_values", `{"traceId":"` + trace + `","path":["!!not-base32!!"]}`},
		{"vexlo_get_values", `{"traceId":"` + trace + `","path":["AA","AE"]}`},
		{"vexlo_get_trace", `{"traceId":"` + demoapi.BrokenTraceID + `"}`},
		{"vexlo_search_traces", `{"cursor":"zzz"}`},
		{"vexlo_get_function", `{"service":"checkout","name":"nope"}`},
		{"vexlo_check_health", `{}`},
		{"vexlo_get_trace", `{"traceId":"` + trace + `"}`},
		{"vexlo_check_coverage", `{}`},
	}
	var tail []string
	for i, c := range calls {
		tail = append(tail, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, i+2, c[0], c[1]))
	}
	lines, served := rpctest.Compare(t, s.mcp, rpctest.CountDirect(s.mcp), rpctest.Initialize+"\n", rpctest.Initialized+"\n"+strings.Join(tail, "\n")+"\n")
	if served != int64(len(calls)) || len(lines) != len(calls)+1 {
		t.Errorf("%d calls served directly and %d lines, want %d and %d:\n%s", served, len(lines), len(calls), len(calls)+1, strings.Join(lines, "\n"))
	}
}

package telemetry_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"

	mcpgoclient "github.com/mark3labs/mcp-go/client"
	mcpgomcp "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/gosdk"
	"github.com/mcperr/mcperr/mcpgo"
	"github.com/mcperr/mcperr/telemetry"
)

// printSpans prints each ended span's name and the attributes that say how
// its request failed.
func printSpans(rec *tracetest.SpanRecorder) {
	for _, s := range rec.Ended() {
		var attrs []string
		for _, kv := range s.Attributes() {
			switch kv.Key {
			case "error.type", "mcperr.kind", "mcperr.move", "mcperr.expected":
				attrs = append(attrs, fmt.Sprintf("%s=%s", kv.Key, kv.Value.String()))
			}
		}
		sort.Strings(attrs)
		if s.Name() == "tools/call get_trace" {
			fmt.Println(s.Name(), attrs)
		}
	}
}

// A go-sdk server instrumented in one line. The program would install an
// OpenTelemetry SDK (otlpenv.Start does, from the standard variables) and
// pass nil options; here a recorder shows what one call records.
func ExampleGoSDK() {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"code":"trace_not_found","message":"no trace zzz"}`)
	}))
	defer api.Close()
	upstream := &envelope.Reader{}
	s := mcp.NewServer(&mcp.Implementation{Name: "traces", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "get_trace"}, gosdk.Handle(func(ctx context.Context, _ *mcp.CallToolRequest, in traceIn) (trace1, error) {
		var t trace1
		req, _ := http.NewRequestWithContext(ctx, "GET", api.URL+"/v1/traces/"+in.ID, nil)
		return t, upstream.Do(req, &t)
	}))
	s.AddReceivingMiddleware(gosdk.Validate(nil))

	rec := tracetest.NewSpanRecorder()
	telemetry.GoSDK(s, &telemetry.Options{TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))})

	ct, st := mcp.NewInMemoryTransports()
	ss, _ := s.Connect(context.Background(), st, nil)
	defer ss.Close()
	cs, _ := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	defer cs.Close()
	cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_trace", Arguments: map[string]any{"id": "zzz"}})
	cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_trace", Arguments: map[string]any{"id": 7}})
	printSpans(rec) // the refused arguments (id 7) are a metric point, not a span
	// Output:
	// tools/call get_trace [error.type=tool_error mcperr.expected=true mcperr.kind=not_found mcperr.move=try_another_id]
}

// With RefusalSpans, a call refused before any handler runs, of an
// expected kind, has a span too, not only its metric points.
func ExampleOptions_refusalSpans() {
	s := mcp.NewServer(&mcp.Implementation{Name: "traces", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "get_trace"}, gosdk.Handle(func(ctx context.Context, _ *mcp.CallToolRequest, in traceIn) (trace1, error) {
		return trace1(in), nil
	}))
	s.AddReceivingMiddleware(gosdk.Validate(nil))

	rec := tracetest.NewSpanRecorder()
	telemetry.GoSDK(s, &telemetry.Options{
		TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)),
		RefusalSpans:   true,
	})

	ct, st := mcp.NewInMemoryTransports()
	ss, _ := s.Connect(context.Background(), st, nil)
	defer ss.Close()
	cs, _ := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	defer cs.Close()
	cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_trace", Arguments: map[string]any{"id": 7}})
	printSpans(rec)
	// Output:
	// tools/call get_trace [error.type=tool_error mcperr.expected=true mcperr.kind=invalid_arguments mcperr.move=fix_argument]
}

// An mcp-go server instrumented in one line: the option goes to
// NewMCPServer, before mcpgo.Validate adds its middleware.
func ExampleMCPGo() {
	rec := tracetest.NewSpanRecorder()
	opts := &telemetry.Options{TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))}
	s := server.NewMCPServer("traces", "1.0.0", telemetry.MCPGo(opts))
	s.AddTool(mcpgomcp.NewTool("get_trace", mcpgomcp.WithInputSchema[traceIn]()), mcpgo.Handle(func(ctx context.Context, _ mcpgomcp.CallToolRequest, in traceIn) (trace1, error) {
		return trace1{}, &envelope.Error{Kind: "rate_limited", Code: "slow_down"}
	}))
	mcpgo.Validate(s, nil)

	c, _ := mcpgoclient.NewInProcessClient(s)
	defer c.Close()
	ctx := context.Background()
	c.Start(ctx)
	c.Initialize(ctx, mcpgomcp.InitializeRequest{})
	req := mcpgomcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = "get_trace", map[string]any{"id": "abc"}
	c.CallTool(ctx, req)
	printSpans(rec)
	// Output:
	// tools/call get_trace [error.type=tool_error mcperr.expected=true mcperr.kind=rate_limited mcperr.move=wait_then_retry]
}

// adapter.Expected splits failures for alerting: page on the unexpected
// ones, which mcperr.expected=false marks.
func Example_expected() {
	for _, k := range []string{"invalid_arguments", "rate_limited", "server_error", "network_error"} {
		fmt.Println(k, adapter.Expected(errkind.Kind(k)))
	}
	// Output:
	// invalid_arguments true
	// rate_limited true
	// server_error false
	// network_error false
}

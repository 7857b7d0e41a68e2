package telemetry_test

import (
	"bufio"
	"context"
	"io"
	"strings"
	"syscall"
	"testing"
	"time"

	mcpgomcp "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"

	"github.com/mcperr/mcperr/gosdk"
	"github.com/mcperr/mcperr/mcpgo"
	"github.com/mcperr/mcperr/telemetry"
)

// discardMetrics is a metric exporter that drops what the periodic reader
// hands it.
type discardMetrics struct{}

func (discardMetrics) Temporality(k sdkmetric.InstrumentKind) metricdata.Temporality {
	return sdkmetric.DefaultTemporalitySelector(k)
}
func (discardMetrics) Aggregation(k sdkmetric.InstrumentKind) sdkmetric.Aggregation {
	return sdkmetric.DefaultAggregationSelector(k)
}
func (discardMetrics) Export(context.Context, *metricdata.ResourceMetrics) error { return nil }
func (discardMetrics) ForceFlush(context.Context) error                          { return nil }
func (discardMetrics) Shutdown(context.Context) error                            { return nil }

// stdioCalls are the tools/call requests of the stdio rows of BENCHMARKS.md
// ("gosdk over stdio", "mcpgo over stdio"), without the upstream GET: a
// refusal of the arguments, a tool the server does not have, and a
// success whose handler answers at once, the cheapest call and so the
// largest share for the instrumentation.
var stdioCalls = []struct{ name, line string }{
	{"schema rejection", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_trace","arguments":{"id":7}}}`},
	{"unknown tool", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_trac","arguments":{"id":"abc"}}}`},
	{"success", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_trace","arguments":{"id":"abc"}}}`},
}

// cpuTime is the CPU time the process has used, all its threads.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkStdio is one tools/call of a server as each adapter's package
// doc builds it (gosdk: mcp.AddTool with gosdk.Handle, gosdk.Validate,
// s.Run on gosdk.StdioTransport{Server: s}; mcpgo: mcpgo.Handle,
// mcpgo.Validate, mcpgo.ServeStdio with the Validator), over pipes, one call
// at a time, with telemetry off and on: GoSDK, or MCPGo and Failures as the
// Validator's OnFailure, through the SDK's
// batch span processor and a periodic metric reader (every second), both
// exporting to nothing, so the figure is the instrumentation's own cost.
// telemetry=noop is the same instrumentation with OpenTelemetry's no-op
// providers: mcperr's own part of that cost, without the SDK's.
// cpu-ns/op is the process's CPU time (getrusage) per call, the exporters'
// goroutines included. In BENCHMARKS.md:
//
//	go test -run '^$' -bench Stdio -cpu 1 -count 6 ./telemetry | benchstat -col /telemetry -
func BenchmarkStdio(b *testing.B) {
	for _, sdk := range []string{"gosdk", "mcpgo"} {
		for _, c := range stdioCalls {
			for _, mode := range []string{"off", "on", "noop"} {
				b.Run(sdk+"/"+c.name+"/telemetry="+mode, func(b *testing.B) {
					benchStdio(b, sdk, c.line, mode)
				})
			}
		}
	}
}

func benchStdio(b *testing.B, sdk, line, mode string) {
	var o *telemetry.Options
	on := mode != "off"
	switch mode {
	case "on":
		tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(new(discard)))
		defer tp.Shutdown(context.Background())
		mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewPeriodicReader(discardMetrics{}, sdkmetric.WithInterval(time.Second))))
		defer mp.Shutdown(context.Background())
		o = &telemetry.Options{TracerProvider: tp, MeterProvider: mp}
	case "noop":
		o = &telemetry.Options{TracerProvider: tracenoop.NewTracerProvider(), MeterProvider: metricnoop.NewMeterProvider()}
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		switch sdk {
		case "gosdk":
			s := mcp.NewServer(&mcp.Implementation{Name: "traces", Version: "1.0.0"}, nil)
			mcp.AddTool(s, &mcp.Tool{Name: "get_trace"}, gosdk.Handle(func(ctx context.Context, _ *mcp.CallToolRequest, in traceIn) (trace1, error) {
				return trace1(in), nil
			}))
			s.AddReceivingMiddleware(gosdk.Validate(nil))
			if on {
				telemetry.GoSDK(s, o)
			}
			s.Run(ctx, &gosdk.StdioTransport{Server: s, In: inR, Out: outW})
		case "mcpgo":
			var opts []server.ServerOption
			if on {
				opts = append(opts, telemetry.MCPGo(o))
			}
			s := server.NewMCPServer("traces", "1.0.0", opts...)
			s.AddTool(mcpgomcp.NewTool("get_trace", mcpgomcp.WithInputSchema[traceIn]()), mcpgo.Handle(func(ctx context.Context, _ mcpgomcp.CallToolRequest, in traceIn) (trace1, error) {
				return trace1(in), nil
			}))
			var vo *mcpgo.Options
			if on { // the Validator's refusals, which mcp-go never sees, recorded as GoSDK records them
				vo = &mcpgo.Options{Validation: mcpgo.Validation{OnFailure: telemetry.Failures(o)}}
			}
			mcpgo.ServeStdio(ctx, s, &mcpgo.StdioOptions{Validator: mcpgo.Validate(s, vo), In: inR, Out: outW})
		}
		outW.Close()
	}()
	defer func() { cancel(); inW.Close(); outR.Close(); <-done }()
	out := bufio.NewReader(outR)
	call := func(l string) string {
		if _, err := io.WriteString(inW, l+"\n"); err != nil {
			b.Fatal(err)
		}
		a, err := out.ReadString('\n')
		if err != nil {
			b.Fatal(err)
		}
		return a
	}
	if a := call(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}`); !strings.Contains(a, `"result"`) {
		b.Fatalf("initialize: %s", a)
	}
	io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	call(line) // the session is initialized once this is answered
	b.ReportAllocs()
	b.ResetTimer()
	start := cpuTime()
	for b.Loop() {
		call(line)
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

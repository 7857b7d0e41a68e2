package telemetry

import (
	"context"
	"strconv"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	"github.com/mcperr/mcperr/adapter"
)

// Failures returns the OnFailure hook that counts, in
// mcperr.server.failures, the refusals an SDK never sees and GoSDK and
// MCPGo cannot record: the HTTP front's and the stdio transports' (Stage
// Protocol: a line or a message refused before the SDK reads it) and the
// per-client limits' (Stage Limited). Set it as HTTPOptions.OnFailure, or
// gosdk.StdioTransport.OnFailure or mcpgo.StdioOptions.OnFailure, beside
// the one line that instruments the server; every other failure reaches the
// server's middleware, which records it with its span. Each point carries
// mcperr.stage, mcp.method.name (when the message was read), error.type (the
// JSON-RPC code, or tool_error for a refused tool call answered as a result),
// mcperr.kind and mcperr.expected.
//
// A server that also logs its failures chains the two:
//
//	count := telemetry.Failures(nil)
//	logf := adapter.Log(nil)
//	opts.OnFailure = func(ctx context.Context, f adapter.Failure) { count(ctx, f); logf(ctx, f) }
func Failures(o *Options) func(ctx context.Context, f adapter.Failure) {
	r := newRecorder(o)
	return func(ctx context.Context, f adapter.Failure) {
		if f.Stage != adapter.Protocol && f.Stage != adapter.Limited {
			return
		}
		kind := f.Reading.Kind
		if kind == "" {
			kind = "server_error"
		}
		a := []attribute.KeyValue{attribute.String(attrStage, string(f.Stage))}
		if f.Method != "" {
			a = append(a, attribute.String(attrMethod, f.Method))
		}
		if f.Tool != "" {
			a = append(a, attribute.String(attrTool, f.Tool))
		}
		if f.Reading.RPCCode != 0 {
			a = append(a, attribute.String(attrErrorType, strconv.Itoa(int(f.Reading.RPCCode))))
		} else {
			a = append(a, attribute.String(attrErrorType, toolError))
		}
		a = append(a, attribute.String(attrKind, string(kind)), attribute.Bool(attrExpected, adapter.Expected(kind)))
		r.failures.Add(ctx, 1, metric.WithAttributes(a...))
	}
}

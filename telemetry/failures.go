package telemetry

import (
	"context"
	"strconv"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/mcpgo"
)

// Failures returns the OnFailure hook that records the refusals an SDK
// never sees and GoSDK and MCPGo cannot record. Set it as
// HTTPOptions.OnFailure, or gosdk.StdioTransport.OnFailure or
// mcpgo.StdioOptions.OnFailure, beside the one line that instruments the
// server; every other failure reaches the server's middleware, which
// records it.
//
// The HTTP front's and the stdio transports' refusals (Stage Protocol: a
// line or a message refused before the SDK reads it) and the per-client
// limits' (Stage Limited) are counted in mcperr.server.failures, each point
// with mcperr.stage, mcp.method.name (when the message was read),
// error.type (the JSON-RPC code, or tool_error for a refused tool call
// answered as a result), mcperr.kind and mcperr.expected.
//
// A tools/call refused for its arguments or its tool (Stage Arguments,
// UnknownToolCall) outside any call GoSDK or MCPGo records, such as the
// refusals mcpgo.ServeStdio's Validator answers before mcp-go reads the
// message, records the points GoSDK records for such a refusal: a point of
// mcp.server.operation.duration, from when ServeStdio read the line
// (mcpgo.Received; none when no transport says it), and one of the failure
// counter, by mcp.method.name, gen_ai.tool.name, gen_ai.operation.name,
// network.transport, error.type, rpc.response.status_code, mcperr.kind and
// mcperr.expected. For those, set it as mcpgo.Validate's
// Options.OnFailure: ServeStdio hands its own refusals to that hook too
// when StdioOptions.OnFailure is nil. The refusals made inside a recorded call are left to
// its recorder, so a hook set on the validation's options too counts each
// once.
//
// A server that also logs its failures chains the two:
//
//	count := telemetry.Failures(nil)
//	logf := adapter.Log(nil)
//	opts.OnFailure = func(ctx context.Context, f adapter.Failure) { count(ctx, f); logf(ctx, f) }
func Failures(o *Options) func(ctx context.Context, f adapter.Failure) {
	r := newRecorder(o)
	return func(ctx context.Context, f adapter.Failure) {
		switch f.Stage {
		case adapter.Protocol, adapter.Limited:
			r.stageFailure(ctx, f)
		case adapter.Arguments, adapter.UnknownToolCall:
			if _, recorded := adapter.EntryOf(ctx); !recorded {
				r.refusal(ctx, f)
			}
		}
	}
}

// stageKey is what the failures of one point of Stage Protocol or
// Limited share.
type stageKey struct {
	stage               adapter.Stage
	method, tool, etype string
	kind                errkind.Kind
}

// stageFailure counts f, a refusal of Stage Protocol or Limited.
func (r *recorder) stageFailure(ctx context.Context, f adapter.Failure) {
	k := stageKey{stage: f.Stage, method: f.Method, tool: f.Tool, etype: toolError, kind: f.Reading.Kind}
	if k.kind == "" {
		k.kind = errkind.ServerError
	}
	if f.Reading.RPCCode != 0 {
		k.etype = strconv.Itoa(int(f.Reading.RPCCode))
	}
	r.failures.Add(ctx, 1, cached(r.meters, &r.stages, k, newStagePoint)...)
}

// newStagePoint is the point of k, as Add's options: mcperr.stage,
// mcp.method.name and gen_ai.tool.name when set, error.type, mcperr.kind
// and mcperr.expected.
func newStagePoint(k stageKey) []metric.AddOption {
	a := []attribute.KeyValue{attribute.String(attrStage, string(k.stage))}
	if k.method != "" {
		a = append(a, attribute.String(attrMethod, k.method))
	}
	if k.tool != "" {
		a = append(a, attribute.String(attrTool, k.tool))
	}
	a = append(a, attribute.String(attrErrorType, k.etype),
		attribute.String(attrKind, string(k.kind)), attribute.Bool(attrExpected, adapter.Expected(k.kind)))
	return []metric.AddOption{metric.WithAttributeSet(attribute.NewSet(a...))}
}

// refusal records f, a tools/call refused for its arguments or its tool
// outside a recorded call, as end records such a refusal.
func (r *recorder) refusal(ctx context.Context, f adapter.Failure) {
	var fl failure
	if f.Reading.Form == errkind.FormRPCError { // not an isError result naming a code ("MCP error -32602: ...")
		fl.rpc, fl.rpcCode = true, int64(f.Reading.RPCCode)
	}
	fl.fill(f.Reading)
	k := failKey{shapeKey: shapeKey{method: f.Method, target: f.Tool}, failure: fl}
	read, stdio := mcpgo.Received(ctx)
	if stdio {
		k.transport = transportPipe
	}
	fs := r.failShape(k)
	r.failures.Add(ctx, 1, fs.add...)
	if stdio {
		r.opDur.Record(ctx, time.Since(read).Seconds(), fs.rec...)
	}
}

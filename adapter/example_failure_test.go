package adapter_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/schemaerr"
)

// Log is the OnFailure hook that logs every failure as one record: expected
// kinds at Info, the others at Error. A server sets it on both hooks,
// gosdk.Options.OnFailure (or mcpgo's) and HTTPOptions.OnFailure, to see
// every refusal and failed call in one log.
func ExampleLog() {
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{} // a fixed output for the example
			}
			return a
		},
	}))
	hook := adapter.Log(logger)
	schema, _ := schemaerr.Compile([]byte(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`), nil)
	refusal := schemaerr.TypeScript.Refuse("get_trace", schema.Validate(json.RawMessage(`{"id":7}`)))
	ctx := context.Background()
	hook(ctx, adapter.Failure{Stage: adapter.Arguments, Method: "tools/call", Tool: "get_trace",
		Reading: errkind.Read(errkind.Outcome{IsError: true, Text: refusal.Text})})
	hook(ctx, adapter.Failure{Stage: adapter.Handler, Method: "tools/call", Tool: "get_trace",
		Reading: errkind.Read(errkind.Outcome{IsError: true, Text: `{"kind":"unavailable","httpStatus":503,"message":"upstream is down","retryAfterSeconds":30}`})})
	// Output:
	// level=INFO msg="mcp failure" failure.stage=arguments failure.method=tools/call failure.tool=get_trace failure.kind=invalid_arguments failure.move=fix_argument failure.rpc_code=-32602 failure.args=id failure.expected=true
	// level=ERROR msg="mcp failure" failure.stage=handler failure.method=tools/call failure.tool=get_trace failure.kind=unavailable failure.move=wait_then_retry failure.wait=30s failure.expected=false failure.message="upstream is down"
}

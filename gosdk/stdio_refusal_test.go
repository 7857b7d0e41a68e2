package gosdk_test

import (
	"context"
	"encoding/json"
	"io"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/adapter/adaptertest"
	"github.com/mcperr/mcperr/gosdk"
)

// TestStdioRefusals: every refusal StdioTransport writes itself (a line
// that is not JSON, too long, a batch, an id no SDK echoes, an id in
// flight, a request past MaxInFlight) takes its code from the code table
// of the session's protocol revision (the in-flight bound's -32000 becomes
// -31000 on 2026-07-28) and reaches OnFailure as Stage Protocol, on each
// revision, with and without the direct path.
func TestStdioRefusals(t *testing.T) {
	for _, direct := range []bool{false, true} {
		err := adaptertest.StdioRefusals(func(ctx context.Context, in io.Reader, out io.Writer, hook func(context.Context, adapter.Failure)) {
			srv := mcp.NewServer(&mcp.Implementation{Name: "refusals", Version: "0"}, nil)
			srv.AddTool(&mcp.Tool{Name: "wait", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				<-ctx.Done()
				return &mcp.CallToolResult{}, nil
			})
			tr := &gosdk.StdioTransport{In: in, Out: out, MaxInFlight: 1, MaxLine: 512, OnFailure: hook}
			if direct {
				tr.Server = srv
			}
			srv.Run(ctx, tr)
		})
		if err != nil {
			t.Errorf("direct=%v: %v", direct, err)
		}
	}
}

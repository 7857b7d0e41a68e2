package gosdk_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/adapter/adaptertest"
	"github.com/mcperr/mcperr/gosdk"
)

// TestHandleUpstream checks, through a go-sdk server, that a handler that
// returns its API client's error as it got it, or wrapped with %w, gets
// the agent the kind object of the upstream failure: read by
// envelope.ErrorOf, with what the envelope.Transport under the client kept
// of the call's answers when the client dropped it.
func TestHandleUpstream(t *testing.T) {
	api := adaptertest.Server()
	defer api.Close()
	s := mcp.NewServer(&mcp.Implementation{Name: "upstream", Version: "1"}, nil)
	for i, c := range adaptertest.Cases() {
		mcp.AddTool(s, &mcp.Tool{Name: adaptertest.CaseTool(i)}, gosdk.Handle(func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (struct{}, error) {
			return struct{}{}, c.Call(ctx, api.URL)
		}))
		s.AddTool(&mcp.Tool{Name: adaptertest.CaseTool(i) + "_raw", InputSchema: map[string]any{"type": "object"}}, gosdk.Raw(func(ctx context.Context, _ *mcp.CallToolRequest) (any, error) {
			return nil, c.Call(ctx, api.URL)
		}))
	}
	cs, done := connect(s)
	defer done()
	adaptertest.RunCases(t, api.URL, func(ctx context.Context, tool string) (string, bool, error) {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{}})
		if err != nil {
			return "", false, err
		}
		return res.Content[0].(*mcp.TextContent).Text, res.IsError, nil
	})
}

package mcpgo_test

import (
	"context"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcperr/mcperr/adapter/adaptertest"
	"github.com/mcperr/mcperr/mcpgo"
)

// TestHandleUpstream checks, through an mcp-go server, that a handler that
// returns its API client's error as it got it, or wrapped with %w, gets
// the agent the kind object of the upstream failure: read by
// envelope.ErrorOf, with what the envelope.Transport under the client kept
// of the call's answers when the client dropped it.
func TestHandleUpstream(t *testing.T) {
	api := adaptertest.Server()
	defer api.Close()
	s := server.NewMCPServer("upstream", "1")
	for i, c := range adaptertest.Cases() {
		s.AddTool(mcp.NewTool(adaptertest.CaseTool(i)), mcpgo.Handle(func(ctx context.Context, _ mcp.CallToolRequest, _ struct{}) (struct{}, error) {
			return struct{}{}, c.Call(ctx, api.URL)
		}))
		s.AddTool(mcp.NewTool(adaptertest.CaseTool(i)+"_raw"), mcpgo.Raw(func(ctx context.Context, _ mcp.CallToolRequest) (any, error) {
			return nil, c.Call(ctx, api.URL)
		}))
	}
	ctx := context.Background()
	c, err := client.NewInProcessClient(s)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ir := mcp.InitializeRequest{}
	ir.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	if _, err := c.Initialize(ctx, ir); err != nil {
		t.Fatal(err)
	}
	adaptertest.RunCases(t, api.URL, func(ctx context.Context, tool string) (string, bool, error) {
		req := mcp.CallToolRequest{}
		req.Params.Name = tool
		res, err := c.CallTool(ctx, req)
		if err != nil {
			return "", false, err
		}
		return res.Content[0].(mcp.TextContent).Text, res.IsError, nil
	})
}

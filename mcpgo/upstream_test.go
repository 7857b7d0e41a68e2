package mcpgo_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/mcperr/mcperr/internal/upstream/apitest"
	"github.com/mcperr/mcperr/mcpgo"
)

// TestHandleUpstream checks, through an mcp-go server, that a handler that
// returns its API client's error as it got it, or wrapped with %w, gets
// the agent the kind object of the upstream failure: read by
// envelope.ErrorOf, with what the envelope.Transport under the client kept
// of the call's answers when the client dropped it.
func TestHandleUpstream(t *testing.T) {
	api := apitest.Server()
	defer api.Close()
	host := strings.TrimPrefix(api.URL, "http://")
	s := server.NewMCPServer("upstream", "1")
	for i, c := range apitest.Cases {
		name := "tool" + string(rune('a'+i))
		s.AddTool(mcp.NewTool(name), mcpgo.Handle(func(ctx context.Context, _ mcp.CallToolRequest, _ struct{}) (struct{}, error) {
			return struct{}{}, c.Call(ctx, api.URL)
		}))
		s.AddTool(mcp.NewTool(name+"_raw"), mcpgo.Raw(func(ctx context.Context, _ mcp.CallToolRequest) (any, error) {
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
	for i, tc := range apitest.Cases {
		for _, name := range []string{"tool" + string(rune('a'+i)), "tool" + string(rune('a'+i)) + "_raw"} {
			t.Run(tc.Name+"/"+name, func(t *testing.T) {
				req := mcp.CallToolRequest{}
				req.Params.Name = name
				res, err := c.CallTool(ctx, req)
				if err != nil {
					t.Fatal(err)
				}
				want := strings.ReplaceAll(tc.Want, apitest.Host, host)
				if got := res.Content[0].(mcp.TextContent).Text; !res.IsError || got != want {
					t.Errorf("isError %v\n got %s\nwant %s", res.IsError, got, want)
				}
			})
		}
	}
}

package gosdk_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mcperr/mcperr/gosdk"
	"github.com/mcperr/mcperr/internal/upstream/apitest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestHandleUpstream checks, through a go-sdk server, that a handler that
// returns its API client's error as it got it, or wrapped with %w, gets
// the agent the kind object of the upstream failure: read by
// envelope.ErrorOf, with what the envelope.Transport under the client kept
// of the call's answers when the client dropped it.
func TestHandleUpstream(t *testing.T) {
	api := apitest.Server()
	defer api.Close()
	host := strings.TrimPrefix(api.URL, "http://")
	s := mcp.NewServer(&mcp.Implementation{Name: "upstream", Version: "1"}, nil)
	for i, c := range apitest.Cases {
		name := "tool" + string(rune('a'+i))
		mcp.AddTool(s, &mcp.Tool{Name: name}, gosdk.Handle(func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (struct{}, error) {
			return struct{}{}, c.Call(ctx, api.URL)
		}))
		raw := name + "_raw"
		s.AddTool(&mcp.Tool{Name: raw, InputSchema: map[string]any{"type": "object"}}, gosdk.Raw(func(ctx context.Context, _ *mcp.CallToolRequest) (any, error) {
			return nil, c.Call(ctx, api.URL)
		}))
	}
	cs, done := connect(s)
	defer done()
	for i, c := range apitest.Cases {
		for _, name := range []string{"tool" + string(rune('a'+i)), "tool" + string(rune('a'+i)) + "_raw"} {
			t.Run(c.Name+"/"+name, func(t *testing.T) {
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: map[string]any{}})
				if err != nil {
					t.Fatal(err)
				}
				want := strings.ReplaceAll(c.Want, apitest.Host, host)
				if got := res.Content[0].(*mcp.TextContent).Text; !res.IsError || got != want {
					t.Errorf("isError %v\n got %s\nwant %s", res.IsError, got, want)
				}
			})
		}
	}
}

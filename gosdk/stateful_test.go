package gosdk_test

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/gosdk"
)

// TestStateful: a stateful server (sessions, SSE responses) behind the front,
// which answers the standalone SSE GET with 405 as the transport allows,
// serves a go-sdk client, and the client's DELETE ends its session.
func TestStateful(t *testing.T) {
	srv := httptest.NewServer(gosdk.HTTPHandler(testServer(nil, nil, nil), &gosdk.HTTPOptions{Streamable: &mcp.StreamableHTTPOptions{}}))
	defer srv.Close()
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_values", Arguments: map[string]any{"path": []string{"a"}, "limit": 101}})
		if err != nil {
			t.Fatal(err)
		}
		if want := "MCP error -32602: Input validation error: Invalid arguments for tool get_values: Too big: expected number to be <=100 at limit"; text(t, res) != want {
			t.Errorf("got %q", text(t, res))
		}
	}
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
}

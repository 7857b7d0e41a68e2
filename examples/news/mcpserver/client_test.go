package mcpserver

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// keyTransport adds the API key to every request, as a host configured
// with a bearer token does.
type keyTransport struct {
	key  string
	sent int
}

func (k *keyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	k.sent++
	r = r.Clone(r.Context())
	if k.key != "" {
		r.Header.Set("Authorization", "Bearer "+k.key)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestGoSDKClient drives the hosted endpoint with the go-sdk's own client,
// in both protocol versions the server speaks.
func TestGoSDKClient(t *testing.T) {
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			s, _ := newTestServer(t)
			srv := httptest.NewServer(s.Handler())
			defer srv.Close()
			kt := &keyTransport{key: "demo-pro"}
			client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
			cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp", HTTPClient: &http.Client{Transport: kt}},
				&mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			if got := cs.InitializeResult().ProtocolVersion; got != version {
				t.Errorf("negotiated %s, want %s", got, version)
			}
			res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "search_stories", Arguments: map[string]any{"query": "wind", "limit": 2}})
			if err != nil || res.IsError {
				t.Fatalf("search: %v %+v", err, res)
			}
			m, ok := res.StructuredContent.(map[string]any)
			if !ok || m["total_relation"] != "exact" || m["credits_charged"] == nil {
				t.Errorf("structuredContent = %#v", res.StructuredContent)
			}
			if text := res.Content[0].(*mcp.TextContent).Text; !strings.HasPrefix(text, `{"total":`) {
				t.Errorf("text = %.60s", text)
			}

			_, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "search_stories", Arguments: map[string]any{"query": "wind", "langauge": "en"}})
			var werr *jsonrpc.Error
			if !errors.As(err, &werr) || werr.Code != -32602 || string(werr.Data) != `{"code":"unknown_parameter"}` || werr.Message != "Unknown parameter 'langauge'. Did you mean 'language'?" {
				t.Errorf("unknown parameter: %v (%+v)", err, werr)
			}
			_, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "no_such_tool", Arguments: map[string]any{}})
			if !errors.As(err, &werr) || werr.Code != -32601 {
				t.Errorf("unknown tool: %v", err)
			}
			// The session survives protocol errors.
			res, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "get_article", Arguments: map[string]any{"id": "a-99999"}})
			if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, `"code":"not_found"`) {
				t.Errorf("not_found: %v %+v", err, res)
			}
		})
	}
	t.Run("no key", func(t *testing.T) {
		s, _ := newTestServer(t)
		srv := httptest.NewServer(s.Handler())
		defer srv.Close()
		client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
		cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp", HTTPClient: &http.Client{Transport: &keyTransport{}}},
			&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		if err == nil {
			cs.Close()
			t.Fatal("connected without a key")
		}
		if !strings.Contains(err.Error(), "401") && !strings.Contains(err.Error(), "Unauthorized") {
			t.Errorf("error does not say 401: %v", err)
		}
	})
}

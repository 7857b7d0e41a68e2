package gosdk_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/gosdk"
)

// TestRefusalBoundedOverHTTP: the red team's 62 KiB POST (a record of string arrays, one
// 32,000-byte key, 16,760 wrong items) through HTTPHandler and Validate gets an answer of at
// most twice its size in every dialect, not 494 MiB.
func TestRefusalBoundedOverHTTP(t *testing.T) {
	const schema = `{"type":"object","properties":{"r":{"type":"object","additionalProperties":{"type":"array","items":{"type":"string"}}}}}`
	args := `{"r":{"` + strings.Repeat("k", 32000) + `":[` + strings.TrimSuffix(strings.Repeat("1,", 16760), ",") + `]}}`
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"rec","arguments":` + args + `}}`
	for _, d := range []gosdk.Dialect{gosdk.TypeScript, gosdk.TypeScriptV2, gosdk.Hint} {
		s := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
		s.AddTool(&mcp.Tool{Name: "rec", InputSchema: json.RawMessage(schema)}, gosdk.Raw(func(context.Context, *mcp.CallToolRequest) (any, error) {
			return map[string]any{"ok": true}, nil
		}))
		s.AddReceivingMiddleware(gosdk.Validate(&gosdk.Options{Validation: gosdk.Validation{Dialect: d}}))
		srv := httptest.NewServer(gosdk.HTTPHandler(s, &gosdk.HTTPOptions{Streamable: &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}}))
		status, _, body := post(t, srv.URL+"/mcp", call)
		srv.Close()
		if status != 200 || !strings.Contains(body, "more issues") {
			t.Errorf("dialect %d: %d %.300s", d, status, body)
		}
		if len(body) > 2*len(call) {
			t.Errorf("dialect %d: a %d-byte call got %d bytes", d, len(call), len(body))
		}
	}
}

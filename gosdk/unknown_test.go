package gosdk_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/adapter/adaptertest"
	"github.com/mcperr/mcperr/gosdk"
)

// revisions are the protocol revisions a client may ask for.
var revisions = []string{"2025-06-18", "2025-11-25", "2026-07-28"}

// TestUnknownMethodHTTP: a request for a method the server does not serve
// is answered -32601 with HTTP 404 on every revision, stateless and
// stateful (the go-sdk's handler answers 400 / -32600 before 2026-07-28).
func TestUnknownMethodHTTP(t *testing.T) {
	for _, stateless := range []bool{true, false} {
		for _, v := range revisions {
			t.Run(fmt.Sprintf("stateless=%v/%s", stateless, v), func(t *testing.T) {
				srv := mcp.NewServer(&mcp.Implementation{Name: "u", Version: "0"}, nil)
				h := gosdk.HTTPHandler(srv, &gosdk.HTTPOptions{Streamable: &mcp.StreamableHTTPOptions{Stateless: stateless, JSONResponse: true}})
				post := func(body, sid string) (*http.Response, []byte) {
					r := httptest.NewRequest("POST", "http://localhost/mcp", strings.NewReader(body))
					r.Header.Set("Content-Type", "application/json")
					r.Header.Set("Accept", "application/json, text/event-stream")
					r.Header.Set("MCP-Protocol-Version", v)
					if sid != "" {
						r.Header.Set("Mcp-Session-Id", sid)
					}
					w := httptest.NewRecorder()
					h.ServeHTTP(w, r)
					b, _ := io.ReadAll(w.Result().Body)
					return w.Result(), b
				}
				res, _ := post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+v+`","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`, "")
				sid := res.Header.Get("Mcp-Session-Id")
				post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, sid)
				res, body := post(`{"jsonrpc":"2.0","id":"<x>","method":"nope/nope","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"`+v+`","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"0"}}}}`, sid)
				var got struct {
					ID    string
					Error struct{ Code int }
				}
				json.Unmarshal(body, &got)
				if res.StatusCode != http.StatusNotFound || got.Error.Code != -32601 || got.ID != "<x>" {
					t.Errorf("got %d %s, want 404 and -32601 with the id", res.StatusCode, body)
				}
				// A known method still answers as the SDK does (2026-07-28 asks for
				// more of it: its own tests see to that).
				if res, body := post(`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`, sid); v < "2026-07-28" && res.StatusCode != http.StatusOK {
					t.Errorf("tools/list: %d %s", res.StatusCode, body)
				}
			})
		}
	}
}

// TestUnknownMethodStdio: over stdio, a request for a method the server
// does not serve is answered -32601 on every revision, on the SDK's path
// and with the direct path on.
func TestUnknownMethodStdio(t *testing.T) {
	for _, v := range revisions {
		for _, direct := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/direct=%v", v, direct), func(t *testing.T) {
				srv := mcp.NewServer(&mcp.Implementation{Name: "u", Version: "0"}, nil)
				in := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + v + `","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}` + "\n" +
					initialized + "\n" + `{"jsonrpc":"2.0","id":2,"method":"nope/nope"}` + "\n"
				var out adaptertest.SafeBuffer
				tr := &gosdk.StdioTransport{In: strings.NewReader(in), Out: &out, Drain: time.Second}
				if direct {
					tr.Server = srv
				}
				srv.Run(t.Context(), tr)
				lines := strings.Split(strings.TrimSpace(out.String()), "\n")
				if want := `{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"method not found: \"nope/nope\""}}`; lines[len(lines)-1] != want {
					t.Errorf("got %s, want %s", lines[len(lines)-1], want)
				}
			})
		}
	}
}

package adaptertest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Revisions returns the protocol revisions a client may ask for, oldest
// first, in a new slice at each call.
func Revisions() []string { return []string{"2025-06-18", "2025-11-25", "2026-07-28"} }

// UnknownMethodHTTP checks, in a subtest of t for each of stateless and
// stateful and each of Revisions, that a request for a method the server
// does not serve (nope/nope, id "<x>") is answered -32601 with its id and
// the HTTP status status(revision) gives (404, or an adapter's own), in a
// session opened on the revision through the handler handler(stateful)
// gives, and that tools/list is still answered 200
// before 2026-07-28 (which asks for more of it: each adapter's own tests
// see to that). Each POST carries the Mcp-Method header the body names.
func UnknownMethodHTTP(t *testing.T, handler func(stateful bool) http.Handler, status func(revision string) int) {
	for _, stateful := range []bool{false, true} {
		for _, v := range Revisions() {
			t.Run(fmt.Sprintf("stateful=%v/%s", stateful, v), func(t *testing.T) {
				h := handler(stateful)
				post := func(body, sid string) (*http.Response, []byte) {
					r := httptest.NewRequest("POST", "http://localhost/mcp", strings.NewReader(body))
					r.Header.Set("Content-Type", "application/json")
					r.Header.Set("Accept", "application/json, text/event-stream")
					r.Header.Set("MCP-Protocol-Version", v)
					var m struct{ Method string }
					json.Unmarshal([]byte(body), &m)
					r.Header.Set("Mcp-Method", m.Method)
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
				post(Initialized, sid)
				res, body := post(`{"jsonrpc":"2.0","id":"<x>","method":"nope/nope","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"`+v+`","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"0"}}}}`, sid)
				var got struct {
					ID    string
					Error struct{ Code int }
				}
				json.Unmarshal(body, &got)
				if want := status(v); res.StatusCode != want || got.Error.Code != -32601 || got.ID != "<x>" {
					t.Errorf("got %d %s, want %d and -32601 with the id", res.StatusCode, body, want)
				}
				if res, body := post(`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`, sid); v < "2026-07-28" && res.StatusCode != http.StatusOK {
					t.Errorf("tools/list: %d %s", res.StatusCode, body)
				}
			})
		}
	}
}

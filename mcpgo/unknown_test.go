package mcpgo_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcperr/mcperr/mcpgo"
)

// revisions are the protocol revisions a client may ask for.
var revisions = []string{"2025-06-18", "2025-11-25", "2026-07-28"}

// TestUnknownMethodHTTP: a request for a method the server does not serve
// is answered -32601 with its id on every revision, stateless and
// stateful.
func TestUnknownMethodHTTP(t *testing.T) {
	for _, stateful := range []bool{false, true} {
		for _, v := range revisions {
			t.Run(fmt.Sprintf("stateful=%v/%s", stateful, v), func(t *testing.T) {
				h := mcpgo.HTTPHandler(server.NewMCPServer("u", "0"), &mcpgo.HTTPOptions{Stateful: stateful})
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
				post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, sid)
				_, body := post(`{"jsonrpc":"2.0","id":"<x>","method":"nope/nope","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"`+v+`","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"0"}}}}`, sid)
				var got struct {
					ID    string
					Error struct{ Code int }
				}
				json.Unmarshal(body, &got)
				if got.Error.Code != -32601 || got.ID != "<x>" {
					t.Errorf("got %s, want -32601 with the id", body)
				}
			})
		}
	}
}

// TestUnknownMethodStdio: over stdio, a request for a method the server
// does not serve is answered -32601 on every revision.
func TestUnknownMethodStdio(t *testing.T) {
	for _, v := range revisions {
		t.Run(v, func(t *testing.T) {
			in := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + v + `","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}` + "\n" +
				stdioInitialized + "\n" + `{"jsonrpc":"2.0","id":2,"method":"nope/nope"}` + "\n"
			var out strings.Builder
			if err := mcpgo.ServeStdio(context.Background(), server.NewMCPServer("u", "0"), &mcpgo.StdioOptions{In: strings.NewReader(in), Out: &out}); err != nil {
				t.Fatal(err)
			}
			// Requests are served concurrently: the answer may come before initialize's.
			if !strings.Contains("\n"+out.String(), "\n"+`{"jsonrpc":"2.0","id":2,"error":{"code":-32601,`) {
				t.Errorf("got %s, want -32601 with id 2", out.String())
			}
		})
	}
}

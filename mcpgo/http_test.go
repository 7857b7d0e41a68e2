package mcpgo_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/adapter/adaptertest"
	"github.com/mcperr/mcperr/mcpgo"
	"github.com/mcperr/mcperr/ratelimit"
)

const initialize = adaptertest.Initialize

// counted is a server that counts the sessions mcp-go registers, through
// its session hooks.
func counted() (*server.MCPServer, *atomic.Int64) {
	var n atomic.Int64
	hooks := &server.Hooks{}
	hooks.AddOnRegisterSession(func(context.Context, server.ClientSession) { n.Add(1) })
	hooks.AddOnUnregisterSession(func(context.Context, server.ClientSession) { n.Add(-1) })
	return server.NewMCPServer("t", "1", server.WithHooks(hooks)), &n
}

// TestSessionsEnd: behind the front, a Stateful server's sessions end: a
// client's DELETE reaches mcp-go, which frees the session, so sessions
// opened and ended leave none registered; a request naming an ended
// session is answered 404, so the client starts a new one.
func TestSessionsEnd(t *testing.T) {
	s, n := counted()
	const many = 200
	srv := httptest.NewServer(mcpgo.HTTPHandler(s, &mcpgo.HTTPOptions{Stateful: true, HTTP: adapter.HTTP{MaxSessions: many}}))
	defer srv.Close()
	url := srv.URL + "/mcp"
	ids := make([]string, many)
	for i := range ids {
		ids[i] = adaptertest.Open(t, url)
	}
	if got := n.Load(); got != many {
		t.Fatalf("%d sessions registered, want %d", got, many)
	}
	for _, id := range ids {
		if status, _, body := adaptertest.Request(t, "DELETE", url, id, ""); status != http.StatusOK {
			t.Fatalf("DELETE: status %d, body %s; want 200", status, body)
		}
	}
	if got := n.Load(); got != 0 {
		t.Errorf("%d sessions registered after every one was ended, want 0", got)
	}
	if status, _, body := adaptertest.Request(t, "POST", url, ids[0], `{"jsonrpc":"2.0","id":2,"method":"ping"}`); status != http.StatusNotFound {
		t.Errorf("a ping in an ended session: %d %s; want 404", status, body)
	}
}

// TestSessionsIdle: a session no request has named for SessionTimeout ends
// (at the next request, which may open a session of its own).
//
// The timeout is 500 ms, not shorter: the session opened last must still be
// live at the ping right after it, and on a loaded machine 60 ms between two
// requests ended it (the ping's own look for idle sessions did).
func TestSessionsIdle(t *testing.T) {
	const idle = 500 * time.Millisecond
	s, n := counted()
	srv := httptest.NewServer(mcpgo.HTTPHandler(s, &mcpgo.HTTPOptions{Stateful: true, SessionTimeout: idle}))
	defer srv.Close()
	url := srv.URL + "/mcp"
	for range 20 {
		adaptertest.Open(t, url)
	}
	time.Sleep(idle + idle/2) // past the timeout, and past the next look for idle sessions (every idle/4)
	kept := adaptertest.Open(t, url)
	if got := n.Load(); got != 1 {
		t.Errorf("%d sessions registered, want 1 (the one just opened)", got)
	}
	if status, _, body := adaptertest.Request(t, "POST", url, kept, `{"jsonrpc":"2.0","id":2,"method":"ping"}`); status != http.StatusOK {
		t.Errorf("a ping in a live session: %d %s; want 200", status, body)
	}
}

// TestSessionsBounded: a Stateful server's sessions are bounded per client
// (Key; by default the source address, an IPv6 one by its /64) and in total
// by refusing a new initialize, 429 past the client's bound and 503 past the
// total, each with Retry-After and a body errkind.Read gets the kind and
// the wait from; no flood, from the victim's own address or any other,
// ends the victim's established session, in mcp-go either.
func TestSessionsBounded(t *testing.T) {
	for _, f := range adaptertest.Floods() {
		t.Run(f.Name, func(t *testing.T) {
			s, n := counted()
			res, err := f.Run(mcpgo.HTTPHandler(s, &mcpgo.HTTPOptions{Stateful: true, HTTP: f.HTTP}))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(f.Want(), res); diff != "" {
				t.Errorf("the flood (-want +got):\n%s", diff)
			}
			if got := n.Load(); got != int64(f.Live) {
				t.Errorf("%d sessions registered, want %d", got, f.Live)
			}
		})
	}
}

// TestSessionsCounted: on a Stateful server each initialize opens a
// session, so it takes a token of the Limiter even when only tool calls are
// counted; a refused one is a 429 and opens nothing. On a stateless server
// it passes free.
func TestSessionsCounted(t *testing.T) {
	for _, c := range []struct {
		name     string
		stateful bool
		want     []int
		open     int64 // sessions registered after
	}{
		{"stateful", true, []int{200, 200, 429, 429}, 2},
		{"stateless", false, []int{200, 200, 200, 200}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, n := counted()
			lim := ratelimit.NewLimiter(0.001, 2)
			srv := httptest.NewServer(mcpgo.HTTPHandler(s, &mcpgo.HTTPOptions{Stateful: c.stateful, HTTP: adapter.HTTP{Limiter: lim}}))
			defer srv.Close()
			var got []int
			for range c.want {
				status, _, _ := adaptertest.Request(t, "POST", srv.URL+"/mcp", "", initialize)
				got = append(got, status)
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("initialize statuses (-want +got):\n%s", diff)
			}
			if got := n.Load(); got != c.open {
				t.Errorf("%d sessions registered, want %d", got, c.open)
			}
		})
	}
}

// TestHintBody: over HTTP, the hint dialect's JSON-RPC error is written
// byte for byte as mcp-go's own JSONRPCError encodes without HTML escaping
// (the answer HandleMessage gives), with HTTP 200.
func TestHintBody(t *testing.T) {
	s, v := testServer(&mcpgo.Options{Validation: mcpgo.Validation{Dialect: mcpgo.Hint}}, nil)
	s.AddTool(mcp.NewToolWithRawSchema("odd", "", json.RawMessage(`{"type":"object","properties":{"a<b":{"type":"string","maxLength":1}}}`)), mcpgo.Raw(func(context.Context, mcp.CallToolRequest) (any, error) { return nil, nil }))
	h := mcpgo.HTTPHandler(s, &mcpgo.HTTPOptions{Validator: v})
	for _, c := range []struct{ tool, args string }{
		{"search", `{"query":"hello","langauge":"en"}`},
		{"get_values", `{"path":["a"],"limit":0}`},
		{"search", `[]`},
		{"get_values", adaptertest.Deep(100)},
		{"serch", `{}`},
		{"odd", `{"a<b":"&&"}`},
	} {
		msg := body(1, c.tool, c.args)
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v.HandleMessage(context.Background(), json.RawMessage(msg))); err != nil {
			t.Fatal(err)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, newPost(msg))
		if w.Code != http.StatusOK {
			t.Errorf("%s %s: status %d", c.tool, c.args, w.Code)
		}
		if !strings.Contains(want.String(), `"error"`) {
			t.Fatalf("%s %s: not a JSON-RPC error: %s", c.tool, c.args, want.String())
		}
		if diff := cmp.Diff(want.String(), w.Body.String()); diff != "" {
			t.Errorf("%s %s (-mcp-go +HTTP):\n%s", c.tool, c.args, diff)
		}
	}
}

// A Stateful server behind HTTPHandler keeps a session per client, ended
// by the client's DELETE or by SessionTimeout of idleness; a request in an
// ended session is answered 404, and the client starts a new one. A client
// holds at most MaxSessions, all clients at most MaxTotalSessions, and an
// initialize past either is refused (429, 503) without ending a session.
func ExampleHTTPHandler_stateful() {
	s := server.NewMCPServer("traces", "1.0.0")
	srv := httptest.NewServer(mcpgo.HTTPHandler(s, &mcpgo.HTTPOptions{
		Stateful:       true,
		SessionTimeout: 5 * time.Minute, // zero: session.IdleTimeout
		HTTP: adapter.HTTP{
			MaxSessions:      10,   // zero: session.MaxPerClient
			MaxTotalSessions: 1000, // zero: session.MaxTotal
		},
	}))
	defer srv.Close()

	do := func(method, session, body string) *http.Response {
		req, _ := http.NewRequest(method, srv.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			log.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	resp := do("POST", "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	id := resp.Header.Get("Mcp-Session-Id")
	fmt.Println("initialize:", resp.StatusCode, "session:", id != "")
	ping := `{"jsonrpc":"2.0","id":2,"method":"ping"}`
	fmt.Println("ping:", do("POST", id, ping).StatusCode)
	fmt.Println("DELETE:", do("DELETE", id, "").StatusCode)
	fmt.Println("ping after DELETE:", do("POST", id, ping).StatusCode)
	// Output:
	// initialize: 200 session: true
	// ping: 200
	// DELETE: 200
	// ping after DELETE: 404
}

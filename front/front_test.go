package front_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/front"
)

// TestFront drives every row of seed 003's transport refusals over real
// HTTP, in the order the checks apply.
func TestFront(t *testing.T) {
	mcp := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	})
	tests := []struct {
		name        string
		front       front.Front
		method      string
		path        string
		host        string // "" leaves the test server's 127.0.0.1:port
		origin      string
		contentType string
		status      int
		body        string // exact; "" for a passed request's body
		allow       string
	}{
		{name: "passes", method: "POST", path: "/mcp", contentType: "application/json",
			status: 200, body: `{"jsonrpc":"2.0","id":1,"result":{}}`},
		{name: "charset allowed", method: "POST", path: "/mcp", contentType: "application/json; charset=utf-8",
			status: 200, body: `{"jsonrpc":"2.0","id":1,"result":{}}`},
		{name: "localhost with port", method: "POST", path: "/mcp", host: "localhost:3000", contentType: "application/json",
			status: 200, body: `{"jsonrpc":"2.0","id":1,"result":{}}`},
		{name: "ipv6 loopback", method: "POST", path: "/mcp", host: "[::1]:3000", contentType: "application/json",
			status: 200, body: `{"jsonrpc":"2.0","id":1,"result":{}}`},
		{name: "loopback origin", method: "POST", path: "/mcp", origin: "http://localhost:5173", contentType: "application/json",
			status: 200, body: `{"jsonrpc":"2.0","id":1,"result":{}}`},
		{name: "host not allowed", method: "POST", path: "/mcp", host: "evil.example", contentType: "application/json",
			status: 403, body: "Forbidden: Host header not allowed\n"},
		{name: "host not allowed beats every other check", method: "GET", path: "/nope", host: "evil.example:80",
			status: 403, body: "Forbidden: Host header not allowed\n"},
		{name: "origin not allowed", method: "POST", path: "/mcp", origin: "https://evil.example", contentType: "application/json",
			status: 403, body: "Forbidden: Origin header not allowed\n"},
		{name: "origin null", method: "POST", path: "/mcp", origin: "null", contentType: "application/json",
			status: 403, body: "Forbidden: Origin header not allowed\n"},
		{name: "configured host", front: front.Front{AllowedHosts: []string{"mcp.example"}}, method: "POST", path: "/mcp",
			host: "mcp.example", contentType: "application/json", status: 200, body: `{"jsonrpc":"2.0","id":1,"result":{}}`},
		{name: "configured host excludes loopback", front: front.Front{AllowedHosts: []string{"mcp.example"}}, method: "POST", path: "/mcp",
			contentType: "application/json", status: 403, body: "Forbidden: Host header not allowed\n"},
		{name: "configured origin", front: front.Front{AllowedOrigins: []string{"https://app.example"}}, method: "POST", path: "/mcp",
			origin: "https://app.example", contentType: "application/json", status: 200, body: `{"jsonrpc":"2.0","id":1,"result":{}}`},
		{name: "unknown path", method: "POST", path: "/other", contentType: "application/json",
			status: 404, body: `{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"Not found: the MCP endpoint is /mcp"}}` + "\n"},
		{name: "unknown path beats method", method: "GET", path: "/",
			status: 404, body: `{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"Not found: the MCP endpoint is /mcp"}}` + "\n"},
		{name: "public path", front: front.Front{Public: []string{"/health"}}, method: "GET", path: "/health",
			status: 200, body: `{"jsonrpc":"2.0","id":1,"result":{}}`},
		{name: "public path with any method and content type", front: front.Front{Public: []string{"/health"}}, method: "DELETE", path: "/health",
			contentType: "text/plain", status: 200, body: `{"jsonrpc":"2.0","id":1,"result":{}}`},
		{name: "public path still checks the host", front: front.Front{Public: []string{"/health"}}, method: "GET", path: "/health",
			host: "evil.example", status: 403, body: "Forbidden: Host header not allowed\n"},
		{name: "custom path", front: front.Front{Path: "/rpc"}, method: "POST", path: "/mcp", contentType: "application/json",
			status: 404, body: `{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"Not found: the MCP endpoint is /rpc"}}` + "\n"},
		{name: "GET", method: "GET", path: "/mcp",
			status: 405, allow: "POST", body: `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Method not allowed: use POST"}}` + "\n"},
		{name: "DELETE", method: "DELETE", path: "/mcp", contentType: "application/json",
			status: 405, allow: "POST", body: `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Method not allowed: use POST"}}` + "\n"},
		{name: "text/plain", method: "POST", path: "/mcp", contentType: "text/plain",
			status: 415, body: `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Unsupported Media Type: Content-Type must be application/json"}}` + "\n"},
		{name: "no content type", method: "POST", path: "/mcp",
			status: 415, body: `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Unsupported Media Type: Content-Type must be application/json"}}` + "\n"},
		{name: "application/json-seq", method: "POST", path: "/mcp", contentType: "application/json-seq",
			status: 415, body: `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Unsupported Media Type: Content-Type must be application/json"}}` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := tt.front
			f.Handler = mcp
			srv := httptest.NewServer(&f)
			defer srv.Close()
			req, err := http.NewRequest(tt.method, srv.URL+tt.path, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
			if err != nil {
				t.Fatal(err)
			}
			if tt.host != "" {
				req.Host = tt.host
			}
			if tt.origin != "" {
				req.Header.Set("Origin", tt.origin)
			}
			if tt.contentType != "" {
				req.Header.Set("Content-Type", tt.contentType)
			}
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.status {
				t.Errorf("status %d, want %d", resp.StatusCode, tt.status)
			}
			if diff := cmp.Diff(tt.body, string(body)); diff != "" {
				t.Errorf("body (-want +got):\n%s", diff)
			}
			if got := resp.Header.Get("Allow"); got != tt.allow {
				t.Errorf("Allow = %q, want %q", got, tt.allow)
			}
			if strings.HasPrefix(tt.body, `{"jsonrpc"`) {
				if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
					t.Errorf("Content-Type = %q for a JSON-RPC body", ct)
				}
			}
		})
	}
}

// TestFrontSessionEnd: a DELETE naming a session (Mcp-Session-Id) is a
// client ending it: it reaches Handler, without a message, after the Host,
// Origin and path checks and the Gate; a plain-text error the endpoint
// writes becomes a JSON-RPC error with id null. A DELETE naming no session
// is refused with 405 as before.
func TestFrontSessionEnd(t *testing.T) {
	endpoint := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if front.Checked(r) != nil {
			t.Error("a DELETE reached the endpoint with a message")
		}
		switch r.Header.Get("Mcp-Session-Id") {
		case "s1":
			w.WriteHeader(http.StatusNoContent)
		default:
			http.Error(w, "session not found", http.StatusNotFound)
		}
	})
	gate := func(w http.ResponseWriter, r *http.Request) bool {
		if r.Header.Get("X-Key") != "k" {
			http.Error(w, "no key", http.StatusUnauthorized)
			return false
		}
		return true
	}
	for _, c := range []struct {
		name, session, key, host string
		status                   int
		body                     string
	}{
		{"the session ends", "s1", "k", "", 204, ""},
		{"an unknown session is a JSON-RPC error", "s2", "k", "", 404,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"session not found"}}` + "\n"},
		{"the Gate sees it first", "s1", "", "", 401, "no key\n"},
		{"the Host check comes first", "s1", "k", "evil.example", 403, "Forbidden: Host header not allowed\n"},
		{"no session: 405", "", "k", "", 405,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Method not allowed: use POST"}}` + "\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := &front.Front{Handler: endpoint, Gate: gate}
			req := httptest.NewRequest("DELETE", "http://localhost/mcp", nil)
			if c.host != "" {
				req.Host = c.host
			}
			if c.session != "" {
				req.Header.Set("Mcp-Session-Id", c.session)
			}
			if c.key != "" {
				req.Header.Set("X-Key", c.key)
			}
			rec := httptest.NewRecorder()
			f.ServeHTTP(rec, req)
			if rec.Code != c.status {
				t.Errorf("status %d, want %d", rec.Code, c.status)
			}
			if diff := cmp.Diff(c.body, rec.Body.String()); diff != "" {
				t.Errorf("body (-want +got):\n%s", diff)
			}
		})
	}
}

// sdkLike answers as an SDK does: it decodes the id (a number as a float64,
// then an int64, as the go-sdk does) and writes it anew.
func sdkLike(t testing.TB) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if got := r.Header.Get("Accept"); got != "application/json, text/event-stream" {
			t.Errorf("Accept reaching the endpoint: %q", got)
		}
		if front.Checked(r) == nil {
			t.Error("front.Checked is nil behind the front")
		}
		var m struct {
			ID     any    `json:"id"`
			Method string `json:"method"`
		}
		if err := json.NewDecoder(r.Body).Decode(&m); err != nil {
			http.Error(w, "malformed payload: "+err.Error(), http.StatusBadRequest)
			return
		}
		if m.Method == "plain" {
			http.Error(w, "Accept must contain both 'application/json' and 'text/event-stream'", http.StatusBadRequest)
			return
		}
		if f, ok := m.ID.(float64); ok {
			m.ID = int64(f)
		}
		id, _ := json.Marshal(m.ID)
		b := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{}}`, id)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", fmt.Sprint(len(b)))
		io.WriteString(w, b)
	})
}

// TestFrontMessages: the message rule at the front. Issue 13: vulnetix and
// hosted news answered id 1.5 with 1 and a 23-digit id with
// -9223372036854775808, and bodies nested past 1,000 levels reached the SDK.
func TestFrontMessages(t *testing.T) {
	deep := strings.Repeat("[", 1001) + strings.Repeat("]", 1001)
	tests := []struct {
		name, body string
		status     int
		want       string
	}{
		{"integer id", `{"jsonrpc":"2.0","id":7,"method":"ping"}`, 200, `{"jsonrpc":"2.0","id":7,"result":{}}`},
		{"string id as sent", `{"jsonrpc":"2.0","id":"\u0041<","method":"ping"}`, 200, `{"jsonrpc":"2.0","id":"\u0041<","result":{}}`},
		{"2^53", `{"jsonrpc":"2.0","id":9007199254740992,"method":"ping"}`, 200, `{"jsonrpc":"2.0","id":9007199254740992,"result":{}}`},
		{"id 1.5", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, 400,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: the id must be a string or an integer of at most 2^53 in magnitude."}}`},
		{"id of 23 digits", `{"jsonrpc":"2.0","id":12345678901234567890123,"method":"ping"}`, 400,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: the id must be a string or an integer of at most 2^53 in magnitude."}}`},
		{"id 1e400", `{"jsonrpc":"2.0","id":1e400,"method":"ping"}`, 400,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: the id must be a string or an integer of at most 2^53 in magnitude."}}`},
		{"params nested 1,001 deep", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"arguments":` + deep + `}}`, 400,
			`{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"Invalid Request: objects and arrays nest deeper than 128 levels."}}`},
		{"nested 100,000 deep", strings.Repeat("[", 100000) + strings.Repeat("]", 100000), 400,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: objects and arrays nest deeper than 128 levels."}}`},
		{"not JSON", `{"jsonrpc":"2.0","id":1,`, 400, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the body is not valid JSON."}}`},
		{"a batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, 400,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: batch requests are not supported; send one JSON-RPC request per POST."}}`},
		{"over MaxBytes", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("a", 300<<10) + `"}}`, 413,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: the body is larger than 262144 bytes."}}`},
		{"a plain-text refusal becomes JSON-RPC", `{"jsonrpc":"2.0","id":"p","method":"plain"}`, 400,
			`{"jsonrpc":"2.0","id":"p","error":{"code":-32600,"message":"Accept must contain both 'application/json' and 'text/event-stream'"}}`},
	}
	srv := httptest.NewServer(&front.Front{Handler: sdkLike(t), MaxBytes: 256 << 10})
	defer srv.Close()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", srv.URL+"/mcp", strings.NewReader(tt.body))
			req.Header.Set("Content-Type", "application/json")
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.status {
				t.Errorf("status %d, want %d", resp.StatusCode, tt.status)
			}
			if diff := cmp.Diff(tt.want, strings.TrimSpace(string(body))); diff != "" {
				t.Errorf("body (-want +got):\n%s", diff)
			}
			if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q", ct)
			}
		})
	}
}

// TestFrontGate: the gate answers before a byte of the body is read, after
// the transport checks.
func TestFrontGate(t *testing.T) {
	f := &front.Front{
		Handler: sdkLike(t),
		Gate: func(w http.ResponseWriter, r *http.Request) bool {
			if r.Header.Get("Authorization") == "" {
				w.WriteHeader(http.StatusUnauthorized)
				return false
			}
			return true
		},
	}
	srv := httptest.NewServer(f)
	defer srv.Close()
	for _, c := range []struct {
		auth, ct string
		status   int
	}{
		{"", "application/json", 401},
		{"", "text/plain", 415},
		{"Bearer k", "application/json", 400}, // past the gate, the body is not JSON
	} {
		req, _ := http.NewRequestWithContext(context.Background(), "POST", srv.URL+"/mcp", strings.NewReader("{bad"))
		req.Header.Set("Content-Type", c.ct)
		if c.auth != "" {
			req.Header.Set("Authorization", c.auth)
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Errorf("auth %q, %s: status %d, want %d", c.auth, c.ct, resp.StatusCode, c.status)
		}
	}
}

package envelope_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
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
		front       envelope.Front
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
		{name: "configured host", front: envelope.Front{AllowedHosts: []string{"mcp.example"}}, method: "POST", path: "/mcp",
			host: "mcp.example", contentType: "application/json", status: 200, body: `{"jsonrpc":"2.0","id":1,"result":{}}`},
		{name: "configured host excludes loopback", front: envelope.Front{AllowedHosts: []string{"mcp.example"}}, method: "POST", path: "/mcp",
			contentType: "application/json", status: 403, body: "Forbidden: Host header not allowed\n"},
		{name: "configured origin", front: envelope.Front{AllowedOrigins: []string{"https://app.example"}}, method: "POST", path: "/mcp",
			origin: "https://app.example", contentType: "application/json", status: 200, body: `{"jsonrpc":"2.0","id":1,"result":{}}`},
		{name: "unknown path", method: "POST", path: "/other", contentType: "application/json",
			status: 404, body: `{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"Not found: the MCP endpoint is /mcp"}}` + "\n"},
		{name: "unknown path beats method", method: "GET", path: "/",
			status: 404, body: `{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"Not found: the MCP endpoint is /mcp"}}` + "\n"},
		{name: "public path", front: envelope.Front{Public: []string{"/health"}}, method: "GET", path: "/health",
			status: 200, body: `{"jsonrpc":"2.0","id":1,"result":{}}`},
		{name: "public path with any method and content type", front: envelope.Front{Public: []string{"/health"}}, method: "DELETE", path: "/health",
			contentType: "text/plain", status: 200, body: `{"jsonrpc":"2.0","id":1,"result":{}}`},
		{name: "public path still checks the host", front: envelope.Front{Public: []string{"/health"}}, method: "GET", path: "/health",
			host: "evil.example", status: 403, body: "Forbidden: Host header not allowed\n"},
		{name: "custom path", front: envelope.Front{Path: "/rpc"}, method: "POST", path: "/mcp", contentType: "application/json",
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

func TestWriteRPCError(t *testing.T) {
	tests := []struct {
		name   string
		status int
		id     json.RawMessage
		err    *envelope.RPCError
		want   string
		code   int
	}{
		{"seed 003 version", 0, json.RawMessage(`1`),
			&envelope.RPCError{Code: errkind.UnsupportedVersion, Message: "Unsupported protocol version: 1900-01-01",
				Data: map[string]any{"supported": []string{"2026-07-28"}, "requested": "1900-01-01"}},
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version: 1900-01-01","data":{"requested":"1900-01-01","supported":["2026-07-28"]}}}`, 400},
		{"seed 003 edge", 429, nil,
			&envelope.RPCError{Code: errkind.ImplementationDefined, Message: "Rate limited at the edge. Slow down and retry after a few seconds."},
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Rate limited at the edge. Slow down and retry after a few seconds."}}`, 429},
		{"seed 004 hint", 0, json.RawMessage(`"2"`),
			&envelope.RPCError{Code: errkind.InvalidParams, Message: "Unknown parameter 'langauge'. Did you mean 'language'?", Data: map[string]string{"code": "unknown_parameter"}},
			`{"jsonrpc":"2.0","id":"2","error":{"code":-32602,"message":"Unknown parameter 'langauge'. Did you mean 'language'?","data":{"code":"unknown_parameter"}}}`, 400},
		{"bad id is null", 0, json.RawMessage(`{`),
			&envelope.RPCError{Code: errkind.InternalError, Message: "x"},
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"x"}}`, 500},
		{"unencodable data dropped", 0, nil,
			&envelope.RPCError{Code: errkind.ParseError, Message: "bad", Data: make(chan int)},
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad"}}`, 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			envelope.WriteRPCError(rec, tt.status, tt.id, tt.err)
			if rec.Code != tt.code {
				t.Errorf("status %d, want %d", rec.Code, tt.code)
			}
			if diff := cmp.Diff(tt.want+"\n", rec.Body.String()); diff != "" {
				t.Errorf("body (-want +got):\n%s", diff)
			}
			if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q", ct)
			}
		})
	}
	if got := (&envelope.RPCError{Code: -32601, Message: "Tool x not found"}).Error(); got != "jsonrpc -32601: Tool x not found" {
		t.Errorf("Error() = %q", got)
	}
}

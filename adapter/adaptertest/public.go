package adaptertest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/front"
	"github.com/mcperr/mcperr/wire"
)

// WrapAndPublic is the endpoint options of an adapter's test of
// HTTP.Wrap and HTTP.Public: a Wrap that adds to *methods the method of
// each message it sees (front.Checked) and answers tools/list itself, 400
// with -32600 "no listing here", and a Public path /health that answers
// "ok " and the request's method. CheckPublic checks the Public path.
func WrapAndPublic(methods *[]string) adapter.HTTP {
	return adapter.HTTP{
		Wrap: func(sdk http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				m := front.Checked(r)
				*methods = append(*methods, m.Method)
				if m.Method == "tools/list" {
					wire.WriteRPCError(w, http.StatusBadRequest, m.ID, &wire.RPCError{Code: errkind.InvalidRequest, Message: "no listing here"})
					return
				}
				sdk.ServeHTTP(w, r)
			})
		},
		Public: map[string]http.Handler{"/health": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "ok "+r.Method)
		})},
	}
}

// CheckPublic checks h, an endpoint built with WrapAndPublic: the Public
// path answers after the Host check only, whatever its method, and a path
// that is neither it nor /mcp is answered 404 -32601.
func CheckPublic(t *testing.T, h http.Handler) {
	t.Helper()
	for _, tc := range []struct {
		method, path, host string
		status             int
		body               string
	}{
		{"GET", "/health", "localhost", 200, "ok GET"},
		{"DELETE", "/health", "localhost", 200, "ok DELETE"},
		{"GET", "/health", "evil.example", 403, "Forbidden: Host header not allowed"},
		{"GET", "/other", "localhost", 404, `{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"Not found: the MCP endpoint is /mcp"}}`},
	} {
		r := httptest.NewRequest(tc.method, "http://"+tc.host+tc.path, nil)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if got := strings.TrimSpace(w.Body.String()); w.Code != tc.status || got != tc.body {
			t.Errorf("%s %s (Host %q): %d %s, want %d %s", tc.method, tc.path, tc.host, w.Code, got, tc.status, tc.body)
		}
	}
}

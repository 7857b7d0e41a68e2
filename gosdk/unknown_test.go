package gosdk_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/adapter/adaptertest"
	"github.com/mcperr/mcperr/gosdk"
)

// TestUnknownMethodHTTP: a request for a method the server does not serve
// is answered -32601 with HTTP 404 on every revision, stateless and
// stateful (the go-sdk's handler answers 400 / -32600 before 2026-07-28).
func TestUnknownMethodHTTP(t *testing.T) {
	adaptertest.UnknownMethodHTTP(t, func(stateful bool) http.Handler {
		srv := mcp.NewServer(&mcp.Implementation{Name: "u", Version: "0"}, nil)
		return gosdk.HTTPHandler(srv, &gosdk.HTTPOptions{Streamable: &mcp.StreamableHTTPOptions{Stateless: !stateful, JSONResponse: true}})
	}, func(string) int { return http.StatusNotFound })
}

// TestUnknownMethodStdio: over stdio, a request for a method the server
// does not serve is answered -32601 on every revision, on the SDK's path
// and with the direct path on.
func TestUnknownMethodStdio(t *testing.T) {
	for _, v := range adaptertest.Revisions() {
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

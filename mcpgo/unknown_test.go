package mcpgo_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcperr/mcperr/adapter/adaptertest"
	"github.com/mcperr/mcperr/mcpgo"
)

// TestUnknownMethodHTTP: a request for a method the server does not serve
// is answered -32601 with its id on every revision, stateless and
// stateful: with HTTP 404 on 2026-07-28, and 200 before it, as mcp-go
// answers.
func TestUnknownMethodHTTP(t *testing.T) {
	adaptertest.UnknownMethodHTTP(t, func(stateful bool) http.Handler {
		return mcpgo.HTTPHandler(server.NewMCPServer("u", "0"), &mcpgo.HTTPOptions{Stateful: stateful})
	}, func(revision string) int {
		if revision < "2026-07-28" {
			return http.StatusOK
		}
		return http.StatusNotFound
	})
}

// TestUnknownMethodStdio: over stdio, a request for a method the server
// does not serve is answered -32601 on every revision.
func TestUnknownMethodStdio(t *testing.T) {
	for _, v := range adaptertest.Revisions() {
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

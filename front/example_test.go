package front_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/mcperr/mcperr/front"
)

func ExampleFront() {
	mcp := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	})
	srv := httptest.NewServer(&front.Front{Handler: mcp, Public: []string{"/health"}})
	defer srv.Close()

	for _, c := range []struct{ method, path, contentType string }{
		{"POST", "/mcp", "application/json"},
		{"GET", "/mcp", ""},
		{"POST", "/mcp", "text/plain"},
		{"POST", "/elsewhere", "application/json"},
	} {
		req, _ := http.NewRequest(c.method, srv.URL+c.path, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		if c.contentType != "" {
			req.Header.Set("Content-Type", c.contentType)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			fmt.Println(err)
			return
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Printf("%s %s -> %d %s\n", c.method, c.path, resp.StatusCode, strings.TrimSpace(string(body)))
	}
	// Output:
	// POST /mcp -> 200 {"jsonrpc":"2.0","id":1,"result":{}}
	// GET /mcp -> 405 {"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Method not allowed: use POST"}}
	// POST /mcp -> 415 {"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Unsupported Media Type: Content-Type must be application/json"}}
	// POST /elsewhere -> 404 {"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"Not found: the MCP endpoint is /mcp"}}
}

package adapter_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/front"
	"github.com/mcperr/mcperr/ratelimit"
)

// A Limit behind a Front: one tool call a client, and the second is answered
// with a rate_limited tool result the agent reads, while a ping passes free.
func ExampleLimit() {
	limit := &adapter.Limit{Limiter: ratelimit.NewLimiter(0.001, 1), Count: adapter.ToolCalls}
	mcp := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !limit.Admit(w, r, front.Checked(r)) {
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	})
	srv := httptest.NewServer(&front.Front{Handler: mcp})
	defer srv.Close()

	for _, body := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search"}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"ping"}`,
	} {
		resp, err := http.Post(srv.URL+"/mcp", "application/json", strings.NewReader(body))
		if err != nil {
			fmt.Println(err)
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(resp.StatusCode, resp.Header.Get("Retry-After"), strings.TrimSpace(string(b)))
	}
	// Output:
	// 200  {"jsonrpc":"2.0","id":1,"result":{}}
	// 200 1000 {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"{\"kind\":\"rate_limited\",\"retryAfterSeconds\":1000,\"limit\":1,\"remaining\":0,\"resetSeconds\":1000}"}],"isError":true}}
	// 200  {"jsonrpc":"2.0","id":3,"result":{}}
}

// On an endpoint that keeps sessions (a stateful server), each initialize
// opens one, so it takes a token even when only tool calls are counted: a
// client opens sessions no faster than its limit allows.
func ExampleLimit_sessions() {
	limit := &adapter.Limit{Limiter: ratelimit.NewLimiter(0.001, 1), Count: adapter.ToolCalls, Sessions: true}
	mcp := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !limit.Admit(w, r, front.Checked(r)) {
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	})
	srv := httptest.NewServer(&front.Front{Handler: mcp})
	defer srv.Close()

	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`
	for range 2 {
		resp, err := http.Post(srv.URL+"/mcp", "application/json", strings.NewReader(initialize))
		if err != nil {
			fmt.Println(err)
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(resp.StatusCode, resp.Header.Get("Retry-After"), strings.TrimSpace(string(b)))
	}
	// Output:
	// 200  {"jsonrpc":"2.0","id":1,"result":{}}
	// 429 1000 {"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"Rate limited: retry after 1000 seconds.","data":{"kind":"rate_limited","retryAfterSeconds":1000,"limit":1,"remaining":0,"resetSeconds":1000}}}
}

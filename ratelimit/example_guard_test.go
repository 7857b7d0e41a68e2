package ratelimit_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/mcperr/mcperr/ratelimit"
)

// An edge flood guard in front of POST /mcp: 100 requests per 10
// seconds keyed on the colo and the source address, then a 10-second
// block answered with HTTP 429 and a JSON-RPC -32000 error.
func ExampleGuard() {
	var guard ratelimit.Guard // the zero Guard: 100 requests per 10 s, then a 10 s block
	mcp := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
	})
	h := guard.Wrap(mcp, ratelimit.SourceKey("CF-IPCountry"),
		ratelimit.RefuseWith("application/json", []byte(ratelimit.EdgeBody)))

	post := func(addr string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("POST", "/mcp", nil)
		r.RemoteAddr = addr
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	counts := map[int]int{}
	var last *httptest.ResponseRecorder
	for range 150 {
		last = post("198.51.100.7:40000")
		counts[last.Code]++
	}
	fmt.Println("200:", counts[200], "429:", counts[429])
	fmt.Println("Retry-After:", last.Header().Get("Retry-After"))
	fmt.Println(last.Body)
	fmt.Println("another source:", post("203.0.113.9:5555").Code)
	// Output:
	// 200: 100 429: 50
	// Retry-After: 10
	// {"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Rate limited at the edge. Slow down and retry after a few seconds."}}
	// another source: 200
}

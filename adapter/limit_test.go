package adapter_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/front"
	"github.com/mcperr/mcperr/ratelimit"
	"github.com/mcperr/mcperr/wire"
)

// TestLimitAdmit: a Limit takes a token for what Count says costs one, and
// answers a refusal as Count says: ToolCalls with an HTTP 200 rate_limited
// tool result (with "resultType":"complete" for revision 2026-07-28 or
// later), Messages with 429 and a -32000 JSON-RPC error; an empty key and a
// nil Limiter limit nothing, and Refuse replaces the answer. On an endpoint
// with Sessions, initialize takes a token too, refused with 429.
func TestLimitAdmit(t *testing.T) {
	const (
		ping       = `{"jsonrpc":"2.0","id":1,"method":"ping"}`
		initialize = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`
		call       = `{"jsonrpc":"2.0","id":"\u0041","method":"tools/call","params":{"name":"t"}}`
		modern     = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`
		ok         = `{"jsonrpc":"2.0","id":1,"result":{}}`
		refused    = `{"content":[{"type":"text","text":"{\"kind\":\"rate_limited\",\"retryAfterSeconds\":1000,\"limit\":1,\"remaining\":0,\"resetSeconds\":1000}"}],"isError":true`
	)
	type answer struct {
		Status     int
		RetryAfter string
		Body       string
	}
	pass := answer{200, "", "passed"}
	for _, c := range []struct {
		name   string
		limit  adapter.Limit
		bodies []string
		want   []answer
	}{
		{"tool calls: pings pass free, the second call is refused with a result",
			adapter.Limit{Count: adapter.ToolCalls}, []string{ping, call, ping, call},
			[]answer{pass, pass, pass, {200, "1000", `{"jsonrpc":"2.0","id":"\u0041","result":` + refused + `}}`}}},
		{"tool calls of revision 2026-07-28 say resultType complete",
			adapter.Limit{Count: adapter.ToolCalls}, []string{modern, modern},
			[]answer{pass, {200, "1000", `{"jsonrpc":"2.0","id":2,"result":` + refused + `,"resultType":"complete"}}`}}},
		{"messages: every message costs a token, refused with 429",
			adapter.Limit{Count: adapter.Messages}, []string{ping, ping},
			[]answer{pass, {429, "1000", `{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"Rate limited: retry after 1000 seconds.","data":{"kind":"rate_limited","retryAfterSeconds":1000,"limit":1,"remaining":0,"resetSeconds":1000}}}`}}},
		{"tool calls: on an endpoint with sessions, initialize costs a token and is refused with 429",
			adapter.Limit{Count: adapter.ToolCalls, Sessions: true}, []string{initialize, ping, initialize},
			[]answer{pass, pass, {429, "1000", `{"jsonrpc":"2.0","id":0,"error":{"code":-32000,"message":"Rate limited: retry after 1000 seconds.","data":{"kind":"rate_limited","retryAfterSeconds":1000,"limit":1,"remaining":0,"resetSeconds":1000}}}`}}},
		{"tool calls: without sessions, initialize passes free",
			adapter.Limit{Count: adapter.ToolCalls}, []string{initialize, initialize, call},
			[]answer{pass, pass, pass}},
		{"an empty key is not limited",
			adapter.Limit{Count: adapter.Messages, Key: func(*http.Request) string { return "" }}, []string{ping, ping, ping},
			[]answer{pass, pass, pass}},
		{"Refuse writes its own answer after the headers are set",
			adapter.Limit{Count: adapter.Messages, Refuse: func(w http.ResponseWriter, r *http.Request, d ratelimit.Decision) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusServiceUnavailable)
				io.WriteString(w, `{"own":true}`)
			}}, []string{ping, ping},
			[]answer{pass, {503, "1000", `{"own":true}`}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := c.limit
			l.Limiter = ratelimit.NewLimiter(0.001, 1)
			h := &front.Front{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if !l.Admit(w, r, front.Checked(r)) {
					return
				}
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, ok)
			})}
			var got []answer
			for _, b := range c.bodies {
				req := httptest.NewRequest("POST", "http://localhost/mcp", strings.NewReader(b))
				req.Header.Set("Content-Type", "application/json")
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				a := answer{rec.Code, rec.Header().Get("Retry-After"), strings.TrimSpace(rec.Body.String())}
				if strings.HasSuffix(a.Body, `"result":{}}`) { // the handler's answer, with the request's id
					a.Body = "passed"
				}
				got = append(got, a)
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("answers (-want +got):\n%s", diff)
			}
		})
	}
}

// TestLimitZero: a Limit without a Limiter, and a nil *Limit, admit every
// message.
func TestLimitZero(t *testing.T) {
	var nilLimit *adapter.Limit
	for _, l := range []*adapter.Limit{{}, nilLimit} {
		rec := httptest.NewRecorder()
		if !l.Admit(rec, httptest.NewRequest("POST", "/mcp", nil), nil) {
			t.Errorf("%#v refused; want every message admitted", l)
		}
	}
}

// TestLimitRefusalID: a refusal carries the request's id byte for byte, a
// string id holding <, > or & included, without a Front to put it back.
func TestLimitRefusalID(t *testing.T) {
	const id = `"a<&>\u0042"`
	for _, c := range []struct {
		name  string
		count adapter.Unit
		want  string
	}{
		{"a refused tool call", adapter.ToolCalls,
			`{"jsonrpc":"2.0","id":` + id + `,"result":{"content":[{"type":"text","text":"{\"kind\":\"rate_limited\",\"retryAfterSeconds\":1000,\"limit\":1,\"remaining\":0,\"resetSeconds\":1000}"}],"isError":true}}`},
		{"a refused message", adapter.Messages,
			`{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32000,"message":"Rate limited: retry after 1000 seconds.","data":{"kind":"rate_limited","retryAfterSeconds":1000,"limit":1,"remaining":0,"resetSeconds":1000}}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := &adapter.Limit{Limiter: ratelimit.NewLimiter(0.001, 1), Key: func(*http.Request) string { return "k" }, Count: c.count}
			m := &wire.Message{Type: wire.RequestMessage, ID: []byte(id), Method: "tools/call", Params: []byte(`{"name":"t"}`)}
			r := httptest.NewRequest("POST", "/mcp", nil)
			var got []string
			for range 2 {
				rec := httptest.NewRecorder()
				if l.Admit(rec, r, m) {
					got = append(got, "admitted")
					continue
				}
				got = append(got, strings.TrimSpace(rec.Body.String()))
			}
			if diff := cmp.Diff([]string{"admitted", c.want}, got); diff != "" {
				t.Errorf("answers (-want +got):\n%s", diff)
			}
		})
	}
}

package adapter

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/wire"
)

// fakeSDK opens a session for each initialize, naming it s1, s2, ...
type fakeSDK struct{ n int }

func (f *fakeSDK) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") == "" {
		f.n++
		w.Header().Set("Mcp-Session-Id", "s"+strconv.Itoa(f.n))
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
}

// TestHandlerSessions: a stateful Backend's sessions are bounded per client
// (MaxSessions): an initialize past the bound is refused and ends no
// session; a DELETE forgets the session it ends, which makes room; and
// Screen answers before the SDK.
func TestHandlerSessions(t *testing.T) {
	var ended []string
	o := &HTTP{MaxSessions: 2}
	b := Backend{SDK: &fakeSDK{}, MaxBytes: 1 << 20, Sessions: o.Sessions(0)}
	b.End = func(_ context.Context, ids []string) { ended = append(ended, ids...) }
	screened := 0
	b.Screen = func(w http.ResponseWriter, r *http.Request, m *wire.Message) *http.Request {
		if m.Method == "tools/call" {
			screened++
			w.WriteHeader(http.StatusTeapot)
			return nil
		}
		return r
	}
	h := o.Handler(b)
	send := func(method, session, body string) int {
		r := httptest.NewRequest(method, "http://localhost/mcp", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		if session != "" {
			r.Header.Set("Mcp-Session-Id", session)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Code
	}
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`
	var got []int
	for range 3 {
		got = append(got, send(http.MethodPost, "", initialize))
	}
	if diff := cmp.Diff([]int{200, 200, 429}, got); diff != "" {
		t.Errorf("three initializes of one client, bound 2 (-want +got):\n%s", diff)
	}
	if len(ended) != 0 {
		t.Errorf("sessions ended by a refused initialize: %v", ended)
	}
	if got := b.Sessions.Len(); got != 2 {
		t.Errorf("live sessions = %d, want 2", got)
	}
	send(http.MethodDelete, "s2", "")
	if got := b.Sessions.Len(); got != 1 {
		t.Errorf("live sessions after a DELETE = %d, want 1", got)
	}
	if code := send(http.MethodPost, "", initialize); code != http.StatusOK {
		t.Errorf("an initialize after a DELETE made room: status %d, want 200", code)
	}
	if code := send(http.MethodPost, "s3", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x"}}`); code != http.StatusTeapot || screened != 1 {
		t.Errorf("a call Screen answers: status %d, screened %d; want 418, 1", code, screened)
	}
}

// TestSessionRefusal: an initialize past the client's bound is answered 429
// with a rate_limited error, past the total 503 with an unavailable one,
// each with Retry-After, the request's id, the wait in the message and in
// the data, and code -31000 from revision 2026-07-28 on; OnFailure hears
// it; errkind.Read gets the kind and the wait from the body, as a client
// hands it over (the TypeScript client's text and mcp-go's message alone).
func TestSessionRefusal(t *testing.T) {
	for _, c := range []struct {
		name        string
		o           HTTP
		first, then string // the source addresses of the session opened and of the initialize refused
		version     string
		status      int
		retry       string
		body        string
		kind        errkind.Kind
	}{
		{"client bound", HTTP{MaxSessions: 1}, "192.0.2.1:1", "192.0.2.1:2", "", 429, "600",
			`{"jsonrpc":"2.0","id":"i","error":{"code":-32000,"message":"Too many sessions: this client holds 1, its bound; end one (DELETE) or retry after 600 seconds.","data":{"kind":"rate_limited","retryAfterSeconds":600}}}`,
			errkind.RateLimited},
		{"total bound", HTTP{MaxTotalSessions: 1}, "192.0.2.1:1", "192.0.2.2:1", "", 503, "600",
			`{"jsonrpc":"2.0","id":"i","error":{"code":-32000,"message":"Server full: it holds 1 sessions, its bound; retry after 600 seconds.","data":{"kind":"unavailable","code":"server_full","message":"Server full: it holds 1 sessions, its bound; retry after 600 seconds.","retryAfterSeconds":600}}}`,
			errkind.Unavailable},
		{"client bound, revision 2026-07-28", HTTP{MaxSessions: 1}, "192.0.2.1:1", "192.0.2.1:2", "2026-07-28", 429, "600",
			`{"jsonrpc":"2.0","id":"i","error":{"code":-31000,"message":"Too many sessions: this client holds 1, its bound; end one (DELETE) or retry after 600 seconds.","data":{"kind":"rate_limited","retryAfterSeconds":600}}}`,
			errkind.RateLimited},
	} {
		t.Run(c.name, func(t *testing.T) {
			var heard []Failure
			c.o.OnFailure = func(_ context.Context, f Failure) { heard = append(heard, f) }
			h := c.o.Handler(Backend{SDK: &fakeSDK{}, Sessions: c.o.Sessions(0), End: func(context.Context, []string) {}})
			send := func(addr string) *httptest.ResponseRecorder {
				r := httptest.NewRequest("POST", "http://localhost/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":"i","method":"initialize","params":{}}`))
				r.RemoteAddr = addr
				r.Header.Set("Content-Type", "application/json")
				if c.version != "" {
					r.Header.Set("MCP-Protocol-Version", c.version)
				}
				w := httptest.NewRecorder()
				h.ServeHTTP(w, r)
				return w
			}
			if w := send(c.first); w.Code != 200 {
				t.Fatalf("the first initialize: %d %s", w.Code, w.Body)
			}
			w := send(c.then)
			got := []string{strconv.Itoa(w.Code), w.Header().Get("Retry-After"), w.Header().Get("Content-Type"), strings.TrimSpace(w.Body.String())}
			if diff := cmp.Diff([]string{strconv.Itoa(c.status), c.retry, "application/json", c.body}, got); diff != "" {
				t.Errorf("status, Retry-After, Content-Type, body (-want +got):\n%s", diff)
			}
			if len(heard) != 1 || heard[0].Stage != Limited || heard[0].HTTPStatus != c.status || heard[0].Method != "initialize" || heard[0].Reading.Kind != c.kind {
				t.Errorf("OnFailure heard %+v; want one Stage Limited, %d, initialize, %s", heard, c.status, c.kind)
			}
			var resp struct{ Error struct{ Message string } }
			if err := json.Unmarshal(w.Body.Bytes(), &resp); err != nil {
				t.Fatal(err)
			}
			for _, o := range []errkind.Outcome{
				{IsError: true, Text: "Streamable HTTP error: Error POSTing to endpoint: " + c.body}, // the TypeScript client 1.x
				{Message: resp.Error.Message}, // mcp-go's client keeps the message alone
			} {
				r := errkind.Read(o)
				if r.Wait != 600*time.Second || r.Move != errkind.WaitThenRetry {
					t.Errorf("Read(%.60q...): kind %s, move %s, wait %v; want a wait of 600 s", o.Text+o.Message, r.Kind, r.Move, r.Wait)
				}
			}
		})
	}
}

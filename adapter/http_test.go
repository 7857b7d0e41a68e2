package adapter

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

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
// (MaxSessions; the least recently used ends, through Backend.End), a
// DELETE forgets the session it ends, and Screen answers before the SDK.
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
	for range 3 {
		send(http.MethodPost, "", initialize)
	}
	if diff := cmp.Diff([]string{"s1"}, ended); diff != "" {
		t.Errorf("ended after three sessions of one client, bound 2 (-want +got):\n%s", diff)
	}
	if got := b.Sessions.Len(); got != 2 {
		t.Errorf("live sessions = %d, want 2", got)
	}
	send(http.MethodDelete, "s2", "")
	if got := b.Sessions.Len(); got != 1 {
		t.Errorf("live sessions after a DELETE = %d, want 1", got)
	}
	if code := send(http.MethodPost, "s3", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x"}}`); code != http.StatusTeapot || screened != 1 {
		t.Errorf("a call Screen answers: status %d, screened %d; want 418, 1", code, screened)
	}
}

package gosdk_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/adapter/adaptertest"
	"github.com/mcperr/mcperr/gosdk"
	"github.com/mcperr/mcperr/ratelimit"
)

func sessions(s *mcp.Server) int {
	n := 0
	for range s.Sessions() {
		n++
	}
	return n
}

// waitSessions waits up to 5 s for the server to hold want sessions and
// reports how many it holds.
func waitSessions(s *mcp.Server, want int) int {
	deadline := time.Now().Add(5 * time.Second)
	for sessions(s) != want && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	return sessions(s)
}

// TestSessionsEnd: behind the front, a stateful server's sessions end: a
// client's DELETE reaches the SDK, which frees the session (204), so
// sessions opened and ended leave nothing behind; a DELETE naming no live
// session is a JSON-RPC error; a session left idle ends after the
// SessionTimeout.
func TestSessionsEnd(t *testing.T) {
	const n = 200
	s := testServer(nil, nil, nil)
	srv := httptest.NewServer(gosdk.HTTPHandler(s, &gosdk.HTTPOptions{Streamable: &mcp.StreamableHTTPOptions{JSONResponse: true}, HTTP: adapter.HTTP{MaxSessions: n}}))
	defer srv.Close()
	url := srv.URL + "/mcp"
	ids := make([]string, n)
	for i := range ids {
		ids[i] = adaptertest.Open(t, url)
	}
	if got := sessions(s); got != n {
		t.Fatalf("%d sessions open, want %d", got, n)
	}
	for _, id := range ids {
		if status, _, body := adaptertest.Request(t, "DELETE", url, id, ""); status != http.StatusNoContent {
			t.Fatalf("DELETE: status %d, body %s; want 204", status, body)
		}
	}
	if got := waitSessions(s, 0); got != 0 {
		t.Errorf("%d sessions left after every one was ended, want 0", got)
	}
	status, _, body := adaptertest.Request(t, "DELETE", url, ids[0], "")
	if want := `{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"session not found"}}`; status != http.StatusNotFound || strings.TrimSpace(body) != want {
		t.Errorf("DELETE of an ended session: %d %s; want 404 %s", status, body, want)
	}
}

// TestSessionsIdle: a session no request names for SessionTimeout ends.
func TestSessionsIdle(t *testing.T) {
	s := testServer(nil, nil, nil)
	srv := httptest.NewServer(gosdk.HTTPHandler(s, &gosdk.HTTPOptions{Streamable: &mcp.StreamableHTTPOptions{JSONResponse: true, SessionTimeout: 50 * time.Millisecond}}))
	defer srv.Close()
	for range 20 {
		adaptertest.Open(t, srv.URL+"/mcp")
	}
	if got := waitSessions(s, 0); got != 0 {
		t.Errorf("%d idle sessions left, want 0", got)
	}
}

// TestSessionsBounded: a stateful server's sessions are bounded per client
// (Key; by default the source address, an IPv6 one by its /64) and in total
// by refusing a new initialize, 429 past the client's bound and 503 past the
// total, each with Retry-After and a body errkind.Read gets the kind and
// the wait from; no flood, from the victim's own address or any other,
// ends the victim's established session.
func TestSessionsBounded(t *testing.T) {
	for _, f := range adaptertest.Floods() {
		t.Run(f.Name, func(t *testing.T) {
			s := testServer(nil, nil, nil)
			h := gosdk.HTTPHandler(s, &gosdk.HTTPOptions{Streamable: &mcp.StreamableHTTPOptions{JSONResponse: true}, HTTP: f.HTTP})
			res, err := f.Run(h)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(f.Want(), res); diff != "" {
				t.Errorf("the flood (-want +got):\n%s", diff)
			}
			if got := sessions(s); got != f.Live {
				t.Errorf("%d sessions open, want %d", got, f.Live)
			}
		})
	}
}

// TestSessionsCounted: on a stateful server each initialize opens a session,
// so it takes a token of the Limiter even when only tool calls are counted;
// a refused one is a 429 and opens nothing. On a stateless server it passes
// free.
func TestSessionsCounted(t *testing.T) {
	for _, c := range []struct {
		name       string
		streamable *mcp.StreamableHTTPOptions
		want       []int
		open       int // sessions the server holds after
	}{
		{"stateful", &mcp.StreamableHTTPOptions{JSONResponse: true}, []int{200, 200, 429, 429}, 2},
		{"stateless", nil, []int{200, 200, 200, 200}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := testServer(nil, nil, nil)
			lim := ratelimit.NewLimiter(0.001, 2)
			srv := httptest.NewServer(gosdk.HTTPHandler(s, &gosdk.HTTPOptions{Streamable: c.streamable, HTTP: adapter.HTTP{Limiter: lim}}))
			defer srv.Close()
			var got []int
			for range c.want {
				status, _, _ := adaptertest.Request(t, "POST", srv.URL+"/mcp", "", initialize)
				got = append(got, status)
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("initialize statuses (-want +got):\n%s", diff)
			}
			if n := sessions(s); n != c.open {
				t.Errorf("%d sessions open, want %d", n, c.open)
			}
		})
	}
}

// A stateful server behind HTTPHandler keeps a session per client, ended
// by the client's DELETE (the go-sdk client sends it on Close) or by
// SessionTimeout of idleness; a client holds at most MaxSessions, all
// clients at most MaxTotalSessions, and an initialize past either is
// refused (429, 503) without ending a session.
func ExampleHTTPHandler_sessions() {
	s := mcp.NewServer(&mcp.Implementation{Name: "traces", Version: "1.0.0"}, nil)
	srv := httptest.NewServer(gosdk.HTTPHandler(s, &gosdk.HTTPOptions{
		Streamable: &mcp.StreamableHTTPOptions{SessionTimeout: 5 * time.Minute}, // zero: session.IdleTimeout
		HTTP: adapter.HTTP{
			MaxSessions:      10,   // zero: session.MaxPerClient
			MaxTotalSessions: 1000, // zero: session.MaxTotal
		},
	}))
	defer srv.Close()

	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp"}, nil)
	if err != nil {
		log.Fatal(err)
	}
	// A request the SDK serves without a session (the client's first probe)
	// holds a session of its own until its answer is written: wait for the
	// count to settle rather than read it mid-answer.
	fmt.Println("open:", waitSessions(s, 1))
	if err := cs.Close(); err != nil {
		log.Fatal(err)
	}
	fmt.Println("after Close:", waitSessions(s, 0))
	// Output:
	// open: 1
	// after Close: 0
}

// TestSessionsBusy: a session serving a request longer than SessionTimeout
// is not idle: requests of other clients meanwhile do not end it, and it
// stays live after the answer.
//
// The timeout is 500 ms and the call lasts until other clients' requests
// have looked for idle sessions for twice that: with a timeout of 50 ms, a
// loaded machine took longer than it between the session's initialize and
// its call, or between the call's answer and the ping, and the session
// ended idle (as it should).
func TestSessionsBusy(t *testing.T) {
	const idle = 500 * time.Millisecond
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	started, release := make(chan struct{}), make(chan struct{})
	type in struct{}
	mcp.AddTool(s, &mcp.Tool{Name: "slow"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ in) (*mcp.CallToolResult, any, error) {
		close(started)
		<-release
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, nil
	})
	srv := httptest.NewServer(gosdk.HTTPHandler(s, &gosdk.HTTPOptions{Streamable: &mcp.StreamableHTTPOptions{JSONResponse: true, SessionTimeout: idle}}))
	defer srv.Close()
	url := srv.URL + "/mcp"
	id := adaptertest.Open(t, url)
	done := make(chan int)
	go func() {
		status, _, _ := adaptertest.Request(t, "POST", url, id, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{}}}`)
		done <- status
	}()
	select {
	case <-started:
	case status := <-done:
		t.Fatalf("the slow call answered %d before its tool ran", status)
	}
	for stop := time.After(2 * idle); ; {
		select {
		case <-stop:
		default:
			other := adaptertest.Open(t, url) // each request looks for idle sessions
			adaptertest.Request(t, "DELETE", url, other, "")
			time.Sleep(20 * time.Millisecond)
			continue
		}
		break
	}
	close(release)
	if status := <-done; status != http.StatusOK {
		t.Fatalf("the slow call: status %d", status)
	}
	if status, _, body := adaptertest.Request(t, "POST", url, id, `{"jsonrpc":"2.0","id":3,"method":"ping"}`); status != http.StatusOK {
		t.Errorf("a ping right after the slow call: %d %s; want 200", status, body)
	}
}

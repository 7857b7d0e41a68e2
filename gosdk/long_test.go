package gosdk_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/gosdk"
)

type slowIn struct {
	Millis int `json:"millis"`
}

type slowOut struct {
	Done bool `json:"done"`
}

// TestHandleLong: through the go-sdk's own client, a Handle with a Long
// sends notifications/progress while the tool runs to a request that
// carried a progressToken (and none to one that did not), and past the
// deadline answers the unavailable kind object with the chosen wait, the
// tool's context cancelled.
func TestHandleLong(t *testing.T) {
	var cancelled atomic.Bool
	slow := func(ctx context.Context, _ *mcp.CallToolRequest, in slowIn) (slowOut, error) {
		select {
		case <-time.After(time.Duration(in.Millis) * time.Millisecond):
			return slowOut{Done: true}, nil
		case <-ctx.Done():
			cancelled.Store(true)
			return slowOut{}, ctx.Err()
		}
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "slow", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "slow"}, gosdk.Handle(slow, gosdk.Long{Interval: 20 * time.Millisecond, Deadline: 400 * time.Millisecond, Wait: 30 * time.Second}))
	var progress atomic.Int32
	c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) { progress.Add(1) },
	})
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := c.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, tc := range []struct {
		name          string
		millis        int
		token         bool
		wantKind      errkind.Kind // "" for data
		wantWait      time.Duration
		minProgress   int32
		wantCancelled bool
	}{
		{"progress while it runs", 200, true, "", 0, 3, false},
		{"no progressToken, no progress", 200, false, "", 0, 0, false},
		{"past the deadline: unavailable, wait 30 s", 5000, true, errkind.Unavailable, 30 * time.Second, 5, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			progress.Store(0)
			cancelled.Store(false)
			p := &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{"millis": tc.millis}}
			if tc.token {
				p.SetProgressToken("tok-" + tc.name)
			}
			start := time.Now()
			r := errkind.Read(gosdk.Outcome(cs.CallTool(ctx, p)))
			if took := time.Since(start); took > 2*time.Second {
				t.Errorf("the call took %v", took)
			}
			if r.Kind != tc.wantKind || r.Wait != tc.wantWait {
				t.Errorf("got kind %q wait %v, want %q %v (%+v)", r.Kind, r.Wait, tc.wantKind, tc.wantWait, r)
			}
			n := progress.Load()
			if tc.token && n < tc.minProgress || !tc.token && n != 0 {
				t.Errorf("%d progress notifications, want at least %d (token %v)", n, tc.minProgress, tc.token)
			}
			time.Sleep(20 * time.Millisecond) // the tool's goroutine returns once cancelled
			if cancelled.Load() != tc.wantCancelled {
				t.Errorf("tool's context cancelled: %v, want %v", cancelled.Load(), tc.wantCancelled)
			}
		})
	}
}

// TestHandleLongJSONResponse: behind the default HTTPHandler (stateless,
// JSON responses), a response cannot carry notifications: the progress is
// dropped, not an error, and the deadline still answers in time.
func TestHandleLongJSONResponse(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "slow", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "slow"}, gosdk.Handle(func(ctx context.Context, _ *mcp.CallToolRequest, in slowIn) (slowOut, error) {
		<-ctx.Done()
		return slowOut{}, ctx.Err()
	}, gosdk.Long{Interval: 10 * time.Millisecond, Deadline: 200 * time.Millisecond, Wait: 3 * time.Second}))
	srv := httptest.NewServer(gosdk.HTTPHandler(s, nil))
	defer srv.Close()
	start := time.Now()
	status, _, body := post(t, srv.URL+"/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","arguments":{"millis":1},"_meta":{"progressToken":"p"}}}`)
	want := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"kind\":\"unavailable\",\"message\":\"The call took longer than the server allows (200ms); it was stopped.\",\"retryAfterSeconds\":3}"}],"isError":true}}`
	if took := time.Since(start); status != 200 || strings.TrimSpace(body) != want || took > 2*time.Second {
		t.Errorf("got %d in %v: %s\nwant 200: %s", status, took, body, want)
	}
}

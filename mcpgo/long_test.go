package mcpgo_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/mcpgo"
)

type slowIn struct {
	Millis int `json:"millis"`
}

type slowOut struct {
	Done bool `json:"done"`
}

// TestHandleLong: through mcp-go's own client, a Handle with a Long sends
// notifications/progress while the tool runs to a request that carried a
// progressToken (and none to one that did not), and past the deadline
// answers the unavailable kind object with the chosen wait, the tool's
// context cancelled.
func TestHandleLong(t *testing.T) {
	var cancelled atomic.Bool
	slow := func(ctx context.Context, _ mcp.CallToolRequest, in slowIn) (slowOut, error) {
		select {
		case <-time.After(time.Duration(in.Millis) * time.Millisecond):
			return slowOut{Done: true}, nil
		case <-ctx.Done():
			cancelled.Store(true)
			return slowOut{}, ctx.Err()
		}
	}
	s := server.NewMCPServer("slow", "1")
	s.AddTool(mcp.NewTool("slow", mcp.WithInputSchema[slowIn]()),
		mcpgo.Handle(slow, mcpgo.Long{Interval: 20 * time.Millisecond, Deadline: 400 * time.Millisecond, Wait: 30 * time.Second}))
	c, err := client.NewInProcessClient(s)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var progress atomic.Int32
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == "notifications/progress" {
			progress.Add(1)
		}
	})
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "c", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
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
			req := mcp.CallToolRequest{}
			req.Params.Name = "slow"
			req.Params.Arguments = map[string]any{"millis": tc.millis}
			if tc.token {
				req.Params.Meta = &mcp.Meta{ProgressToken: "tok-" + tc.name}
			}
			start := time.Now()
			r := errkind.Read(mcpgo.Outcome(c.CallTool(ctx, req)))
			if took := time.Since(start); took > 2*time.Second {
				t.Errorf("the call took %v", took)
			}
			if r.Kind != tc.wantKind || r.Wait != tc.wantWait {
				t.Errorf("got kind %q wait %v, want %q %v (%+v)", r.Kind, r.Wait, tc.wantKind, tc.wantWait, r)
			}
			time.Sleep(20 * time.Millisecond) // notifications are forwarded on their own goroutine; the tool returns once cancelled
			n := progress.Load()
			if tc.token && n < tc.minProgress || !tc.token && n != 0 {
				t.Errorf("%d progress notifications, want at least %d (token %v)", n, tc.minProgress, tc.token)
			}
			if cancelled.Load() != tc.wantCancelled {
				t.Errorf("tool's context cancelled: %v, want %v", cancelled.Load(), tc.wantCancelled)
			}
		})
	}
}

// TestHandleLongHTTP: behind HTTPHandler, a Long's progress and its
// deadline's answer reach the client over the one POST of the call.
func TestHandleLongHTTP(t *testing.T) {
	s := server.NewMCPServer("slow", "1")
	s.AddTool(mcp.NewTool("slow", mcp.WithInputSchema[slowIn]()), mcpgo.Handle(func(ctx context.Context, _ mcp.CallToolRequest, in slowIn) (slowOut, error) {
		<-ctx.Done()
		return slowOut{}, ctx.Err()
	}, mcpgo.Long{Interval: 50 * time.Millisecond, Deadline: 200 * time.Millisecond, Wait: 3 * time.Second}))
	h := mcpgo.HTTPHandler(s, &mcpgo.HTTPOptions{Validator: mcpgo.Validate(s, nil)})
	start := time.Now()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, newPost(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","arguments":{"millis":1},"_meta":{"progressToken":"p"}}}`))
	body := w.Body.String()
	if took := time.Since(start); w.Code != 200 || took > 2*time.Second ||
		!strings.Contains(body, `{\"kind\":\"unavailable\",\"message\":\"The call took longer than the server allows (200ms); it was stopped.\",\"retryAfterSeconds\":3}`) {
		t.Errorf("got %d in %v: %s", w.Code, took, body)
	}
	if n := strings.Count(body, `"method":"notifications/progress"`); n < 2 { // mcp-go answers the POST with an event stream once a notification is sent
		t.Errorf("%d progress notifications in the response, want at least 2:\n%s", n, body)
	}
}

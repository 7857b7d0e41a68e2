package gosdk_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/adapter/adaptertest"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/gosdk"
)

// TestHandleLong: through the go-sdk's own client, a Handle with a Long
// sends notifications/progress while the tool runs to a request that
// carried a progressToken (and none to one that did not), and past the
// deadline answers the unavailable kind object with the chosen wait, the
// tool's context cancelled.
func TestHandleLong(t *testing.T) {
	var slow adaptertest.Slow
	s := mcp.NewServer(&mcp.Implementation{Name: "slow", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "slow"}, gosdk.Handle(func(ctx context.Context, _ *mcp.CallToolRequest, in adaptertest.SlowIn) (adaptertest.SlowOut, error) {
		return slow.Run(ctx, in)
	}, adaptertest.SlowLong()))
	c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) { slow.Progress() },
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
	adaptertest.HandleLong(t, &slow, func(ctx context.Context, millis int, token string) errkind.Outcome {
		p := &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{"millis": millis}}
		if token != "" {
			p.SetProgressToken(token)
		}
		return gosdk.Outcome(cs.CallTool(ctx, p))
	})
}

// TestHandleLongJSONResponse: behind the default HTTPHandler (stateless,
// JSON responses), a response cannot carry notifications: the progress is
// dropped, not an error, and the deadline still answers in time.
func TestHandleLongJSONResponse(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "slow", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "slow"}, gosdk.Handle(func(ctx context.Context, _ *mcp.CallToolRequest, in adaptertest.SlowIn) (adaptertest.SlowOut, error) {
		<-ctx.Done()
		return adaptertest.SlowOut{}, ctx.Err()
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

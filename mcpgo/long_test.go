package mcpgo_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcperr/mcperr/adapter/adaptertest"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/mcpgo"
)

// TestHandleLong: through mcp-go's own client, a Handle with a Long sends
// notifications/progress while the tool runs to a request that carried a
// progressToken (and none to one that did not), and past the deadline
// answers the unavailable kind object with the chosen wait, the tool's
// context cancelled.
func TestHandleLong(t *testing.T) {
	var slow adaptertest.Slow
	s := server.NewMCPServer("slow", "1")
	s.AddTool(mcp.NewTool("slow", mcp.WithInputSchema[adaptertest.SlowIn]()),
		mcpgo.Handle(func(ctx context.Context, _ mcp.CallToolRequest, in adaptertest.SlowIn) (adaptertest.SlowOut, error) {
			return slow.Run(ctx, in)
		}, adaptertest.SlowLong()))
	c, err := client.NewInProcessClient(s)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == "notifications/progress" {
			slow.Progress()
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
	adaptertest.HandleLong(t, &slow, func(ctx context.Context, millis int, token string) errkind.Outcome {
		req := mcp.CallToolRequest{}
		req.Params.Name = "slow"
		req.Params.Arguments = map[string]any{"millis": millis}
		if token != "" {
			req.Params.Meta = &mcp.Meta{ProgressToken: token}
		}
		return mcpgo.Outcome(c.CallTool(ctx, req))
	})
}

// TestHandleLongHTTP: behind HTTPHandler, a Long's progress and its
// deadline's answer reach the client over the one POST of the call.
func TestHandleLongHTTP(t *testing.T) {
	s := server.NewMCPServer("slow", "1")
	s.AddTool(mcp.NewTool("slow", mcp.WithInputSchema[adaptertest.SlowIn]()), mcpgo.Handle(func(ctx context.Context, _ mcp.CallToolRequest, in adaptertest.SlowIn) (adaptertest.SlowOut, error) {
		<-ctx.Done()
		return adaptertest.SlowOut{}, ctx.Err()
	}, mcpgo.Long{Interval: 20 * time.Millisecond, Deadline: time.Second, Wait: 3 * time.Second})) // room for two ticks on a loaded machine: at 200 ms, one came
	h := mcpgo.HTTPHandler(s, &mcpgo.HTTPOptions{Validator: mcpgo.Validate(s, nil)})
	start := time.Now()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, newPost(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","arguments":{"millis":1},"_meta":{"progressToken":"p"}}}`))
	body := w.Body.String()
	if took := time.Since(start); w.Code != 200 || took > 3*time.Second ||
		!strings.Contains(body, `{\"kind\":\"unavailable\",\"message\":\"The call took longer than the server allows (1s); it was stopped.\",\"retryAfterSeconds\":3}`) {
		t.Errorf("got %d in %v: %s", w.Code, took, body)
	}
	if n := strings.Count(body, `"method":"notifications/progress"`); n < 2 { // mcp-go answers the POST with an event stream once a notification is sent
		t.Errorf("%d progress notifications in the response, want at least 2:\n%s", n, body)
	}
}

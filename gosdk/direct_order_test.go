package gosdk_test

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestDirectNotificationsFirst: the notifications a handler sends before it
// returns are written before its result, on the direct path as on the
// SDK's; the calls themselves run concurrently, so only each call's own
// lines are ordered.
func TestDirectNotificationsFirst(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "notify", Version: "0"}, nil)
	srv.AddTool(&mcp.Tool{Name: "notify", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in struct{ Token string }
		if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
			return nil, err
		}
		for i := range 3 {
			p := &mcp.ProgressNotificationParams{ProgressToken: in.Token, Progress: float64(i), Total: 3}
			if err := req.Session.NotifyProgress(ctx, p); err != nil {
				return nil, err
			}
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done " + in.Token}}}, nil
	})
	direct := countDirect(srv)
	// A line's group is the token its call was given: in a progress
	// notification's params, or in its result's text.
	group := func(line string) string {
		var m struct {
			Params struct{ ProgressToken string }
			Result struct{ Content []struct{ Text string } }
		}
		json.Unmarshal([]byte(line), &m)
		if len(m.Result.Content) == 1 {
			return strings.TrimPrefix(m.Result.Content[0].Text, "done ")
		}
		return m.Params.ProgressToken
	}
	var calls []string
	for _, tok := range []string{"a", "b", "c", "d"} {
		calls = append(calls, `{"jsonrpc":"2.0","id":"`+tok+`","method":"tools/call","params":{"name":"notify","arguments":{"token":"`+tok+`"}}}`)
	}
	tail := initialized + "\n" + strings.Join(calls, "\n") + "\n"
	in := func(ctx context.Context, out *firstLine) io.Reader {
		return io.MultiReader(strings.NewReader(initLine+"\n"), &gate{ready: out.ready, ctx: ctx}, strings.NewReader(tail))
	}
	lines, served := differ(t, srv, direct, initLine+"\n"+tail, in, nil, group)
	if len(lines) != 1+4*4 {
		t.Errorf("%d lines, want initialize's answer and 4 for each of 4 calls:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	if served != 4 {
		t.Errorf("the direct path served %d calls, want 4", served)
	}
}

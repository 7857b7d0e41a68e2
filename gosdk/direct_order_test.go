package gosdk_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// overtake is how long TestDirectAfterInitialize holds initialize's answer
// for a call pipelined after it to be answered first: on the SDK's path no
// call can, so every run waits this long; a direct path that answered it
// first did so in well under a millisecond.
const overtake = 250 * time.Millisecond

// TestDirectAfterInitialize: a tools/call pipelined after initialize is
// answered after initialize, on the direct path as on the SDK's, whatever a
// middleware does with initialize once the session's state is set (here:
// holds its answer until the call's answer is written, or overtake
// passes). The call is read once initialize's handler has set that state.
func TestDirectAfterInitialize(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "init", Version: "0"}, nil)
	srv.AddTool(&mcp.Tool{Name: "echo", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo"}}}, nil
	})
	type run struct {
		out         *firstLine
		initialized chan struct{} // closed once initialize's handler has returned
	}
	var cur atomic.Pointer[run] // the run in progress
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if method == "initialize" {
				r := cur.Load()
				close(r.initialized)
				ctx, cancel := context.WithTimeout(ctx, overtake)
				r.out.await(ctx, `"id":2,`)
				cancel()
			}
			return res, err
		}
	})
	direct := countDirect(srv)
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{}}}`
	in := func(ctx context.Context, out *firstLine) io.Reader {
		r := &run{out: out, initialized: make(chan struct{})}
		cur.Store(r)
		return io.MultiReader(strings.NewReader(initLine+"\n"), &gate{ready: r.initialized, ctx: ctx}, strings.NewReader(initialized+"\n"+call+"\n"))
	}
	lines, _ := differ(t, srv, direct, initLine+"\n"+initialized+"\n"+call+"\n", in, nil, nil)
	if len(lines) != 2 || !strings.HasPrefix(lines[0], `{"jsonrpc":"2.0","id":1,"result":`) {
		t.Errorf("want initialize's answer, then the call's; got:\n%s", strings.Join(lines, "\n"))
	}
}

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

// TestDirectRunCancelled: cancelling Run's context does not cancel the
// tool handlers in flight, and Run returns once they have returned, on the
// direct path as on the SDK's: the SDK's handlers run on a context that
// Run's cancellation does not reach, and its connection closes once they
// have returned.
func TestDirectRunCancelled(t *testing.T) {
	for _, path := range []string{"sdk", "direct"} {
		t.Run(path, func(t *testing.T) {
			srv := mcp.NewServer(&mcp.Implementation{Name: "cancel", Version: "0"}, nil)
			started, release, returned := make(chan struct{}), make(chan struct{}), make(chan struct{})
			var handlerErr error // the handler's ctx.Err() once released
			srv.AddTool(&mcp.Tool{Name: "hold", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				defer close(returned)
				close(started)
				<-release
				handlerErr = ctx.Err()
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "held"}}}, nil
			})
			direct := countDirect(srv)
			tr, inW, outR := onPath(srv, path)
			defer inW.Close()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- srv.Run(ctx, tr) }()
			out := bufio.NewReader(outR)
			if _, err := io.WriteString(inW, initLine+"\n"); err != nil {
				t.Fatal(err)
			}
			if _, err := out.ReadString('\n'); err != nil {
				t.Fatal(err)
			}
			go io.Copy(io.Discard, out)
			io.WriteString(inW, initialized+"\n"+`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"hold"}}`+"\n")
			<-started
			cancel()
			var runErr error
			ranOn := false // whether Run returned while the handler ran
			select {
			case runErr = <-done:
				ranOn = true
			case <-time.After(overtake):
			}
			close(release)
			<-returned
			if !ranOn {
				runErr = <-done
			}
			if ranOn {
				t.Errorf("Run returned while a handler ran")
			}
			if handlerErr != nil {
				t.Errorf("the handler's context ended with Run's: %v", handlerErr)
			}
			if !errors.Is(runErr, context.Canceled) {
				t.Errorf("Run returned %v, want %v", runErr, context.Canceled)
			}
			if want := map[string]int64{"sdk": 0, "direct": 1}[path]; direct.Load() != want {
				t.Errorf("the direct path served %d calls, want %d", direct.Load(), want)
			}
		})
	}
}

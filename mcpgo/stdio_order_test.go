package mcpgo_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcperr/mcperr/mcpgo"
)

// overtake is how long a test holds an answer for another to overtake it,
// or waits for a server to return early: a server that does either did so
// in well under a millisecond.
const overtake = 250 * time.Millisecond

// watch is an output that keeps what is written and tells await when a
// text is written.
type watch struct {
	mu      sync.Mutex
	b       bytes.Buffer
	changed chan struct{} // closed at the next write
}

func newWatch() *watch { return &watch{changed: make(chan struct{})} }

func (w *watch) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b.Write(p)
	close(w.changed)
	w.changed = make(chan struct{})
	return len(p), nil
}

// await waits until the output holds text, or ctx ends; it reports
// whether the output holds it.
func (w *watch) await(ctx context.Context, text string) bool {
	for {
		w.mu.Lock()
		found, changed := strings.Contains(w.b.String(), text), w.changed
		w.mu.Unlock()
		if found {
			return true
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return false
		}
	}
}

// lines returns the lines written.
func (w *watch) lines() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Split(strings.TrimSuffix(w.b.String(), "\n"), "\n")
}

// ids returns the id of each line, as written.
func ids(t *testing.T, lines []string) []string {
	t.Helper()
	var out []string
	for _, l := range lines {
		var m struct{ ID json.RawMessage }
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		out = append(out, string(m.ID))
	}
	return out
}

// TestStdioInitializeAnsweredFirst: a request pipelined after initialize
// is answered after initialize, whatever a hook does once initialize's
// result is made (here: holds its answer until the request's answer is
// written, or overtake passes); so is the Validator's refusal of a call.
func TestStdioInitializeAnsweredFirst(t *testing.T) {
	for _, tc := range []struct {
		name      string
		validator bool
		request   string
	}{
		{"tools/call", false, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{}}}`},
		{"tools/call, Validator", true, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{}}}`},
		{"unknown tool, Validator", true, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"nope","arguments":{}}}`},
		{"ping", false, `{"jsonrpc":"2.0","id":2,"method":"ping"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := newWatch()
			hooks := &server.Hooks{}
			hooks.AddAfterInitialize(func(ctx context.Context, _ any, _ *mcp.InitializeRequest, _ *mcp.InitializeResult) {
				ctx, cancel := context.WithTimeout(ctx, overtake)
				defer cancel()
				out.await(ctx, `"id":2,`)
			})
			s := server.NewMCPServer("order", "0", server.WithHooks(hooks))
			s.AddTool(mcp.NewTool("echo"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return mcp.NewToolResultText("echo"), nil
			})
			o := &mcpgo.StdioOptions{In: strings.NewReader(initialize + "\n" + tc.request + "\n"), Out: out}
			if tc.validator {
				o.Validator = mcpgo.Validate(s, nil)
			}
			if err := mcpgo.ServeStdio(context.Background(), s, o); err != nil {
				t.Fatal(err)
			}
			lines := out.lines()
			if diff := cmp.Diff([]string{"1", "2"}, ids(t, lines)); diff != "" {
				t.Errorf("ids of the answers, in order (-want +got):\n%s\n%s", diff, strings.Join(lines, "\n"))
			}
		})
	}
}

// TestStdioCancelAnswersRunning: cancelling ServeStdio's context ends the
// context of the handlers running, and ServeStdio returns once they have
// returned, their answers written, as mcp-go's own stdio server does.
func TestStdioCancelAnswersRunning(t *testing.T) {
	type outcome struct {
		ReturnedEarly bool   // returned while a handler ran
		HandlerErr    string // the handler's ctx.Err() once it ended
		Err           string // what the server returned
		Answer        string // the text of the call's answer
	}
	paths := map[string]func(ctx context.Context, s *server.MCPServer, in io.Reader, out io.Writer) error{
		"mcp-go": func(ctx context.Context, s *server.MCPServer, in io.Reader, out io.Writer) error {
			return server.NewStdioServer(s).Listen(ctx, in, out)
		},
		"mcpgo": func(ctx context.Context, s *server.MCPServer, in io.Reader, out io.Writer) error {
			return mcpgo.ServeStdio(ctx, s, &mcpgo.StdioOptions{In: in, Out: out})
		},
	}
	got := map[string]outcome{}
	for _, path := range []string{"mcp-go", "mcpgo"} {
		var o outcome
		started, release, returned := make(chan struct{}), make(chan struct{}), make(chan struct{})
		s := server.NewMCPServer("cancel", "0")
		s.AddTool(mcp.NewTool("hold"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			defer close(returned)
			close(started)
			<-ctx.Done()
			<-release
			o.HandlerErr = ctx.Err().Error()
			return mcp.NewToolResultText("stopped"), nil
		})
		inR, inW := io.Pipe()
		out := newWatch()
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- paths[path](ctx, s, inR, out) }()
		io.WriteString(inW, initialize+"\n")
		wait, stop := context.WithTimeout(context.Background(), 5*time.Second)
		if !out.await(wait, `"id":1,`) {
			t.Fatalf("%s: no answer to initialize", path)
		}
		stop()
		io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"+`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"hold"}}`+"\n")
		<-started
		cancel()
		var err error
		select {
		case err = <-done:
			o.ReturnedEarly = true
		case <-time.After(overtake):
		}
		close(release)
		<-returned
		if !o.ReturnedEarly {
			err = <-done
		}
		inW.Close()
		o.Err = err.Error()
		for _, l := range out.lines() {
			var m struct {
				ID     int
				Result struct{ Content []struct{ Text string } }
			}
			if json.Unmarshal([]byte(l), &m) == nil && m.ID == 2 && len(m.Result.Content) == 1 {
				o.Answer = m.Result.Content[0].Text
			}
		}
		got[path] = o
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s returned %v, want %v", path, err, context.Canceled)
		}
	}
	want := outcome{HandlerErr: context.Canceled.Error(), Err: context.Canceled.Error(), Answer: "stopped"}
	if diff := cmp.Diff(map[string]outcome{"mcp-go": want, "mcpgo": want}, got); diff != "" {
		t.Errorf("cancelling the server's context, by path (-want +got):\n%s", diff)
	}
}

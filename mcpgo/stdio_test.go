package mcpgo_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcperr/mcperr/mcpgo"
)

// stdioTestServer has a tool "wait" that blocks until its call is cancelled,
// a tool "roots" that asks the client for its roots, and a tool "panic".
func stdioTestServer() *server.MCPServer {
	s := server.NewMCPServer("stdio-test", "0", server.WithRoots())
	s.AddTool(mcp.NewTool("wait"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		<-ctx.Done()
		return mcp.NewToolResultText("cancelled"), nil
	})
	s.AddTool(mcp.NewTool("roots"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := s.RequestRoots(ctx, mcp.ListRootsRequest{})
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		return mcp.NewToolResultText(res.Roots[0].URI), nil
	})
	s.AddTool(mcp.NewTool("panic"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		panic("secret detail")
	})
	return s
}

// pipeSession serves s in-process over pipes.
type pipeSession struct {
	in   *io.PipeWriter
	out  *bufio.Reader
	done chan error
}

func servePipes(t *testing.T, s *server.MCPServer, o mcpgo.StdioOptions) *pipeSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	o.In, o.Out = inR, outW
	p := &pipeSession{in: inW, out: bufio.NewReader(outR), done: make(chan error, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		p.done <- mcpgo.ServeStdio(ctx, s, &o)
		outW.Close()
	}()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		outR.Close()
	})
	return p
}

func (p *pipeSession) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

func (p *pipeSession) next(t *testing.T) string {
	t.Helper()
	got := make(chan string, 1)
	go func() {
		l, _ := p.out.ReadString('\n')
		got <- strings.TrimSuffix(l, "\n")
	}()
	select {
	case l := <-got:
		return l
	case <-time.After(5 * time.Second):
		t.Fatal("no line within 5 s")
		return ""
	}
}

func TestServeStdioSession(t *testing.T) {
	p := servePipes(t, stdioTestServer(), mcpgo.StdioOptions{MaxLine: 4096})
	p.send(t, stdioInit)
	p.next(t)
	p.send(t, stdioInitialized)

	// A request whose id is in flight is refused; a cancellation ends the
	// first one, which gets no answer (a receiver SHOULD NOT answer a
	// cancelled request, on every revision): the next line is the answer to
	// a request that reuses the id once its handler returned.
	p.send(t, `{"jsonrpc":"2.0","id":"w","method":"tools/call","params":{"name":"wait"}}`)
	p.send(t, `{"jsonrpc":"2.0","id":"w","method":"ping"}`)
	if got, want := p.next(t), `{"jsonrpc":"2.0","id":"w","error":{"code":-32600,"message":"Invalid Request: a request with this id is still in flight"}}`; got != want {
		t.Errorf("second request with an id in flight:\n got %s\nwant %s", got, want)
	}
	p.send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"w"}}`)
	for {
		p.send(t, `{"jsonrpc":"2.0","id":"w","method":"ping"}`)
		got := p.next(t)
		if strings.Contains(got, "still in flight") {
			time.Sleep(time.Millisecond) // the cancelled handler has not returned yet
			continue
		}
		if want := `{"jsonrpc":"2.0","id":"w","result":{}}`; got != want {
			t.Errorf("after a cancelled call:\n got %s\nwant %s", got, want)
		}
		break
	}

	// A line over MaxLine is a parse error; the session carries on.
	p.send(t, `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"pad":"`+strings.Repeat("x", 5000)+`"}}`)
	if got, want := p.next(t), `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`; got != want {
		t.Errorf("line over MaxLine:\n got %s\nwant %s", got, want)
	}

	// A request of the server's to the client, answered by the client.
	p.send(t, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"roots"}}`)
	if got, want := p.next(t), `{"jsonrpc":"2.0","id":1,"method":"roots/list"}`; got != want {
		t.Errorf("the server's request:\n got %s\nwant %s", got, want)
	}
	p.send(t, `{"jsonrpc":"2.0","id":1,"result":{"roots":[{"uri":"file:///<&>","name":"r"}]}}`)
	if got, want := p.next(t), `{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"file:///<&>"}]}}`; got != want {
		t.Errorf("call answered after the client's answer:\n got %s\nwant %s", got, want)
	}

	// A handler's panic is answered with -32603, without its value; the
	// session carries on.
	p.send(t, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"panic"}}`)
	if got, want := p.next(t), `{"jsonrpc":"2.0","id":5,"error":{"code":-32603,"message":"Internal error"}}`; got != want {
		t.Errorf("panicking handler:\n got %s\nwant %s", got, want)
	}
	p.send(t, `{"jsonrpc":"2.0","id":6,"method":"ping"}`)
	if got, want := p.next(t), `{"jsonrpc":"2.0","id":6,"result":{}}`; got != want {
		t.Errorf("ping after a panic:\n got %s\nwant %s", got, want)
	}

	p.in.Close()
	select {
	case err := <-p.done:
		if err != nil {
			t.Errorf("ServeStdio at the end of the input = %v, want nil", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ServeStdio did not return at the end of the input")
	}
}

// brokenWriter fails every write.
type brokenWriter struct{}

func (brokenWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

func TestServeStdioOutputFails(t *testing.T) {
	inR, inW := io.Pipe()
	defer inW.Close()
	done := make(chan error, 1)
	go func() {
		done <- mcpgo.ServeStdio(context.Background(), stdioTestServer(), &mcpgo.StdioOptions{In: inR, Out: brokenWriter{}})
	}()
	io.WriteString(inW, "not JSON\n")
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "broken pipe") {
			t.Errorf("ServeStdio = %v, want the write's error", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ServeStdio went on after its output failed")
	}
}

func TestServeStdioContextEnds(t *testing.T) {
	inR, inW := io.Pipe()
	defer inW.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- mcpgo.ServeStdio(ctx, stdioTestServer(), &mcpgo.StdioOptions{In: inR, Out: io.Discard})
	}()
	cancel()
	select {
	case err := <-done:
		if diff := cmp.Diff(context.Canceled, err, cmpErrorIs); diff != "" {
			t.Errorf("ServeStdio after ctx ended (-want +got):\n%s", diff)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ServeStdio did not return when ctx ended")
	}
}

var cmpErrorIs = cmp.Comparer(func(a, b error) bool { return errors.Is(a, b) || errors.Is(b, a) })

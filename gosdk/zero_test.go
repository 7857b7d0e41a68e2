package gosdk_test

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/gosdk"
)

// zeroCall returns a session's handshake and, once out has a line (the
// answer to initialize), one valid call of get_trace: the call is read in an
// initialized session, which the direct path needs.
func zeroCall(ctx context.Context, out *firstLine) io.Reader {
	return io.MultiReader(strings.NewReader(initLine+"\n"+initialized+"\n"), &gate{ready: out.ready, ctx: ctx},
		strings.NewReader(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_trace","arguments":{"id":"abc"}}}`+"\n"))
}

func localTrace(_ context.Context, _ *mcp.CallToolRequest, in TraceIn) (Trace, error) {
	return Trace{ID: in.ID, Spans: 3}, nil
}

// TestZeroStdioTransport: a zero StdioTransport (Server unset) finds a
// server AddTool added a tool to, and answers its calls on the direct path;
// a server without a tool of AddTool's is served by the SDK, with the same
// answer.
func TestZeroStdioTransport(t *testing.T) {
	const want = `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"{\"id\":\"abc\",\"spans\":3}"}],"structuredContent":{"id":"abc","spans":3}}}`
	for _, tt := range []struct {
		name   string
		add    func(*mcp.Server)
		direct int64
	}{
		{"gosdk.AddTool", func(s *mcp.Server) { gosdk.AddTool(s, &mcp.Tool{Name: "get_trace"}, localTrace) }, 1},
		{"mcp.AddTool", func(s *mcp.Server) { mcp.AddTool(s, &mcp.Tool{Name: "get_trace"}, gosdk.Handle(localTrace)) }, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := mcp.NewServer(&mcp.Implementation{Name: "traces", Version: "1.0.0"}, nil)
			tt.add(srv)
			srv.AddReceivingMiddleware(gosdk.Validate(nil))
			direct := countDirect(srv)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			out := &firstLine{ready: make(chan struct{})}
			srv.Run(ctx, &gosdk.StdioTransport{In: zeroCall(ctx, out), Out: out})
			if !strings.Contains(out.String(), want) {
				t.Errorf("the call was not answered as %s:\n%s", want, out.String())
			}
			if n := direct.Load(); n != tt.direct {
				t.Errorf("%d calls took the direct path, want %d", n, tt.direct)
			}
		})
	}
}

// racing is a StdioTransport whose Connect connects another session to
// srv before it returns: a session as new as the transport's own when the
// transport first reads.
type racing struct {
	*gosdk.StdioTransport
	srv   *mcp.Server
	other *mcp.ServerSession
}

func (r *racing) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := r.StdioTransport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	st, _ := mcp.NewInMemoryTransports()
	r.other, err = r.srv.Connect(ctx, st, nil)
	return c, err
}

// TestStdioTransportTellsSessionsApart: another session of the server that
// connects in the same instant as the transport's own does not keep the
// transport off the direct path, with Server set or unset.
func TestStdioTransportTellsSessionsApart(t *testing.T) {
	for _, set := range []bool{true, false} {
		srv := mcp.NewServer(&mcp.Implementation{Name: "traces", Version: "1.0.0"}, nil)
		gosdk.AddTool(srv, &mcp.Tool{Name: "get_trace"}, localTrace)
		direct := countDirect(srv)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		out := &firstLine{ready: make(chan struct{})}
		tr := &racing{StdioTransport: &gosdk.StdioTransport{In: zeroCall(ctx, out), Out: out}, srv: srv}
		if set {
			tr.Server = srv
		}
		srv.Run(ctx, tr)
		tr.other.Close()
		if !strings.Contains(out.String(), `"id":2,"result"`) {
			t.Errorf("Server set %v: the call was not answered:\n%s", set, out.String())
		}
		if n := direct.Load(); n != 1 {
			t.Errorf("Server set %v: %d calls took the direct path, want 1", set, n)
		}
	}
}

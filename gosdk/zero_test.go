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

// TestZeroStdioTransport: a zero StdioTransport (Server unset) cannot learn
// the server Run is called on, so every call takes the SDK's path, with the
// same answer as the direct path of a transport whose Server is set.
func TestZeroStdioTransport(t *testing.T) {
	const want = `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"{\"id\":\"abc\",\"spans\":3}"}],"structuredContent":{"id":"abc","spans":3}}}`
	for _, tt := range []struct {
		name   string
		set    bool
		direct int64
	}{
		{"Server set", true, 1},
		{"Server unset", false, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := mcp.NewServer(&mcp.Implementation{Name: "traces", Version: "1.0.0"}, nil)
			gosdk.AddTool(srv, &mcp.Tool{Name: "get_trace"}, localTrace)
			srv.AddReceivingMiddleware(gosdk.Validate(nil))
			direct := countDirect(srv)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			out := &firstLine{ready: make(chan struct{})}
			tr := &gosdk.StdioTransport{In: zeroCall(ctx, out), Out: out}
			if tt.set {
				tr.Server = srv
			}
			srv.Run(ctx, tr)
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

// TestStdioTransportTellsSessionsApart: another session of Server that
// connects in the same instant as the transport's own does not keep the
// transport off the direct path.
func TestStdioTransportTellsSessionsApart(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "traces", Version: "1.0.0"}, nil)
	gosdk.AddTool(srv, &mcp.Tool{Name: "get_trace"}, localTrace)
	direct := countDirect(srv)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out := &firstLine{ready: make(chan struct{})}
	tr := &racing{StdioTransport: &gosdk.StdioTransport{In: zeroCall(ctx, out), Out: out, Server: srv}, srv: srv}
	srv.Run(ctx, tr)
	tr.other.Close()
	if !strings.Contains(out.String(), `"id":2,"result"`) {
		t.Errorf("the call was not answered:\n%s", out.String())
	}
	if n := direct.Load(); n != 1 {
		t.Errorf("%d calls took the direct path, want 1", n)
	}
}

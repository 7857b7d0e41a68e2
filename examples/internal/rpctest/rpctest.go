// Package rpctest checks an MCP server against arbitrary input, for fuzz
// targets: whatever arrives, the session survives, every answer is JSON-RPC,
// and every request whose id the JSON-RPC message rule (wire.CheckMessage)
// reads gets exactly one answer carrying that id byte for byte. Check does so
// over the stdio transport, CheckHTTP for one POST to an HTTP endpoint.
// Pipeline benchmarks a server on the stdio transport. Compare checks that
// the stdio transport's direct path (gosdk.StdioTransport with Server set)
// answers as the SDK does.
package rpctest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/adapter/adaptertest"
	"github.com/mcperr/mcperr/gosdk"
	"github.com/mcperr/mcperr/wire"
)

// HandlerTransport serves a server's upstream requests in-process, by its
// handler H, so that a fuzz input costs microseconds, not a network round
// trip or timeout.
type HandlerTransport struct{ H http.Handler }

// RoundTrip serves r with t.H and returns what it wrote.
func (t HandlerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	w := httptest.NewRecorder()
	t.H.ServeHTTP(w, r)
	return w.Result(), nil
}

// Initialize and Initialized open a session: the initialize request (id 1,
// protocol revision 2025-11-25) and the notification that follows its
// answer.
const (
	Initialize  = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"rpctest","version":"0"}}}`
	Initialized = adaptertest.Initialized
)

// Check runs server on a gosdk.StdioTransport over in, followed by a ping,
// with tools/call served by the transport's direct path (Server set), and
// fails t unless the session survived (the ping is answered), every line
// written is JSON, and every request whose id the JSON-RPC message rule
// reads (wire.CheckMessage) got exactly one answer with that id as sent, a
// cancelled call's included (adaptertest.CheckStdio).
func Check(t testing.TB, server *mcp.Server, in []byte) {
	t.Helper()
	adaptertest.CheckStdio(t, func(ctx context.Context, in io.Reader, out io.Writer) {
		server.Run(ctx, &gosdk.StdioTransport{In: in, Out: out, Drain: 2 * time.Second, Server: server})
	}, in, adaptertest.Answered)
}

// Pipeline benchmarks a stdio server: it runs serve on a pair of pipes,
// initializes the session (Initialize and Initialized) and, once initialize
// is answered, sends b.N tools/call requests with params, at most 16 in
// flight, reading every answer. Only the calls are timed
// (adaptertest.Pipeline).
func Pipeline(b *testing.B, serve func(ctx context.Context, in io.Reader, out io.Writer) error, params string) {
	adaptertest.Pipeline(b, serve, Initialize, params)
}

// CheckHTTP fails t unless rec, the answer of an MCP endpoint to a POST of
// body, is one JSON-RPC message (Content-Type application/json) whose id is
// the id wire.CheckMessage reads from body (null when it reads none), or an
// empty 202 for a body whose message type is one of accepted (a
// notification, or a response the client sends back).
func CheckHTTP(t testing.TB, body []byte, rec *httptest.ResponseRecorder, accepted ...wire.MessageType) {
	t.Helper()
	want := json.RawMessage("null")
	m, err := wire.CheckMessage(body)
	var me *wire.MessageError
	switch {
	case errors.As(err, &me) && me.ID != nil:
		want = me.ID
	case err == nil && (m.Type == wire.RequestMessage || m.Type == wire.ResponseMessage):
		want = m.ID
	}
	if rec.Code == http.StatusAccepted && rec.Body.Len() == 0 && err == nil && slices.Contains(accepted, m.Type) {
		return
	}
	var got struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
	}
	if e := json.Unmarshal(rec.Body.Bytes(), &got); e != nil || got.JSONRPC != "2.0" || rec.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("%q: answer %d %q is not a JSON-RPC message", body, rec.Code, rec.Body)
	}
	if !bytes.Equal(got.ID, want) {
		t.Fatalf("%q: answered with id %s, want %s: %s", body, got.ID, want, rec.Body)
	}
}

// Compare serves head and then, once the first answer is written (the
// session is initialized when head begins with initialize), tail on srv
// twice over a gosdk.StdioTransport, through the SDK (Server unset) and
// through the direct path (Server set), and fails t unless both wrote the
// same lines; concurrent calls may be answered in any order. It returns the
// direct path's lines and how many calls it served itself, as counted by
// direct (from CountDirect).
func Compare(t testing.TB, srv *mcp.Server, direct *atomic.Int64, head, tail string) ([]string, int64) {
	t.Helper()
	run := func(server *mcp.Server) []string {
		out := &firstLine{ready: make(chan struct{})}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		in := io.MultiReader(strings.NewReader(head), &gate{ready: out.ready, ctx: ctx}, strings.NewReader(tail))
		srv.Run(ctx, &gosdk.StdioTransport{In: in, Out: out, Drain: time.Second, Server: server})
		text := strings.TrimRight(out.String(), "\n")
		if text == "" {
			return nil
		}
		return strings.Split(text, "\n")
	}
	before := direct.Load()
	sdk := run(nil)
	if n := direct.Load() - before; n != 0 {
		t.Fatalf("%d calls took the direct path with Server unset", n)
	}
	lines := run(srv)
	a, b := slices.Clone(sdk), slices.Clone(lines)
	slices.Sort(a)
	slices.Sort(b)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Fatalf("%q: the direct path answers otherwise than the SDK (-sdk +direct):\n%s", head+tail, diff)
	}
	return lines, direct.Load() - before
}

// CountDirect adds to srv a receiving middleware that counts the tools/call
// requests the stdio transport's direct path serves (those whose handler
// runs below the transport's goroutine, not the SDK's), and returns the
// count. Added last, it also shows that the direct path runs middleware
// added in any order.
func CountDirect(srv *mcp.Server) *atomic.Int64 {
	n := new(atomic.Int64)
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/call" && onDirectPath() {
				n.Add(1)
			}
			return next(ctx, method, req)
		}
	})
	return n
}

// onDirectPath reports whether the caller runs on the direct path of
// gosdk.StdioTransport.
func onDirectPath() bool {
	pc := make([]uintptr, 64)
	frames := runtime.CallersFrames(pc[:runtime.Callers(2, pc)])
	for {
		f, more := frames.Next()
		if strings.HasSuffix(f.Function, "gosdk.(*conn).serve") {
			return true
		}
		if !more {
			return false
		}
	}
}

// firstLine is an output that closes ready once a whole line is written.
type firstLine struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	ready chan struct{}
}

func (w *firstLine) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	had := bytes.IndexByte(w.buf.Bytes(), '\n') >= 0
	w.buf.Write(p)
	if !had && bytes.IndexByte(p, '\n') >= 0 {
		close(w.ready)
	}
	return len(p), nil
}

func (w *firstLine) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// gate is an empty input that ends once ready is closed (or ctx ends).
type gate struct {
	ready <-chan struct{}
	ctx   context.Context
}

func (g *gate) Read([]byte) (int, error) {
	select {
	case <-g.ready:
	case <-g.ctx.Done():
	}
	return 0, io.EOF
}

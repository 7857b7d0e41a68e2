package gosdk_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/gosdk"
	"github.com/mcperr/mcperr/wire"
)

// The helpers of the stdio tests: a session's first lines, the checks a
// fuzz target runs on a whole server, the comparison of the direct path with
// the SDK's, and a pipelined benchmark.

// initLine and initialized open a session: the initialize request (id 1,
// protocol revision 2025-11-25) and the notification that follows its
// answer.
const (
	initLine    = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"gosdk-test","version":"0"}}}`
	initialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

// lastPing is sent after a fuzz input: its answer shows the session
// survived.
const lastPing = `{"jsonrpc":"2.0","id":"last-ping","method":"ping"}`

// countDirect adds to srv a receiving middleware that counts the tools/call
// requests the direct path serves (those whose handler runs below the
// transport's own goroutine, not the SDK's), and returns the count. Being
// added after the transport's server is set up, it also shows the direct
// path runs middleware added in any order.
func countDirect(srv *mcp.Server) *atomic.Int64 {
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

// onDirectPath reports whether the caller runs on the direct path of the
// stdio transport.
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

// check runs srv on a StdioTransport (with Server set) over in, followed by
// a ping, and fails t unless the session survived (the ping is answered),
// every line written is JSON, and every request whose id the JSON-RPC
// message rule reads (wire.CheckMessage) got exactly one answer with that
// id as sent; a request a notifications/cancelled names, at most one (none
// when the cancellation came first: a cancelled request is not answered).
func check(t testing.TB, srv *mcp.Server, in []byte) {
	t.Helper()
	want := map[string]int{`"last-ping"`: 1}
	cancelled := map[string]bool{} // by idValue
	for l := range bytes.SplitSeq(in, []byte("\n")) {
		l = bytes.TrimSpace(l)
		if len(l) == 0 {
			continue
		}
		m, err := wire.CheckMessage(l)
		var me *wire.MessageError
		switch {
		case errors.As(err, &me) && me.ID != nil:
			want[string(me.ID)]++
		case err == nil && m.Type == wire.RequestMessage:
			want[string(m.ID)]++
		case err == nil && m.Method == "notifications/cancelled":
			var p struct {
				RequestID json.RawMessage `json:"requestId"`
			}
			if json.Unmarshal(m.Params, &p) == nil {
				cancelled[idValue(p.RequestID)] = true
			}
		}
	}
	var out safeBuffer
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	input := io.MultiReader(bytes.NewReader(in), strings.NewReader("\n"+lastPing+"\n"))
	srv.Run(ctx, &gosdk.StdioTransport{In: input, Out: &out, Drain: 2 * time.Second, Server: srv})
	got := map[string]int{}
	for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		if !json.Valid([]byte(l)) {
			t.Fatalf("output line is not JSON: %q", l)
		}
		if id, _, ok := wire.AnswerID([]byte(l)); ok {
			got[string(id)]++
		}
	}
	for id, n := range want {
		if cancelled[idValue([]byte(id))] && n == 1 && got[id] == 0 {
			delete(want, id) // cancelled before it was answered
		}
	}
	if got[`"last-ping"`] == 0 {
		t.Fatalf("%q: the session did not survive:\n%s", in, out.String())
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("%q: answers by id (-want +got):\n%s\noutput:\n%s", in, diff, out.String())
	}
}

// compare serves head and then, once the first answer is written (the
// session is initialized when head begins with initialize), tail on srv
// twice over a StdioTransport, through the SDK (Server unset) and through
// the direct path (Server set), and fails t unless both wrote the same
// lines; concurrent calls may be answered in any order. It returns the
// direct path's lines and how many calls it served itself (direct, from
// countDirect).
func compare(t testing.TB, srv *mcp.Server, direct *atomic.Int64, head, tail string) ([]string, int64) {
	t.Helper()
	return compareAs(t, srv, direct, head, tail, nil)
}

// compareAs is compare with each line passed through norm (when not nil)
// before the two paths' lines are compared.
func compareAs(t testing.TB, srv *mcp.Server, direct *atomic.Int64, head, tail string, norm func(string) string) ([]string, int64) {
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
	if norm != nil { // a line norm makes "" is left out
		a = slices.DeleteFunc(slices.Collect(mapSeq(a, norm)), func(l string) bool { return l == "" })
		b = slices.DeleteFunc(slices.Collect(mapSeq(b, norm)), func(l string) bool { return l == "" })
	}
	slices.Sort(a)
	slices.Sort(b)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Fatalf("%q: the direct path answers otherwise than the SDK (-sdk +direct):\n%s", head+tail, diff)
	}
	return lines, direct.Load() - before
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

// safeBuffer is a bytes.Buffer safe for a writer and a reader at once.
type safeBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *safeBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *safeBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// pipeline benchmarks a stdio server: it runs serve on a pair of pipes,
// initializes the session and, once initialize is answered, sends b.N
// tools/call requests with params, at most 16 in flight, reading every
// answer. Only the calls are timed.
func pipeline(b *testing.B, serve func(ctx context.Context, in io.Reader, out io.Writer) error, params string) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, inR, outW) }()
	defer func() {
		inW.Close()
		cancel()
		outR.Close()
		<-done
	}()
	r := bufio.NewReaderSize(outR, 1<<20)
	io.WriteString(inW, initLine+"\n"+initialized+"\n")
	if _, err := r.ReadBytes('\n'); err != nil {
		b.Fatal(err)
	}
	slots := make(chan struct{}, 16)
	b.ReportAllocs()
	b.ResetTimer()
	go func() {
		w := bufio.NewWriter(inW)
		for i := range b.N {
			if len(slots) == cap(slots) {
				w.Flush()
			}
			slots <- struct{}{}
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`+"\n", i+2, params)
		}
		w.Flush()
	}()
	for range b.N {
		if _, err := r.ReadBytes('\n'); err != nil {
			b.Fatal(err)
		}
		<-slots
	}
}

// mapSeq yields f of each of s.
func mapSeq(s []string, f func(string) string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for _, v := range s {
			if !yield(f(v)) {
				return
			}
		}
	}
}

package gosdk_test

import (
	"bytes"
	"context"
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

	"github.com/mcperr/mcperr/adapter/adaptertest"
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

// onPath is a StdioTransport for srv on a pair of pipes, on the SDK's path
// (path "sdk": Server unset) or on the direct path ("direct": Server set to
// srv); in writes its input, out reads its output.
func onPath(srv *mcp.Server, path string) (tr *gosdk.StdioTransport, in *io.PipeWriter, out *io.PipeReader) {
	tr = &gosdk.StdioTransport{}
	if path == "direct" {
		tr.Server = srv
	}
	var outW *io.PipeWriter
	tr.In, in = io.Pipe()
	out, outW = io.Pipe()
	tr.Out = outW
	return tr, in, out
}

// check runs srv on a StdioTransport (with Server set) over in, followed by
// a ping, and fails t unless the session survived, every line written is
// JSON, and every request got exactly one answer with its id as sent; a
// request a notifications/cancelled names, at most one
// (adaptertest.CheckStdio).
func check(t testing.TB, srv *mcp.Server, in []byte) {
	t.Helper()
	adaptertest.CheckStdio(t, func(ctx context.Context, in io.Reader, out io.Writer) {
		srv.Run(ctx, &gosdk.StdioTransport{In: in, Out: out, Drain: 2 * time.Second, Server: srv})
	}, in, adaptertest.MayGoUnanswered)
}

// compare serves head and then, once the first answer is written (the
// session is initialized when head begins with initialize), tail on srv
// twice over a StdioTransport, through the SDK (Server unset) and through
// the direct path (Server set), and fails t unless both wrote the same
// lines in the orders the protocol fixes (see differ). It returns the
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
	in := func(ctx context.Context, out *firstLine) io.Reader {
		return io.MultiReader(strings.NewReader(head), &gate{ready: out.ready, ctx: ctx}, strings.NewReader(tail))
	}
	return differ(t, srv, direct, head+tail, in, norm, nil)
}

// differ serves the input in returns (given the run's context and its
// output) on srv twice over a StdioTransport, through the SDK (Server
// unset) and through the direct path (Server set); sent is that input's
// text. It fails t unless both paths wrote the same lines (each passed
// through norm when not nil; a line norm makes "" is left out), and wrote
// them in the same order wherever the protocol fixes one:
//
//   - the answer to an initialize comes before the answer to every request
//     sent after it that the server serves: the SDK handles initialize
//     alone, and starts no later request before initialize's answer is
//     written (its jsonrpc2 queue releases the next request once the
//     initialize handler has returned and its answer is written), so a
//     client may pipeline requests after initialize and read its answer
//     first;
//   - lines of one group (group(line), when group is not nil and it is not
//     "") come in the same order: such as the notifications a handler sends
//     and then its result, which it writes after it returns;
//   - an answer to a request the client could only send after another was
//     answered comes after it: the input itself fixes that order, as
//     compare's tail, sent once the first answer is written, does.
//
// Every other pair of lines may come in either order, and only the sets are
// compared: calls run concurrently on both paths, and the transport writes
// its own refusals (a line that is not a message, an id in flight) as it
// reads them, whatever the server is doing. It returns the direct path's
// lines and how many calls it served itself (direct, from countDirect).
func differ(t testing.TB, srv *mcp.Server, direct *atomic.Int64, sent string, in func(context.Context, *firstLine) io.Reader, norm, group func(string) string) ([]string, int64) {
	t.Helper()
	run := func(server *mcp.Server) []string {
		out := &firstLine{ready: make(chan struct{})}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		// The drain ends once every request read is answered; its bound
		// is the run's own, as at 1 s a loaded machine's -race run ended
		// before initialize's answer was written (an empty output).
		srv.Run(ctx, &gosdk.StdioTransport{In: in(ctx, out), Out: out, Drain: 5 * time.Second, Server: server})
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
	reqs := requests(sent)
	oa, ob := ordered(a, reqs, group), ordered(b, reqs, group)
	slices.Sort(a)
	slices.Sort(b)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Fatalf("%q: the direct path answers otherwise than the SDK (-sdk +direct):\n%s", sent, diff)
	}
	if diff := cmp.Diff(oa, ob); diff != "" {
		t.Fatalf("%q: the direct path orders its lines otherwise than the SDK (-sdk +direct):\n%s", sent, diff)
	}
	return lines, direct.Load() - before
}

// sentRequest is a request of a differential test's input: its line's
// index and its method.
type sentRequest struct {
	at     int
	method string
}

// requests are the requests of input (its lines the JSON-RPC message rule
// takes as requests), by idValue. An id sent twice is left out, as it
// cannot tell which request an answer is for, and so is the id of a
// request named notifications/cancelled, which the SDK may answer as it
// reads it, ahead of the requests it handles in turn (its preempter).
func requests(input string) map[string]sentRequest {
	reqs := map[string]sentRequest{}
	twice := map[string]bool{}
	for i, l := range strings.Split(input, "\n") {
		m, err := wire.CheckMessage([]byte(strings.TrimSpace(l)))
		if err != nil || m.Type != wire.RequestMessage {
			continue
		}
		k := idValue(m.ID)
		if _, ok := reqs[k]; ok || twice[k] || m.Method == "notifications/cancelled" {
			twice[k] = true
			delete(reqs, k)
			continue
		}
		reqs[k] = sentRequest{at: i, method: m.Method}
	}
	return reqs
}

// ordered lists the pairs of lines whose order differ compares, each as
// "A\n  before B" in the order lines has them, sorted.
func ordered(lines []string, reqs map[string]sentRequest, group func(string) string) []string {
	var pairs []string
	before := func(a, b string) { pairs = append(pairs, a+"\n  before "+b) }
	answers := make([]sentRequest, len(lines)) // the request each line answers; at -1: none
	for i, l := range lines {
		answers[i].at = -1
		if id, _, ok := wire.AnswerID([]byte(l)); ok {
			if r, ok := reqs[idValue(id)]; ok {
				answers[i] = r
			}
		}
	}
	for i, init := range answers {
		if init.method != "initialize" {
			continue
		}
		for j, r := range answers {
			switch {
			case r.at <= init.at:
			case j < i:
				before(lines[j], lines[i])
			default:
				before(lines[i], lines[j])
			}
		}
	}
	if group != nil {
		last := map[string]string{}
		for _, l := range lines {
			g := group(l)
			if g == "" {
				continue
			}
			if prev, ok := last[g]; ok {
				before(prev, l)
			}
			last[g] = l
		}
	}
	slices.Sort(pairs)
	return pairs
}

// firstLine is an output that closes ready once a whole line is written.
type firstLine struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	ready chan struct{}
	grew  chan struct{} // closed at the next write, when await waits for it
}

func (w *firstLine) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	had := bytes.IndexByte(w.buf.Bytes(), '\n') >= 0
	w.buf.Write(p)
	if !had && bytes.IndexByte(p, '\n') >= 0 {
		close(w.ready)
	}
	if w.grew != nil {
		close(w.grew)
		w.grew = nil
	}
	return len(p), nil
}

func (w *firstLine) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// await reports whether the output holds s before ctx ends.
func (w *firstLine) await(ctx context.Context, s string) bool {
	for {
		w.mu.Lock()
		if strings.Contains(w.buf.String(), s) {
			w.mu.Unlock()
			return true
		}
		if w.grew == nil {
			w.grew = make(chan struct{})
		}
		grew := w.grew
		w.mu.Unlock()
		select {
		case <-grew:
		case <-ctx.Done():
			return false
		}
	}
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

// pipeline benchmarks a stdio server opened with initLine
// (adaptertest.Pipeline).
func pipeline(b *testing.B, serve func(ctx context.Context, in io.Reader, out io.Writer) error, params string) {
	adaptertest.Pipeline(b, serve, initLine, params)
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

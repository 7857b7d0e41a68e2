package gosdk_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/gosdk"
)

// The bound on calls in flight (StdioTransport.MaxInFlight, 256 by
// default) never stops the reading: the client's answers to the server's
// own requests and its cancellations, which free the slots, are always
// read; on the SDK's path and on the direct path alike.

const busy = `"error":{"code":-32000,"message":"Server busy: 256 requests are in flight; send it again once one is answered",` +
	`"data":{"kind":"unavailable","code":"server_busy","message":"Server busy: 256 requests are in flight; send it again once one is answered","retryAfterSeconds":1}}`

// rootsInit opens a session of a client that has roots.
const rootsInit = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{}},"clientInfo":{"name":"gosdk-test","version":"0"}}}`

// boundServer has a tool "roots" that asks the client for its roots and a
// tool "wait" that blocks until its call is cancelled.
func boundServer() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "bound", Version: "0"}, nil)
	schema := json.RawMessage(`{"type":"object"}`)
	srv.AddTool(&mcp.Tool{Name: "roots", InputSchema: schema}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		//lint:ignore SA1019 a server-to-client request is what the bound must not block; roots is one that clients still answer
		res, err := req.Session.ListRoots(ctx, nil)
		if err != nil {
			return nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: res.Roots[0].URI}}}, nil
	})
	srv.AddTool(&mcp.Tool{Name: "wait", InputSchema: schema}, func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		<-ctx.Done()
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "cancelled"}}}, nil
	})
	return srv
}

// flood serves boundServer over pipes (on the direct path when direct) and
// sends lines from a goroutine of its own (a send blocks while the server
// does not read); client sees each line the server writes and returns the
// lines to send back. It returns when stop says so after a line, and fails
// t after 20 s.
func flood(t *testing.T, direct bool, lines []string, client func(line string) (reply []string, stop bool)) {
	t.Helper()
	srv := boundServer()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	tr := &gosdk.StdioTransport{In: inR, Out: outW}
	if direct {
		tr.Server = srv
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- srv.Run(ctx, tr)
		outW.Close()
	}()
	defer func() { cancel(); inW.Close(); outR.Close(); <-done }()
	var wmu sync.Mutex
	send := func(ls []string) {
		wmu.Lock()
		defer wmu.Unlock()
		for _, l := range ls {
			if _, err := io.WriteString(inW, l+"\n"); err != nil {
				return
			}
		}
	}
	go send([]string{rootsInit})
	out := bufio.NewReader(outR)
	got := make(chan string)
	go func() {
		defer close(got)
		for {
			l, err := out.ReadString('\n')
			if err != nil {
				return
			}
			got <- strings.TrimSuffix(l, "\n")
		}
	}()
	select { // initialize's answer, before the rest: initialize is in flight until then
	case <-got:
	case <-time.After(20 * time.Second):
		t.Fatal("initialize was not answered")
	}
	go send(append([]string{initialized}, lines...))
	timeout := time.After(20 * time.Second)
	for {
		select {
		case l, ok := <-got:
			if !ok {
				t.Fatal("the output ended")
			}
			reply, stop := client(l)
			if len(reply) > 0 {
				go send(reply)
			}
			if stop {
				return
			}
		case <-timeout:
			t.Fatal("no progress within 20 s: the session is stuck")
		}
	}
}

// TestStdioBoundClientAnswers: 257 calls whose handlers ask the client for
// its roots all end: 256 are answered once the client answers roots/list,
// the one past the bound is refused at once.
func TestStdioBoundClientAnswers(t *testing.T) {
	for _, direct := range []bool{false, true} {
		t.Run(fmt.Sprint("direct=", direct), func(t *testing.T) {
			const n = 257
			var calls []string
			for i := range n {
				calls = append(calls, fmt.Sprintf(`{"jsonrpc":"2.0","id":"c%d","method":"tools/call","params":{"name":"roots"}}`, i))
			}
			results, refused := 0, 0
			flood(t, direct, calls, func(l string) ([]string, bool) {
				switch {
				case strings.Contains(l, `"method":"roots/list"`):
					var m struct{ ID json.RawMessage }
					json.Unmarshal([]byte(l), &m)
					return []string{`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"roots":[{"uri":"file:///r"}]}}`}, false
				case strings.Contains(l, `"text":"file:///r"`):
					results++
				case strings.Contains(l, busy):
					refused++
				}
				return nil, results+refused == n
			})
			if results != 256 || refused != 1 {
				t.Errorf("%d results and %d refusals, want 256 and 1", results, refused)
			}
		})
	}
}

// TestStdioBoundCancel: 257 long calls, then their cancellations, all end:
// the one past the bound is refused at once, the cancellations end the 256
// others (which get no answer, being cancelled), and a ping sent after
// them is answered.
func TestStdioBoundCancel(t *testing.T) {
	for _, direct := range []bool{false, true} {
		t.Run(fmt.Sprint("direct=", direct), func(t *testing.T) {
			const n = 257
			var lines []string
			for i := range n {
				lines = append(lines, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"wait"}}`, 10+i))
			}
			for i := range n {
				lines = append(lines, fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%d}}`, 10+i))
			}
			var got []string
			pinged := false
			flood(t, direct, lines, func(l string) ([]string, bool) {
				if strings.Contains(l, `"id":"after"`) {
					if strings.Contains(l, busy) { // the cancelled handlers have not all returned yet
						return []string{`{"jsonrpc":"2.0","id":"after","method":"ping"}`}, false
					}
					got = append(got, l)
					return nil, true
				}
				got = append(got, l)
				if !pinged && strings.Contains(l, busy) {
					pinged = true
					return []string{`{"jsonrpc":"2.0","id":"after","method":"ping"}`}, false
				}
				return nil, false
			})
			want := []string{`{"jsonrpc":"2.0","id":266,` + busy + `}`, `{"jsonrpc":"2.0","id":"after","result":{}}`}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// TestStdioBoundUnread: a client that sends 50,000 calls and never reads
// the output holds a bounded number of goroutines and bytes: the handlers
// of at most 256 calls wait to write, and then the reading waits too. (The
// go-sdk's own transport, and this one before the bound, held 50,000
// goroutines and 269 MiB.)
func TestStdioBoundUnread(t *testing.T) {
	var in strings.Builder
	in.WriteString(initLine + "\n" + initialized + "\n")
	for i := range 50000 {
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"wait"}}`+"\n", 10+i)
	}
	for _, direct := range []bool{false, true} {
		t.Run(fmt.Sprint("direct=", direct), func(t *testing.T) {
			srv := boundServer()
			checkUnread(t, func(ctx context.Context, out io.Writer) {
				tr := &gosdk.StdioTransport{In: strings.NewReader(in.String()), Out: out, Drain: time.Millisecond}
				if direct {
					tr.Server = srv
				}
				srv.Run(ctx, tr)
			})
		})
	}
}

// blocked is an output read until its first line (initialize's answer),
// whose later writes wait until ctx ends: a client that stopped reading.
type blocked struct {
	ctx   context.Context
	wrote atomic.Bool
}

func (b *blocked) Write(p []byte) (int, error) {
	if b.wrote.CompareAndSwap(false, true) {
		return len(p), nil
	}
	<-b.ctx.Done()
	return 0, b.ctx.Err()
}

// checkUnread runs serve with an output never read, and fails t when the
// goroutines grow by more than 600 or the heap by more than 64 MiB before
// they stop growing (ten looks in a row without a new goroutine).
func checkUnread(t *testing.T, serve func(ctx context.Context, out io.Writer)) {
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	base := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { serve(ctx, &blocked{ctx: ctx}); close(done) }()
	defer func() { cancel(); <-done }()
	most, still := 0, 0
	for still < 10 {
		time.Sleep(50 * time.Millisecond)
		n := runtime.NumGoroutine() - base
		if n > 600 {
			t.Fatalf("%d goroutines more with the output unread, want at most 600", n)
		}
		if n > most {
			most, still = n, 0
		} else {
			still++
		}
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if grew := int64(after.HeapInuse) - int64(before.HeapInuse); grew > 64<<20 {
		t.Errorf("the heap grew by %d MiB with the output unread, want at most 64", grew>>20)
	}
	t.Logf("%d goroutines more at most", most)
}

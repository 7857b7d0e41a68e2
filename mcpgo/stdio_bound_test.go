package mcpgo_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/mcpgo"
)

// The bound on calls in flight (StdioOptions.MaxInFlight, 256 by default)
// never stops the reading: the client's answers to the server's own
// requests and its cancellations, which free the slots, are always read.

const busy = `"error":{"code":-32000,"message":"Server busy: 256 requests are in flight; send it again once one is answered",` +
	`"data":{"kind":"unavailable","code":"server_busy","message":"Server busy: 256 requests are in flight; send it again once one is answered","retryAfterSeconds":1}}`

// flood serves stdioTestServer over pipes and sends lines from a goroutine
// of its own (a send blocks while the server does not read); client sees
// each line the server writes and returns the lines to send back. It
// returns when stop says so after a line, and fails t after 20 s.
func flood(t *testing.T, lines []string, client func(line string) (reply []string, stop bool)) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- mcpgo.ServeStdio(ctx, stdioTestServer(), &mcpgo.StdioOptions{In: inR, Out: outW})
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
	go send([]string{stdioInit})
	out := bufio.NewReader(outR)
	got := make(chan string)
	go func() {
		for {
			l, err := out.ReadString('\n')
			if err != nil {
				close(got)
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
	go send(append([]string{stdioInitialized}, lines...))
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
// the one past the bound is refused at once, and the reading of the
// client's answers never waits for a slot.
func TestStdioBoundClientAnswers(t *testing.T) {
	const n = 257
	var calls []string
	for i := range n {
		calls = append(calls, fmt.Sprintf(`{"jsonrpc":"2.0","id":"c%d","method":"tools/call","params":{"name":"roots"}}`, i))
	}
	results, refused := 0, 0
	flood(t, calls, func(l string) ([]string, bool) {
		switch {
		case strings.Contains(l, `"method":"roots/list"`):
			id := l[strings.Index(l, `"id":`)+5 : strings.Index(l, `,"method"`)]
			return []string{`{"jsonrpc":"2.0","id":` + id + `,"result":{"roots":[{"uri":"file:///r"}]}}`}, false
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
}

// TestStdioBoundCancel: 257 long calls, then their cancellations, all end:
// the one past the bound is refused at once, the cancellations are read
// and end the 256 others (which get no answer, being cancelled), and a
// ping sent after them is answered.
func TestStdioBoundCancel(t *testing.T) {
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
	flood(t, lines, func(l string) ([]string, bool) {
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
	want := []string{
		`{"jsonrpc":"2.0","id":266,` + busy + `}`,
		`{"jsonrpc":"2.0","id":"after","result":{}}`,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// TestStdioBoundUnread: a client that sends 50,000 calls and never reads
// the output holds a bounded number of goroutines and bytes: the handlers
// of at most 256 calls wait to write, and then the reading waits too.
func TestStdioBoundUnread(t *testing.T) {
	var in strings.Builder
	in.WriteString(stdioInit + "\n" + stdioInitialized + "\n")
	for i := range 50000 {
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"ping"}`+"\n", 10+i)
	}
	checkUnread(t, func(ctx context.Context, out io.Writer) {
		mcpgo.ServeStdio(ctx, stdioTestServer(), &mcpgo.StdioOptions{In: strings.NewReader(in.String()), Out: out})
	})
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

package adaptertest

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The bound on calls in flight (MaxInFlight, 256 by default) never stops
// a stdio transport's reading: the client's answers to the server's own
// requests and its cancellations, which free the slots, are always read.
// BoundClientAnswers, BoundCancel and BoundUnread check it of an adapter.

// busy is the error member of the answer to a call past the bound of 256
// calls in flight.
const busy = `"error":{"code":-32000,"message":"Server busy: 256 requests are in flight; send it again once one is answered",` +
	`"data":{"kind":"unavailable","code":"server_busy","message":"Server busy: 256 requests are in flight; send it again once one is answered","retryAfterSeconds":1}}`

// Initialized is the notification a client sends after initialize's answer.
const Initialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`

// A StdioPipe serves one stdio session over in and out, with the default
// bound of 256 calls in flight, until ctx ends or in does: a server with a
// tool "roots" that asks the client for its roots and answers with the
// first one's URI as text, and a tool "wait" that blocks until its call is
// cancelled.
type StdioPipe func(ctx context.Context, in io.Reader, out io.Writer) error

// BoundClientAnswers checks that 257 calls whose handlers ask the client
// for its roots all end through serve, in a session opened with init: 256
// are answered once the client answers roots/list, the one past the bound
// is refused at once, and the reading of the client's answers never waits
// for a slot.
func BoundClientAnswers(serve StdioPipe, init string) error {
	const n = 257
	var calls []string
	for i := range n {
		calls = append(calls, fmt.Sprintf(`{"jsonrpc":"2.0","id":"c%d","method":"tools/call","params":{"name":"roots"}}`, i))
	}
	results, refused := 0, 0
	err := flood(serve, init, calls, func(l string) ([]string, bool) {
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
	if err != nil {
		return err
	}
	if results != 256 || refused != 1 {
		return fmt.Errorf("%d results and %d refusals, want 256 and 1", results, refused)
	}
	return nil
}

// BoundCancel checks that 257 long calls, then their cancellations, all
// end through serve, in a session opened with init: the one past the
// bound is refused at once, the cancellations are read and end the 256
// others (which get no answer, being cancelled), and a ping sent after
// them is answered.
func BoundCancel(serve StdioPipe, init string) error {
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
	err := flood(serve, init, lines, func(l string) ([]string, bool) {
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
	if err != nil {
		return err
	}
	want := []string{`{"jsonrpc":"2.0","id":266,` + busy + `}`, `{"jsonrpc":"2.0","id":"after","result":{}}`}
	if d := cmp.Diff(want, got); d != "" {
		return fmt.Errorf("(-want +got):\n%s", d)
	}
	return nil
}

// flood serves serve over pipes and sends init, then Initialized and
// lines, from a goroutine of its own (a send blocks while the server does
// not read); client sees each line the server writes and returns the lines
// to send back. It returns when stop says so after a line, and fails after
// 20 s without one.
func flood(serve StdioPipe, init string, lines []string, client func(line string) (reply []string, stop bool)) error {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, inR, outW)
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
	go send([]string{init})
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
		return errors.New("initialize was not answered")
	}
	go send(append([]string{Initialized}, lines...))
	timeout := time.After(20 * time.Second)
	for {
		select {
		case l, ok := <-got:
			if !ok {
				return errors.New("the output ended")
			}
			reply, stop := client(l)
			if len(reply) > 0 {
				go send(reply)
			}
			if stop {
				return nil
			}
		case <-timeout:
			return errors.New("no progress within 20 s: the session is stuck")
		}
	}
}

// BoundUnread runs serve with an output that takes the first write
// (initialize's answer) and never another, a client that stopped reading:
// serve's input should hold many calls. It fails when the goroutines grow
// by more than 600 or the heap by more than 64 MiB before they stop
// growing (ten looks, 50 ms apart, in a row without a new goroutine), and
// returns the most goroutines it saw added.
func BoundUnread(serve func(ctx context.Context, out io.Writer)) (int, error) {
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
		time.Sleep(50 * time.Millisecond) // a look at a count, not a wait for an event
		n := runtime.NumGoroutine() - base
		if n > 600 {
			return n, fmt.Errorf("%d goroutines more with the output unread, want at most 600", n)
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
		return most, fmt.Errorf("the heap grew by %d MiB with the output unread, want at most 64", grew>>20)
	}
	return most, nil
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

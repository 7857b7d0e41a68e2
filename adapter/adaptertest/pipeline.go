package adaptertest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/wire"
)

// Pipeline benchmarks a stdio server: it runs serve on a pair of pipes,
// opens the session with init and Initialized and, once init is answered,
// sends b.N tools/call requests with params, at most 16 in flight, reading
// every answer. Only the calls are timed; besides ns/op it reports
// cpu-ns/op, the process's CPU time per call (on Unix), which counts the
// server's goroutines and the client's alike.
func Pipeline(b *testing.B, serve func(ctx context.Context, in io.Reader, out io.Writer) error, init, params string) {
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
	io.WriteString(inW, init+"\n"+Initialized+"\n")
	if _, err := r.ReadBytes('\n'); err != nil {
		b.Fatal(err)
	}
	slots := make(chan struct{}, 16)
	b.ReportAllocs()
	b.ResetTimer()
	c0, cpu := cpuTime()
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
	if c1, ok := cpuTime(); cpu && ok {
		b.ReportMetric(float64(c1-c0)/float64(b.N), "cpu-ns/op")
	}
}

// lastPing is sent after a fuzz input: its answer shows the session
// survived.
const lastPing = `{"jsonrpc":"2.0","id":"last-ping","method":"ping"}`

// A Cancelled is what CheckStdio wants of a request that a
// notifications/cancelled of the input names.
type Cancelled int

const (
	// Answered wants the request answered exactly once, as every other.
	Answered Cancelled = iota
	// MayGoUnanswered wants the request answered at most once (not at all
	// when the cancellation came first: a cancelled request is not
	// answered).
	MayGoUnanswered
)

// CheckStdio runs serve, a stdio server, over in followed by a ping, for
// at most 10 s, and fails t unless the session survived (the ping is
// answered), every line written is JSON, and every request whose id the
// JSON-RPC message rule reads (wire.CheckMessage) got exactly one answer
// with that id as sent; a request a notifications/cancelled names, as c
// says. It is the check a fuzz target runs on a whole server.
func CheckStdio(t testing.TB, serve func(ctx context.Context, in io.Reader, out io.Writer), in []byte, c Cancelled) {
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
		case err == nil && m.Method == "notifications/cancelled" && c == MayGoUnanswered:
			var p struct {
				RequestID json.RawMessage `json:"requestId"`
			}
			if json.Unmarshal(m.Params, &p) == nil {
				cancelled[idValue(p.RequestID)] = true
			}
		}
	}
	var out SafeBuffer
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	serve(ctx, io.MultiReader(bytes.NewReader(in), strings.NewReader("\n"+lastPing+"\n")), &out)
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

// SafeBuffer is a bytes.Buffer safe for a writer and a reader at once.
type SafeBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p to the buffer.
func (b *SafeBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String is what was written so far.
func (b *SafeBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// idValue is a JSON-RPC id's value with its JSON type: ids that name the
// same request the same, however they are written (1 and 1.0).
func idValue(id []byte) string {
	var v any
	json.Unmarshal(id, &v)
	return fmt.Sprintf("%T %v", v, v)
}

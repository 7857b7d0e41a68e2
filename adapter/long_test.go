package adapter_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
)

// TestRunLong: RunLong returns fn's answer when fn finishes first; past
// Deadline it cancels fn's context and answers unavailable with Wait
// (Deadline when Wait is zero); the zero Long, and a nil progress, send
// nothing and set no deadline. TestRunLongProgress counts the progress.
func TestRunLong(t *testing.T) {
	errUp := errors.New("upstream said no")
	for _, c := range []struct {
		name      string
		long      adapter.Long
		noToken   bool          // progress is nil: the request carried no progressToken
		work      time.Duration // how long fn takes unless cancelled
		fnErr     error
		wantErr   *envelope.Error // nil: fn's own answer
		minTicks  int
		maxTicks  int
		cancelled bool // fn saw its context cancelled
	}{
		{"zero Long: fn's answer, nothing sent", adapter.Long{}, false, 30 * time.Millisecond, nil, nil, 0, 0, false},
		{"fn's error passes through", adapter.Long{Interval: time.Hour}, false, 0, errUp, nil, 0, 0, false},
		{"no progressToken: no progress", adapter.Long{Interval: 10 * time.Millisecond}, true, 60 * time.Millisecond, nil, nil, 0, 0, false},
		{"fn within the deadline", adapter.Long{Deadline: time.Second}, false, 10 * time.Millisecond, nil, nil, 0, 0, false},
		{"Wait zero means Deadline", adapter.Long{Deadline: 50 * time.Millisecond}, true, time.Hour, nil,
			&envelope.Error{Kind: errkind.Unavailable, RetryAfter: 50 * time.Millisecond}, 0, 0, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var ticks atomic.Int32
			var last atomic.Int64
			progress := func(_ context.Context, n float64) {
				if int64(n) != last.Load()+1 {
					t.Errorf("progress %v after %v: want one more each time", n, last.Load())
				}
				last.Store(int64(n))
				ticks.Add(1)
			}
			if c.noToken {
				progress = nil
			}
			sawCancel := make(chan bool, 1)
			v, err := adapter.RunLong(context.Background(), c.long, progress, func(ctx context.Context) (string, error) {
				select {
				case <-time.After(c.work):
					sawCancel <- false
					return "done", c.fnErr
				case <-ctx.Done():
					sawCancel <- true
					return "late", ctx.Err()
				}
			})
			checkLongAnswer(t, v, err, c.fnErr, c.wantErr)
			if got := <-sawCancel; got != c.cancelled { // also waits for fn: no goroutine is left behind
				t.Errorf("fn saw its context cancelled: %v, want %v", got, c.cancelled)
			}
			if n := int(ticks.Load()); n < c.minTicks || n > c.maxTicks {
				t.Errorf("%d progress notifications, want %d to %d", n, c.minTicks, c.maxTicks)
			}
		})
	}
}

// TestRunLongProgress: each tick of the Interval while fn runs is one
// progress call, numbered 1, 2, 3 and so on, until fn returns (its answer
// is RunLong's) or Deadline passes (fn's context is cancelled and the
// answer is unavailable with Wait). The test runs in a synctest bubble,
// whose clock moves only when every goroutine in it waits, so the count
// does not depend on the scheduler.
func TestRunLongProgress(t *testing.T) {
	for _, c := range []struct {
		name    string
		long    adapter.Long
		runs    time.Duration // fn returns after this; 0: only when its context is cancelled
		ticks   int
		wantErr *envelope.Error
	}{
		{"progress while fn runs", adapter.Long{Interval: 10 * time.Millisecond, Deadline: time.Second},
			35 * time.Millisecond, 3, nil},
		{"past the deadline: unavailable with Wait, fn cancelled",
			adapter.Long{Interval: 10 * time.Millisecond, Deadline: 85 * time.Millisecond, Wait: 7 * time.Second},
			0, 8, &envelope.Error{Kind: errkind.Unavailable, RetryAfter: 7 * time.Second}},
		{"deadline before any tick",
			adapter.Long{Interval: 100 * time.Millisecond, Deadline: 85 * time.Millisecond, Wait: 7 * time.Second},
			0, 0, &envelope.Error{Kind: errkind.Unavailable, RetryAfter: 7 * time.Second}},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var got []float64
				progress := func(_ context.Context, n float64) { got = append(got, n) }
				sawCancel := make(chan bool, 1)
				v, err := adapter.RunLong(context.Background(), c.long, progress, func(ctx context.Context) (string, error) {
					if c.runs > 0 {
						time.Sleep(c.runs)
						sawCancel <- ctx.Err() != nil
						return "done", nil
					}
					<-ctx.Done()
					sawCancel <- true
					return "late", ctx.Err()
				})
				checkLongAnswer(t, v, err, nil, c.wantErr)
				if cancelled := <-sawCancel; cancelled != (c.wantErr != nil) { // also waits for fn: no goroutine is left behind
					t.Errorf("fn saw its context cancelled: %v, want %v", cancelled, c.wantErr != nil)
				}
				want := []float64{}
				for i := range c.ticks {
					want = append(want, float64(i+1))
				}
				if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
					t.Errorf("progress calls (-want +got):\n%s", d)
				}
			})
		})
	}
}

// checkLongAnswer checks what RunLong returned: fn's answer ("done" and
// fnErr) when wantErr is nil, else the zero value and an *envelope.Error
// of wantErr's kind and wait.
func checkLongAnswer(t *testing.T, v string, err, fnErr error, wantErr *envelope.Error) {
	t.Helper()
	if wantErr == nil {
		if v != "done" || !errors.Is(err, fnErr) {
			t.Errorf("got %q, %v; want fn's answer", v, err)
		}
		return
	}
	var e *envelope.Error
	if !errors.As(err, &e) || v != "" {
		t.Fatalf("got %q, %v; want the zero value and an *envelope.Error", v, err)
	}
	if d := cmp.Diff([2]any{wantErr.Kind, wantErr.RetryAfter}, [2]any{e.Kind, e.RetryAfter}); d != "" {
		t.Errorf("kind and wait (-want +got):\n%s", d)
	}
}

// TestRunLongClientCancel: a call the client cancels ends at once with the
// context's error, and fn's context is cancelled too.
func TestRunLongClientCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	time.AfterFunc(20*time.Millisecond, cancel)
	_, err := adapter.RunLong(ctx, adapter.Long{Deadline: time.Hour}, nil, func(ctx context.Context) (int, error) {
		defer close(done)
		<-ctx.Done()
		return 0, nil
	})
	<-done
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
}

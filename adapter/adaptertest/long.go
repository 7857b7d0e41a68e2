package adaptertest

import (
	"context"
	"flag"
	"log"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/errkind"
)

// SlowIn is the arguments of the tool "slow": how long it runs.
type SlowIn struct {
	Millis int `json:"millis"`
}

// SlowOut is the result of the tool "slow".
type SlowOut struct {
	Done bool `json:"done"`
}

// A Slow is the tool "slow" that HandleLong calls, and what HandleLong
// counts of a call: the progress notifications the client got and whether
// the tool's context was cancelled.
type Slow struct {
	progress  atomic.Int32
	cancelled atomic.Bool
}

// Run is the tool's body: it returns SlowOut{Done: true} after in.Millis
// milliseconds, or ctx's error once ctx ends first.
func (s *Slow) Run(ctx context.Context, in SlowIn) (SlowOut, error) {
	select {
	case <-time.After(time.Duration(in.Millis) * time.Millisecond):
		return SlowOut{Done: true}, nil
	case <-ctx.Done():
		s.cancelled.Store(true)
		return SlowOut{}, ctx.Err()
	}
}

// Progress counts one notifications/progress the client got.
func (s *Slow) Progress() { s.progress.Add(1) }

// SlowLong is the Long HandleLong's server serves the tool "slow" with:
// progress every 20 ms, stopped at 400 ms with a wait of 30 s.
var SlowLong = adapter.Long{Interval: 20 * time.Millisecond, Deadline: 400 * time.Millisecond, Wait: 30 * time.Second}

// HandleLong checks, in a subtest of t for each case, that a Handle with
// SlowLong sends notifications/progress while the tool runs to a request
// that carried a progressToken (and none to one that did not), and past
// the deadline answers the unavailable kind object with the chosen wait,
// the tool's context cancelled. call calls the tool "slow", whose body is
// s.Run, with {"millis": millis} and, when token is not "", that
// progressToken, through a client that calls s.Progress for each progress
// notification it gets.
func HandleLong(t *testing.T, s *Slow, call func(ctx context.Context, millis int, token string) errkind.Outcome) {
	for _, tc := range []struct {
		name          string
		millis        int
		token         bool
		wantKind      errkind.Kind // "" for data
		wantWait      time.Duration
		minProgress   int32
		wantCancelled bool
	}{
		{"progress while it runs", 200, true, "", 0, 3, false},
		{"no progressToken, no progress", 200, false, "", 0, 0, false},
		{"past the deadline: unavailable, wait 30 s", 5000, true, errkind.Unavailable, 30 * time.Second, 5, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s.progress.Store(0)
			s.cancelled.Store(false)
			token := ""
			if tc.token {
				token = "tok-" + tc.name
			}
			start := time.Now()
			r := errkind.Read(call(t.Context(), tc.millis, token))
			if took := time.Since(start); took > 2*time.Second {
				t.Errorf("the call took %v", took)
			}
			if r.Kind != tc.wantKind || r.Wait != tc.wantWait {
				t.Errorf("got kind %q wait %v, want %q %v (%+v)", r.Kind, r.Wait, tc.wantKind, tc.wantWait, r)
			}
			time.Sleep(20 * time.Millisecond) // a client may forward notifications on a goroutine of its own; the tool returns once cancelled
			n := s.progress.Load()
			if tc.token && n < tc.minProgress || !tc.token && n != 0 {
				t.Errorf("%d progress notifications, want at least %d (token %v)", n, tc.minProgress, tc.token)
			}
			if s.cancelled.Load() != tc.wantCancelled {
				t.Errorf("tool's context cancelled: %v, want %v", s.cancelled.Load(), tc.wantCancelled)
			}
		})
	}
}

// ParseLong is the Long the command line's flags -interval, -deadline and
// -wait set (flag.Parse): the Long of a test server that a client in
// another language calls.
func ParseLong() adapter.Long {
	var l adapter.Long
	flag.DurationVar(&l.Interval, "interval", 0, "time between progress notifications")
	flag.DurationVar(&l.Deadline, "deadline", 0, "the call's deadline")
	flag.DurationVar(&l.Wait, "wait", 0, "the wait the deadline's answer asks for")
	flag.Parse()
	return l
}

// Sleep is the body of such a server's tool "slow": it sleeps for millis
// milliseconds, or until ctx ends, when it logs the cancellation on the
// standard error, for the test to see, and returns ctx's error.
func Sleep(ctx context.Context, millis int) error {
	select {
	case <-time.After(time.Duration(millis) * time.Millisecond):
		return nil
	case <-ctx.Done():
		log.Printf("slow: cancelled: %v", ctx.Err())
		return ctx.Err()
	}
}

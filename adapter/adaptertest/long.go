package adaptertest

import (
	"context"
	"flag"
	"log"
	"sync"
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

	mu    sync.Mutex
	until int32         // when > 0, Run returns once the client got this many notifications
	more  chan struct{} // closed at the next Progress
	ran   chan struct{} // closed when Run returns
}

// Run is the tool's body: it returns SlowOut{Done: true} after in.Millis
// milliseconds, or sooner when HandleLong's case waits for a number of
// progress notifications and the client has got them; it returns ctx's
// error once ctx ends first.
func (s *Slow) Run(ctx context.Context, in SlowIn) (SlowOut, error) {
	defer s.returned()
	after := time.NewTimer(time.Duration(in.Millis) * time.Millisecond)
	defer after.Stop()
	for {
		s.mu.Lock()
		if s.until > 0 && s.progress.Load() >= s.until {
			s.mu.Unlock()
			return SlowOut{Done: true}, nil
		}
		if s.more == nil {
			s.more = make(chan struct{})
		}
		more := s.more
		s.mu.Unlock()
		select {
		case <-more:
		case <-after.C:
			return SlowOut{Done: true}, nil
		case <-ctx.Done():
			s.cancelled.Store(true)
			return SlowOut{}, ctx.Err()
		}
	}
}

// Progress counts one notifications/progress the client got.
func (s *Slow) Progress() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.progress.Add(1)
	if s.more != nil {
		close(s.more)
		s.more = nil
	}
}

// returned tells the case waiting for Run (reset made ran) that it returned.
func (s *Slow) returned() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ran != nil {
		close(s.ran)
		s.ran = nil
	}
}

// reset starts a case: no progress counted, the context not cancelled,
// and Run waiting for until notifications (0: for its Millis alone). The
// channel it returns is closed when Run returns.
func (s *Slow) reset(until int32) <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.progress.Store(0)
	s.cancelled.Store(false)
	s.until = until
	s.ran = make(chan struct{})
	return s.ran
}

// SlowLong returns the Long HandleLong's server serves the tool "slow" with:
// progress every 20 ms, stopped at 2 s with a wait of 30 s. The deadline
// leaves a loaded machine time: at 400 ms, a tool of 60 ms under -race on
// two busy cores was answered by the deadline.
func SlowLong() adapter.Long {
	return adapter.Long{Interval: 20 * time.Millisecond, Deadline: 2 * time.Second, Wait: 30 * time.Second}
}

// HandleLong checks, in a subtest of t for each case, that a Handle with
// SlowLong sends notifications/progress while the tool runs to a request
// that carried a progressToken (and none to one that did not), and past
// the deadline answers the unavailable kind object with the chosen wait,
// the tool's context cancelled. The tool that runs while progress is sent
// returns once the client has got three notifications, not after a fixed
// time, so that a loaded machine's scheduler cannot make it miss them;
// how many come before the deadline is the scheduler's, and is not
// checked here (adapter's TestRunLongProgress counts them with a test
// clock). call calls the tool "slow", whose body is
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
		minProgress   int32 // Run returns once the client got this many
		wantCancelled bool
	}{
		// First, as a notification of a case before it could still be on
		// its way. The tool runs three Intervals, far from the deadline: a
		// loaded machine that runs RunLong late must not find both ready.
		{"no progressToken, no progress", 60, false, "", 0, 0, false},
		{"progress while it runs", 10000, true, "", 0, 3, false},
		{"past the deadline: unavailable, wait 30 s", 10000, true, errkind.Unavailable, 30 * time.Second, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ran := s.reset(tc.minProgress)
			token := ""
			if tc.token {
				token = "tok-" + tc.name
			}
			start := time.Now()
			r := errkind.Read(call(t.Context(), tc.millis, token))
			if took := time.Since(start); took > SlowLong().Deadline+2*time.Second { // the deadline, not the tool, ended it
				t.Errorf("the call took %v", took)
			}
			if r.Kind != tc.wantKind || r.Wait != tc.wantWait {
				t.Errorf("got kind %q wait %v, want %q %v (%+v)", r.Kind, r.Wait, tc.wantKind, tc.wantWait, r)
			}
			select { // the tool returns once cancelled, maybe after the answer
			case <-ran:
			case <-time.After(5 * time.Second):
				t.Fatal("the tool did not return in 5 s")
			}
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

package session

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestTable: Reserve refuses a key at its bound and every key at the total
// (places held count until Release; the empty key has no bound of its own
// but counts in the total), with the wait until the idle timeout can end a
// session; it never ends a session in use, and it does not count a session
// idle past the timeout (it returns it to end). A session idle for longer
// than idle expires (looked for at most every quarter of idle) unless it is
// serving a request, End forgets a session, and Open of a known session
// moves it to the key.
func TestTable(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	type step struct {
		op      string // reserve, release, open, touch, begin, done, end, expired
		id, key string
		at      time.Duration
		want    []string // reserve: the sessions to end, then "ok" or the refusal; expired: the sessions to end; touch: "live" or "gone"
	}
	const s = time.Second
	for _, c := range []struct {
		name       string
		max, total int
		idle       time.Duration
		steps      []step
		live       int
	}{
		{"a key at its bound is refused; its sessions and other keys' stay", 2, 0, time.Hour, []step{
			{"reserve", "", "k", 0, []string{"ok"}},
			{"open", "a", "k", 0, nil},
			{"release", "", "k", 0, nil},
			{"reserve", "", "k", 1 * s, []string{"ok"}},
			{"open", "b", "k", 1 * s, nil},
			{"release", "", "k", 1 * s, nil},
			{"reserve", "", "k", 2 * s, []string{"client bound 2, wait 59m58s"}},
			{"touch", "a", "", 3 * s, []string{"live"}},
			{"touch", "b", "", 3 * s, []string{"live"}},
			{"reserve", "", "other", 5 * s, []string{"ok"}},
			{"open", "x", "other", 5 * s, nil},
			{"release", "", "other", 5 * s, nil},
			{"end", "a", "", 6 * s, nil},
			{"reserve", "", "k", 7 * s, []string{"ok"}},
		}, 2},
		{"the wait is until the key's least recently used session can expire", 2, 0, 100 * s, []step{
			{"open", "a", "k", 10 * s, nil},
			{"open", "b", "k", 40 * s, nil},
			{"reserve", "", "k", 50 * s, []string{"client bound 2, wait 1m0s"}},
			{"begin", "a", "", 60 * s, nil},
			{"reserve", "", "k", 70 * s, []string{"client bound 2, wait 1m10s"}}, // a is busy: b's 100 s after 40 s
			{"begin", "b", "", 80 * s, nil},
			{"reserve", "", "k", 90 * s, []string{"client bound 2, wait 1m40s"}}, // both busy: the idle timeout
		}, 2},
		{"a place held counts until released", 1, 0, time.Hour, []step{
			{"reserve", "", "k", 0, []string{"ok"}},
			{"reserve", "", "k", 0, []string{"client bound 1, wait 1h0m0s"}},
			{"release", "", "k", 0, nil},
			{"reserve", "", "k", 0, []string{"ok"}},
			{"release", "", "k", 0, nil},
			{"release", "", "k", 0, nil}, // one too many: nothing held
			{"reserve", "", "k", 0, []string{"ok"}},
		}, 0},
		{"a session idle past the timeout is not counted: reserve ends it", 2, 0, 100 * s, []step{
			{"open", "a", "k", 0, nil},
			{"open", "b", "k", 50 * s, nil},
			{"reserve", "", "k", 101 * s, []string{"a", "ok"}},
			{"touch", "a", "", 102 * s, []string{"gone"}},
		}, 1},
		{"a busy session is never ended to make room", 1, 0, 100 * s, []step{
			{"open", "a", "k", 0, nil},
			{"begin", "a", "", 1 * s, nil},
			{"reserve", "", "k", 500 * s, []string{"client bound 1, wait 1m40s"}},
			{"touch", "a", "", 501 * s, []string{"live"}},
		}, 1},
		{"the total bounds every key, the empty key too; other keys' sessions stay", 2, 3, time.Hour, []step{
			{"open", "a", "k1", 0, nil},
			{"open", "b", "k2", 0, nil},
			{"open", "c", "", 0, nil},
			{"reserve", "", "k3", 1 * s, []string{"total bound 3, wait 59m59s"}},
			{"reserve", "", "", 1 * s, []string{"total bound 3, wait 59m59s"}},
			{"touch", "a", "", 2 * s, []string{"live"}},
			{"touch", "b", "", 2 * s, []string{"live"}},
			{"touch", "c", "", 2 * s, []string{"live"}},
			{"end", "c", "", 3 * s, nil},
			{"reserve", "", "k3", 4 * s, []string{"ok"}},
			{"reserve", "", "k4", 4 * s, []string{"total bound 3, wait 59m56s"}}, // k3's place held counts; the wait is from the last look (a lower bound)
		}, 2},
		{"at the total, sessions idle past the timeout end to make room; the wait is the oldest's", 0, 2, 100 * s, []step{
			{"open", "a", "k1", 0, nil},
			{"open", "b", "k2", 30 * s, nil},
			{"reserve", "", "k3", 50 * s, []string{"total bound 2, wait 50s"}},
			{"touch", "a", "", 60 * s, []string{"live"}},
			{"reserve", "", "k3", 70 * s, []string{"total bound 2, wait 30s"}}, // a lower bound: b, then a at 160 s
			{"reserve", "", "k3", 131 * s, []string{"b", "ok"}},
		}, 1},
		{"without an idle timeout a refusal has no wait", 1, 0, 0, []step{
			{"open", "a", "k", 0, nil},
			{"reserve", "", "k", 1000 * time.Hour, []string{"client bound 1, wait 0s"}},
		}, 1},
		{"no bound", 0, 0, time.Hour, []step{
			{"open", "a", "k", 0, nil},
			{"open", "b", "k", 0, nil},
			{"reserve", "", "k", 0, []string{"ok"}},
		}, 2},
		{"a session recorded without a key counts for its key once it has one", 1, 0, time.Hour, []step{
			{"open", "a", "", 0, nil},
			{"reserve", "", "k", 1 * s, []string{"ok"}},
			{"open", "a", "k", 1 * s, nil},
			{"release", "", "k", 1 * s, nil},
			{"reserve", "", "k", 2 * s, []string{"client bound 1, wait 59m59s"}},
		}, 1},
		{"idle sessions expire; a touch keeps one", 0, 0, 100 * s, []step{
			{"open", "a", "k", 0, nil},
			{"open", "b", "k", 0, nil},
			{"touch", "a", "", 80 * s, []string{"live"}},
			{"expired", "", "", 90 * s, nil},
			{"expired", "", "", 101 * s, nil}, // within a quarter of idle of the last look
			{"expired", "", "", 115 * s, []string{"b"}},
			{"expired", "", "", 200 * s, []string{"a"}},
		}, 0},
		{"a session serving a request does not expire", 0, 0, 100 * s, []step{
			{"open", "a", "k", 0, nil},
			{"begin", "a", "", 1 * s, nil},
			{"expired", "", "", 500 * s, nil},
			{"done", "a", "", 501 * s, nil},
			{"expired", "", "", 550 * s, nil},
			{"expired", "", "", 602 * s, []string{"a"}},
		}, 0},
		{"a negative or zero idle never expires", 0, 0, -1, []step{
			{"open", "a", "k", 0, nil},
			{"expired", "", "", 1000 * time.Hour, nil},
		}, 1},
		{"end forgets", 1, 0, time.Hour, []step{
			{"open", "a", "k", 0, nil},
			{"end", "a", "", 1 * s, nil},
			{"touch", "a", "", 2 * s, []string{"gone"}},
			{"reserve", "", "k", 3 * s, []string{"ok"}},
			{"end", "nope", "", 4 * s, nil},
		}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := New(c.max, c.total, c.idle)
			for i, s := range c.steps {
				var got []string
				switch s.op {
				case "reserve":
					end, err := tb.Reserve(s.key, at(s.at))
					slices.Sort(end)
					got = append(end, refusal(err))
				case "release":
					tb.Release(s.key)
				case "open":
					tb.Open(s.id, s.key, at(s.at))
				case "touch":
					got = []string{map[bool]string{true: "live", false: "gone"}[tb.Touch(s.id, at(s.at))]}
				case "end":
					tb.End(s.id)
				case "begin":
					tb.Begin(s.id, at(s.at))
				case "done":
					tb.Done(s.id, at(s.at))
				case "expired":
					got = tb.Expired(at(s.at))
					slices.Sort(got)
				}
				if diff := cmp.Diff(s.want, got); diff != "" {
					t.Errorf("step %d (%s %s%s): (-want +got)\n%s", i, s.op, s.id, s.key, diff)
				}
			}
			if got := tb.Len(); got != c.live {
				t.Errorf("%d live sessions, want %d", got, c.live)
			}
			for k, ks := range tb.keys {
				if len(ks) == 0 || k == "" {
					t.Errorf("key %q kept with %d sessions", k, len(ks))
				}
			}
		})
	}
}

// refusal writes Reserve's answer: "ok", or the bound and the wait.
func refusal(err error) string {
	var f *Full
	switch {
	case err == nil:
		return "ok"
	case !errors.As(err, &f):
		return err.Error()
	case f.Total:
		return fmt.Sprintf("total bound %d, wait %v", f.Max, f.Wait)
	}
	return fmt.Sprintf("client bound %d, wait %v", f.Max, f.Wait)
}

// TestTableConcurrent: under the race detector, a Table serves many
// goroutines at once, each key stays within its bound and the table within
// its total, whatever the interleaving of Reserve, Open and Release.
func TestTableConcurrent(t *testing.T) {
	const max, total = 4, 6
	tb := New(max, total, time.Millisecond)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			key := string(rune('a' + g%3))
			for i := range 200 {
				id := key + string(rune(g)) + string(rune(i))
				now := time.Now()
				if _, err := tb.Reserve(key, now); err == nil {
					tb.Open(id, key, now)
					tb.Release(key)
				}
				tb.Touch(id, now)
				tb.Begin(id, now)
				tb.Expired(now)
				tb.Done(id, now)
				if i%3 == 0 {
					tb.End(id)
				}
				tb.mu.Lock()
				n, k := len(tb.ids), len(tb.keys[key])
				tb.mu.Unlock()
				if n > total || k > max {
					t.Errorf("%d sessions, %d of key %q; want at most %d, %d", n, k, key, total, max)
				}
			}
		})
	}
	wg.Wait()
	if tb.heldAll != 0 || len(tb.held) != 0 {
		t.Errorf("places still held after every release: %d, %v", tb.heldAll, tb.held)
	}
}

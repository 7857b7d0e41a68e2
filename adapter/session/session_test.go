package session

import (
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestTable: a key holds at most max sessions (its least recently used one
// ends first; the empty key is not bounded), a session idle for longer than
// idle expires (looked for at most every quarter of idle) unless it is
// serving a request, End forgets a session, and Open of a known session
// moves it to the key.
func TestTable(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	type step struct {
		op      string // open, touch, begin, done, end, expired
		id, key string
		at      time.Duration
		want    []string // the sessions to end (open, expired), or "live"/"gone" (touch)
	}
	for _, c := range []struct {
		name  string
		max   int
		idle  time.Duration
		steps []step
		live  int
	}{
		{"a key over its bound ends its least recently used session", 2, time.Hour, []step{
			{"open", "a", "k", 0, nil},
			{"open", "b", "k", 1, nil},
			{"touch", "a", "", 2, []string{"live"}},
			{"open", "c", "k", 3, []string{"b"}},
			{"touch", "b", "", 4, []string{"gone"}},
			{"open", "x", "other", 5, nil},
			{"open", "y", "", 6, nil},
			{"open", "z", "", 7, nil},
		}, 5},
		{"no bound", 0, time.Hour, []step{
			{"open", "a", "k", 0, nil},
			{"open", "b", "k", 0, nil},
			{"open", "c", "k", 0, nil},
		}, 3},
		{"a session generated without a key is bounded once it has one", 1, time.Hour, []step{
			{"open", "a", "k", 0, nil},
			{"open", "b", "", 1, nil},
			{"open", "b", "k", 2, []string{"a"}},
		}, 1},
		{"idle sessions expire; a touch keeps one", 0, 100 * time.Second, []step{
			{"open", "a", "k", 0, nil},
			{"open", "b", "k", 0, nil},
			{"touch", "a", "", 80 * time.Second, []string{"live"}},
			{"expired", "", "", 90 * time.Second, nil},
			{"expired", "", "", 101 * time.Second, nil}, // within a quarter of idle of the last look
			{"expired", "", "", 115 * time.Second, []string{"b"}},
			{"expired", "", "", 200 * time.Second, []string{"a"}},
		}, 0},
		{"a session serving a request neither expires nor ends first for its key's bound", 2, 100 * time.Second, []step{
			{"open", "a", "k", 0, nil},
			{"begin", "a", "", 1, nil},
			{"open", "b", "k", 2, nil},
			{"open", "c", "k", 3, []string{"b"}},
			{"expired", "", "", 500 * time.Second, []string{"c"}},
			{"done", "a", "", 501 * time.Second, nil},
			{"expired", "", "", 550 * time.Second, nil},
			{"expired", "", "", 602 * time.Second, []string{"a"}},
		}, 0},
		{"a negative or zero idle never expires", 0, -1, []step{
			{"open", "a", "k", 0, nil},
			{"expired", "", "", 1000 * time.Hour, nil},
		}, 1},
		{"end forgets", 1, time.Hour, []step{
			{"open", "a", "k", 0, nil},
			{"end", "a", "", 1, nil},
			{"touch", "a", "", 2, []string{"gone"}},
			{"open", "b", "k", 3, nil},
			{"end", "nope", "", 4, nil},
		}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := New(c.max, c.idle)
			for i, s := range c.steps {
				var got []string
				switch s.op {
				case "open":
					got = tb.Open(s.id, s.key, at(s.at))
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
					t.Errorf("step %d (%s %s): (-want +got)\n%s", i, s.op, s.id, diff)
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

// TestTableConcurrent: under the race detector, a Table serves many
// goroutines at once and each key stays within its bound.
func TestTableConcurrent(t *testing.T) {
	tb := New(4, time.Millisecond)
	done := make(chan struct{})
	for g := range 8 {
		go func() {
			defer func() { done <- struct{}{} }()
			key := string(rune('a' + g%2))
			for i := range 200 {
				id := key + string(rune(g)) + string(rune(i))
				now := time.Now()
				tb.Open(id, key, now)
				tb.Touch(id, now)
				tb.Begin(id, now)
				tb.Expired(now)
				tb.Done(id, now)
				if i%3 == 0 {
					tb.End(id)
				}
			}
		}()
	}
	for range 8 {
		<-done
	}
	for k, ks := range tb.keys {
		if len(ks) > 4 {
			t.Errorf("key %q holds %d sessions, want at most 4", k, len(ks))
		}
	}
}

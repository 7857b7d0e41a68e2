package ratelimit

import (
	"context"
	"crypto/sha256"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestMemoryStoreSpend(t *testing.T) {
	at := func(s float64) time.Time { return limiterT0.Add(time.Duration(s * float64(time.Second))) }
	counter := func(key string, max int64) Limit { return Limit{Key: key, Max: max, Expires: at(60)} }
	meter := func(key string, max int64) Limit { return Limit{Key: key, Max: max, Per: time.Minute} }
	month := Limit{Key: "month", Max: 5, Expires: at(3600)}
	type op struct {
		ls   []Limit
		n    int64
		t    float64 // seconds since limiterT0
		want []Level
	}
	tests := []struct {
		name string
		ops  []op
	}{{
		name: "a counter fills to its max, then refuses until it expires",
		ops: []op{
			{[]Limit{counter("c", 3)}, 2, 0, []Level{{OK: true, Used: 2}}},
			{[]Limit{counter("c", 3)}, 2, 10, []Level{{Used: 2, Wait: 50 * time.Second}}},
			{[]Limit{counter("c", 3)}, 1, 10, []Level{{OK: true, Used: 3}}},
			{[]Limit{counter("c", 3)}, 1, 60, []Level{{OK: true, Used: 1}}},
		},
	}, {
		name: "a meter drains continuously and waits for what this charge needs",
		ops: []op{
			{[]Limit{meter("m", 30)}, 30, 0, []Level{{OK: true, Used: 30}}},
			{[]Limit{meter("m", 30)}, 2, 0, []Level{{Used: 30, Wait: 4 * time.Second}}},
			{[]Limit{meter("m", 30)}, 2, 3, []Level{{Used: 29, Wait: time.Second}}},
			{[]Limit{meter("m", 30)}, 2, 4, []Level{{OK: true, Used: 30}}},
			{[]Limit{meter("m", 30)}, 0, 64, []Level{{OK: true, Used: 0}}},
		},
	}, {
		name: "all or nothing: a charge one limit refuses changes none",
		ops: []op{
			{[]Limit{month, meter("minute", 3)}, 3, 0, []Level{{OK: true, Used: 3}, {OK: true, Used: 3}}},
			{[]Limit{month, meter("minute", 3)}, 1, 0, []Level{{OK: true, Used: 3}, {Used: 3, Wait: 20 * time.Second}}},
			{[]Limit{month, meter("minute", 3)}, 3, 60, []Level{{Used: 3, Wait: 3540 * time.Second}, {OK: true, Used: 0}}},
			{[]Limit{month, meter("minute", 3)}, 2, 60, []Level{{OK: true, Used: 5}, {OK: true, Used: 2}}},
		},
	}, {
		name: "refunds never refuse, and a meter never goes below empty",
		ops: []op{
			{[]Limit{counter("c", 5), meter("m", 5)}, 5, 0, []Level{{OK: true, Used: 5}, {OK: true, Used: 5}}},
			{[]Limit{counter("c", 5), meter("m", 5)}, -9, 0, []Level{{OK: true, Used: -4}, {OK: true, Used: 0}}},
		},
	}, {
		name: "soft limits count past their max",
		ops: []op{
			{[]Limit{{Key: "c", Max: 1, Expires: at(60), Soft: true}}, 5, 0, []Level{{OK: true, Used: 5}}},
			{[]Limit{{Key: "m", Max: 1, Per: time.Minute, Soft: true}}, 5, 0, []Level{{OK: true, Used: 5}}},
		},
	}, {
		name: "a charge above a meter's size never fits",
		ops: []op{
			{[]Limit{meter("m", 3)}, 4, 0, []Level{{Wait: MaxWait}}},
			{[]Limit{counter("c", 3)}, 4, 0, []Level{{Wait: 60 * time.Second}}},
		},
	}, {
		name: "reading creates nothing",
		ops: []op{
			{[]Limit{counter("c", 3), meter("m", 3)}, 0, 0, []Level{{OK: true}, {OK: true}}},
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s MemoryStore
			for i, o := range tt.ops {
				got, err := s.Spend(context.Background(), o.ls, o.n, at(o.t))
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(o.want, got); diff != "" {
					t.Errorf("op %d: Spend(%d at %vs): levels mismatch (-want +got):\n%s", i, o.n, o.t, diff)
				}
			}
		})
	}
	var s MemoryStore
	s.Spend(context.Background(), []Limit{counter("c", 3), meter("m", 3)}, 0, at(0))
	if _, n := s.Len(); n != 0 {
		t.Errorf("a read of nothing left %d counters and meters", n)
	}
}

// slowStore is a MemoryStore whose every call takes a millisecond first,
// as a store across a network does.
type slowStore struct{ MemoryStore }

func (s *slowStore) Add(ctx context.Context, key string, n int64, t, expires time.Time) (Count, error) {
	time.Sleep(time.Millisecond)
	return s.MemoryStore.Add(ctx, key, n, t, expires)
}

func (s *slowStore) Spend(ctx context.Context, ls []Limit, n int64, t time.Time) ([]Level, error) {
	time.Sleep(time.Millisecond)
	return s.MemoryStore.Spend(ctx, ls, n, t)
}

// A reservation never refuses a call that fits, even while another call
// that does not fit is being refused on a store that takes its time: the
// refused call never holds a charge another can see. Each trial leaves 2
// credits, then reserves 3 and 2 at once; the 2 must run every time.
func TestBudgetReserveNeverRefusesAFit(t *testing.T) {
	for _, tt := range []struct {
		name string
		plan Plan
	}{
		{"2 credits left this month", Plan{CreditsPerMonth: 10, StopAtAllocation: true}},
		{"2 credits left this minute", Plan{CreditsPerMinute: 10, CreditsPerMonth: 1000}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			refused := 0
			for range 200 {
				b := Budget{Store: &slowStore{}}
				if r, err := b.ReserveAt(ctx, "key", tt.plan, 8, budgetT0); err != nil || !r.OK {
					t.Fatalf("spending 8: %+v, %v", r.Verdict, err)
				}
				var (
					wg    sync.WaitGroup
					large *Reservation
				)
				wg.Add(1)
				go func() {
					defer wg.Done()
					large, _ = b.ReserveAt(ctx, "key", tt.plan, 3, budgetT0)
				}()
				time.Sleep(500 * time.Microsecond) // into the large call's round trip
				small, err := b.ReserveAt(ctx, "key", tt.plan, 2, budgetT0)
				wg.Wait()
				if err != nil {
					t.Fatal(err)
				}
				if large.OK {
					t.Fatalf("the 3-credit call ran with 2 credits left: %+v", large.Verdict)
				}
				if !small.OK {
					refused++
				}
			}
			if refused > 0 {
				t.Errorf("%d of 200 trials refused a 2-credit call with 2 credits left", refused)
			}
		})
	}
}

func TestShortKey(t *testing.T) {
	long := strings.Repeat("k", 60<<10)
	tests := []struct {
		key  string
		want string
	}{
		{"", ""},
		{"demo-pro", "demo-pro"},
		{strings.Repeat("a", MaxKeyLen), strings.Repeat("a", MaxKeyLen)},
		{strings.Repeat("a", MaxKeyLen+1), "sha256:635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"},
		{long, "sha256:" + fmt.Sprintf("%x", sha256.Sum256([]byte(long)))},
	}
	for _, tt := range tests {
		if got := ShortKey(tt.key); got != tt.want {
			t.Errorf("ShortKey(%d bytes) = %q, want %q", len(tt.key), got, tt.want)
		}
		if got := ShortKey(tt.key); len(got) > MaxKeyLen+len("sha256:")+1 {
			t.Errorf("ShortKey(%d bytes) is %d bytes long", len(tt.key), len(got))
		}
	}
	if ShortKey(long) == ShortKey(long+"x") {
		t.Error("two long keys share a digest")
	}
}

// Keys an outsider controls cost the same memory at any length: 3,000
// distinct keys of 60 KB each (a CDN location header, say) keep no more
// live heap in a Limiter, a Guard and a Budget than a few hundred bytes a
// key, where keeping the keys would take 180 MB each.
func TestLongKeysCostWhatShortKeysCost(t *testing.T) {
	const keys, size = 3000, 60 << 10
	var (
		lim    = &Limiter{Rate: 1, Burst: 10}
		guard  = &Guard{}
		budget = &Budget{}
		plan   = Plan{MessagesPerMinute: 60, CreditsPerMinute: 60, CreditsPerMonth: 1000}
		ctx    = context.Background()
	)
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heap()
	buf := []byte(strings.Repeat("x", size))
	for i := range keys {
		copy(buf, fmt.Sprintf("%08d", i))
		key := string(buf)
		lim.AllowAt(key, limiterT0)
		guard.AllowAt(key, limiterT0)
		budget.MessageAt(ctx, key, plan, limiterT0)
		budget.ReserveAt(ctx, key, plan, 1, limiterT0)
	}
	after := heap()
	runtime.KeepAlive(lim)
	runtime.KeepAlive(guard)
	runtime.KeepAlive(budget)
	b, _ := lim.mem.Len()
	_, g := guard.mem.Len()
	_, c := budget.mem.Len()
	if b != keys || g != keys || c != 3*keys {
		t.Fatalf("kept %d buckets, %d guard counters, %d budget counters and meters; want %d, %d, %d", b, g, c, keys, keys, 3*keys)
	}
	grew := int64(after) - int64(before)
	t.Logf("live heap grew %d bytes for %d keys of %d bytes: %d bytes a key", grew, keys, size, grew/keys)
	if limit := int64(keys) * 2 << 10; grew > limit {
		t.Errorf("live heap grew %d bytes for %d keys, more than 2 KB a key", grew, keys)
	}
}

// Meters that have drained are swept as new ones arrive, each by its own
// size and period; past MaxKeys, live ones are forgotten too.
func TestMemoryStoreSweepsMeters(t *testing.T) {
	s := MemoryStore{MaxKeys: 4096}
	ctx := context.Background()
	fast := Limit{Max: 60, Per: time.Minute} // drains 1 a second
	slow := Limit{Max: 60, Per: time.Hour}   // drains 1 a minute
	for i := range 1000 {
		l := fast
		if i%2 == 1 {
			l = slow
		}
		l.Key = fmt.Sprint("k", i)
		s.Spend(ctx, []Limit{l}, 1, limiterT0)
	}
	// Ten seconds on, the fast half has drained, the slow half has not.
	for i := range 1000 {
		s.Spend(ctx, []Limit{{Key: fmt.Sprint("new", i), Max: 60, Per: time.Minute}}, 1, limiterT0.Add(10*time.Second))
	}
	if _, n := s.Len(); n > 1500 || n < 1000 {
		t.Errorf("%d meters after 1000 drained and 1000 new, want the 500 slow ones and the new", n)
	}
	lv, _ := s.Spend(ctx, []Limit{{Key: "k1", Max: 60, Per: time.Hour}}, 0, limiterT0.Add(10*time.Second))
	if lv[0].Used != 1 {
		t.Errorf("a slow meter swept too early: %+v", lv[0])
	}
	s = MemoryStore{MaxKeys: 1024}
	for i := range 5000 {
		s.Spend(ctx, []Limit{{Key: fmt.Sprint("k", i), Max: 60, Per: time.Hour}}, 1, limiterT0)
	}
	if _, n := s.Len(); n > 1024 {
		t.Errorf("%d meters, more than MaxKeys", n)
	}
}

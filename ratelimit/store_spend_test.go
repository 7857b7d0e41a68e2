package ratelimit

import (
	"context"
	"crypto/sha256"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestMemoryStoreSpend(t *testing.T) {
	at := func(s float64) time.Time { return limiterT0.Add(time.Duration(s * float64(time.Second))) }
	counter := func(key string, max int64) Quota { return Quota{Key: key, Max: max, Expires: at(60)} }
	meter := func(key string, max int64) Quota { return Quota{Key: key, Max: max, Per: time.Minute} }
	month := Quota{Key: "month", Max: 5, Expires: at(3600)}
	type op struct {
		ls   []Quota
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
			{[]Quota{counter("c", 3)}, 2, 0, []Level{{OK: true, Used: 2}}},
			{[]Quota{counter("c", 3)}, 2, 10, []Level{{Used: 2, Wait: 50 * time.Second}}},
			{[]Quota{counter("c", 3)}, 1, 10, []Level{{OK: true, Used: 3}}},
			{[]Quota{counter("c", 3)}, 1, 60, []Level{{OK: true, Used: 1}}},
		},
	}, {
		name: "a meter drains continuously and waits for what this charge needs",
		ops: []op{
			{[]Quota{meter("m", 30)}, 30, 0, []Level{{OK: true, Used: 30}}},
			{[]Quota{meter("m", 30)}, 2, 0, []Level{{Used: 30, Wait: 4 * time.Second}}},
			{[]Quota{meter("m", 30)}, 2, 3, []Level{{Used: 29, Wait: time.Second}}},
			{[]Quota{meter("m", 30)}, 2, 4, []Level{{OK: true, Used: 30}}},
			{[]Quota{meter("m", 30)}, 0, 64, []Level{{OK: true, Used: 0}}},
		},
	}, {
		name: "all or nothing: a charge one limit refuses changes none",
		ops: []op{
			{[]Quota{month, meter("minute", 3)}, 3, 0, []Level{{OK: true, Used: 3}, {OK: true, Used: 3}}},
			{[]Quota{month, meter("minute", 3)}, 1, 0, []Level{{OK: true, Used: 3}, {Used: 3, Wait: 20 * time.Second}}},
			{[]Quota{month, meter("minute", 3)}, 3, 60, []Level{{Used: 3, Wait: 3540 * time.Second}, {OK: true, Used: 0}}},
			{[]Quota{month, meter("minute", 3)}, 2, 60, []Level{{OK: true, Used: 5}, {OK: true, Used: 2}}},
		},
	}, {
		name: "refunds never refuse, and a meter never goes below empty",
		ops: []op{
			{[]Quota{counter("c", 5), meter("m", 5)}, 5, 0, []Level{{OK: true, Used: 5}, {OK: true, Used: 5}}},
			{[]Quota{counter("c", 5), meter("m", 5)}, -9, 0, []Level{{OK: true, Used: -4}, {OK: true, Used: 0}}},
		},
	}, {
		name: "soft limits count past their max",
		ops: []op{
			{[]Quota{{Key: "c", Max: 1, Expires: at(60), Soft: true}}, 5, 0, []Level{{OK: true, Used: 5}}},
			{[]Quota{{Key: "m", Max: 1, Per: time.Minute, Soft: true}}, 5, 0, []Level{{OK: true, Used: 5}}},
		},
	}, {
		name: "a charge above a meter's size never fits",
		ops: []op{
			{[]Quota{meter("m", 3)}, 4, 0, []Level{{Wait: maxWait}}},
			{[]Quota{counter("c", 3)}, 4, 0, []Level{{Wait: 60 * time.Second}}},
		},
	}, {
		name: "reading creates nothing",
		ops: []op{
			{[]Quota{counter("c", 3), meter("m", 3)}, 0, 0, []Level{{OK: true}, {OK: true}}},
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
	s.Spend(context.Background(), []Quota{counter("c", 3), meter("m", 3)}, 0, at(0))
	if _, n := s.len(); n != 0 {
		t.Errorf("a read of nothing left %d counters and meters", n)
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
		{strings.Repeat("a", maxKeyLen), strings.Repeat("a", maxKeyLen)},
		{strings.Repeat("a", maxKeyLen+1), "sha256:635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"},
		{long, "sha256:" + fmt.Sprintf("%x", sha256.Sum256([]byte(long)))},
	}
	for _, tt := range tests {
		if got := ShortKey(tt.key); got != tt.want {
			t.Errorf("ShortKey(%d bytes) = %q, want %q", len(tt.key), got, tt.want)
		}
		if got := ShortKey(tt.key); len(got) > maxKeyLen+len("sha256:")+1 {
			t.Errorf("ShortKey(%d bytes) is %d bytes long", len(tt.key), len(got))
		}
	}
	if ShortKey(long) == ShortKey(long+"x") {
		t.Error("two long keys share a digest")
	}
}

// Keys an outsider controls cost the same memory at any length: 3,000
// distinct keys of 60 KB each (a CDN location header, say) keep no more
// live heap in a Limiter than a few hundred bytes a key, where keeping the
// keys would take 180 MB.
func TestLongKeysCostWhatShortKeysCost(t *testing.T) {
	const keys, size = 3000, 60 << 10
	lim := &Limiter{Rate: 1, Burst: 10}
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
		lim.AllowAt(string(buf), limiterT0)
	}
	after := heap()
	runtime.KeepAlive(lim)
	if b, _ := lim.mem.len(); b != keys {
		t.Fatalf("kept %d buckets, want %d", b, keys)
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
	fast := Quota{Max: 60, Per: time.Minute} // drains 1 a second
	slow := Quota{Max: 60, Per: time.Hour}   // drains 1 a minute
	for i := range 1000 {
		l := fast
		if i%2 == 1 {
			l = slow
		}
		l.Key = fmt.Sprint("k", i)
		s.Spend(ctx, []Quota{l}, 1, limiterT0)
	}
	// Ten seconds on, the fast half has drained, the slow half has not.
	for i := range 1000 {
		s.Spend(ctx, []Quota{{Key: fmt.Sprint("new", i), Max: 60, Per: time.Minute}}, 1, limiterT0.Add(10*time.Second))
	}
	if _, n := s.len(); n > 1500 || n < 1000 {
		t.Errorf("%d meters after 1000 drained and 1000 new, want the 500 slow ones and the new", n)
	}
	lv, _ := s.Spend(ctx, []Quota{{Key: "k1", Max: 60, Per: time.Hour}}, 0, limiterT0.Add(10*time.Second))
	if lv[0].Used != 1 {
		t.Errorf("a slow meter swept too early: %+v", lv[0])
	}
	s = MemoryStore{MaxKeys: 1024}
	for i := range 5000 {
		s.Spend(ctx, []Quota{{Key: fmt.Sprint("k", i), Max: 60, Per: time.Hour}}, 1, limiterT0)
	}
	if _, n := s.len(); n > 1024 {
		t.Errorf("%d meters, more than MaxKeys", n)
	}
}

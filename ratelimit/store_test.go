package ratelimit

import (
	"context"
	"math"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestMemoryStoreAdd(t *testing.T) {
	at := func(s int) time.Time { return limiterT0.Add(time.Duration(s) * time.Second) }
	type op struct {
		key     string
		n       int64
		t       int // seconds since limiterT0
		expires int
		want    Counter
	}
	tests := []struct {
		name string
		ops  []op
	}{{
		name: "a counter keeps its first expiry",
		ops: []op{
			{"a", 1, 0, 10, Counter{1, at(10)}},
			{"a", 2, 5, 15, Counter{3, at(10)}},
			{"a", -1, 9, 20, Counter{2, at(10)}},
		},
	}, {
		name: "an expired counter starts again from zero",
		ops: []op{
			{"a", 5, 0, 10, Counter{5, at(10)}},
			{"a", 1, 10, 20, Counter{1, at(20)}},
		},
	}, {
		name: "adding zero reads without creating",
		ops: []op{
			{"a", 0, 0, 10, Counter{}},
			{"a", 1, 1, 10, Counter{1, at(10)}},
			{"a", 0, 2, 99, Counter{1, at(10)}},
			{"a", 0, 10, 99, Counter{}},
		},
	}, {
		name: "counters are separate",
		ops: []op{
			{"a", 1, 0, 10, Counter{1, at(10)}},
			{"b", 7, 0, 5, Counter{7, at(5)}},
			{"a", 1, 0, 10, Counter{2, at(10)}},
		},
	}, {
		name: "saturates rather than wraps",
		ops: []op{
			{"a", math.MaxInt64, 0, 10, Counter{math.MaxInt64, at(10)}},
			{"a", 1, 0, 10, Counter{math.MaxInt64, at(10)}},
			{"b", math.MinInt64, 0, 10, Counter{math.MinInt64, at(10)}},
			{"b", -1, 0, 10, Counter{math.MinInt64, at(10)}},
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s MemoryStore
			for i, o := range tt.ops {
				got, err := s.Add(context.Background(), o.key, o.n, at(o.t), at(o.expires))
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(o.want, got); diff != "" {
					t.Errorf("op %d: Add(%q, %d): count mismatch (-want +got):\n%s", i, o.key, o.n, diff)
				}
			}
		})
	}
}

// Counters past their expiry are swept as new ones arrive; past MaxKeys,
// live ones are forgotten too.
func TestMemoryStoreCountersBounded(t *testing.T) {
	ctx := context.Background()
	var s MemoryStore
	at := limiterT0
	peak := 0
	for i := range limiterKeys / 10 {
		at = at.Add(time.Millisecond)
		s.Add(ctx, strconv.Itoa(i), 1, at, at.Add(time.Second)) // 1,000 live at once
		if _, n := s.len(); n > peak {
			peak = n
		}
	}
	if bound := 4*1000 + memMinSweep; peak > bound {
		t.Errorf("peak of %d counters, want at most %d", peak, bound)
	}

	capped := MemoryStore{MaxKeys: 5000}
	for i := range limiterKeys / 10 {
		capped.Add(ctx, strconv.Itoa(i), 1, limiterT0, limiterT0.Add(time.Hour))
		if _, n := capped.len(); n > 5000 {
			t.Fatalf("after %d counters, %d held; want at most 5000", i+1, n)
		}
	}
}

// A bucket whose configuration changes follows the new one.
func TestMemoryStoreTakeReconfigured(t *testing.T) {
	var s MemoryStore
	ctx := context.Background()
	var got []bool
	for _, b := range []Bucket{{1, 1}, {1, 1}, {1, 3}, {1, 3}, {1, 3}} {
		d, _ := s.Take(ctx, "k", limiterT0, b)
		got = append(got, d.OK)
	}
	// Raising the burst does not add tokens at once: rate.Limiter's SetBurstAt.
	if diff := cmp.Diff([]bool{true, false, false, false, false}, got); diff != "" {
		t.Errorf("OK mismatch (-want +got):\n%s", diff)
	}
	d, _ := s.Take(ctx, "k", limiterT0.Add(time.Second), Bucket{1, 3})
	if !d.OK {
		t.Errorf("a second later: %+v, want allowed", d)
	}
}

// Buckets and counters of one store, hammered by goroutines at once.
func TestMemoryStoreConcurrent(t *testing.T) {
	var s MemoryStore
	ctx := context.Background()
	var (
		wg  sync.WaitGroup
		mu  sync.Mutex
		oks int
	)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 2000 {
				key := strconv.Itoa(i % 50)
				d, _ := s.Take(ctx, key, limiterT0.Add(time.Duration(g)), Bucket{Rate: 1e-9, Burst: 10})
				if d.OK {
					mu.Lock()
					oks++
					mu.Unlock()
				}
				s.Add(ctx, key, 1, limiterT0, limiterT0.Add(time.Hour))
				s.len()
			}
		}()
	}
	wg.Wait()
	if oks != 50*10 {
		t.Errorf("%d tokens taken from 50 buckets of 10, want 500", oks)
	}
	var sum int64
	for k := range 50 {
		c, _ := s.Add(ctx, strconv.Itoa(k), 0, limiterT0, limiterT0)
		sum += c.Value
	}
	if sum != 8*2000 {
		t.Errorf("counters sum to %d, want %d", sum, 8*2000)
	}
}

// TestMemoryStoreRebuildKeepsTakes: a token taken while a rebuild drops
// the bucket as full is not lost, so no key gives more than its burst:
// here, goroutines take the one token of each of many new keys, whose
// misses rebuild the read map again and again.
func TestMemoryStoreRebuildKeepsTakes(t *testing.T) {
	var s MemoryStore
	ctx := context.Background()
	const keys, goroutines = 20000, 8
	var oks atomic.Int64
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range keys {
				key := strconv.Itoa((i + g*keys/goroutines) % keys)
				if d, _ := s.Take(ctx, key, limiterT0, Bucket{Rate: 1e-9, Burst: 1}); d.OK {
					oks.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	if n := oks.Load(); n != keys {
		t.Errorf("%d tokens taken from %d buckets of 1, want %d", n, keys, keys)
	}
}

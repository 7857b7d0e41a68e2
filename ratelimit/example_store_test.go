package ratelimit_test

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/mcperr/mcperr/ratelimit"
)

// sharedStore stands for a store that replicas share, such as Redis: it
// implements Take with GCRA on one value per key, the algorithm a Redis
// Lua script would run, and Add as INCRBY with an expiry. For brevity it
// leaves Spend to a MemoryStore.
type sharedStore struct {
	ratelimit.MemoryStore

	mu       sync.Mutex
	tat      map[string]time.Time // each bucket's theoretical arrival time
	counters map[string]ratelimit.Counter
}

func (s *sharedStore) Take(_ context.Context, key string, now time.Time, b ratelimit.Bucket) (ratelimit.Decision, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	interval := time.Duration(float64(time.Second) / float64(b.Rate))
	tolerance := time.Duration(b.Burst) * interval
	tat := s.tat[key]
	if tat.Before(now) {
		tat = now
	}
	next := tat.Add(interval)
	if next.Sub(now) > tolerance {
		return ratelimit.Decision{RetryAfter: next.Sub(now) - tolerance, Reset: tat.Sub(now)}, nil
	}
	s.tat[key] = next
	return ratelimit.Decision{
		OK:        true,
		Remaining: int64((tolerance - next.Sub(now)) / interval),
		Reset:     next.Sub(now),
	}, nil
}

func (s *sharedStore) Add(_ context.Context, key string, n int64, now, expires time.Time) (ratelimit.Counter, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.counters[key]
	if !ok || !c.Expires.After(now) {
		if n == 0 {
			return ratelimit.Counter{}, nil
		}
		c = ratelimit.Counter{Expires: expires}
	}
	c.Value += n
	s.counters[key] = c
	return c, nil
}

// Two replicas of a server share one store, so a token's limit holds
// across both: what one replica allowed, the other counts.
func ExampleStore() {
	store := &sharedStore{tat: map[string]time.Time{}, counters: map[string]ratelimit.Counter{}}
	replicaA := &ratelimit.Limiter{Rate: 1, Burst: 2, Store: store}
	replicaB := &ratelimit.Limiter{Rate: 1, Burst: 2, Store: store}
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

	for _, step := range []struct {
		replica *ratelimit.Limiter
		name    string
		at      time.Duration
	}{{replicaA, "A", 0}, {replicaB, "B", 0}, {replicaA, "A", 0}, {replicaB, "B", time.Second}} {
		d := step.replica.AllowAt("token-1", now.Add(step.at))
		fmt.Printf("replica %s at %v: allowed=%v remaining=%d retry after=%v\n", step.name, step.at, d.OK, d.Remaining, d.RetryAfter)
	}

	// Counters are shared the same way: a window of a minute counts the
	// requests of both replicas.
	ctx := context.Background()
	for range 2 {
		c, _ := store.Add(ctx, "window:198.51.100.7", 1, now, now.Add(time.Minute))
		fmt.Println("window:", c.Value, "until", c.Expires.Format(time.Kitchen))
	}
	// Output:
	// replica A at 0s: allowed=true remaining=1 retry after=0s
	// replica B at 0s: allowed=true remaining=0 retry after=0s
	// replica A at 0s: allowed=false remaining=0 retry after=1s
	// replica B at 1s: allowed=true remaining=0 retry after=0s
	// window: 1 until 12:01PM
	// window: 2 until 12:01PM
}

// Spend charges a call to a month's counter and a minute's meter at once,
// or to neither: the meter holds 10 credits a minute and refills
// continuously, so a call it cannot take now says how long until it can.
// Both keys are of one customer's group, {acct-7}, which a store spread
// over several servers keeps on one.
func ExampleMemoryStore_Spend() {
	var store ratelimit.MemoryStore
	ctx := context.Background()
	now := time.Date(2026, 11, 26, 10, 30, 0, 0, time.UTC)
	limits := []ratelimit.Quota{
		{Key: "{acct-7}:month", Max: 1000, Expires: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)},
		{Key: "{acct-7}:minute", Max: 10, Per: time.Minute},
	}
	for _, n := range []int64{8, 5, 2} {
		lv, _ := store.Spend(ctx, limits, n, now)
		fmt.Printf("charge %d: month %+v, minute %+v\n", n, lv[0], lv[1])
	}
	// Output:
	// charge 8: month {OK:true Used:8 Wait:0s}, minute {OK:true Used:8 Wait:0s}
	// charge 5: month {OK:true Used:8 Wait:0s}, minute {OK:false Used:8 Wait:18s}
	// charge 2: month {OK:true Used:10 Wait:0s}, minute {OK:true Used:10 Wait:0s}
}

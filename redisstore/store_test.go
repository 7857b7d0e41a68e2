package redisstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/time/rate"

	"github.com/mcperr/mcperr/ratelimit"
	"github.com/mcperr/mcperr/ratelimit/header"
)

// credits returns an account's quotas as a credits budget keeps them: a
// month's counter and a minute's meter, of the account's group.
func credits(acct string, month, minute int64, now time.Time) []ratelimit.Quota {
	return []ratelimit.Quota{
		{Key: "{" + acct + "}:month", Max: month, Expires: now.Add(time.Hour)},
		{Key: "{" + acct + "}:minute", Max: minute, Per: time.Minute},
	}
}

// soft returns ls with every quota soft, for a refund or a settlement.
func soft(ls []ratelimit.Quota) []ratelimit.Quota {
	out := slices.Clone(ls)
	for i := range out {
		out[i].Soft = true
	}
	return out
}

// Limits shared through Redis are exact under concurrency: 64 clients,
// each with a connection of its own as replicas have, make 640 requests at
// once and exactly the limit passes, for a Limiter, a fixed window (Add),
// messages a minute and credits (Spend).
func TestExactUnder64Clients(t *testing.T) {
	exactUnder64Clients(t, serverURL(t))
}

func exactUnder64Clients(t *testing.T, url string) {
	const clients, each = 64, 10
	prefix := uniquePrefix(t)
	stores := make([]*Store, clients)
	for i := range stores {
		stores[i], _ = newStoreAt(t, url, Options{Prefix: prefix})
	}
	var limited, windowed, messages, calls atomic.Int64
	var wg sync.WaitGroup
	now := time.Now()
	// An account id long enough that its keys are kept as their digest:
	// they still share the account's slot on a cluster.
	acct := "account-" + strings.Repeat("x", 64)
	messageQuota := []ratelimit.Quota{{Key: "{" + acct + "}:messages", Max: 60, Expires: now.Add(time.Minute)}}
	creditQuotas := credits(acct, 200, 300, now)
	for _, s := range stores {
		lim := &ratelimit.Limiter{Rate: 0.001, Burst: 100, Store: s}
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx := context.Background()
			for range each {
				if d, err := lim.Check(ctx, "token", now); err != nil {
					t.Error(err)
				} else if d.OK {
					limited.Add(1)
				}
				if c, err := s.Add(ctx, "10.0.0.1", 1, now, now.Add(time.Minute)); err != nil {
					t.Error(err)
				} else if c.Value <= 100 {
					windowed.Add(1)
				}
				if lv, err := s.Spend(ctx, messageQuota, 1, now); err != nil {
					t.Error(err)
				} else if lv[0].OK {
					messages.Add(1)
				}
				// Reserve a worst case of 3, settle at 1.
				lv, err := s.Spend(ctx, creditQuotas, 3, now)
				if err != nil {
					t.Error(err)
					continue
				}
				if lv[0].OK && lv[1].OK {
					calls.Add(1)
					if _, err := s.Spend(ctx, soft(creditQuotas), -2, now); err != nil {
						t.Error(err)
					}
				}
			}
		}()
	}
	wg.Wait()
	type totals struct{ Limiter, Window, Messages, Calls, MonthUsed int64 }
	lv, err := stores[0].Spend(context.Background(), creditQuotas, 0, now)
	if err != nil {
		t.Fatal(err)
	}
	got := totals{limited.Load(), windowed.Load(), messages.Load(), calls.Load(), lv[0].Used}
	// 200 credits a month at a worst case of 3 settled at 1: calls run
	// while 3 fit, so at least 198 and at most 200 credits are spent.
	if got.Calls < 99 || got.MonthUsed != got.Calls || got.MonthUsed > 200 {
		t.Errorf("%d calls ran and the month shows %d used: want every credit counted once, at most 200", got.Calls, got.MonthUsed)
	}
	got.Calls, got.MonthUsed = 0, 0
	if diff := cmp.Diff(totals{Limiter: 100, Window: 100, Messages: 60}, got); diff != "" {
		t.Errorf("totals (-want +got):\n%s", diff)
	}
}

// Exactly the allocation is spent when calls are priced exactly, with no
// refunds: 64 clients reserving 1 credit each against 300.
func TestSpendExactAllocation(t *testing.T) {
	prefix := uniquePrefix(t)
	var ran atomic.Int64
	var wg sync.WaitGroup
	now := time.Now()
	quotas := credits("k", 300, 1000, now)
	for range 64 {
		s, _ := newStore(t, Options{Prefix: prefix})
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 10 {
				lv, err := s.Spend(context.Background(), quotas, 1, now)
				if err != nil {
					t.Error(err)
					return
				}
				if lv[0].OK && lv[1].OK {
					ran.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	if ran.Load() != 300 {
		t.Errorf("%d calls of 1 credit ran against 300 credits, want 300", ran.Load())
	}
}

// The levels Spend reports are those of ratelimit.MemoryStore, the
// reference: the same table of charges gives the same answers, waits
// aside (the Redis clock moves while the table runs).
func TestSpendMatchesMemoryStore(t *testing.T) {
	s, _ := newStore(t, Options{})
	var mem ratelimit.MemoryStore
	now := time.Now()
	month := ratelimit.Quota{Key: "month", Max: 5, Expires: now.Add(time.Hour)}
	minute := ratelimit.Quota{Key: "minute", Max: 3, Per: time.Minute}
	soft := ratelimit.Quota{Key: "soft", Max: 1, Per: time.Minute, Soft: true}
	ops := []struct {
		ls []ratelimit.Quota
		n  int64
	}{
		{[]ratelimit.Quota{month, minute}, 0},
		{[]ratelimit.Quota{month, minute}, 3},
		{[]ratelimit.Quota{month, minute}, 1},
		{[]ratelimit.Quota{month, minute}, -2},
		{[]ratelimit.Quota{month, minute}, 2},
		{[]ratelimit.Quota{month, minute}, 4},
		{[]ratelimit.Quota{month}, 1},
		{[]ratelimit.Quota{month}, 1},
		{[]ratelimit.Quota{soft}, 7},
		{[]ratelimit.Quota{minute}, -9},
		{[]ratelimit.Quota{month, minute}, 0},
	}
	noWait := cmp.Transformer("", func(l ratelimit.Level) ratelimit.Level {
		l.Wait = l.Wait.Round(time.Minute)
		return l
	})
	for i, o := range ops {
		want, _ := mem.Spend(context.Background(), o.ls, o.n, now)
		got, err := s.Spend(context.Background(), o.ls, o.n, now)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got, noWait); diff != "" {
			t.Errorf("op %d (charge %d): levels (-memory +redis):\n%s", i, o.n, diff)
		}
	}
}

// A key never outlives its window: a counter vanishes at its expiry, a
// bucket when it is full again, a meter when it has drained.
func TestExpiry(t *testing.T) {
	s, _ := newStore(t, Options{})
	c := admin(t)
	ctx := context.Background()
	now := time.Now()
	if _, err := s.Add(ctx, "counter", 1, now, now.Add(300*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Take(ctx, "bucket", now, ratelimit.Bucket{Rate: 5, Burst: 3}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Spend(ctx, []ratelimit.Quota{{Key: "meter", Max: 600, Per: time.Minute}}, 2, now); err != nil {
		t.Fatal(err)
	}
	ttl := func(k string) time.Duration {
		ms, err := c.Do(ctx, c.B().Pttl().Key(s.key(k)).Build()).AsInt64()
		if err != nil {
			t.Fatal(err)
		}
		return time.Duration(ms) * time.Millisecond
	}
	// A bucket of 5 a second with one token taken is full in 200 ms, a
	// meter of 10 a second holding 2 is empty in 200 ms.
	// A key already gone (PTTL -2) is one that expired in time, once its
	// window has passed: a loaded machine can take that long to get here.
	for _, k := range []struct {
		key string
		max time.Duration
	}{{"counter", 300 * time.Millisecond}, {"bucket", 200 * time.Millisecond}, {"meter", 200 * time.Millisecond}} {
		got := ttl(k.key)
		if expired := got == -2*time.Millisecond && time.Since(now) >= k.max; !expired && (got <= 0 || got > k.max) {
			t.Errorf("%s: time to live %v, want within (0, %v]", k.key, got, k.max)
		}
	}
	time.Sleep(350 * time.Millisecond) // Redis's own clock: nothing to inject
	for _, k := range []string{"counter", "bucket", "meter"} {
		if n, err := c.Do(ctx, c.B().Exists().Key(s.key(k)).Build()).AsInt64(); err != nil || n != 0 {
			t.Errorf("%s: still there after its window (%d, %v)", k, n, err)
		}
	}
	if got, err := s.Add(ctx, "counter", 0, time.Now(), time.Now()); err != nil || got != (ratelimit.Counter{}) {
		t.Errorf("counter after expiry: %+v, %v; want none", got, err)
	}
}

// Replicas with skewed clocks agree: the time is Redis's, and expiries are
// carried as durations, so a client an hour ahead and one an hour behind
// share one window and one bucket.
func TestClockSkew(t *testing.T) {
	prefix := uniquePrefix(t)
	ahead, _ := newStore(t, Options{Prefix: prefix})
	behind, _ := newStore(t, Options{Prefix: prefix})
	ctx := context.Background()
	real := time.Now()
	tA, tB := real.Add(time.Hour), real.Add(-time.Hour)

	var got []int64
	for i := range 5 {
		s, at := ahead, tA
		if i%2 == 1 {
			s, at = behind, tB
		}
		c, err := s.Add(ctx, "ip", 1, at, at.Add(10*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, c.Value)
		if left := c.Expires.Sub(at); left <= 9*time.Second || left > 10*time.Second {
			t.Errorf("request %d: window ends in %v, want about 10s on either clock", i, left)
		}
	}
	if diff := cmp.Diff([]int64{1, 2, 3, 4, 5}, got); diff != "" {
		t.Errorf("one window across skewed clients (-want +got):\n%s", diff)
	}

	// A counter made by one client expires for the other at the same
	// moment, seen from each one's clock.
	ca, err := ahead.Add(ctx, "c", 1, tA, tA.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	cb, err := behind.Add(ctx, "c", 1, tB, tB.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if cb.Value != 2 || ca.Expires.Sub(tA)-cb.Expires.Sub(tB) > 100*time.Millisecond {
		t.Errorf("counter: %+v from %v, then %+v from %v; want 2 and the same time left", ca, tA, cb, tB)
	}

	// A bucket ignores both clocks.
	b := ratelimit.Bucket{Rate: 0.001, Burst: 2}
	var oks []bool
	for _, c := range []struct {
		s  *Store
		at time.Time
	}{{ahead, tA}, {behind, tB}, {ahead, tA.Add(time.Hour)}} {
		d, err := c.s.Take(ctx, "b", c.at, b)
		if err != nil {
			t.Fatal(err)
		}
		oks = append(oks, d.OK)
	}
	if diff := cmp.Diff([]bool{true, true, false}, oks); diff != "" {
		t.Errorf("bucket across skewed clients (-want +got):\n%s", diff)
	}
}

// The scripts are sent by digest; when Redis has forgotten them (a
// restart, SCRIPT FLUSH) the store sends them whole and carries on.
func TestNoScript(t *testing.T) {
	s, _ := newStore(t, Options{})
	c := admin(t)
	ctx := context.Background()
	evals := func() int64 {
		info, err := c.Do(ctx, c.B().Info().Section("commandstats").Build()).ToString()
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(info, "\r\n") {
			if rest, ok := strings.CutPrefix(line, "cmdstat_eval:calls="); ok {
				n := int64(0)
				for _, r := range rest {
					if r < '0' || r > '9' {
						break
					}
					n = n*10 + int64(r-'0')
				}
				return n
			}
		}
		return 0
	}
	lim := &ratelimit.Limiter{Rate: 0.001, Burst: 3, Store: s}
	now := time.Now()
	for range 2 {
		if _, err := lim.Check(ctx, "k", now); err != nil {
			t.Fatal(err)
		}
	}
	before := evals()
	if err := c.Do(ctx, c.B().ScriptFlush().Build()).Error(); err != nil {
		t.Fatal(err)
	}
	var got []bool
	for range 2 {
		d, err := lim.Check(ctx, "k", now)
		if err != nil {
			t.Fatalf("after SCRIPT FLUSH: %v", err)
		}
		got = append(got, d.OK)
	}
	if diff := cmp.Diff([]bool{true, false}, got); diff != "" {
		t.Errorf("after SCRIPT FLUSH (-want +got):\n%s", diff)
	}
	if n := evals() - before; n != 1 {
		t.Errorf("%d EVAL after SCRIPT FLUSH, want 1 (the script sent whole once, then by digest)", n)
	}
}

// A connection killed by the server costs at most the calls in flight:
// they fail (and the limiter fails open), and the store reconnects.
func TestKilledConnection(t *testing.T) {
	s, logs := newStore(t, Options{Timeout: DefaultTimeout})
	c := admin(t)
	ctx := context.Background()
	lim := &ratelimit.Limiter{Rate: 0.001, Burst: 1000, Store: s}
	if _, err := lim.Check(ctx, "k", time.Now()); err != nil {
		t.Fatal(err)
	}
	killed, err := c.Do(ctx, c.B().Arbitrary("CLIENT", "KILL").Args("TYPE", "normal", "SKIPME", "yes").Build()).AsInt64()
	if err != nil || killed < 1 {
		t.Fatalf("CLIENT KILL: %d killed, %v", killed, err)
	}
	deadline := time.Now().Add(5 * time.Second)
	failures := 0
	for {
		start := time.Now()
		d, err := lim.Check(ctx, "k", time.Now())
		if took := time.Since(start); took > 2*DefaultTimeout+time.Second {
			t.Errorf("a call took %v on a killed connection, more than the timeout", took)
		}
		if err == nil {
			if d.Remaining != 1000-2 {
				t.Errorf("after reconnecting: %d remaining, want %d (the count survived)", d.Remaining, 1000-2)
			}
			break
		}
		var e *Error
		if !errors.As(err, &e) || !d.OK {
			t.Fatalf("a failing call: %+v, %v; want the request allowed with an *Error", d, err)
		}
		failures++
		if time.Now().After(deadline) {
			t.Fatalf("no reconnection within 5s: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Logf("%d connections killed; %d calls failed before the store reconnected", killed, failures)
	if failures > 0 && !strings.Contains(logs.String(), "redisstore:") {
		t.Errorf("%d failures and nothing logged", failures)
	}
}

// Replies the scripts do not return (a key of the prefix written by
// something else) are errors, never a panic nor a wrong answer.
func TestGarbage(t *testing.T) {
	s, logs := newStore(t, Options{LogEvery: time.Hour})
	c := admin(t)
	ctx := context.Background()
	now := time.Now()
	for _, cmd := range [][]string{
		{"HSET", s.key("take"), "x", "y"},
		{"SET", s.key("add"), "not a number"},
		{"RPUSH", s.key("spend"), "x"},
		{"SET", s.key("meter"), "1"},
	} {
		if err := c.Do(ctx, c.B().Arbitrary(cmd[0]).Keys(cmd[1]).Args(cmd[2:]...).Build()).Error(); err != nil {
			t.Fatal(err)
		}
	}
	var errs []error
	_, err := s.Take(ctx, "take", now, ratelimit.Bucket{Rate: 1, Burst: 1})
	errs = append(errs, err)
	_, err = s.Add(ctx, "add", 1, now, now.Add(time.Minute))
	errs = append(errs, err)
	_, err = s.Spend(ctx, []ratelimit.Quota{{Key: "spend", Max: 5, Expires: now.Add(time.Minute)}}, 1, now)
	errs = append(errs, err)
	_, err = s.Spend(ctx, []ratelimit.Quota{{Key: "meter", Max: 5, Per: time.Minute}}, 1, now)
	errs = append(errs, err)
	for i, err := range errs {
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("call %d: %v, want an *Error", i, err)
		}
	}
	// Four errors, one line: the rest waits for the next interval.
	if n := strings.Count(logs.String(), "\n"); n != 1 {
		t.Errorf("logged %d lines for 4 errors within LogEvery, want 1:\n%s", n, logs)
	}
}

// Long keys are kept as their digest: a 60 KB key takes a key of a few
// dozen bytes in Redis.
func TestLongKeys(t *testing.T) {
	s, _ := newStore(t, Options{})
	c := admin(t)
	ctx := context.Background()
	long := strings.Repeat("x", 60<<10)
	if _, err := s.Take(ctx, long, time.Now(), ratelimit.Bucket{Rate: 1, Burst: 5}); err != nil {
		t.Fatal(err)
	}
	keys, err := c.Do(ctx, c.B().Keys().Pattern(s.prefix+"*").Build()).AsStrSlice()
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 1 || len(keys[0]) > len(s.prefix)+64+8 {
		t.Errorf("keys %q for one 60 KB key, want one short key", keys)
	}
}

func TestTakeEdges(t *testing.T) {
	s, _ := newStore(t, Options{})
	ctx := context.Background()
	now := time.Now()
	tests := []struct {
		name string
		b    ratelimit.Bucket
		want ratelimit.Decision
	}{
		{"an infinite rate allows everything", ratelimit.Bucket{Rate: rate.Inf, Burst: 4}, ratelimit.Decision{OK: true, Remaining: 4}},
		{"a bucket of no tokens refuses for ever", ratelimit.Bucket{Rate: 1, Burst: 0}, ratelimit.Decision{RetryAfter: header.MaxRetryAfter}},
		{"a zero rate allows the burst once", ratelimit.Bucket{Rate: 0, Burst: 1}, ratelimit.Decision{OK: true, Reset: header.MaxRetryAfter}},
	}
	for _, tt := range tests {
		d, err := s.Take(ctx, tt.name, now, tt.b)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, d); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
	d, _ := s.Take(ctx, "a zero rate allows the burst once", now, ratelimit.Bucket{Rate: 0, Burst: 1})
	if d.OK || d.RetryAfter < time.Duration(1<<30)*time.Second {
		t.Errorf("second take at a zero rate: %+v, want refused for ever", d)
	}
}

// On Redis too, a reservation never refuses a call that fits while
// another that does not fit is being refused, from two replicas: each
// trial leaves 2 credits, then reserves 3 on one replica and 2 on the
// other at once.
func TestReserveNeverRefusesAFit(t *testing.T) {
	prefix := uniquePrefix(t)
	a, _ := newStore(t, Options{Prefix: prefix})
	b, _ := newStore(t, Options{Prefix: prefix})
	ctx := context.Background()
	now := time.Now()
	fits := func(lv []ratelimit.Level) bool {
		for _, l := range lv {
			if !l.OK {
				return false
			}
		}
		return len(lv) > 0
	}
	for n, tt := range []struct {
		name   string
		quotas func(acct string) []ratelimit.Quota
	}{
		{"2 credits left this month", func(acct string) []ratelimit.Quota { return credits(acct, 10, 1000, now) }},
		{"2 credits left this minute", func(acct string) []ratelimit.Quota { return credits(acct, 1000, 10, now) }},
	} {
		refused := 0
		for i := range 200 {
			ls := tt.quotas(fmt.Sprint("trial-", n, "-", i))
			if lv, err := a.Spend(ctx, ls, 8, now); err != nil || !fits(lv) {
				t.Fatalf("spending 8: %+v, %v", lv, err)
			}
			var wg sync.WaitGroup
			var large []ratelimit.Level
			wg.Add(1)
			go func() {
				defer wg.Done()
				large, _ = a.Spend(ctx, ls, 3, now)
			}()
			small, err := b.Spend(ctx, ls, 2, now)
			wg.Wait()
			if err != nil || large == nil || fits(large) {
				t.Fatalf("trial %d: the 3-credit call %+v, %v", i, large, err)
			}
			if !fits(small) {
				refused++
			}
		}
		if refused > 0 {
			t.Errorf("%s: %d of 200 trials refused a 2-credit call with 2 credits left", tt.name, refused)
		}
	}
}

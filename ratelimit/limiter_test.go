package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/time/rate"

	"github.com/mcperr/mcperr/ratelimit/header"
)

// limiterT0 is the clock's start in the server-side tests.
var limiterT0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// step is one moment of a limiter's or a guard's timeline.
type step struct {
	key  string
	at   time.Duration // since limiterT0
	n    int           // requests at that time; the last one's decision is compared
	want Decision
}

// runSteps makes each step's requests with allowAt and compares the last
// decision of each step with its want.
func runSteps(t *testing.T, allowAt func(key string, t time.Time) Decision, steps []step) {
	t.Helper()
	for i, s := range steps {
		var got Decision
		for range s.n {
			got = allowAt(s.key, limiterT0.Add(s.at))
		}
		if diff := cmp.Diff(s.want, got); diff != "" {
			t.Errorf("step %d (%s at %v): decision mismatch (-want +got):\n%s", i, s.key, s.at, diff)
		}
	}
}

func TestLimiterAllowAt(t *testing.T) {
	tests := []struct {
		name  string
		l     *Limiter
		steps []step
	}{{
		name: "20 a second per token",
		l:    NewLimiter(20, 20),
		steps: []step{
			{"tok", 0, 1, Decision{OK: true, Limit: 20, Remaining: 19, Reset: 50 * time.Millisecond, Window: time.Second}},
			{"tok", 0, 19, Decision{OK: true, Limit: 20, Remaining: 0, Reset: time.Second, Window: time.Second}},
			{"tok", 0, 1, Decision{RetryAfter: 50 * time.Millisecond, Limit: 20, Remaining: 0, Reset: time.Second, Window: time.Second}},
			{"tok", 10 * time.Millisecond, 1, Decision{RetryAfter: 40 * time.Millisecond, Limit: 20, Remaining: 0, Reset: 990 * time.Millisecond, Window: time.Second}},
			// Another token has a bucket of its own.
			{"other", 10 * time.Millisecond, 1, Decision{OK: true, Limit: 20, Remaining: 19, Reset: 50 * time.Millisecond, Window: time.Second}},
			{"tok", 50 * time.Millisecond, 1, Decision{OK: true, Limit: 20, Remaining: 0, Reset: time.Second, Window: time.Second}},
			{"tok", 2 * time.Second, 1, Decision{OK: true, Limit: 20, Remaining: 19, Reset: 50 * time.Millisecond, Window: time.Second}},
		},
	}, {
		name: "one a minute, policy named",
		l:    &Limiter{Rate: rate.Every(time.Minute), Burst: 1, Policy: "slow"},
		steps: []step{
			{"k", 0, 1, Decision{OK: true, Limit: 1, Remaining: 0, Reset: time.Minute, Window: time.Minute, Policy: "slow"}},
			{"k", 15 * time.Second, 1, Decision{RetryAfter: 45 * time.Second, Limit: 1, Reset: 45 * time.Second, Window: time.Minute, Policy: "slow"}},
			{"k", time.Minute, 1, Decision{OK: true, Limit: 1, Remaining: 0, Reset: time.Minute, Window: time.Minute, Policy: "slow"}},
		},
	}, {
		name: "no limit",
		l:    NewLimiter(rate.Inf, 5),
		steps: []step{
			{"k", 0, 1000, Decision{OK: true, Limit: 5, Remaining: 5}},
		},
	}, {
		name: "zero Limiter refuses, like a zero rate.Limiter",
		l:    &Limiter{},
		steps: []step{
			{"k", 0, 1, Decision{RetryAfter: maxWait}},
		},
	}, {
		name: "time going backwards is now",
		l:    NewLimiter(1, 1),
		steps: []step{
			{"k", time.Hour, 1, Decision{OK: true, Limit: 1, Reset: time.Second, Window: time.Second}},
			{"k", 0, 1, Decision{RetryAfter: time.Second, Limit: 1, Reset: time.Second, Window: time.Second}},
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { runSteps(t, tt.l.AllowAt, tt.steps) })
	}
}

// A Limiter decides exactly as a rate.Limiter with the same rate and burst
// does, key by key, on an irregular timeline.
func TestLimiterMatchesRate(t *testing.T) {
	l := NewLimiter(7, 3)
	ref := map[string]*rate.Limiter{}
	at := limiterT0
	for i := range 5000 {
		key := strconv.Itoa(i * 7919 % 5)
		at = at.Add(time.Duration(i*104729%97) * time.Millisecond)
		if ref[key] == nil {
			ref[key] = rate.NewLimiter(7, 3)
		}
		want := ref[key].AllowN(at, 1)
		if got := l.AllowAt(key, at); got.OK != want {
			t.Fatalf("request %d (key %s): OK = %v, rate.Limiter says %v", i, key, got.OK, want)
		}
	}
}

func TestDecisionSetHeaders(t *testing.T) {
	tests := []struct {
		name string
		d    Decision
		want http.Header
	}{{
		name: "a refusal by a limiter of 20 a second",
		d:    Decision{RetryAfter: 50 * time.Millisecond, Limit: 20, Remaining: 0, Reset: time.Second, Window: time.Second},
		want: http.Header{
			"Retry-After":           {"1"},
			"X-Ratelimit-Limit":     {"20"},
			"X-Ratelimit-Remaining": {"0"},
			"X-Ratelimit-Reset":     {"1"},
			"Ratelimit-Policy":      {`"default";q=20;w=1`},
			"Ratelimit":             {`"default";r=0;t=1`},
		},
	}, {
		name: "allowed: no Retry-After",
		d:    Decision{OK: true, Limit: 100, Remaining: 42, Reset: 7500 * time.Millisecond, Window: 10 * time.Second, Policy: "edge"},
		want: http.Header{
			"X-Ratelimit-Limit":     {"100"},
			"X-Ratelimit-Remaining": {"42"},
			"X-Ratelimit-Reset":     {"8"},
			"Ratelimit-Policy":      {`"edge";q=100;w=10`},
			"Ratelimit":             {`"edge";r=42;t=8`},
		},
	}, {
		name: "rounded up, at least one second",
		d:    Decision{RetryAfter: 1, Limit: 1, Reset: 1500 * time.Millisecond, Window: 300 * time.Millisecond},
		want: http.Header{
			"Retry-After":           {"1"},
			"X-Ratelimit-Limit":     {"1"},
			"X-Ratelimit-Remaining": {"0"},
			"X-Ratelimit-Reset":     {"2"},
			"Ratelimit-Policy":      {`"default";q=1;w=1`},
			"Ratelimit":             {`"default";r=0;t=2`},
		},
	}, {
		name: "zero wait on a refusal still says one second",
		d:    Decision{Limit: 3},
		want: http.Header{
			"Retry-After":           {"1"},
			"X-Ratelimit-Limit":     {"3"},
			"X-Ratelimit-Remaining": {"0"},
			"X-Ratelimit-Reset":     {"0"},
			"Ratelimit-Policy":      {`"default";q=3`},
			"Ratelimit":             {`"default";r=0;t=0`},
		},
	}, {
		name: "the longest wait does not wrap, nor reads as an epoch",
		d:    Decision{RetryAfter: maxWait, Reset: maxWait},
		want: http.Header{
			"Retry-After":           {"2147483648"},
			"X-Ratelimit-Limit":     {"0"},
			"X-Ratelimit-Remaining": {"0"},
			"X-Ratelimit-Reset":     {"999999999"},
			"Ratelimit-Policy":      {`"default";q=0`},
			"Ratelimit":             {`"default";r=0;t=2147483648`},
		},
	}, {
		name: "a policy name is a valid structured-field string",
		d:    Decision{OK: true, Policy: "a\"b\\c\n\x00é"},
		want: http.Header{
			"X-Ratelimit-Limit":     {"0"},
			"X-Ratelimit-Remaining": {"0"},
			"X-Ratelimit-Reset":     {"0"},
			"Ratelimit-Policy":      {`"a\"b\\c";q=0`},
			"Ratelimit":             {`"a\"b\\c";r=0;t=0`},
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			tt.d.SetHeaders(h)
			if diff := cmp.Diff(tt.want, h); diff != "" {
				t.Errorf("headers mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// What SetHeaders writes, package header's reader reads back.
func TestSetHeadersReadBack(t *testing.T) {
	d := Decision{RetryAfter: 1500 * time.Millisecond, Limit: 20, Remaining: 0, Reset: 2 * time.Second, Window: time.Second, Policy: "burst"}
	h := http.Header{}
	d.SetHeaders(h)
	info := header.Parse(h, limiterT0)
	type got struct {
		RetryAfter time.Duration
		Limits     header.Limits
		Policies   []header.QuotaPolicy
		Current    []header.ServiceLimit
	}
	want := got{
		RetryAfter: 2 * time.Second,
		Limits:     header.Limits{Limit: 20, Remaining: 0, Reset: 2 * time.Second, HasLimit: true, HasRemaining: true, HasReset: true},
		Policies:   []header.QuotaPolicy{{Name: "burst", Quota: 20, Window: time.Second}},
		Current:    []header.ServiceLimit{{Policy: "burst", Remaining: 0, Reset: 2 * time.Second, HasReset: true}},
	}
	if diff := cmp.Diff(want, got{info.RetryAfter, info.Limits, info.Policies, info.Current}); diff != "" {
		t.Errorf("read back mismatch (-want +got):\n%s", diff)
	}
}

// limiterClock is a settable clock for the handlers' tests.
type limiterClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *limiterClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *limiterClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func TestLimiterWrap(t *testing.T) {
	clock := &limiterClock{t: limiterT0}
	l := NewLimiter(20, 20)
	l.Now = clock.now
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"tags":[]}`)
	})
	token := func(r *http.Request) string { return r.Header.Get("Authorization") }
	refuse := func(w http.ResponseWriter, r *http.Request, d Decision) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprintf(w, `{"error":{"code":"rate_limited","message":"retry in %v"}}`, d.RetryAfter)
	}
	h := l.Wrap(next, token, refuse)

	type answer struct {
		Status int
		Header http.Header
		Body   string
	}
	call := func(auth string) answer {
		r := httptest.NewRequest("GET", "/v1/tags", nil)
		if auth != "" {
			r.Header.Set("Authorization", auth)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return answer{w.Code, w.Header(), w.Body.String()}
	}

	// 120 calls back to back at 20 a second with a burst of 20: the first 20 pass.
	var codes = map[int]int{}
	var last answer
	for range 120 {
		last = call("Bearer t1")
		codes[last.Status]++
	}
	if diff := cmp.Diff(map[int]int{200: 20, 429: 100}, codes); diff != "" {
		t.Errorf("statuses mismatch (-want +got):\n%s", diff)
	}
	want := answer{
		Status: 429,
		Header: http.Header{
			"Content-Type":          {"application/json"},
			"Retry-After":           {"1"},
			"X-Ratelimit-Limit":     {"20"},
			"X-Ratelimit-Remaining": {"0"},
			"X-Ratelimit-Reset":     {"1"},
			"Ratelimit-Policy":      {`"default";q=20;w=1`},
			"Ratelimit":             {`"default";r=0;t=1`},
		},
		Body: `{"error":{"code":"rate_limited","message":"retry in 50ms"}}`,
	}
	if diff := cmp.Diff(want, last); diff != "" {
		t.Errorf("refusal mismatch (-want +got):\n%s", diff)
	}

	// No token: no limit (no-auth mode), and no headers.
	for range 100 {
		last = call("")
	}
	want = answer{Status: 200, Header: http.Header{"Content-Type": {"text/plain; charset=utf-8"}}, Body: `{"tags":[]}`}
	if diff := cmp.Diff(want, last); diff != "" {
		t.Errorf("no-auth answer mismatch (-want +got):\n%s", diff)
	}

	// After a second, the bucket is full again; an allowed answer carries the figures.
	clock.advance(time.Second)
	want = answer{Status: 200, Header: http.Header{
		"Content-Type":          {"text/plain; charset=utf-8"},
		"X-Ratelimit-Limit":     {"20"},
		"X-Ratelimit-Remaining": {"19"},
		"X-Ratelimit-Reset":     {"1"},
		"Ratelimit-Policy":      {`"default";q=20;w=1`},
		"Ratelimit":             {`"default";r=19;t=1`},
	}, Body: `{"tags":[]}`}
	if diff := cmp.Diff(want, call("Bearer t1")); diff != "" {
		t.Errorf("allowed answer mismatch (-want +got):\n%s", diff)
	}
}

func TestLimiterWrapDefaultRefusal(t *testing.T) {
	clock := &limiterClock{t: limiterT0}
	l := &Limiter{Rate: 1, Burst: 1, Now: clock.now}
	h := l.Wrap(http.NotFoundHandler(), nil, nil) // keyed on SourceIP
	var got []int
	for range 2 {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
		got = append(got, w.Code)
	}
	if diff := cmp.Diff([]int{404, 429}, got); diff != "" {
		t.Errorf("statuses mismatch (-want +got):\n%s", diff)
	}
}

// failingStore fails every call.
type failingStore struct{}

var errStoreDown = errors.New("store down")

func (failingStore) Take(context.Context, string, time.Time, Bucket) (Decision, error) {
	return Decision{}, errStoreDown
}

func (failingStore) Add(context.Context, string, int64, time.Time, time.Time) (Counter, error) {
	return Counter{}, errStoreDown
}

func (failingStore) Spend(context.Context, []Quota, int64, time.Time) ([]Level, error) {
	return nil, errStoreDown
}

func TestLimiterStoreFails(t *testing.T) {
	l := &Limiter{Rate: 1, Burst: 1, Store: failingStore{}}
	if _, err := l.Check(context.Background(), "k", limiterT0); !errors.Is(err, errStoreDown) {
		t.Errorf("Check: err = %v, want %v", err, errStoreDown)
	}
	for i := range 3 {
		if d := l.AllowAt("k", limiterT0); d != (Decision{OK: true}) {
			t.Errorf("AllowAt #%d = %+v, want the request let through", i, d)
		}
	}
	w := httptest.NewRecorder()
	l.Wrap(http.NotFoundHandler(), SourceIP, nil).ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
	if w.Code != 404 || w.Header().Get("X-RateLimit-Limit") != "" {
		t.Errorf("Wrap with a failing store: status %d, headers %v; want the request served without figures", w.Code, w.Header())
	}
}

// wildStore answers every Take with figures no store should give: waits
// past the longest a limiter reports, negative ones, a negative count.
type wildStore struct {
	failingStore
	d Decision
}

func (s wildStore) Take(context.Context, string, time.Time, Bucket) (Decision, error) {
	return s.d, nil
}

// Whatever a store answers, a Limiter's waits stay within [0, header.MaxRetryAfter] and
// its Retry-After within the 2^31 seconds that stand for never.
func TestLimiterClampsStoreReplies(t *testing.T) {
	for _, d := range []Decision{
		{RetryAfter: math.MaxInt64, Reset: math.MaxInt64, Remaining: math.MinInt64},
		{RetryAfter: maxWait + time.Nanosecond, Reset: maxWait + time.Second},
		{RetryAfter: math.MinInt64, Reset: -time.Second, Remaining: -1},
	} {
		l := &Limiter{Rate: 1, Burst: 1, Store: wildStore{d: d}}
		got, err := l.Check(context.Background(), "k", limiterT0)
		if err != nil {
			t.Fatal(err)
		}
		if got.RetryAfter < 0 || got.RetryAfter > maxWait || got.Reset < 0 || got.Reset > maxWait || got.Remaining < 0 {
			t.Errorf("a store answering %+v: %+v; want waits within [0, maxWait] and no negative count", d, got)
		}
		h := http.Header{}
		d.SetHeaders(h)
		if n, err := strconv.ParseInt(h.Get("Retry-After"), 10, 64); err != nil || n < 1 || n > 1<<31 {
			t.Errorf("SetHeaders of %+v: Retry-After %q, want within [1, 2^31]", d, h.Get("Retry-After"))
		}
	}
}

// A million distinct keys pass (a tenth of it under the race detector) (a scan, or spoofed tokens); memory stays
// bounded by the keys seen within a bucket's fill time.
func TestLimiterEvictsIdleKeys(t *testing.T) {
	const keys = limiterKeys
	l := NewLimiter(20, 20) // a used bucket is full again 50ms after its take
	at := limiterT0
	step := 10 * time.Microsecond // 5,000 keys in any 50ms
	peak := 0
	for i := range keys {
		at = at.Add(step)
		if d := l.AllowAt("key-"+strconv.Itoa(i), at); !d.OK {
			t.Fatalf("key %d refused: %+v", i, d)
		}
		if i%1000 == 0 {
			if n, _ := l.mem.len(); n > peak {
				peak = n
			}
		}
	}
	// 5,000 live keys; sweeps at doubling leave at most a few times that.
	if bound := 4*5000 + memMinSweep; peak > bound {
		t.Errorf("peak of %d buckets held for %d keys, want at most %d", peak, keys, bound)
	}
	t.Logf("peak %d buckets for %d distinct keys", peak, keys)
}

// Eviction never forgets a key that is still limited, when MaxKeys allows.
func TestLimiterKeepsLimitedKeys(t *testing.T) {
	l := NewLimiter(1, 1)
	if !l.AllowAt("busy", limiterT0).OK {
		t.Fatal("first request refused")
	}
	for i := range 100_000 {
		l.AllowAt("key-"+strconv.Itoa(i), limiterT0.Add(time.Duration(i)*time.Microsecond))
	}
	if d := l.AllowAt("busy", limiterT0.Add(900*time.Millisecond)); d.OK {
		t.Errorf("busy key forgotten: %+v", d)
	}
}

// Past MaxKeys, even live keys are forgotten rather than memory growing.
func TestLimiterMaxKeys(t *testing.T) {
	const max = 10_000
	l := &Limiter{Rate: rate.Every(time.Hour), Burst: 1, Store: &MemoryStore{MaxKeys: max}}
	for i := range limiterKeys {
		l.AllowAt("key-"+strconv.Itoa(i), limiterT0) // all live for an hour
		if i%10_000 == 0 {
			if n, _ := l.Store.(*MemoryStore).len(); n > max {
				t.Fatalf("after %d keys, %d buckets held, want at most %d", i, n, max)
			}
		}
	}
}

// Many goroutines on one key at one instant: exactly Burst get through.
func TestLimiterConcurrent(t *testing.T) {
	l := NewLimiter(1, 50)
	var (
		wg sync.WaitGroup
		mu sync.Mutex
		ok = map[string]int{}
	)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				key := "shared"
				if i%2 == 1 {
					key = "own-" + strconv.Itoa(g)
				}
				if l.AllowAt(key, limiterT0).OK {
					mu.Lock()
					ok[key]++
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	want := map[string]int{"shared": 50}
	for g := range 8 {
		want["own-"+strconv.Itoa(g)] = 50
	}
	if diff := cmp.Diff(want, ok); diff != "" {
		t.Errorf("allowed per key mismatch (-want +got):\n%s", diff)
	}
}

func TestLimiterAllowZeroAllocs(t *testing.T) {
	l := NewLimiter(1, 1e9)
	for range 100 {
		l.Allow("known")
	}
	if n := testing.AllocsPerRun(1000, func() { l.Allow("known") }); n != 0 {
		t.Errorf("Allow for a known key: %v allocations, want 0", n)
	}
}

// Allow reads the Now field's clock, and time.Now without one: a bucket
// emptied at the injected time refills only when that clock moves.
func TestAllowReadsNow(t *testing.T) {
	type allower interface {
		Allow(key string) Decision
		AllowAt(key string, t time.Time) Decision
	}
	tests := []struct {
		name string
		new  func(now func() time.Time) allower
	}{
		{"Limiter", func(now func() time.Time) allower { return &Limiter{Rate: 1, Burst: 1, Now: now} }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := &limiterClock{t: limiterT0}
			l := tt.new(clock.now)
			var got []bool
			for _, d := range []time.Duration{0, 0, time.Second, 0} {
				clock.advance(d)
				got = append(got, l.Allow("k").OK)
			}
			if diff := cmp.Diff([]bool{true, false, true, false}, got); diff != "" {
				t.Errorf("decisions with an injected clock mismatch (-want +got):\n%s", diff)
			}

			// Without Now, the system clock: the token Allow took is
			// still missing at time.Now (it would be back had Allow
			// read any time long past), and back two seconds later.
			l = tt.new(nil)
			if d := l.Allow("k"); !d.OK {
				t.Errorf("Allow on the system clock = %+v; want allowed", d)
			}
			now := time.Now()
			if d := l.AllowAt("k", now); d.OK {
				t.Errorf("AllowAt(time.Now()) after Allow = %+v; want refused", d)
			}
			if d := l.AllowAt("k", now.Add(2*time.Second)); !d.OK {
				t.Errorf("AllowAt(time.Now()+2s) after Allow = %+v; want allowed", d)
			}
		})
	}
}

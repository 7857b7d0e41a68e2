package mcpserver

import (
	"context"
	"errors"
	"math"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/examples/internal/redistest"
	"github.com/mcperr/mcperr/ratelimit"
	"github.com/mcperr/mcperr/ratelimit/header"
)

// edgeBody is the refusal body of the edge flood guard, byte for byte as
// clients expect it.
const edgeBody = `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Rate limited at the edge. Slow down and retry after a few seconds."}}`

func TestEdgeRefusalIsByteExact(t *testing.T) {
	if diff := cmp.Diff(edgeBody, EdgeRefusal); diff != "" {
		t.Errorf("EdgeRefusal mismatch (-want +got):\n%s", diff)
	}
}

// limiterT0 is the clock's start in the guard's tests.
var limiterT0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// step is one moment of a guard's timeline.
type step struct {
	key  string
	at   time.Duration // since limiterT0
	n    int           // requests at that time; the last one's decision is compared
	want ratelimit.Decision
}

// allowAt is check without a context nor an error.
func (g *edgeGuard) allowAt(key string, t time.Time) ratelimit.Decision {
	d, _ := g.check(context.Background(), key, t)
	return d
}

// runSteps makes each step's requests on g and compares the last decision
// of each step with its want.
func runSteps(t *testing.T, g *edgeGuard, steps []step) {
	t.Helper()
	for i, s := range steps {
		var got ratelimit.Decision
		for range s.n {
			got = g.allowAt(s.key, limiterT0.Add(s.at))
		}
		if diff := cmp.Diff(s.want, got); diff != "" {
			t.Errorf("step %d (%s at %v): decision mismatch (-want +got):\n%s", i, s.key, s.at, diff)
		}
	}
}

// farStore is a store whose counters say they expire in the far future
// and hold a count below zero or past every limit, as a hostile or broken
// shared store might.
type farStore struct {
	redistest.Down
	value int64
}

func (s farStore) Add(_ context.Context, _ string, _ int64, t, _ time.Time) (ratelimit.Counter, error) {
	return ratelimit.Counter{Value: s.value, Expires: t.Add(math.MaxInt64)}, nil
}

// Whatever a store answers, the guard's waits stay within header.MaxRetryAfter, and the
// Retry-After it sends within the 2^31 seconds that stand for never.
func TestEdgeGuardClampsStoreReplies(t *testing.T) {
	for _, value := range []int64{math.MaxInt64, math.MinInt64} {
		g := &edgeGuard{limit: 3, store: farStore{value: value}}
		d, err := g.check(context.Background(), "k", limiterT0)
		if err != nil {
			t.Fatal(err)
		}
		if d.RetryAfter < 0 || d.RetryAfter > header.MaxRetryAfter || d.Reset < 0 || d.Reset > header.MaxRetryAfter || d.Remaining < 0 || d.Remaining > 3 {
			t.Errorf("counter %d: %+v; want waits within [0, header.MaxRetryAfter] and Remaining within [0, 3]", value, d)
		}
		w := httptest.NewRecorder()
		d.SetHeaders(w.Header())
		if ra := w.Header().Get("Retry-After"); ra != "" {
			if n, err := strconv.ParseInt(ra, 10, 64); err != nil || n > 1<<31 {
				t.Errorf("counter %d: Retry-After %s, want at most %d", value, ra, int64(1)<<31)
			}
		}
	}
}

func TestEdgeGuardCheck(t *testing.T) {
	tests := []struct {
		name  string
		g     *edgeGuard
		steps []step
	}{{
		name: "window, then block",
		g:    &edgeGuard{limit: 3, window: 10 * time.Second, block: 30 * time.Second, policy: "edge"},
		steps: []step{
			{"a", 0, 1, ratelimit.Decision{OK: true, Limit: 3, Remaining: 2, Reset: 10 * time.Second, Window: 10 * time.Second, Policy: "edge"}},
			{"a", 4 * time.Second, 2, ratelimit.Decision{OK: true, Limit: 3, Remaining: 0, Reset: 6 * time.Second, Window: 10 * time.Second, Policy: "edge"}},
			{"a", 5 * time.Second, 1, ratelimit.Decision{RetryAfter: 30 * time.Second, Limit: 3, Reset: 30 * time.Second, Window: 10 * time.Second, Policy: "edge"}},
			// Past the window, still blocked; refusals are not counted.
			{"a", 20 * time.Second, 50, ratelimit.Decision{RetryAfter: 15 * time.Second, Limit: 3, Reset: 15 * time.Second, Window: 10 * time.Second, Policy: "edge"}},
			{"b", 20 * time.Second, 1, ratelimit.Decision{OK: true, Limit: 3, Remaining: 2, Reset: 10 * time.Second, Window: 10 * time.Second, Policy: "edge"}},
			// The block is over: a new window.
			{"a", 35 * time.Second, 1, ratelimit.Decision{OK: true, Limit: 3, Remaining: 2, Reset: 10 * time.Second, Window: 10 * time.Second, Policy: "edge"}},
		},
	}, {
		name: "a window that ends under the limit resets",
		g:    &edgeGuard{limit: 2, window: time.Second},
		steps: []step{
			{"a", 0, 2, ratelimit.Decision{OK: true, Limit: 2, Remaining: 0, Reset: time.Second, Window: time.Second}},
			{"a", time.Second, 2, ratelimit.Decision{OK: true, Limit: 2, Remaining: 0, Reset: time.Second, Window: time.Second}},
		},
	}, {
		name: "a block shorter than the window: still over, blocked again",
		g:    &edgeGuard{limit: 1, window: 10 * time.Second, block: time.Second},
		steps: []step{
			{"a", 0, 2, ratelimit.Decision{RetryAfter: time.Second, Limit: 1, Reset: time.Second, Window: 10 * time.Second}},
			{"a", 2 * time.Second, 1, ratelimit.Decision{RetryAfter: time.Second, Limit: 1, Reset: time.Second, Window: 10 * time.Second}},
			{"a", 10 * time.Second, 1, ratelimit.Decision{OK: true, Limit: 1, Remaining: 0, Reset: 10 * time.Second, Window: 10 * time.Second}},
		},
	}, {
		name: "zero edgeGuard: 100 requests per 10 seconds, then a 10-second block",
		g:    &edgeGuard{},
		steps: []step{
			{"a", 0, 100, ratelimit.Decision{OK: true, Limit: 100, Remaining: 0, Reset: 10 * time.Second, Window: 10 * time.Second}},
			{"a", 0, 1, ratelimit.Decision{RetryAfter: 10 * time.Second, Limit: 100, Reset: 10 * time.Second, Window: 10 * time.Second}},
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { runSteps(t, tt.g, tt.steps) })
	}
}

// Two guards sharing a store do not mix their counts when their policies differ.
func TestEdgeGuardsShareStore(t *testing.T) {
	s := &ratelimit.MemoryStore{}
	a := &edgeGuard{limit: 1, policy: "a", store: s}
	b := &edgeGuard{limit: 1, policy: "b", store: s}
	got := []bool{a.allowAt("k", limiterT0).OK, b.allowAt("k", limiterT0).OK, a.allowAt("k", limiterT0).OK}
	if diff := cmp.Diff([]bool{true, true, false}, got); diff != "" {
		t.Errorf("OK mismatch (-want +got):\n%s", diff)
	}
}

func TestEdgeGuardStoreFails(t *testing.T) {
	g := &edgeGuard{limit: 1, store: redistest.Down{}}
	d, err := g.check(context.Background(), "k", limiterT0)
	if !errors.Is(err, redistest.ErrDown) || d != (ratelimit.Decision{OK: true}) {
		t.Errorf("check = %+v, %v; want the request let through with %v", d, err, redistest.ErrDown)
	}
}

// Many goroutines flooding from one source: exactly Limit get through.
func TestEdgeGuardConcurrent(t *testing.T) {
	g := &edgeGuard{limit: 100}
	var (
		wg sync.WaitGroup
		mu sync.Mutex
		ok int
	)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 125 {
				if g.allowAt("198.51.100.7", limiterT0).OK {
					mu.Lock()
					ok++
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if ok != 100 {
		t.Errorf("%d of 1,000 concurrent requests passed, want 100", ok)
	}
}

func TestSourceKey(t *testing.T) {
	tests := []struct {
		remote, colo, header string
		want                 string
	}{
		{"198.51.100.7:4000", "", "", "198.51.100.7"},
		{"[2001:db8::1]:443", "", "", "2001:db8::1"},
		{"198.51.100.7:4000", "CF-IPCountry", "DE", "DE 198.51.100.7"},
		{"198.51.100.7:4000", "CF-IPCountry", "", "198.51.100.7"},
		{"198.51.100.7:4000", "", "DE", "198.51.100.7"},
		{"not an address", "", "", "not an address"},
		{"", "", "", ""},
	}
	for _, tt := range tests {
		r := httptest.NewRequest("POST", "/mcp", nil)
		r.RemoteAddr = tt.remote
		if tt.header != "" {
			r.Header.Set("CF-IPCountry", tt.header)
		}
		if got := sourceKey(tt.colo)(r); got != tt.want {
			t.Errorf("sourceKey(%q) of %q with header %q = %q, want %q", tt.colo, tt.remote, tt.header, got, tt.want)
		}
	}
}

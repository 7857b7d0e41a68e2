package ratelimit

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// edgeBody is the refusal body an edge flood guard answers with, byte for
// byte as clients expect it.
const edgeBody = `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Rate limited at the edge. Slow down and retry after a few seconds."}}`

func TestEdgeBodyIsByteExact(t *testing.T) {
	if diff := cmp.Diff(edgeBody, EdgeBody); diff != "" {
		t.Errorf("EdgeBody mismatch (-want +got):\n%s", diff)
	}
}

// The default edge rule under load: 1,000 requests from one source in a second
// give 100 answers and 900 refusals; a second source still gets through;
// the block lifts after its 10 seconds.
func TestGuardDefaultsUnderLoad(t *testing.T) {
	clock := &limiterClock{t: limiterT0}
	g := Guard{Now: clock.now} // the defaults: 100 per 10 seconds, then a 10-second block
	served := 0
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served++
		w.WriteHeader(http.StatusOK)
	})
	h := g.Wrap(next, SourceKey("Cf-Ipcountry"), RefuseWith("application/json", []byte(EdgeBody)))

	type answer struct {
		Status      int
		RetryAfter  string
		ContentType string
		Body        string
	}
	post := func(addr string) answer {
		r := httptest.NewRequest("POST", "/mcp", nil)
		r.RemoteAddr = addr
		r.Header.Set("CF-IPCountry", "DE")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		a := answer{Status: w.Code, RetryAfter: w.Header().Get("Retry-After")}
		if w.Code != http.StatusOK {
			a.ContentType, a.Body = w.Header().Get("Content-Type"), w.Body.String()
		}
		return a
	}

	counts := map[int]int{}
	var firstRefusal, lastRefusal answer
	for i := range 1000 {
		a := post("198.51.100.7:40000")
		counts[a.Status]++
		if a.Status == 429 {
			if counts[429] == 1 {
				firstRefusal = a
			}
			lastRefusal = a
		}
		if i < 999 {
			clock.advance(time.Millisecond)
		}
	}
	if diff := cmp.Diff(map[int]int{200: 100, 429: 900}, counts); diff != "" {
		t.Errorf("1,000 requests from one source (-want +got):\n%s", diff)
	}
	if served != 100 {
		t.Errorf("handler served %d requests, want 100", served)
	}
	// The block began with the 101st request, at 100ms; the last refusal is at 999ms.
	wantRefusal := answer{Status: 429, RetryAfter: "10", ContentType: "application/json", Body: edgeBody}
	if diff := cmp.Diff(wantRefusal, firstRefusal); diff != "" {
		t.Errorf("first refusal mismatch (-want +got):\n%s", diff)
	}
	wantRefusal.RetryAfter = "10" // 9.101s, rounded up
	if diff := cmp.Diff(wantRefusal, lastRefusal); diff != "" {
		t.Errorf("last refusal mismatch (-want +got):\n%s", diff)
	}

	// Another source, and the same address in another colo, are their own keys.
	if a := post("203.0.113.9:5555"); a.Status != 200 {
		t.Errorf("second source: %+v, want 200", a)
	}

	// The block ends 10 seconds after it began (at 100ms).
	clock.t = limiterT0.Add(100*time.Millisecond + 10*time.Second - time.Nanosecond)
	if a := post("198.51.100.7:40001"); a.Status != 429 || a.RetryAfter != "1" {
		t.Errorf("a nanosecond before the block ends: %+v, want 429 with Retry-After 1", a)
	}
	clock.advance(time.Nanosecond)
	if a := post("198.51.100.7:40002"); a.Status != 200 {
		t.Errorf("when the block ends: %+v, want 200", a)
	}
}

func TestGuardAllowAt(t *testing.T) {
	tests := []struct {
		name  string
		g     *Guard
		steps []step
	}{{
		name: "window, then block",
		g:    &Guard{Limit: 3, Window: 10 * time.Second, Block: 30 * time.Second, Policy: "edge"},
		steps: []step{
			{"a", 0, 1, Decision{OK: true, Limit: 3, Remaining: 2, Reset: 10 * time.Second, Window: 10 * time.Second, Policy: "edge"}},
			{"a", 4 * time.Second, 2, Decision{OK: true, Limit: 3, Remaining: 0, Reset: 6 * time.Second, Window: 10 * time.Second, Policy: "edge"}},
			{"a", 5 * time.Second, 1, Decision{RetryAfter: 30 * time.Second, Limit: 3, Reset: 30 * time.Second, Window: 10 * time.Second, Policy: "edge"}},
			// Past the window, still blocked; refusals are not counted.
			{"a", 20 * time.Second, 50, Decision{RetryAfter: 15 * time.Second, Limit: 3, Reset: 15 * time.Second, Window: 10 * time.Second, Policy: "edge"}},
			{"b", 20 * time.Second, 1, Decision{OK: true, Limit: 3, Remaining: 2, Reset: 10 * time.Second, Window: 10 * time.Second, Policy: "edge"}},
			// The block is over: a new window.
			{"a", 35 * time.Second, 1, Decision{OK: true, Limit: 3, Remaining: 2, Reset: 10 * time.Second, Window: 10 * time.Second, Policy: "edge"}},
		},
	}, {
		name: "a window that ends under the limit resets",
		g:    &Guard{Limit: 2, Window: time.Second},
		steps: []step{
			{"a", 0, 2, Decision{OK: true, Limit: 2, Remaining: 0, Reset: time.Second, Window: time.Second}},
			{"a", time.Second, 2, Decision{OK: true, Limit: 2, Remaining: 0, Reset: time.Second, Window: time.Second}},
		},
	}, {
		name: "a block shorter than the window: still over, blocked again",
		g:    &Guard{Limit: 1, Window: 10 * time.Second, Block: time.Second},
		steps: []step{
			{"a", 0, 2, Decision{RetryAfter: time.Second, Limit: 1, Reset: time.Second, Window: 10 * time.Second}},
			{"a", 2 * time.Second, 1, Decision{RetryAfter: time.Second, Limit: 1, Reset: time.Second, Window: 10 * time.Second}},
			{"a", 10 * time.Second, 1, Decision{OK: true, Limit: 1, Remaining: 0, Reset: 10 * time.Second, Window: 10 * time.Second}},
		},
	}, {
		name: "zero Guard: 100 requests per 10 seconds, then a 10-second block",
		g:    &Guard{},
		steps: []step{
			{"a", 0, 100, Decision{OK: true, Limit: 100, Remaining: 0, Reset: 10 * time.Second, Window: 10 * time.Second}},
			{"a", 0, 1, Decision{RetryAfter: 10 * time.Second, Limit: 100, Reset: 10 * time.Second, Window: 10 * time.Second}},
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { runSteps(t, tt.g.AllowAt, tt.steps) })
	}
}

// Two guards sharing a store do not mix their counts when their policies differ.
func TestGuardsShareStore(t *testing.T) {
	s := &MemoryStore{}
	a := &Guard{Limit: 1, Policy: "a", Store: s}
	b := &Guard{Limit: 1, Policy: "b", Store: s}
	got := []bool{a.AllowAt("k", limiterT0).OK, b.AllowAt("k", limiterT0).OK, a.AllowAt("k", limiterT0).OK}
	if diff := cmp.Diff([]bool{true, true, false}, got); diff != "" {
		t.Errorf("OK mismatch (-want +got):\n%s", diff)
	}
}

func TestGuardStoreFails(t *testing.T) {
	g := &Guard{Limit: 1, Store: failingStore{}}
	if _, err := g.Check(context.Background(), "k", limiterT0); !errors.Is(err, errStoreDown) {
		t.Errorf("Check: err = %v, want %v", err, errStoreDown)
	}
	for range 3 {
		if d := g.AllowAt("k", limiterT0); d != (Decision{OK: true}) {
			t.Errorf("AllowAt = %+v, want the request let through", d)
		}
	}
}

// Many goroutines flooding from one source: exactly Limit get through.
func TestGuardConcurrent(t *testing.T) {
	g := &Guard{Limit: 100}
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
				if g.AllowAt("198.51.100.7", limiterT0).OK {
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

// The guard's counters of a flood of sources are swept once they expire.
func TestGuardEvicts(t *testing.T) {
	var g Guard
	at := limiterT0
	peak := 0
	for i := range limiterKeys / 10 {
		at = at.Add(time.Millisecond) // 10,000 sources in any 10s window
		g.AllowAt("src-"+strconv.Itoa(i), at)
		if i%1000 == 0 {
			if _, n := g.mem.Len(); n > peak {
				peak = n
			}
		}
	}
	if bound := 4*10_000 + memMinSweep; peak > bound {
		t.Errorf("peak of %d counters held, want at most %d", peak, bound)
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
		if got := SourceKey(tt.colo)(r); got != tt.want {
			t.Errorf("SourceKey(%q) of %q with header %q = %q, want %q", tt.colo, tt.remote, tt.header, got, tt.want)
		}
	}
}

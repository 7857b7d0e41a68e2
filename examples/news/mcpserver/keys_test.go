package mcpserver

import (
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReadKeys(t *testing.T) {
	good := `[{"key":"team-a","plan":"team","monthly_credits":50,"stops_at_allocation":true,"messages_per_minute":5,"credits_per_minute":10,"watch_cap":1}]`
	keys, err := ReadKeys(strings.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	want := []Key{{Key: "team-a", Plan: Plan{Name: "team", MonthlyCredits: 50, StopsAtAllocation: true, MessagesPerMinute: 5, CreditsPerMinute: 10, WatchCap: 1}}}
	if diff := cmp.Diff(want, keys); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if k2, err := ReadKeys(strings.NewReader(`{"keys":` + good + `}`)); err != nil || len(k2) != 1 {
		t.Errorf("wrapped form: %v %v", k2, err)
	}
	for _, bad := range []string{``, `[]`, `{}`, `[{"key":""}]`, `[{"key":"a","messages_per_minute":1,"credits_per_minute":1},{"key":"a","messages_per_minute":1,"credits_per_minute":1}]`, `[{"key":"a","messages_per_minute":0,"credits_per_minute":1}]`, `nope`} {
		if _, err := ReadKeys(strings.NewReader(bad)); err == nil {
			t.Errorf("ReadKeys(%q) accepted", bad)
		} else if strings.Contains(err.Error(), `"a"`) {
			t.Errorf("error quotes a key: %v", err)
		}
	}
	// New refuses what ReadKeys refuses about the keys themselves, and
	// never quotes a key in the error.
	for _, bad := range [][]Key{{{}}, {{Key: "a"}, {Key: "a"}}} {
		if _, err := New(Config{Keys: bad}); err == nil {
			t.Errorf("New accepted the keys %+v", bad)
		} else if strings.Contains(err.Error(), `"a"`) {
			t.Errorf("error quotes a key: %v", err)
		}
	}
	// A server on these keys: the demo keys are gone, the plan applies.
	s := mustNew(t, Config{Keys: keys, Now: newClock(testNow).Now})
	if s.account("demo-pro") != nil {
		t.Error("demo keys serve alongside a keys file")
	}
	if out := callJSON(t, s, "team-a", "create_watch", `{"query":"a"}`); out.ok == nil {
		t.Fatalf("first watch: %+v", out.toolErr)
	}
	if out := callJSON(t, s, "team-a", "create_watch", `{"query":"b"}`); out.toolErr == nil || out.toolErr.Code != WatchLimit {
		t.Errorf("second watch on a cap of 1: %+v", out)
	}
	for range 3 {
		callJSON(t, s, "team-a", "get_story", `{"id":"s-0001"}`)
	}
	// 3 + 6 of 10 credits this minute spent: a 2-credit call waits.
	if out := callJSON(t, s, "team-a", "get_story", `{"id":"s-0001"}`); out.toolErr == nil || out.toolErr.Code != CreditRateLimited {
		t.Errorf("team-a over its minute: %+v", out)
	}
}

// TestNoSecretsInErrors: the key a request carried is not in any answer.
func TestNoSecretsInErrors(t *testing.T) {
	s, _ := newTestServer(t)
	h := s.Handler()
	for _, path := range []string{"/v1/search?query=x", "/mcp", "/v1/nope"} {
		req := httptest.NewRequest("POST", "http://localhost"+path, strings.NewReader(`{}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer sk-live-SECRET-123")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if strings.Contains(w.Body.String(), "SECRET") || strings.Contains(strings.Join(w.Header().Values("Www-Authenticate"), ""), "SECRET") {
			t.Errorf("%s echoes the key: %s", path, w.Body)
		}
	}
}

// TestConcurrentCalls: one account spent from many goroutines at once
// charges exactly what the calls cost, never past a stopping allocation.
func TestConcurrentCalls(t *testing.T) {
	keys := []Key{{Key: "k", Plan: Plan{Name: "t", MonthlyCredits: 100, StopsAtAllocation: true, MessagesPerMinute: 1000, CreditsPerMinute: 1000, WatchCap: 5}}}
	s := mustNew(t, Config{Keys: keys, Now: newClock(testNow).Now})
	var wg sync.WaitGroup
	var mu sync.Mutex
	var charged int64
	var watches int
	for i := range 80 {
		wg.Go(func() {
			tool, args := "get_story", `{"id":"s-0001"}`
			if i%10 == 0 {
				tool, args = "create_watch", `{"query":"x"}`
			}
			out := s.call(t.Context(), s.account("k"), s.tool(tool), []byte(args))
			if out.ok != nil {
				mu.Lock()
				charged += out.ok.(interface{ creditsCharged() int64 }).creditsCharged()
				if tool == "create_watch" {
					watches++
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	b := s.balance(t.Context(), s.account("k"), s.now())
	if b.Used != charged || b.Used > 100 {
		t.Errorf("used %d, charged %d (allocation 100)", b.Used, charged)
	}
	if watches > 5 {
		t.Errorf("%d watches, cap 5", watches)
	}
}

// TestFront: /mcp refuses a foreign Host (DNS rebinding) with 403 before
// the key is read, and a GET with 405 and a JSON-RPC body.
func TestFront(t *testing.T) {
	s, _ := newTestServer(t)
	h := s.Handler()
	for _, tc := range []struct {
		method, host string
		status       int
		body         string
	}{
		{"POST", "evil.example", 403, ""},
		{"GET", "localhost", 405, `"code":-32600`},
	} {
		req := httptest.NewRequest(tc.method, "http://"+tc.host+"/mcp", strings.NewReader(`{}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer demo-pro")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != tc.status || !strings.Contains(w.Body.String(), tc.body) {
			t.Errorf("%s %s: %d %s", tc.method, tc.host, w.Code, w.Body)
		}
	}
	s2 := mustNew(t, Config{AllowedHosts: []string{"news.example"}})
	req := httptest.NewRequest("POST", "http://news.example/mcp", strings.NewReader(`{}`))
	req.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	s2.Handler().ServeHTTP(w, req)
	if w.Code != 401 {
		t.Errorf("an allowed host without a key: %d, want 401", w.Code)
	}
}

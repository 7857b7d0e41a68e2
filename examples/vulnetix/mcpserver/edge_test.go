package mcpserver

import (
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestEdgeFloodGuard is the load test: 1,000 requests from one source
// against the default rule (100 per 10 seconds, then a 10-second block) on
// a frozen clock. Exactly 100 pass and 900 get the seed's 429; a second
// source still gets through; once the block period has passed on the
// injected clock, the first source gets through again.
func TestEdgeFloodGuard(t *testing.T) {
	e := newEnv(t, func(c *Config) {
		c.EdgeLimit, c.EdgeWindow, c.EdgeBlock = 100, 10*time.Second, 10*time.Second
	})
	body := rpc(1, "tools/list", "")
	send := func(client *http.Client) (int, string, http.Header) {
		req, _ := http.NewRequest(http.MethodPost, e.url+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Mcp-Method", "tools/list")
		resp, err := client.Do(req)
		if err != nil {
			t.Error(err)
			return 0, "", nil
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), resp.Header
	}

	first := clientFrom("127.0.0.1")
	var ok, limited, other atomic.Int64
	var wrongBody atomic.Value
	var wg sync.WaitGroup
	jobs := make(chan struct{})
	for range 8 { // concurrent, as a flood is
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range jobs {
				status, b, h := send(first)
				switch status {
				case http.StatusOK:
					ok.Add(1)
				case http.StatusTooManyRequests:
					limited.Add(1)
					if b != EdgeRefusal || h.Get("Content-Type") != "application/json" || h.Get("Retry-After") != "10" {
						wrongBody.Store(b + " | " + h.Get("Content-Type") + " | Retry-After " + h.Get("Retry-After"))
					}
				default:
					other.Add(1)
				}
			}
		}()
	}
	for range 1000 {
		jobs <- struct{}{}
	}
	close(jobs)
	wg.Wait()
	if ok.Load() != 100 || limited.Load() != 900 || other.Load() != 0 {
		t.Errorf("1,000 requests from one source: %d passed, %d refused with 429, %d other; want 100, 900, 0", ok.Load(), limited.Load(), other.Load())
	}
	if w := wrongBody.Load(); w != nil {
		t.Errorf("a 429 answer differs from the seed's: %v", w)
	}

	// The seed's exact body, byte for byte.
	const seed = `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Rate limited at the edge. Slow down and retry after a few seconds."}}`
	if status, b, _ := send(first); status != 429 || b != seed {
		t.Errorf("blocked source: %d %s, want 429 %s", status, b, seed)
	}

	// Another source is not affected.
	if status, b, _ := send(clientFrom("127.0.0.2")); status != http.StatusOK {
		t.Errorf("second source: %d %s, want 200", status, b)
	}

	// Still blocked just before the block period ends, free after it.
	e.clock.Advance(10*time.Second - time.Millisecond)
	if status, _, _ := send(first); status != 429 {
		t.Errorf("first source 1ms before the block ends: %d, want 429", status)
	}
	e.clock.Advance(time.Millisecond)
	if status, b, _ := send(first); status != http.StatusOK {
		t.Errorf("first source after the block: %d %s, want 200", status, b)
	}
}

// TestEdgeGuardScope: the guard sits in front of POST /mcp only, after the
// Host, path, method and Content-Type checks, and before the body is read.
func TestEdgeGuardScope(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.EdgeLimit = 1 })
	h := map[string]string{"Content-Type": "application/json", "Mcp-Method": "tools/list"}
	tests := []struct {
		name string
		x    exchange
		want int
	}{
		{"first request passes", exchange{Header: h, Body: rpc(1, "tools/list", "")}, 200},
		{"second is refused", exchange{Header: h, Body: rpc(1, "tools/list", "")}, 429},
		{"a bad body is refused before it is read", exchange{Header: h, Body: "not json"}, 429},
		{"healthz is not guarded", exchange{Method: "GET", Path: "/healthz"}, 200},
		{"405 comes before the guard", exchange{Method: "GET"}, 405},
		{"415 comes before the guard", exchange{Header: map[string]string{"Content-Type": "text/plain"}, Body: "x"}, 415},
		{"404 comes before the guard", exchange{Path: "/other", Header: h, Body: "x"}, 404},
	}
	for _, tt := range tests {
		x := tt.x
		e.do(t, &x)
		if x.Status != tt.want {
			t.Errorf("%s: %d, want %d (%s)", tt.name, x.Status, tt.want, x.RespBody)
		}
	}
}

// TestEdgeColoHeader: with a colo header configured, the guard keys on it
// and the source IP together.
func TestEdgeColoHeader(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.EdgeLimit, c.EdgeColoHeader = 1, "CF-IPCountry" })
	send := func(colo string) int {
		h := map[string]string{"Content-Type": "application/json", "Mcp-Method": "tools/list"}
		if colo != "" {
			h["CF-IPCountry"] = colo
		}
		x := exchange{Header: h, Body: rpc(1, "tools/list", "")}
		e.do(t, &x)
		return x.Status
	}
	got := []int{send("NZ"), send("NZ"), send("AU"), send("")}
	want := []int{200, 429, 200, 200}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("colo statuses %v, want %v", got, want)
			break
		}
	}
}

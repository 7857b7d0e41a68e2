package mcpserver

import (
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcperr/mcperr/examples/internal/redistest"
)

// Three replicas whose edge guards share one Redis let exactly 100 of
// 1,000 requests from one source through, spread across them, where
// guards in memory would let 300 through.
func TestReplicasShareEdgeGuard(t *testing.T) {
	shareEdgeGuard(t, redistest.URL(t))
}

// On a Redis Cluster of 3 primaries, the edge guards of three replicas
// are shared as exactly as on one Redis.
func TestClusterReplicasShareEdgeGuard(t *testing.T) {
	shareEdgeGuard(t, redistest.ClusterURL(t))
}

func shareEdgeGuard(t *testing.T, url string) {
	prefix := redistest.Prefix(t)
	var urls []string
	clock := newClock()
	for range 3 {
		e := newEnv(t, func(c *Config) {
			// A window and a block of a minute, not 10 s: the counters
			// expire on the Redis server's clock, not the injected one, so
			// the 1,000 requests must end within them, and on a loaded
			// machine under -race they took up to 8.1 s.
			c.EdgeLimit, c.EdgeWindow, c.EdgeBlock = 100, time.Minute, time.Minute
			c.EdgeStore = redistest.Store(t, url, prefix, nil, 0)
			c.Now = clock.Now
		})
		urls = append(urls, e.url)
	}
	body := rpc(1, "tools/list", "")
	client := clientFrom("127.0.0.1")
	var passed, limited atomic.Int64
	var wg sync.WaitGroup
	// At most 64 requests at once: they still race on the shared count,
	// and a Redis call is not queued behind a thousand others past the
	// store's timeout, after which the guard lets traffic through (882 of
	// 1,000 passed once on a loaded two-core machine).
	sem := make(chan struct{}, 64)
	for i := range 1000 {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			req, _ := http.NewRequest(http.MethodPost, urls[i%3]+"/mcp", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Mcp-Method", "tools/list")
			resp, err := client.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusTooManyRequests && string(b) == EdgeRefusal {
				limited.Add(1)
			} else {
				passed.Add(1)
			}
		}()
	}
	wg.Wait()
	if passed.Load() != 100 || limited.Load() != 900 {
		t.Errorf("%d passed the guards and %d were refused, want 100 and 900", passed.Load(), limited.Load())
	}
}

package mcpserver

import (
	"context"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcperr/mcperr/examples/internal/proc"
	"github.com/mcperr/mcperr/examples/internal/redistest"
)

// replicaKeys are the plans the replica tests spend: one key for each
// limit, the others out of the way.
func replicaKeys() []Key {
	big := Plan{Name: "big", MonthlyCredits: 1 << 40, MessagesPerMinute: 1 << 30, CreditsPerMinute: 1 << 30, WatchCap: 1 << 20}
	messages := big
	messages.MessagesPerMinute = 60
	credits := big
	credits.CreditsPerMinute = 30
	watches := big
	watches.WatchCap = 5
	probe := big
	probe.MessagesPerMinute = 1
	return []Key{{Key: "k-messages", Plan: messages}, {Key: "k-credits", Plan: credits}, {Key: "k-watches", Plan: watches}, {Key: "k-big", Plan: big}, {Key: "k-probe", Plan: probe}}
}

// replicas starts n hosted news servers in process, each with a store of
// its own on the Redis at url under one prefix, on one injected clock.
func replicas(t *testing.T, n int, url string, logger *log.Logger, timeout time.Duration) ([]*Server, []string) {
	t.Helper()
	prefix := redistest.Prefix(t)
	now := newClock(testNow).Now
	var srvs []*Server
	var urls []string
	for range n {
		s := mustNew(t, Config{Keys: replicaKeys(), Now: now, Shared: redistest.Store(t, url, prefix, logger, timeout)})
		h := httptest.NewServer(s.Handler())
		t.Cleanup(h.Close)
		srvs = append(srvs, s)
		urls = append(urls, h.URL)
	}
	return srvs, urls
}

// spread sends n requests at once, request i to replica i%len(urls), and
// returns how many answered each status, and the slowest answer's time.
func spread(t *testing.T, urls []string, n int, req func(i int, base string) *http.Request) (map[int]int, time.Duration) {
	t.Helper()
	var (
		mu      sync.Mutex
		counts  = map[int]int{}
		wg      sync.WaitGroup
		slowest time.Duration
	)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			resp, err := http.DefaultClient.Do(req(i, urls[i%len(urls)]))
			took := time.Since(start)
			if err != nil {
				t.Error(err)
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			mu.Lock()
			counts[resp.StatusCode]++
			slowest = max(slowest, took)
			mu.Unlock()
		}()
	}
	wg.Wait()
	return counts, slowest
}

// spreadStories sends 100 get_story calls of k-credits (2 credits each,
// 30 credits a minute) at once, and returns how many answered each status
// and the most that may be answered: 15, and one more for each 4 s the
// calls took. The minute's credits are a meter that drains on the Redis
// server's clock, not on the replicas' injected one: 2 credits every 4 s.
// The calls take a second at most on a loaded machine under -race, so the
// most is 15 but on a far slower one, where a 16th call fitting is no bug.
func spreadStories(t *testing.T, urls []string) (got map[int]int, most int) {
	t.Helper()
	start := time.Now()
	got, _ = spread(t, urls, 100, restGet("k-credits", "/v1/stories/s-0001"))
	return got, 15 + int(time.Since(start)/(4*time.Second))
}

func restGet(key, path string) func(int, string) *http.Request {
	return func(_ int, base string) *http.Request {
		r, _ := http.NewRequest("GET", base+path, nil)
		r.Header.Set("Authorization", "Bearer "+key)
		return r
	}
}

// monthUsed reads an account's credits this month from the shared store.
func monthUsed(t *testing.T, s *Server, key string) int64 {
	t.Helper()
	a := s.account(key)
	r, err := s.budget.reserveAt(context.Background(), a.id, a.plan(), 0, s.now())
	if err != nil {
		t.Fatal(err)
	}
	return r.Month.Used
}

// Three replicas on one Redis share every limit exactly, with requests
// spread across them: 60 messages a minute for a key, credits charged
// exactly, and exactly the watch cap under 200 concurrent creates.
func TestReplicasShareLimits(t *testing.T) {
	shareLimits(t, redistest.URL(t))
}

// On a Redis Cluster of 3 primaries, three replicas share every limit as
// exactly as on one Redis: each account's keys share a hash slot.
func TestClusterReplicasShareLimits(t *testing.T) {
	shareLimits(t, redistest.ClusterURL(t))
}

func shareLimits(t *testing.T, url string) {
	srvs, urls := replicas(t, 3, url, nil, 0)

	t.Run("60 messages a minute", func(t *testing.T) {
		got, _ := spread(t, urls, 150, restGet("k-messages", "/v1/articles/a-00042"))
		if got[200] != 60 || got[429] != 90 {
			t.Errorf("statuses %v, want 60 answered and 90 message_rate_limited", got)
		}
		// get_article costs 1 credit: every answered message was charged once.
		for i, s := range srvs {
			if used := monthUsed(t, s, "k-messages"); used != 60 {
				t.Errorf("replica %d sees %d credits used, want 60", i, used)
			}
		}
	})

	t.Run("30 credits a minute", func(t *testing.T) {
		// get_story costs 2: 15 calls fit in 30 credits.
		got, most := spreadStories(t, urls)
		if got[200] < 15 || got[200] > most || got[200]+got[429] != 100 {
			t.Errorf("statuses %v, want 15 answered (at most %d on this machine's time) and the rest credit_rate_limited", got, most)
		}
		if used := monthUsed(t, srvs[2], "k-credits"); used != 2*int64(got[200]) {
			t.Errorf("%d credits used, want %d", used, 2*got[200])
		}
	})

	t.Run("the watch cap", func(t *testing.T) {
		got, _ := spread(t, urls, 200, func(_ int, base string) *http.Request {
			r, _ := http.NewRequest("POST", base+"/v1/watches", strings.NewReader(`{"query":"wind"}`))
			r.Header.Set("Authorization", "Bearer k-watches")
			r.Header.Set("Content-Type", "application/json")
			return r
		})
		if got[200]+got[201] != 5 || got[409] != 195 {
			t.Errorf("statuses %v, want 5 created and 195 watch_limit", got)
		}
		// A watch made on one replica is there on every other.
		a := srvs[0].account("k-watches")
		ids, err := srvs[0].shared.client.Do(context.Background(), srvs[0].shared.client.B().Hkeys().Key(srvs[0].shared.key(a.id)).Build()).AsStrSlice()
		if err != nil || len(ids) != 5 {
			t.Fatalf("watches in Redis: %v, %v", ids, err)
		}
		for i, base := range urls {
			got, _ := spread(t, []string{base}, 1, restGet("k-watches", "/v1/watches/"+ids[i]))
			if got[200] != 1 {
				t.Errorf("replica %d: GET watch %s: %v", i, ids[i], got)
			}
		}
	})
}

// Redis stopped mid-run is not an outage: the replicas answer within their
// normal latency, unlimited, log the store's failure once per interval,
// and limit again once Redis is back.
func TestReplicasSurviveRedis(t *testing.T) {
	redis := redistest.StartServer(t)
	logs := &proc.Buffer{}
	// A timeout of a second (news -redis runs with 250 ms): long enough
	// for a busy machine under the race detector, short enough to show.
	const timeout = time.Second
	_, urls := replicas(t, 3, redis.URL(), log.New(logs, "", 0), timeout)

	got, normal := spread(t, urls, 70, restGet("k-messages", "/v1/articles/a-00042"))
	if got[200] != 60 {
		t.Fatalf("before: %v, want 60 answered", got)
	}

	redis.Stop()
	var slowest time.Duration
	for range 5 {
		got, d := spread(t, urls, 40, restGet("k-messages", "/v1/articles/a-00042"))
		if got[200] != 40 {
			t.Errorf("Redis down: %v, want every request answered (fail open)", got)
		}
		slowest = max(slowest, d)
	}
	// The watches live in Redis: without it, the watch tools say so.
	req, _ := http.NewRequest("POST", urls[1]+"/v1/watches", strings.NewReader(`{"query":"wind"}`))
	req.Header.Set("Authorization", "Bearer k-watches")
	req.Header.Set("Content-Type", "application/json")
	if resp, err := http.DefaultClient.Do(req); err != nil {
		t.Error(err)
	} else {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 503 || !strings.Contains(string(b), `"code":"upstream_unavailable"`) {
			t.Errorf("create_watch with Redis down: %d %s, want 503 upstream_unavailable", resp.StatusCode, b)
		}
	}
	t.Logf("slowest request: %v with Redis up, %v with Redis down", normal, slowest)
	// Redis refusing connections costs a failed dial, not a timeout; a
	// stalled Redis would cost at most the store's timeout.
	if slowest > normal+timeout+2*time.Second {
		t.Errorf("a request took %v with Redis down (%v with it up)", slowest, normal)
	}
	// Each replica's store logs its first failure, then none within the
	// interval (10 s).
	if lines := strings.Count(logs.String(), "redisstore:"); lines < 1 || lines > 3 {
		t.Errorf("%d log lines for 200 failing requests on 3 replicas, want one per replica at most:\n%s", lines, logs)
	}

	redis.Start(t) // empty: no persistence
	// k-probe may send one message a minute: once every replica refuses
	// its next one, every replica counts in Redis again.
	limitAgain(t, urls, 10*time.Second, "Redis returning")
	// Back, and exact again.
	if got, most := spreadStories(t, urls); got[200] < 15 || got[200] > most {
		t.Errorf("after Redis returned: %v, want 15 answered within 30 credits (at most %d on this machine's time)", got, most)
	}

	// A Redis that hangs (stopped, its connections open) holds a request
	// for the store's timeout at most, and the request is answered.
	redis.Pause()
	got, hung := spread(t, urls, 30, restGet("k-messages", "/v1/articles/a-00042"))
	redis.Resume()
	t.Logf("slowest request with Redis hanging: %v", hung)
	if got[200] != 30 {
		t.Errorf("Redis hanging: %v, want every request answered (fail open)", got)
	}
	if hung > normal+timeout+2*time.Second {
		t.Errorf("a request took %v with Redis hanging; the store's timeout is %v", hung, timeout)
	}
}

// BenchmarkHostedShared is hosted news answering REST reads at
// concurrency 16, its limits in memory (the anchor) and in Redis: each
// read counts a message and reserves a credit, two round trips to Redis.
func BenchmarkHostedShared(b *testing.B) {
	for _, where := range []string{"memory", "redis"} {
		b.Run(where, func(b *testing.B) {
			cfg := Config{Keys: replicaKeys(), Now: newClock(testNow).Now}
			if where == "redis" {
				url := os.Getenv("MCPERR_REDIS_URL")
				if url == "" {
					b.Skip("MCPERR_REDIS_URL is not set")
				}
				cfg.Shared = redistest.Store(b, url, redistest.Prefix(b), nil, 0)
			}
			h := httptest.NewServer(mustNew(b, cfg).Handler())
			defer h.Close()
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
			b.SetParallelism(16 / max(1, runtime.GOMAXPROCS(0)))
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					resp, err := client.Do(restGet("k-big", "/v1/articles/a-00042")(0, h.URL))
					if err != nil {
						b.Error(err)
						return
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != 200 {
						b.Errorf("status %d", resp.StatusCode)
						return
					}
				}
			})
		})
	}
}

// Watches kept in Redis behave as those kept in memory, from any replica:
// made on one, read, listed for events and deleted on others, invisible
// to other accounts.
func TestSharedWatches(t *testing.T) {
	url := redistest.URL(t)
	_, urls := replicas(t, 3, url, nil, 0)
	do := func(base, method, path, key, body string) (int, string) {
		t.Helper()
		r, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		r.Header.Set("Authorization", "Bearer "+key)
		if body != "" {
			r.Header.Set("Content-Type", "application/json")
		}
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	status, body := do(urls[0], "POST", "/v1/watches", "k-watches", `{"query":"wind","signals":["sentiment"]}`)
	if status != 201 || !strings.Contains(body, `"id":"w-1"`) || !strings.Contains(body, `"signals":["sentiment"]`) {
		t.Fatalf("create: %d %s", status, body)
	}
	type step struct {
		base, method, path, key string
		status                  int
		has                     string
	}
	for i, s := range []step{
		{urls[1], "GET", "/v1/watches/w-1", "k-watches", 200, `"query":"wind"`},
		{urls[2], "GET", "/v1/watches/w-1/events?since=2026-10-30T00:00:00Z", "k-watches", 200, `"watch_id":"w-1"`},
		{urls[2], "GET", "/v1/watches/w-1", "k-big", 404, `"code":"not_found"`},
		{urls[2], "DELETE", "/v1/watches/w-1", "k-watches", 200, `"deleted":true`},
		{urls[0], "GET", "/v1/watches/w-1", "k-watches", 404, `"code":"not_found"`},
		{urls[1], "DELETE", "/v1/watches/w-1", "k-watches", 404, `"code":"not_found"`},
	} {
		status, body := do(s.base, s.method, s.path, s.key, "")
		if status != s.status || !strings.Contains(body, s.has) {
			t.Errorf("step %d: %s %s: %d %s; want %d with %s", i, s.method, s.path, status, body, s.status, s.has)
		}
	}
}

// A primary of a Redis Cluster killed mid-load is not an outage: while
// its slots are down the replicas answer every request, unlimited, and
// once it is back (empty, with its slots) they limit exactly again.
func TestClusterReplicasSurviveKilledPrimary(t *testing.T) {
	cluster := redistest.StartCluster(t)
	logs := &proc.Buffer{}
	const timeout = time.Second
	srvs, urls := replicas(t, 3, cluster.URL(), log.New(logs, "", 0), timeout)

	got, normal := spread(t, urls, 70, restGet("k-messages", "/v1/articles/a-00042"))
	if got[200] != 60 {
		t.Fatalf("before: %v, want 60 answered", got)
	}

	// Mid-load: requests go out while the primary that serves k-big's
	// account is killed.
	victim := cluster.PrimaryOf(t, srvs[0].account("k-big").id)
	var (
		wg      sync.WaitGroup
		during  map[int]int
		slowest time.Duration
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		during, slowest = spread(t, urls, 300, restGet("k-big", "/v1/articles/a-00042"))
	}()
	victim.Stop()
	wg.Wait()
	if during[200] != 300 {
		t.Errorf("a primary killed mid-load: %v, want every request answered", during)
	}
	// Once the others notice, the cluster answers CLUSTERDOWN for every
	// slot, and the replicas still answer every request: k-messages,
	// whose minute is spent, passes unlimited.
	cluster.WaitDown(t, victim)
	var down time.Duration
	for range 3 {
		got, d := spread(t, urls, 40, restGet("k-messages", "/v1/articles/a-00042"))
		if got[200] != 40 {
			t.Errorf("a primary down: %v, want every request answered (fail open)", got)
		}
		down = max(down, d)
	}
	t.Logf("slowest request: %v with the cluster up, %v while a primary was killed, %v with it down", normal, slowest, down)
	if down > normal+timeout+2*time.Second {
		t.Errorf("a request took %v with a primary down (%v with it up)", down, normal)
	}

	victim.Start(t)
	cluster.WaitOK(t)
	// k-probe may send one message a minute: once each replica refuses
	// the next one, every replica counts in the cluster again.
	limitAgain(t, urls, 20*time.Second, "the primary returning")
	if got, most := spreadStories(t, urls); got[200] < 15 || got[200] > most {
		t.Errorf("after the primary returned: %v, want 15 answered within 30 credits (at most %d on this machine's time)", got, most)
	}
	if !strings.Contains(logs.String(), "redisstore:") {
		t.Errorf("nothing logged while a primary was down")
	}
}

// limitAgain waits, up to within, until every replica refuses k-probe's
// next message (k-probe may send one a minute): the replicas count in the
// store again after the store came back (after says what came back).
func limitAgain(t *testing.T, urls []string, within time.Duration, after string) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		if got, _ := spread(t, urls, 3, restGet("k-probe", "/v1/articles/a-00042")); got[429] == 3 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the replicas do not limit again within %v of %s", within, after)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

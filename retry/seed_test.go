package retry_test

import (
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"golang.org/x/time/rate"

	"github.com/mcperr/mcperr/retry"
)

// vexloUpstream is a read endpoint limited per token to 20 requests a
// second, answering a refusal as the seed's server does: 429 with
// Retry-After in whole seconds (at least 1) and X-RateLimit-* figures.
type vexloUpstream struct {
	lim      *rate.Limiter
	requests atomic.Int64
}

func (u *vexloUpstream) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	u.requests.Add(1)
	now := time.Now() // the bubble's fake clock
	if u.lim.AllowN(now, 1) {
		io.WriteString(w, `{"tags":["api","db"]}`)
		return
	}
	tokens := u.lim.TokensAt(now)
	wait := time.Duration((1 - tokens) / float64(u.lim.Limit()) * float64(time.Second))
	full := time.Duration((float64(u.lim.Burst()) - tokens) / float64(u.lim.Limit()) * float64(time.Second))
	w.Header().Set("Retry-After", strconv.FormatInt(max(1, int64(math.Ceil(wait.Seconds()))), 10))
	w.Header().Set("X-RateLimit-Limit", strconv.Itoa(u.lim.Burst()))
	w.Header().Set("X-RateLimit-Remaining", "0")
	w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(max(1, int64(math.Ceil(full.Seconds()))), 10))
	w.WriteHeader(http.StatusTooManyRequests)
	io.WriteString(w, `{"error":{"code":"rate_limited","message":"Too many requests"}}`)
}

// handlerRT sends requests to a handler in memory, so the upstream runs
// on the synctest bubble's fake clock.
type handlerRT struct{ h http.Handler }

func (t handlerRT) RoundTrip(r *http.Request) (*http.Response, error) {
	w := httptest.NewRecorder()
	t.h.ServeHTTP(w, r)
	return w.Result(), nil
}

// TestSeedExperiment reproduces seed 000's experiment: 120
// vexlo_list_tags calls sent back to back in one session against a limit
// of 20 a second gave 60 results and 60 rate_limited errors, each of those
// retried once.
//
// Each call runs on its own goroutine, as an MCP session handles calls
// concurrently, and they go out 8.5 ms apart: the first at 0, the last at
// 1011.5 ms. The upstream's token bucket holds 20 and refills one token
// every 50 ms; a refused call gets Retry-After: 1 (its next token is at
// most 50 ms away, rounded up to a whole second, at least 1), so the
// Transport waits a second and sends it once more.
//
// The arithmetic: a bucket that is never left full admits, by time T, its
// 20 plus one per 50 ms elapsed, 20 + floor(20 T). The originals end at
// T = 1.0115 s, so 40 of them get results and 80 are refused. Their
// retries arrive a second after each refusal, the last at T = 2.0115 s,
// by when the bucket has admitted 20 + floor(40.23) = 60 in all: 20 more,
// all of them retries. The other 60 retries meet a second 429, which goes
// back at once. So 60 results (20 of them after a retry) and 60
// rate_limited, each retried once, as the seed reports; the upstream sees
// 120 + 80 = 200 requests.
//
// synctest runs it on a fake clock, so the Transport's own timer waits
// out each Retry-After without the test sleeping, and every event falls at
// a distinct instant of that clock, so the counts are the same every run.
func TestSeedExperiment(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		up := &vexloUpstream{lim: rate.NewLimiter(20, 20)}
		var retries atomic.Int64
		onRetry := func(*http.Request, *http.Response, error) { retries.Add(1) }
		type result struct {
			status, sent int
			retryAfter   string
		}
		results := make([]result, 120)
		var wg sync.WaitGroup
		for i := range results {
			wg.Add(1)
			go func() {
				defer wg.Done()
				time.Sleep(time.Duration(i) * 8500 * time.Microsecond)
				sent := 0
				counting := &retry.Transport{Base: stubRT(func(r *http.Request) (*http.Response, error) {
					sent++
					return handlerRT{up}.RoundTrip(r)
				}), OnRetry: onRetry}
				req, _ := http.NewRequest("GET", "http://vexlo.test/v1/tags", nil)
				resp, err := counting.RoundTrip(req)
				if err != nil {
					t.Errorf("call %d: %v", i, err)
					return
				}
				resp.Body.Close()
				results[i] = result{resp.StatusCode, sent, resp.Header.Get("Retry-After")}
			}()
		}
		wg.Wait()

		var ok, limited, retriedOK int
		for i, r := range results {
			switch {
			case r.status == 200 && r.sent == 1:
				ok++
			case r.status == 200 && r.sent == 2:
				ok++
				retriedOK++
			case r.status == 429 && r.sent == 2 && r.retryAfter == "1":
				limited++
			default:
				t.Errorf("call %d: %+v", i, r)
			}
		}
		got := fmt.Sprintf("results %d (%d after a retry), rate_limited %d, retries %d, upstream requests %d",
			ok, retriedOK, limited, retries.Load(), up.requests.Load())
		want := "results 60 (20 after a retry), rate_limited 60, retries 80, upstream requests 200"
		if got != want {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	})
}

package ratelimit_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"time"

	"golang.org/x/time/rate"

	"github.com/mcperr/mcperr/ratelimit"
)

// A read limit of 20 requests a second per token. The 21st request
// of a burst is refused, and its response carries these headers.
func ExampleLimiter() {
	l := ratelimit.NewLimiter(20, 20)
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	for range 20 {
		l.AllowAt("token-a", now)
	}
	d := l.AllowAt("token-a", now)
	fmt.Println("allowed:", d.OK, "retry after:", d.RetryAfter)

	h := http.Header{}
	d.SetHeaders(h)
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range h {
			if !yield(k) {
				return
			}
		}
	}) {
		fmt.Printf("%s: %s\n", k, h.Get(k))
	}

	// Another token has a bucket of its own.
	fmt.Println("token-b allowed:", l.AllowAt("token-b", now).OK)
	// Output:
	// allowed: false retry after: 50ms
	// Ratelimit: "default";r=0;t=1
	// Ratelimit-Policy: "default";q=20;w=1
	// Retry-After: 1
	// X-Ratelimit-Limit: 20
	// X-Ratelimit-Remaining: 0
	// X-Ratelimit-Reset: 1
	// token-b allowed: true
}

// A limited API: each bearer token may make two requests an hour, and a
// refused request is answered in the API's own error envelope. Requests
// without a token are not limited (a server in no-auth mode).
func ExampleLimiter_Wrap() {
	l := ratelimit.NewLimiter(rate.Every(30*time.Minute), 2)
	api := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"tags":["prod"]}`)
	})
	token := func(r *http.Request) string { return r.Header.Get("Authorization") }
	refuse := func(w http.ResponseWriter, r *http.Request, d ratelimit.Decision) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		io.WriteString(w, `{"error":{"code":"rate_limited","message":"too many requests"}}`)
	}
	h := l.Wrap(api, token, refuse)

	for _, auth := range []string{"Bearer t1", "Bearer t1", "Bearer t1", "", "Bearer t2"} {
		r := httptest.NewRequest("GET", "/v1/tags", nil)
		if auth != "" {
			r.Header.Set("Authorization", auth)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		fmt.Printf("%q: %d remaining=%q retry-after=%q %s\n", auth, w.Code,
			w.Header().Get("X-RateLimit-Remaining"), w.Header().Get("Retry-After"), w.Body)
	}
	// Output:
	// "Bearer t1": 200 remaining="1" retry-after="" {"tags":["prod"]}
	// "Bearer t1": 200 remaining="0" retry-after="" {"tags":["prod"]}
	// "Bearer t1": 429 remaining="0" retry-after="1800" {"error":{"code":"rate_limited","message":"too many requests"}}
	// "": 200 remaining="" retry-after="" {"tags":["prod"]}
	// "Bearer t2": 200 remaining="1" retry-after="" {"tags":["prod"]}
}

// A server that runs on its own clock sets Now, and the middleware reads
// it: the refused token's bucket refills only when that clock moves.
func ExampleLimiter_now() {
	now := time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)
	l := &ratelimit.Limiter{Rate: 1, Burst: 1, Now: func() time.Time { return now }}
	h := l.Wrap(http.NotFoundHandler(), nil, nil)

	for _, step := range []time.Duration{0, 0, time.Second} {
		now = now.Add(step)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
		fmt.Println(now.Format(time.TimeOnly), w.Code)
	}
	// Output:
	// 08:00:00 404
	// 08:00:00 429
	// 08:00:01 404
}

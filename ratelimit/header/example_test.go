package header_test

import (
	"fmt"
	"net/http"
	"time"

	"github.com/mcperr/mcperr/ratelimit/header"
)

// A 429 that says when to come back only through its limit fields: no
// Retry-After, nothing remaining, a reset in 30 seconds. Info.Wait reads
// the wait from the limits; RetryAfter alone would fall back to the
// default.
func Example() {
	h := http.Header{}
	h.Set("X-RateLimit-Limit", "100")
	h.Set("X-RateLimit-Remaining", "0")
	h.Set("X-RateLimit-Reset", "30")
	now := time.Date(2026, time.November, 30, 6, 0, 0, 0, time.UTC)

	info := header.Parse(h, now)
	fmt.Println(info.Limits.Remaining, "of", info.Limits.Limit, "left")
	fmt.Println(info.Wait())
	// Output:
	// 0 of 100 left
	// 30s true
}

func ExampleParseRetryAfter() {
	now := time.Date(2026, time.November, 30, 6, 0, 0, 0, time.UTC)
	for _, v := range []string{
		"2",
		"Mon, 30 Nov 2026 06:00:05 GMT",  // IMF-fixdate
		"Monday, 30-Nov-26 06:00:05 GMT", // RFC 850
		"Mon Nov 30 06:00:05 2026",       // asctime
		"Sun, 29 Nov 2026 06:00:00 GMT",  // in the past
		"99999999999999999999",           // saturates
		"-1",                             // malformed: absent
		"2.5",
	} {
		d, ok := header.ParseRetryAfter(v, now)
		fmt.Printf("%-32q %v %v\n", v, d, ok)
	}
	// Output:
	// "2"                              2s true
	// "Mon, 30 Nov 2026 06:00:05 GMT"  5s true
	// "Monday, 30-Nov-26 06:00:05 GMT" 5s true
	// "Mon Nov 30 06:00:05 2026"       5s true
	// "Sun, 29 Nov 2026 06:00:00 GMT"  0s true
	// "99999999999999999999"           596523h14m8s true
	// "-1"                             0s false
	// "2.5"                            0s false
}

// A Retry-After date is measured against the response's Date, so a server
// whose clock is an hour behind still means "two seconds from now".
func ExampleRetryAfter() {
	h := http.Header{}
	h.Set("Date", "Mon, 30 Nov 2026 05:00:00 GMT")
	h.Set("Retry-After", "Mon, 30 Nov 2026 05:00:02 GMT")
	now := time.Date(2026, time.November, 30, 6, 0, 0, 0, time.UTC)
	fmt.Println(header.RetryAfter(h, now))

	// A 429 without a usable Retry-After: the caller applies DefaultRetryAfter.
	if _, ok := header.RetryAfter(http.Header{}, now); !ok {
		fmt.Println(header.DefaultRetryAfter)
	}
	// Output:
	// 2s true
	// 1m0s
}

// A 429 from a limit of 20 requests a second: the figures an error result
// carries.
func ExampleParse() {
	h := http.Header{}
	h.Set("Retry-After", "1")
	h.Set("X-RateLimit-Limit", "20")
	h.Set("X-RateLimit-Remaining", "0")
	h.Set("X-RateLimit-Reset", "1")
	info := header.Parse(h, time.Now())
	fmt.Println(info.RetryAfter, info.Limits.Limit, info.Limits.Remaining, info.Limits.Reset)
	// Output:
	// 1s 20 0 1s
}

// The structured fields of draft-ietf-httpapi-ratelimit-headers-11.
func ExampleParse_draft() {
	h := http.Header{}
	h.Set("RateLimit-Policy", `"burst";q=100;w=60, "daily";q=1000;w=86400`)
	h.Set("RateLimit", `"burst";r=50;t=30, "daily";r=3;t=3600`)
	info := header.Parse(h, time.Now())
	for _, p := range info.Policies {
		fmt.Printf("policy %s: %d per %v\n", p.Name, p.Quota, p.Window)
	}
	for _, c := range info.Current {
		fmt.Printf("%s: %d left, resets in %v\n", c.Policy, c.Remaining, c.Reset)
	}
	// Limits takes the service limit closest to running out.
	fmt.Printf("limits: %d of %d, reset %v\n", info.Limits.Remaining, info.Limits.Limit, info.Limits.Reset)
	// Output:
	// policy burst: 100 per 1m0s
	// policy daily: 1000 per 24h0m0s
	// burst: 50 left, resets in 30s
	// daily: 3 left, resets in 1h0m0s
	// limits: 3 of 1000, reset 1h0m0s
}

// X-RateLimit-Reset is read in the form its size says: seconds until the
// reset, an epoch in seconds, or one in milliseconds.
func ExampleParseReset() {
	now := time.Unix(1796018400, 0)
	for _, v := range []string{"30", "1796018430", "1796018430000"} {
		fmt.Println(header.ParseReset(v, now))
	}
	// Output:
	// 30s true
	// 30s true
	// 30s true
}

package retryafter

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	retryablehttp "github.com/hashicorp/go-retryablehttp"

	"github.com/mcperr/mcperr/ratelimit/header"
	"github.com/mcperr/mcperr/retry"
)

// go-retryablehttp v0.7.8 (MPL-2.0, github.com/hashicorp/go-retryablehttp)
// reads Retry-After in its unexported parseRetryAfterHeader, which its
// exported DefaultBackoff calls for a 429 or 503 response; nothing of it
// is copied here: both the benchmarks and the tests below go through
// DefaultBackoff with a synthetic response. When Retry-After does not
// parse, DefaultBackoff falls back to min << attemptNum; the tests pass a
// sentinel min, so that fallback is visible as "not understood".

const sentinel = 7 * time.Nanosecond // DefaultBackoff's fallback with min = max = sentinel

func theirs(h http.Header) time.Duration {
	return retryablehttp.DefaultBackoff(sentinel, sentinel, 0, &http.Response{StatusCode: http.StatusTooManyRequests, Header: h})
}

func hdr(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
	return h
}

// TestRetryablehttpBugs proves, value by value, where go-retryablehttp
// v0.7.8 gets Retry-After wrong and what mcperr's package header reports.
func TestRetryablehttpBugs(t *testing.T) {
	now := time.Now()
	imf := func(t time.Time) string { return t.UTC().Format(http.TimeFormat) }
	tests := []struct {
		name       string
		h          http.Header
		theirs     func(d time.Duration) bool
		theirsSays string
		ours       time.Duration
		oursOK     bool
	}{
		{"huge delay-seconds wrap negative", hdr("Retry-After", "9223372037"),
			func(d time.Duration) bool { return d < 0 }, "a negative wait",
			header.MaxRetryAfter, true},
		{"huger delay-seconds wrap to a tiny wait", hdr("Retry-After", "18446744074"),
			func(d time.Duration) bool { return d > 0 && d < time.Second }, "under a second (290ms)",
			header.MaxRetryAfter, true},
		{"a signed number is accepted", hdr("Retry-After", "+2"),
			func(d time.Duration) bool { return d == 2*time.Second }, "2s for a malformed value",
			0, false},
		{"RFC 850 date not understood", hdr("Retry-After", now.Add(time.Minute).UTC().Format("Monday, 02-Jan-06 15:04:05 GMT")),
			func(d time.Duration) bool { return d == sentinel }, "the fallback backoff",
			time.Minute, true},
		{"asctime date not understood", hdr("Retry-After", now.Add(time.Minute).UTC().Format(time.ANSIC)),
			func(d time.Duration) bool { return d == sentinel }, "the fallback backoff",
			time.Minute, true},
		{"a date read against the local clock, not the response's Date", hdr(
			// The server's clock is an hour behind: it asks for 2 s from its Date.
			"Date", imf(now.Add(-time.Hour)),
			"Retry-After", imf(now.Add(-time.Hour+2*time.Second)),
		), func(d time.Duration) bool { return d == 0 }, "0, retrying at once",
			2 * time.Second, true},
		{"a zone other than GMT is accepted", hdr("Retry-After", now.Add(time.Hour).UTC().Format("Mon, 02 Jan 2006 15:04:05")+" XYZ"),
			func(d time.Duration) bool { return d > 0 && d != sentinel }, "a wait",
			0, false},
	}
	for _, tt := range tests {
		got := theirs(tt.h)
		if !tt.theirs(got) {
			t.Errorf("%s: go-retryablehttp gave %v, expected %s (fixed upstream?)", tt.name, got, tt.theirsSays)
		}
		d, ok := header.RetryAfter(tt.h, now)
		// Dates have whole seconds; allow for the truncation of now.
		if ok != tt.oursOK || d > tt.ours || d < tt.ours-time.Second {
			t.Errorf("%s: header.RetryAfter = %v, %v; want %v, %v", tt.name, d, ok, tt.ours, tt.oursOK)
		}
		t.Logf("%-60s go-retryablehttp: %-22v mcperr: %v %v", tt.name, got, d, ok)
	}
}

// DefaultBackoff returns a Retry-After as it is, never capped at max.
func TestRetryablehttpNoCap(t *testing.T) {
	resp := &http.Response{StatusCode: 429, Header: hdr("Retry-After", "3600")}
	if got := retryablehttp.DefaultBackoff(time.Second, 30*time.Second, 0, resp); got != time.Hour {
		t.Errorf("DefaultBackoff(max 30s) = %v, expected 1h (fixed upstream?)", got)
	}
}

// go-retryablehttp's Client retries a POST on a 500 by default; mcperr's
// GetTransport never re-sends a POST.
func TestRetryablehttpRetriesPOST(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusInternalServerError)
	}))
	defer srv.Close()

	c := retryablehttp.NewClient()
	c.Logger = nil
	c.RetryMax = 1
	c.RetryWaitMin, c.RetryWaitMax = time.Millisecond, time.Millisecond
	c.ErrorHandler = retryablehttp.PassthroughErrorHandler
	resp, err := c.Post(srv.URL, "application/json", []byte(`{"charge":100}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := n.Swap(0); got != 2 {
		t.Errorf("go-retryablehttp sent the POST %d times, expected 2 (fixed upstream?)", got)
	}

	client := &http.Client{Transport: &retry.GetTransport{}}
	resp, err = client.Post(srv.URL, "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := n.Load(); got != 1 {
		t.Errorf("retry.GetTransport sent the POST %d times, want 1", got)
	}
}

// The benchmarks compare the same Retry-After values read from the same
// header: mcperr's header.RetryAfter against go-retryablehttp's
// DefaultBackoff for a 429 (the path its Client takes).
var benchValues = []struct{ name, value string }{
	{"Seconds", "2"},
	{"IMFFixdate", "Mon, 30 Nov 2026 06:00:02 GMT"},
}

func BenchmarkRetryAfter(b *testing.B) {
	now := time.Date(2026, time.November, 30, 6, 0, 0, 0, time.UTC)
	for _, bv := range benchValues {
		h := hdr("Retry-After", bv.value)
		resp := &http.Response{StatusCode: http.StatusTooManyRequests, Header: h}
		b.Run(bv.name+"/mcperr", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				header.RetryAfter(h, now)
			}
		})
		b.Run(bv.name+"/retryablehttp", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				retryablehttp.DefaultBackoff(time.Second, 30*time.Second, 0, resp)
			}
		})
	}
}

// BenchmarkParseRetryAfter is mcperr's parser on the bare string, without
// the header lookups that BenchmarkRetryAfter includes on both sides.
func BenchmarkParseRetryAfter(b *testing.B) {
	now := time.Date(2026, time.November, 30, 6, 0, 0, 0, time.UTC)
	for _, bv := range benchValues {
		b.Run(bv.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				header.ParseRetryAfter(bv.value, now)
			}
		})
	}
}

package header_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/ratelimit/header"
)

// raNow is the clock of these tests: Sun, 06 Nov 1994 08:49:37 GMT, the
// instant of RFC 9110's examples.
var raNow = time.Date(1994, time.November, 6, 8, 49, 37, 0, time.UTC)

type raResult struct {
	D  time.Duration
	OK bool
}

func TestParseRetryAfter(t *testing.T) {
	tests := []struct {
		in   string
		now  time.Time
		want raResult
	}{
		// delay-seconds
		{"0", raNow, raResult{0, true}},
		{"1", raNow, raResult{time.Second, true}},
		{"120", raNow, raResult{120 * time.Second, true}},
		{"007", raNow, raResult{7 * time.Second, true}},
		{" 2 ", raNow, raResult{2 * time.Second, true}},
		{"\t2\t", raNow, raResult{2 * time.Second, true}},
		{"2147483647", raNow, raResult{2147483647 * time.Second, true}},
		{"2147483648", raNow, raResult{header.MaxRetryAfter, true}},
		{"2147483649", raNow, raResult{header.MaxRetryAfter, true}},
		{"9223372036854775807", raNow, raResult{header.MaxRetryAfter, true}},
		{"99999999999999999999999999999999999999", raNow, raResult{header.MaxRetryAfter, true}},
		// malformed delay-seconds
		{"", raNow, raResult{}},
		{" ", raNow, raResult{}},
		{"-1", raNow, raResult{}},
		{"+2", raNow, raResult{}},
		{"2.5", raNow, raResult{}},
		{"1e3", raNow, raResult{}},
		{"1 0", raNow, raResult{}},
		{"0x10", raNow, raResult{}},
		{"10s", raNow, raResult{}},
		{"１", raNow, raResult{}}, // a full-width digit
		{"2\n", raNow, raResult{}},
		{"2,3", raNow, raResult{}},
		// HTTP-dates, all three forms, one minute after raNow
		{"Sun, 06 Nov 1994 08:50:37 GMT", raNow, raResult{time.Minute, true}},
		{"Sunday, 06-Nov-94 08:50:37 GMT", raNow, raResult{time.Minute, true}},
		{"Sun Nov  6 08:50:37 1994", raNow, raResult{time.Minute, true}},
		{"Sun Nov 16 08:49:37 1994", raNow, raResult{10 * 24 * time.Hour, true}},
		{" Sun, 06 Nov 1994 08:49:39 GMT ", raNow, raResult{2 * time.Second, true}},
		// the day name must be valid but need not match the date
		{"Mon, 06 Nov 1994 08:49:38 GMT", raNow, raResult{time.Second, true}},
		// a date now or in the past is 0
		{"Sun, 06 Nov 1994 08:49:37 GMT", raNow, raResult{0, true}},
		{"Thu, 01 Jan 1970 00:00:00 GMT", raNow, raResult{0, true}},
		{"Sat, 05 Nov 1994 08:49:37 GMT", raNow, raResult{0, true}},
		// sub-second now: measured exactly
		{"Sun, 06 Nov 1994 08:49:38 GMT", raNow.Add(250 * time.Millisecond), raResult{750 * time.Millisecond, true}},
		// far future saturates
		{"Fri, 31 Dec 9999 23:59:59 GMT", raNow, raResult{header.MaxRetryAfter, true}},
		// RFC 850 two-digit years: more than 50 years ahead means the past century
		{"Monday, 01-Jan-40 00:00:00 GMT", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), raResult{14*365*24*time.Hour + 3*24*time.Hour, true}},
		{"Monday, 01-Jan-99 00:00:00 GMT", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), raResult{0, true}},
		// leap years and leap seconds
		{"Sat, 29 Feb 2028 00:00:00 GMT", time.Date(2028, 2, 28, 0, 0, 0, 0, time.UTC), raResult{24 * time.Hour, true}},
		{"Sun, 06 Nov 1994 08:49:60 GMT", raNow, raResult{23 * time.Second, true}},
		// malformed dates
		{"Sun, 06 Nov 1994 08:49:37 UTC", raNow, raResult{}},
		{"Sun, 06 Nov 1994 08:49:37 PST", raNow, raResult{}},
		{"Sun, 6 Nov 1994 08:49:37 GMT", raNow, raResult{}},
		{"sun, 06 Nov 1994 08:49:37 GMT", raNow, raResult{}},
		{"Sun, 06 nov 1994 08:49:37 GMT", raNow, raResult{}},
		{"Sun, 06 Nov 1994 24:00:00 GMT", raNow, raResult{}},
		{"Sun, 06 Nov 1994 08:60:00 GMT", raNow, raResult{}},
		{"Sun, 06 Nov 1994 08:49:61 GMT", raNow, raResult{}},
		{"Sun, 31 Nov 1994 08:49:37 GMT", raNow, raResult{}},
		{"Sun, 00 Nov 1994 08:49:37 GMT", raNow, raResult{}},
		{"Thu, 29 Feb 2029 00:00:00 GMT", raNow, raResult{}},
		{"Sun, 06 Nov 1994 08:49:37 GMT+1", raNow, raResult{}},
		{"Sun, 06 Nov 1994 08-49-37 GMT", raNow, raResult{}},
		{"Sun, 06 Nov -994 08:49:37 GMT", raNow, raResult{}},
		{"Sun 06 Nov 1994 08:49:37 GMT", raNow, raResult{}},
		{"Sunday, 06-Nov-1994 08:49:37 GMT", raNow, raResult{}},
		{"Sundae, 06-Nov-94 08:49:37 GMT", raNow, raResult{}},
		{"Sunday 06-Nov-94 08:49:37 GMT", raNow, raResult{}},
		{"Sun Nov 06 08:49:37 1994 ", raNow, raResult{time.Duration(0), true}}, // "06" is a valid 2DIGIT day
		{"Sun Nov 6 08:49:37 1994", raNow, raResult{}},
		{"Sun Nov  6 08:49:37 94", raNow, raResult{}},
		{"2026-11-30T06:00:00Z", raNow, raResult{}},
		{"Sun, 06 Nov 1994 08:49:37 GMT, 5", raNow, raResult{}},
	}
	for _, tt := range tests {
		d, ok := header.ParseRetryAfter(tt.in, tt.now)
		if diff := cmp.Diff(tt.want, raResult{d, ok}); diff != "" {
			t.Errorf("ParseRetryAfter(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestRetryAfterAgainstDate(t *testing.T) {
	tests := []struct {
		name string
		h    http.Header
		want raResult
	}{
		{"no field", http.Header{}, raResult{}},
		{"nil header", nil, raResult{}},
		{"seconds ignore Date", http.Header{"Retry-After": {"2"}, "Date": {"Sun, 06 Nov 1994 08:00:00 GMT"}}, raResult{2 * time.Second, true}},
		// The server's clock is an hour behind ours: its Date says 07:49:37.
		// Measured against our clock the date would be in the past.
		{"date against Date", http.Header{
			"Retry-After": {"Sun, 06 Nov 1994 07:49:39 GMT"},
			"Date":        {"Sun, 06 Nov 1994 07:49:37 GMT"},
		}, raResult{2 * time.Second, true}},
		{"Date in another form", http.Header{
			"Retry-After": {"Sun, 06 Nov 1994 07:49:39 GMT"},
			"Date":        {"Sun Nov  6 07:49:37 1994"},
		}, raResult{2 * time.Second, true}},
		{"malformed Date falls back to now", http.Header{
			"Retry-After": {"Sun, 06 Nov 1994 08:49:40 GMT"},
			"Date":        {"yesterday"},
		}, raResult{3 * time.Second, true}},
		{"malformed Retry-After", http.Header{"Retry-After": {"soon"}}, raResult{}},
		{"first line counts", http.Header{"Retry-After": {"1", "5"}}, raResult{time.Second, true}},
	}
	for _, tt := range tests {
		d, ok := header.RetryAfter(tt.h, raNow)
		if diff := cmp.Diff(tt.want, raResult{d, ok}); diff != "" {
			t.Errorf("%s: RetryAfter (-want +got):\n%s", tt.name, diff)
		}
	}
}

func TestParseRetryAfterAllocs(t *testing.T) {
	for _, in := range []string{"120", "Sun, 06 Nov 1994 08:50:37 GMT", "Sunday, 06-Nov-94 08:50:37 GMT", "Sun Nov  6 08:50:37 1994", "junk"} {
		if n := testing.AllocsPerRun(100, func() { header.ParseRetryAfter(in, raNow) }); n != 0 {
			t.Errorf("ParseRetryAfter(%q): %v allocations, want 0", in, n)
		}
	}
	h := http.Header{"Retry-After": {"Sun, 06 Nov 1994 08:50:37 GMT"}, "Date": {"Sun, 06 Nov 1994 08:49:37 GMT"}}
	if n := testing.AllocsPerRun(100, func() { header.RetryAfter(h, raNow) }); n != 0 {
		t.Errorf("RetryAfter: %v allocations, want 0", n)
	}
}

func BenchmarkParseRetryAfter(b *testing.B) {
	for _, bc := range []struct{ name, in string }{
		{"Seconds", "2"},
		{"IMFFixdate", "Sun, 06 Nov 1994 08:49:39 GMT"},
		{"RFC850", "Sunday, 06-Nov-94 08:49:39 GMT"},
		{"Asctime", "Sun Nov  6 08:49:39 1994"},
		{"Malformed", "soon"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				header.ParseRetryAfter(bc.in, raNow)
			}
		})
	}
}

func BenchmarkRetryAfter(b *testing.B) {
	h := http.Header{"Retry-After": {"Sun, 06 Nov 1994 08:49:39 GMT"}, "Date": {"Sun, 06 Nov 1994 08:49:37 GMT"}}
	b.ReportAllocs()
	for b.Loop() {
		header.RetryAfter(h, raNow)
	}
}

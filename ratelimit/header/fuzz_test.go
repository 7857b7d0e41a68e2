package header

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

var fuzzNow = time.Date(2026, time.November, 30, 6, 0, 0, 123456789, time.UTC)

func checkDelay(t *testing.T, what string, d time.Duration) {
	t.Helper()
	if d < 0 || d > MaxRetryAfter {
		t.Fatalf("%s: delay %v out of [0, MaxRetryAfter]", what, d)
	}
}

func FuzzParseRetryAfter(f *testing.F) {
	for _, s := range []string{
		"0", "2", " 120 ", "-1", "+2", "2.5", "1e3", "", "99999999999999999999",
		"Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
		"Fri, 31 Dec 9999 23:59:59 GMT", "Mon, 30 Nov 2026 06:00:02 GMT", "Sat, 29 Feb 2028 00:00:60 GMT",
	} {
		f.Add(s, int64(0))
	}
	f.Fuzz(func(t *testing.T, s string, offset int64) {
		now := fuzzNow.Add(time.Duration(offset))
		d, ok := ParseRetryAfter(s, now)
		checkDelay(t, "ParseRetryAfter", d)
		if !ok && d != 0 {
			t.Fatalf("ParseRetryAfter(%q) = %v, false", s, d)
		}
		// Digits only, after trimming: the delay is exactly the number, capped.
		v := strings.Trim(s, " \t")
		if v != "" && strings.Trim(v, "0123456789") == "" {
			if !ok {
				t.Fatalf("ParseRetryAfter(%q) rejected digits", s)
			}
			if len(v) < 10 && d != time.Duration(atoiForTest(v))*time.Second {
				t.Fatalf("ParseRetryAfter(%q) = %v", s, d)
			}
		}
		// A date parseHTTPDateTime accepts is the delay ParseRetryAfter reports.
		if tm, dok := parseHTTPDateTime(s, now); dok {
			if !ok {
				t.Fatalf("parseHTTPDateTime(%q) ok, ParseRetryAfter not", s)
			}
			if want := delayUntil(tm, now); d != want {
				t.Fatalf("ParseRetryAfter(%q) = %v, want %v", s, d, want)
			}
			if tm.Location() != time.UTC || tm.Nanosecond() != 0 {
				t.Fatalf("parseHTTPDateTime(%q) = %v", s, tm)
			}
			// net/http agrees on IMF-fixdate, the form it writes.
			if len(v) == 29 && v[3] == ',' && tm.Second() != 0 {
				if std, err := http.ParseTime(v); err == nil && !std.Equal(tm) {
					t.Fatalf("parseHTTPDateTime(%q) = %v, net/http %v", s, tm, std)
				}
			}
		}
		h := http.Header{"Retry-After": {s}, "Date": {s}}
		d2, _ := RetryAfter(h, now)
		checkDelay(t, "RetryAfter", d2)
	})
}

// delayUntil is the delay from now until t, clamped to [0, MaxRetryAfter],
// worked out on time.Time: what ParseRetryAfter must report for a date.
func delayUntil(t, now time.Time) time.Duration {
	if !t.After(now) {
		return 0
	}
	return min(t.Sub(now), MaxRetryAfter) // Sub saturates rather than wrapping
}

func atoiForTest(s string) int64 {
	var n int64
	for _, c := range s {
		n = n*10 + int64(c-'0')
	}
	return n
}

func FuzzParseReset(f *testing.F) {
	for _, s := range []string{"0", "30", "1.5", "1796018430", "1796018430500", "1796018401.25", "9999999999999999999999", ".", "1.", "-1"} {
		f.Add(s, uint8(0))
	}
	f.Fuzz(func(t *testing.T, s string, form uint8) {
		d, ok := parseReset(s, resetForm(form%5), fuzzNow)
		checkDelay(t, "ParseReset", d)
		if !ok && d != 0 {
			t.Fatalf("ParseReset(%q) = %v, false", s, d)
		}
	})
}

func FuzzParse(f *testing.F) {
	f.Add("1", "20", "0", "1", `"burst";q=100;w=60`, `"burst";r=0;t=1`, "100", "Mon, 30 Nov 2026 06:00:00 GMT")
	f.Add("Sun, 06 Nov 1994 08:49:37 GMT", "-1", "x", "1796018430500", `"a";q=1;pk=:aGk:`, `a;r=1, (1 2)`, "10, 10;w=1", "")
	f.Fuzz(func(t *testing.T, ra, limit, remaining, reset, policy, current, draft, date string) {
		h := http.Header{
			"Retry-After":           {ra},
			"X-Ratelimit-Limit":     {limit},
			"X-Ratelimit-Remaining": {remaining},
			"X-Ratelimit-Reset":     {reset},
			"Ratelimit-Policy":      {policy, current},
			"Ratelimit":             {current, policy},
			"Ratelimit-Limit":       {draft},
			"Ratelimit-Remaining":   {draft},
			"Ratelimit-Reset":       {draft},
			"Date":                  {date},
			"Retry-After-Ms":        {reset},
			"X-Ms-Retry-After-Ms":   {remaining},
			"X-Rate-Limit-Reset":    {ra},
		}
		info := Parse(h, fuzzNow)
		checkDelay(t, "RetryAfter", info.RetryAfter)
		checkDelay(t, "Limits.Reset", info.Limits.Reset)
		if info.Limits.Limit < 0 || info.Limits.Remaining < 0 {
			t.Fatalf("negative figures: %+v", info.Limits)
		}
		for _, p := range info.Policies {
			checkDelay(t, "Window", p.Window)
			if p.Quota < 0 {
				t.Fatalf("negative quota: %+v", p)
			}
		}
		for _, c := range info.Current {
			checkDelay(t, "Reset", c.Reset)
			if c.Remaining < 0 {
				t.Fatalf("negative remaining: %+v", c)
			}
		}
		if d, ok := info.Wait(); d < 0 || (!ok && d != 0) {
			t.Fatalf("Wait = %v, %v", d, ok)
		}
	})
}

func FuzzSFParseList(f *testing.F) {
	for _, s := range []string{
		`"burst";q=100;w=60, "daily";q=1000;w=86400`, `a;r=1;t=2, (1 "x" y);z=:aGk=:`, `%"f%c3%bc", @-5, ?1, 1.125`,
		`"\"`, "(", "1,", ";", `"p";q=`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := 0
		ok := sfParseList(s, func(v sfValue, params string) {
			n++
			if v.kind == sfInvalid {
				t.Fatalf("invalid member in %q", s)
			}
			_ = v.text()
			sfEachParam(params, func(key string, pv sfValue) {
				if key == "" || pv.kind == sfInvalid {
					t.Fatalf("bad parameter %q in %q", key, s)
				}
			})
		})
		if ok != sfParseList(s, nil) {
			t.Fatalf("validation of %q differs with and without a visitor", s)
		}
		if ok {
			// A valid list stays valid, with the same members, when
			// joined to itself as a second field line would be.
			m := 0
			if s != "" && strings.Trim(s, " ") != "" {
				if !sfParseList(s+", "+s, func(sfValue, string) { m++ }) || m != 2*n {
					t.Fatalf("%q joined to itself: %d members, want %d", s, m, 2*n)
				}
			}
		}
	})
}

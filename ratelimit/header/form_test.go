package header

import (
	"net/http"
	"testing"
	"time"
)

// Each form of X-RateLimit-Reset reads its value as that form says, and a
// reset in the past, more than a year away or too large to count is absent.
func TestResetForms(t *testing.T) {
	now := time.Unix(1796018400, 0)
	tests := []struct {
		form  resetForm
		value string
		want  time.Duration
		ok    bool
	}{
		{resetAuto, "30", 30 * time.Second, true},
		{resetAuto, "31536000", maxReset, true},
		{resetAuto, "31536001", 0, false}, // more than a year away
		{resetAuto, "999999999", 0, false},
		{resetAuto, "1796018430", 30 * time.Second, true},
		{resetDelay, "1796018430", 0, false},
		{resetUnix, "1796018430", 30 * time.Second, true},
		{resetUnix, "1796018400", 0, true}, // now
		{resetUnix, "30", 0, false},        // 1970: in the past
		{resetUnixMilli, "1796018400250", 250 * time.Millisecond, true},
		{resetUnixMilli, "1796018430", 0, false},
		{resetUnix, "99999999999999", 0, false},
		{resetUnixMilli, "9999999999999999999", 0, false},
	}
	for _, tt := range tests {
		got, ok := parseReset(tt.value, tt.form, now)
		if ok != tt.ok || got != tt.want {
			t.Errorf("form %d: %q = %v, %v; want %v, %v", tt.form, tt.value, got, ok, tt.want, tt.ok)
		}
	}
	for _, v := range []string{"9223372036854775807", "9223372036854775808", "1000000000", "1000000000000", "99999999999999999999999"} {
		for _, form := range []resetForm{resetAuto, resetDelay, resetUnix, resetUnixMilli} {
			if d, ok := parseReset(v, form, now); ok {
				t.Errorf("parseReset(%q, %d) = %v, true; want absent", v, form, d)
			}
		}
	}
}

// An HTTP-date is read in each of the three forms of RFC 9110, as the
// standard library reads it.
func TestHTTPDateForms(t *testing.T) {
	want := time.Date(1994, 11, 6, 8, 49, 37, 0, time.UTC)
	for _, in := range []string{
		"Sun, 06 Nov 1994 08:49:37 GMT",
		"Sunday, 06-Nov-94 08:49:37 GMT",
		"Sun Nov  6 08:49:37 1994",
	} {
		got, ok := parseHTTPDateTime(in, time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC))
		if !ok || !got.Equal(want) {
			t.Errorf("parseHTTPDateTime(%q) = %v, %v; want %v", in, got, ok, want)
		}
		// The standard library agrees on every form.
		std, err := http.ParseTime(in)
		if err != nil || !std.Equal(got) {
			t.Errorf("http.ParseTime(%q) = %v, %v; ours %v", in, std, err, got)
		}
	}
}

// TestHTTPDateCalendar checks every form against the time package
// over four centuries of dates, one every 7 days, 3 hours and 17 seconds.
func TestHTTPDateCalendar(t *testing.T) {
	start := time.Date(1800, 1, 1, 0, 0, 0, 0, time.UTC)
	end := time.Date(2200, 12, 31, 23, 59, 59, 0, time.UTC)
	for tm := start; tm.Before(end); tm = tm.Add(7*24*time.Hour + 3*time.Hour + 17*time.Second) {
		for _, layout := range []string{http.TimeFormat, time.ANSIC} {
			in := tm.Format(layout)
			if got, ok := parseHTTPDateTime(in, tm); !ok || !got.Equal(tm) {
				t.Fatalf("parseHTTPDateTime(%q) = %v, %v; want %v", in, got, ok, tm)
			}
		}
		// RFC 850 with its two-digit year, read from a now in the same year.
		in := tm.Format("Monday, 02-Jan-06 15:04:05 GMT")
		if got, ok := parseHTTPDateTime(in, tm); !ok || !got.Equal(tm) {
			t.Fatalf("parseHTTPDateTime(%q) = %v, %v; want %v", in, got, ok, tm)
		}
	}
}

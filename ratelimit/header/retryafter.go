package header

import (
	"net/http"
	"time"
)

// MaxRetryAfter is the largest delay ParseRetryAfter and RetryAfter report.
// A longer delay, in seconds or as a date, saturates to it instead of
// wrapping. It is 2^31 seconds (about 68 years), the value RFC 9111
// section 1.2.2 gives for a delta-seconds too large to represent, so a
// caller can add it to a time.Time or multiply it by a small factor
// without overflowing time.Duration. It is also the longest wait a
// ratelimit.Limiter and a ratelimit.Store report, standing for never.
const MaxRetryAfter = 1 << 31 * time.Second

// DefaultRetryAfter is the delay to report for a 429 that carries no
// usable Retry-After: 60 seconds, a cap long enough for a per-minute
// limit to have reset, so an agent told to wait this long does not come
// back too early.
//
// The parsers in this package never apply it: a missing or malformed
// Retry-After is reported as absent (ok == false), so the caller can tell
// the difference. The code that turns a 429 into an error value for an
// agent applies it (package envelope does); package retry does not, because a 429 without Retry-After is
// never retried.
const DefaultRetryAfter = 60 * time.Second

// ParseRetryAfter parses the value of a Retry-After field (RFC 9110
// section 10.2.3) and reports the delay it asks for, measured from now.
//
// The value is either delay-seconds, one or more ASCII digits and nothing
// else ("-1", "+2", "2.5", "1e3" and "1 0" are malformed), or an HTTP-date
// in any of the three forms RFC 9110 section 5.6.7 requires a recipient to
// accept: IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT"), the obsolete RFC
// 850 form ("Sunday, 06-Nov-94 08:49:37 GMT") and ANSI C's asctime form
// ("Sun Nov  6 08:49:37 1994"). Leading and trailing optional whitespace
// (spaces and tabs), which the field syntax allows around a value, is
// trimmed; whitespace inside a number is not accepted. A two-digit RFC 850
// year that would lie more than 50 years after now is taken as the most
// recent past year with those digits, as RFC 9110 requires. The day name
// must be a valid one but need not match the date.
//
// A date at or before now gives 0. A delay longer than MaxRetryAfter
// gives MaxRetryAfter. A malformed value, including an empty one, gives
// (0, false): it counts as absent. The delay is never negative.
//
// ParseRetryAfter does not allocate.
func ParseRetryAfter(value string, now time.Time) (time.Duration, bool) {
	v := trimOWS(value)
	if v == "" {
		return 0, false
	}
	if isASCIIDigit(v[0]) {
		if d, ok := parseDelaySeconds(v); ok {
			return d, true
		}
		// An asctime or IMF-fixdate never starts with a digit.
		return 0, false
	}
	sec, ok := parseHTTPDate(v, now)
	if !ok {
		return 0, false
	}
	return delayUntilUnix(sec, now), true
}

// RetryAfter reports the delay asked for by the Retry-After field of a
// response's header h. When the field is an HTTP-date and h has a valid
// Date field, the delay is measured from that Date, so a skew between the
// server's clock and now does not matter; otherwise it is measured from
// now. The first Retry-After line counts; see ParseRetryAfter for the
// syntax. RetryAfter does not allocate.
func RetryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	v := trimOWS(firstValue(h, "Retry-After"))
	if v == "" {
		return 0, false
	}
	if isASCIIDigit(v[0]) {
		return parseDelaySeconds(v) // delay-seconds: the Date does not matter
	}
	return ParseRetryAfter(v, responseNow(h, now)) // a date: measured from Date
}

// parseHTTPDateTime parses an HTTP-date in any of the three forms of RFC 9110
// section 5.6.7, after trimming optional whitespace. The now argument
// resolves the century of an RFC 850 two-digit year. It does not allocate.
func parseHTTPDateTime(value string, now time.Time) (time.Time, bool) {
	sec, ok := parseHTTPDate(trimOWS(value), now)
	if !ok {
		return time.Time{}, false
	}
	return time.Unix(sec, 0).UTC(), true
}

// responseNow is the time the response in h was generated: its Date
// field when valid, now otherwise.
func responseNow(h http.Header, now time.Time) time.Time {
	if d := h["Date"]; len(d) > 0 {
		if sec, ok := parseHTTPDate(trimOWS(d[0]), now); ok {
			return time.Unix(sec, 0)
		}
	}
	return now
}

// delayUntilUnix reports the Unix time sec - now clamped to
// [0, MaxRetryAfter], without overflowing for any now.
func delayUntilUnix(sec int64, now time.Time) time.Duration {
	const maxSec = int64(MaxRetryAfter / time.Second)
	n := now.Unix()
	if n >= sec {
		return 0
	}
	if n < sec-maxSec { // sec is a date of years 0 to 9999: no overflow
		return MaxRetryAfter
	}
	return min(time.Duration(sec-n)*time.Second-time.Duration(now.Nanosecond()), MaxRetryAfter)
}

// parseDelaySeconds parses 1*DIGIT, which the caller has checked is not
// empty, into a Duration saturating at MaxRetryAfter. It keeps its own
// loop rather than parseDigits: a number that stops growing at the cap
// needs no overflow check per digit, and this is the hot path of a
// Retry-After in seconds.
func parseDelaySeconds(s string) (time.Duration, bool) {
	const maxSec = int64(MaxRetryAfter / time.Second)
	var n int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isASCIIDigit(c) {
			return 0, false
		}
		if n <= maxSec { // stop growing once past the cap; keep validating
			n = n*10 + int64(c-'0')
		}
	}
	if n > maxSec {
		n = maxSec
	}
	return time.Duration(n) * time.Second, true
}

// retryAfterFields reads the fields that ask for a delay (see
// Info.RetryAfter) and reports the longest; ok is false when none is
// usable. A date is measured from base, the response's own time.
func retryAfterFields(h http.Header, base time.Time) (d time.Duration, ok bool) {
	if v := firstValue(h, "Retry-After"); v != "" {
		d, ok = ParseRetryAfter(v, base)
		if !ok {
			d, ok = decimalDelay(v, time.Second)
		}
	}
	for _, k := range [...]string{"Retry-After-Ms", "X-Ms-Retry-After-Ms"} {
		if v := firstValue(h, k); v != "" {
			if ms, mok := decimalDelay(v, time.Millisecond); mok {
				d, ok = max(d, ms), true
			}
		}
	}
	return d, ok
}

// decimalDelay parses 1*DIGIT [ "." 1*DIGIT ] counted in unit, after
// trimming optional whitespace, saturating at MaxRetryAfter.
func decimalDelay(value string, unit time.Duration) (time.Duration, bool) {
	whole, frac, ok := parseFixed(trimOWS(value))
	if !ok {
		return 0, false
	}
	if whole >= int64(MaxRetryAfter/unit) {
		return MaxRetryAfter, true
	}
	// frac is nanoseconds of one unit: scale it to the unit, rounding up
	// so a delay is never shorter than asked.
	f := (int64(frac)*int64(unit) + int64(time.Second) - 1) / int64(time.Second)
	return min(time.Duration(whole)*unit+time.Duration(f), MaxRetryAfter), true
}

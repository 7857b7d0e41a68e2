package header

import (
	"math"
	"time"
)

// The lexers every parser of the package uses (Retry-After and HTTP-dates,
// the rate-limit fields, structured fields): optional whitespace, digits,
// counts and fixed-point numbers.

// trimOWS returns s without the optional whitespace (OWS: spaces and
// tabs) around it.
func trimOWS(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		s = s[:len(s)-1]
	}
	return s
}

// isASCIIDigit reports whether c is DIGIT.
func isASCIIDigit(c byte) bool { return '0' <= c && c <= '9' }

// parseDigits reads the ASCII digits at the start of s, saturating at
// math.MaxInt64, and reports their value and how many there are.
func parseDigits(s string) (n int64, i int) {
	for ; i < len(s) && isASCIIDigit(s[i]); i++ {
		d := int64(s[i] - '0')
		if n > (math.MaxInt64-d)/10 {
			n = math.MaxInt64
		} else {
			n = n*10 + d
		}
	}
	return n, i
}

// parseFixed parses 1*DIGIT [ "." 1*DIGIT ], saturating the whole part at
// math.MaxInt64 and keeping nine fractional digits as nanoseconds of a
// unit.
func parseFixed(s string) (whole int64, frac time.Duration, ok bool) {
	whole, i := parseDigits(s)
	if i == 0 {
		return 0, 0, false
	}
	if i == len(s) {
		return whole, 0, true
	}
	if s[i] != '.' || i+1 == len(s) {
		return 0, 0, false
	}
	scale := time.Duration(1e8)
	for i++; i < len(s); i++ {
		if !isASCIIDigit(s[i]) {
			return 0, 0, false
		}
		frac += time.Duration(s[i]-'0') * scale
		scale /= 10
	}
	return whole, frac, true
}

// parseCount parses a count of ASCII digits, after trimming optional
// whitespace, saturating at math.MaxInt64.
func parseCount(s string) (int64, bool) {
	s = trimOWS(s)
	n, i := parseDigits(s)
	if i == 0 || i != len(s) {
		return 0, false
	}
	return n, true
}

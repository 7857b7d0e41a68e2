package header

import (
	"encoding/base64"
	"math"
	"net/http"
	"time"
)

// Limits holds the figures a response gives about its rate limit: how
// many requests the window allows, how many remain, and how long until
// the window resets. A figure the response did not carry has its Has
// flag false. The zero value carries nothing.
type Limits struct {
	Limit     int64         // requests the window allows
	Remaining int64         // requests left in the window
	Reset     time.Duration // until the window resets; never negative

	HasLimit, HasRemaining, HasReset bool
}

// isZero reports whether l carries no figure at all.
func (l Limits) isZero() bool { return !l.HasLimit && !l.HasRemaining && !l.HasReset }

// QuotaPolicy is one item of a RateLimit-Policy field
// (draft-ietf-httpapi-ratelimit-headers-11, section 3), such as
// "burst";q=100;w=60.
type QuotaPolicy struct {
	Name         string        // the item's value, a String (or a Token)
	Quota        int64         // q: the quota, required
	Unit         string        // qu: "request" (the default, reported as ""), "content-bytes", "concurrent-requests", ...
	Window       time.Duration // w: the window, in whole seconds; 0 when absent
	PartitionKey []byte        // pk: the partition key; nil when absent
}

// ServiceLimit is one item of a RateLimit field
// (draft-ietf-httpapi-ratelimit-headers-11, section 4), such as
// "burst";r=50;t=30: the current state of the quota policy it names.
type ServiceLimit struct {
	Policy       string        // the item's value: the name of a QuotaPolicy
	Remaining    int64         // r: quota units left, required
	Reset        time.Duration // t: until the quota resets, in whole seconds
	HasReset     bool          // whether t was present
	PartitionKey []byte        // pk: the partition key; nil when absent
}

// Info is everything a response's header says about rate limits.
type Info struct {
	// RetryAfter is the delay the response asks for, valid when
	// HasRetryAfter: the longest of Retry-After (as ParseRetryAfter reads
	// it, or in decimal seconds such as "2.0", which APIs send though RFC
	// 9110 does not allow it) and the Retry-After-Ms and
	// X-Ms-Retry-After-Ms fields, in milliseconds.
	RetryAfter    time.Duration
	HasRetryAfter bool

	// Limits holds the figures of the first of these that the response
	// carried, taken as a whole so that figures of different windows are
	// never mixed: the X-RateLimit-Limit, -Remaining and -Reset fields;
	// the RateLimit-Limit, -Remaining and -Reset fields of earlier
	// drafts; or the RateLimit field's service limit with the fewest
	// remaining units, with the Quota of the RateLimit-Policy item of the
	// same name as its Limit.
	Limits Limits

	// Policies and Current are the items of the RateLimit-Policy and
	// RateLimit fields, in order. A malformed field gives none; an item
	// without its required parameter, or with a parameter of the wrong
	// type or a negative number, is left out; unknown parameters are
	// ignored.
	Policies []QuotaPolicy
	Current  []ServiceLimit
}

// Wait reports how long the response asks its client to wait before the
// next request. Retry-After wins where it speaks; otherwise, when Limits
// show nothing remaining and a reset time, the wait is the reset.
func (i Info) Wait() (time.Duration, bool) {
	if i.HasRetryAfter {
		return i.RetryAfter, true
	}
	if i.Limits.HasRemaining && i.Limits.Remaining == 0 && i.Limits.HasReset {
		return i.Limits.Reset, true
	}
	return 0, false
}

// resetForm says how an X-RateLimit-Reset value is written.
type resetForm uint8

const (
	// resetAuto reads a value of 1e12 or more as Unix epoch milliseconds,
	// 1e9 or more as Unix epoch seconds, and anything smaller as seconds
	// until the reset: what every API that documents the field writes.
	resetAuto      resetForm = iota
	resetDelay               // seconds until the reset
	resetUnix                // Unix epoch seconds
	resetUnixMilli           // Unix epoch milliseconds
)

// Parse reports what the header h of a response received at now says
// about rate limits. Times the header gives as dates (Retry-After as an
// HTTP-date, X-RateLimit-Reset as an epoch) are measured against the
// response's Date field when it has a valid one, and against now
// otherwise. A malformed field is ignored. The figures of a field are
// plain ASCII digits, as for Retry-After, but X-RateLimit-Reset may carry
// a fraction ("1.5", "1470173023.123").
func Parse(h http.Header, now time.Time) Info {
	var info Info
	base := responseNow(h, now)
	info.RetryAfter, info.HasRetryAfter = retryAfterFields(h, base)
	info.Policies = parsePolicies(h["Ratelimit-Policy"])
	info.Current = parseServiceLimits(h["Ratelimit"])

	info.Limits = xRateLimit(h, base)
	if info.Limits.isZero() {
		info.Limits = draftLimits(h)
	}
	if info.Limits.isZero() {
		info.Limits = currentLimits(info.Current, info.Policies)
	}
	return info
}

// xRateLimit reads the X-RateLimit-Limit, -Remaining and -Reset fields,
// else the same three in the X-Rate-Limit-* spelling some APIs use.
func xRateLimit(h http.Header, base time.Time) Limits {
	l := limitFields(h, "X-Ratelimit-Limit", "X-Ratelimit-Remaining", "X-Ratelimit-Reset", base)
	if l.isZero() {
		l = limitFields(h, "X-Rate-Limit-Limit", "X-Rate-Limit-Remaining", "X-Rate-Limit-Reset", base)
	}
	return l
}

// limitFields reads one spelling of the three X-RateLimit fields, each
// named in canonical form.
func limitFields(h http.Header, limit, remaining, reset string, base time.Time) Limits {
	var l Limits
	if v := firstValue(h, limit); v != "" {
		l.Limit, l.HasLimit = parseCount(v)
	}
	if v := firstValue(h, remaining); v != "" {
		l.Remaining, l.HasRemaining = parseCount(v)
	}
	if v := firstValue(h, reset); v != "" {
		l.Reset, l.HasReset = ParseReset(v, base)
	}
	return l
}

// draftLimits reads the RateLimit-Limit, -Remaining and -Reset fields of
// drafts 00 to 06, each an Integer, or a List whose first member is the
// Integer that counts (draft 03's "10, 10;w=1").
func draftLimits(h http.Header) Limits {
	var l Limits
	l.Limit, l.HasLimit = firstInteger(h["Ratelimit-Limit"])
	l.Remaining, l.HasRemaining = firstInteger(h["Ratelimit-Remaining"])
	if secs, ok := firstInteger(h["Ratelimit-Reset"]); ok {
		l.Reset, l.HasReset = resetSeconds(secs)
	}
	return l
}

func currentLimits(current []ServiceLimit, policies []QuotaPolicy) Limits {
	var l Limits
	best := -1
	for i, c := range current {
		if best < 0 || c.Remaining < current[best].Remaining {
			best = i
		}
	}
	if best < 0 {
		return l
	}
	c := current[best]
	l.Remaining, l.HasRemaining = c.Remaining, true
	l.Reset, l.HasReset = c.Reset, c.HasReset
	for _, q := range policies {
		if q.Name == c.Policy {
			l.Limit, l.HasLimit = q.Quota, true
			break
		}
	}
	return l
}

// maxReset is the furthest reset a rate-limit header is believed about: a
// window that resets more than a year away says nothing a client can wait
// for, and is read as absent.
const maxReset = 365 * 24 * time.Hour

// maxResetSecs is maxReset in whole seconds.
const maxResetSecs = int64(maxReset / time.Second)

// ParseReset parses an X-RateLimit-Reset value and reports the time until
// the reset, measured from now for an epoch: a value of 1e12 or more is
// Unix epoch milliseconds, 1e9 or more Unix epoch seconds, and anything
// smaller seconds until the reset.
// The value is ASCII digits with an optional fraction, after trimming
// optional whitespace. A reset that is bounded in time is the only one
// reported: an epoch in the past, a reset more than maxReset away, and a
// value too large to count (9223372036854775807) are absent, as a
// malformed value is, never a date thousands of years ahead.
func ParseReset(value string, now time.Time) (time.Duration, bool) {
	return parseReset(value, resetAuto, now)
}

// parseReset is ParseReset of a value written in the given form.
func parseReset(value string, form resetForm, now time.Time) (time.Duration, bool) {
	v := trimOWS(value)
	whole, frac, ok := parseFixed(v)
	if !ok {
		return 0, false
	}
	if form == resetAuto {
		switch {
		case whole >= 1e12:
			form = resetUnixMilli
		case whole >= 1e9:
			form = resetUnix
		default:
			form = resetDelay
		}
	}
	switch form {
	case resetDelay:
		if whole > maxResetSecs || whole == maxResetSecs && frac > 0 {
			return 0, false
		}
		return time.Duration(whole)*time.Second + frac, true
	case resetUnix:
		return resetAt(whole, frac, now)
	case resetUnixMilli:
		return resetAt(whole/1000, time.Duration(whole%1000)*time.Millisecond+frac/1000, now)
	}
	return 0, false
}

// resetAt reports the time from now until the Unix time sec plus frac
// (less than a second), when that time is neither before now nor more
// than maxReset after it. It cannot overflow for any sec >= 0 and now.
func resetAt(sec int64, frac time.Duration, now time.Time) (time.Duration, bool) {
	n := now.Unix()
	if n < 0 && sec > math.MaxInt64+n {
		return 0, false // sec - n would overflow: far beyond maxReset
	}
	diff := sec - n
	if diff < -1 || diff > maxResetSecs+1 {
		return 0, false
	}
	d := time.Duration(diff)*time.Second + frac - time.Duration(now.Nanosecond())
	if d < 0 || d > maxReset {
		return 0, false
	}
	return d, true
}

// resetSeconds is a reset given in whole seconds from now (a RateLimit
// field's t, a draft RateLimit-Reset); more than maxReset is absent.
func resetSeconds(secs int64) (time.Duration, bool) {
	if secs < 0 || secs > maxResetSecs {
		return 0, false
	}
	return time.Duration(secs) * time.Second, true
}

// secondsDuration is a count of seconds as a Duration, saturating at
// MaxRetryAfter.
func secondsDuration(secs int64) time.Duration {
	if secs >= int64(MaxRetryAfter/time.Second) {
		return MaxRetryAfter
	}
	return time.Duration(secs) * time.Second
}

// firstInteger reads a field that is an Integer, or a List whose first
// member is one; the Integer must not be negative.
func firstInteger(lines []string) (int64, bool) {
	if len(lines) == 0 || !validLines(lines) {
		return 0, false
	}
	var n int64
	found, ok := false, false
	for _, line := range lines {
		sfParseList(line, func(v sfValue, _ string) {
			if !found {
				found = true
				n, ok = v.num, v.kind == sfInteger && v.num >= 0
			}
		})
	}
	return n, ok
}

// validLines reports whether every line of a field is a valid List.
func validLines(lines []string) bool {
	for _, line := range lines {
		if !sfParseList(line, nil) {
			return false
		}
	}
	return true
}

// eachNamedItem calls fn with the name and raw parameters of every item of
// a field whose value is a String or a Token (the RateLimit and
// RateLimit-Policy items), in order. A field with a malformed line has no
// items.
func eachNamedItem(lines []string, fn func(name, params string)) {
	if len(lines) == 0 || !validLines(lines) {
		return
	}
	for _, line := range lines {
		sfParseList(line, func(v sfValue, params string) {
			if v.kind == sfString || v.kind == sfToken {
				fn(v.text(), params)
			}
		})
	}
}

func parsePolicies(lines []string) []QuotaPolicy {
	var out []QuotaPolicy
	eachNamedItem(lines, func(name, params string) {
		q := QuotaPolicy{Name: name}
		hasQ, bad := false, false
		sfEachParam(params, func(key string, pv sfValue) {
			switch key {
			case "q":
				q.Quota, hasQ = pv.num, true
				bad = bad || pv.kind != sfInteger || pv.num < 0
			case "qu":
				q.Unit = pv.text()
				bad = bad || (pv.kind != sfString && pv.kind != sfToken)
			case "w":
				q.Window = secondsDuration(pv.num)
				bad = bad || pv.kind != sfInteger || pv.num < 0
			case "pk":
				q.PartitionKey = decodeBytes(pv)
				bad = bad || pv.kind != sfBytes || q.PartitionKey == nil
			}
		})
		if hasQ && !bad {
			out = append(out, q)
		}
	})
	return out
}

func parseServiceLimits(lines []string) []ServiceLimit {
	var out []ServiceLimit
	eachNamedItem(lines, func(name, params string) {
		c := ServiceLimit{Policy: name}
		hasR, bad := false, false
		sfEachParam(params, func(key string, pv sfValue) {
			switch key {
			case "r":
				c.Remaining, hasR = pv.num, true
				bad = bad || pv.kind != sfInteger || pv.num < 0
			case "t":
				// A reset more than maxReset away is absent; the
				// item stays.
				c.Reset, c.HasReset = resetSeconds(pv.num)
				bad = bad || pv.kind != sfInteger || pv.num < 0
			case "pk":
				c.PartitionKey = decodeBytes(pv)
				bad = bad || pv.kind != sfBytes || c.PartitionKey == nil
			}
		})
		if hasR && !bad {
			out = append(out, c)
		}
	})
	return out
}

// decodeBytes decodes a Byte Sequence; nil when it is not one or is not
// valid base64. As RFC 9651 section 4.2.7 asks, missing "=" padding and
// non-zero pad bits are accepted. An empty sequence decodes to an empty,
// non-nil slice.
func decodeBytes(v sfValue) []byte {
	if v.kind != sfBytes {
		return nil
	}
	s := v.str
	for len(s) > 0 && s[len(s)-1] == '=' {
		s = s[:len(s)-1]
	}
	b, err := base64.RawStdEncoding.DecodeString(s)
	if err != nil {
		return nil
	}
	if b == nil {
		b = []byte{}
	}
	return b
}

// firstValue is h.Get for a key already in canonical form: the same
// lookup, without canonicalizing the key again.
func firstValue(h http.Header, key string) string {
	if vs := h[key]; len(vs) > 0 {
		return vs[0]
	}
	return ""
}

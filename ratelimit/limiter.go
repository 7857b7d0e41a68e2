package ratelimit

import (
	"context"
	"net"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"
)

// A Limiter limits requests per key (a token, an API key, a source
// address) with one token bucket for each key, in the model of
// golang.org/x/time/rate: a key's bucket holds at most Burst tokens,
// refills at Rate tokens a second, and a request takes one token or is
// refused. A key seen for the first time starts with a full bucket.
//
// Memory stays bounded however many distinct keys pass: a bucket that has
// refilled to Burst is indistinguishable from a new one, so the store
// forgets it (see MemoryStore), which is why a Limiter needs no idle
// timeout. The state lives in Store; with none, the Limiter keeps its own
// MemoryStore.
//
// Configure a Limiter with its fields, or with NewLimiter, before its
// first use; do not change them afterwards. A Limiter with zero Rate and
// Burst refuses every request, as a zero rate.Limiter does. A Limiter must
// not be copied after first use. It is safe for concurrent use.
type Limiter struct {
	Rate  rate.Limit // tokens a key gains a second; rate.Inf allows everything
	Burst int        // tokens a key's bucket holds at most

	// Policy names the limit in the RateLimit and RateLimit-Policy
	// headers; empty means "default".
	Policy string

	// Store holds the buckets. Limiters with different Rate or Burst
	// must not share a key space in one store. Nil means an in-memory
	// store of the Limiter's own.
	Store Store

	// Now is the clock that Allow and the handler of Wrap read, so a
	// server can inject its own; nil means time.Now. AllowAt and Check
	// take the time as an argument and do not read it.
	Now func() time.Time

	mem MemoryStore
	win atomic.Pointer[cachedWindow]
}

// NewLimiter returns a Limiter that allows each key r requests a second
// with bursts of at most b, its buckets kept in memory.
func NewLimiter(r rate.Limit, b int) *Limiter {
	return &Limiter{Rate: r, Burst: b}
}

// Decision is a limiter's answer to one request: whether it may proceed,
// and the figures that go into the response's headers (see SetHeaders).
type Decision struct {
	OK bool // the request may proceed

	// RetryAfter is, for a refused request, how long until the same
	// request would be allowed; zero when OK.
	RetryAfter time.Duration

	Limit     int64         // requests the policy allows in a Window
	Remaining int64         // requests left now, after this one if OK
	Reset     time.Duration // until Remaining is back to Limit
	// Window is the policy's window: a Limiter's is the time an empty
	// bucket takes to refill (Burst/Rate).
	Window time.Duration

	// Policy names the limit in the RateLimit headers; empty means
	// "default".
	Policy string
}

// Allow reports whether a request for key may happen now. It is shorthand
// for AllowAt(key, l.Now()), with time.Now when Now is nil.
func (l *Limiter) Allow(key string) (d Decision) {
	if l.Store == nil {
		// The common case, filling the result in place: no copies of a
		// Decision between AllowAt, Check and the caller.
		var t time.Time
		if l.Now == nil {
			t = time.Now()
		} else {
			t = l.Now()
		}
		l.allowMem(key, t, &d)
		return d
	}
	return l.AllowAt(key, clock(l.Now)())
}

// AllowAt reports whether a request for key may happen at time t, and
// takes a token from key's bucket if so. A long key is kept as its
// digest (see ShortKey). When the store fails, the request
// is allowed and the decision carries no figures; use Check to see the
// error.
func (l *Limiter) AllowAt(key string, t time.Time) (d Decision) {
	if l.Store == nil {
		l.allowMem(key, t, &d)
		return d
	}
	d, err := l.Check(context.Background(), key, t)
	if err != nil {
		return Decision{OK: true}
	}
	return d
}

// allowMem is AllowAt on the Limiter's own memory store, filling in *d
// (which is zero).
func (l *Limiter) allowMem(key string, t time.Time, d *Decision) {
	b := Bucket{Rate: l.Rate, Burst: l.Burst}
	l.mem.take(ShortKey(key), t, b, d)
	d.Limit = int64(b.Burst)
	d.Window = l.window(b)
	d.Policy = l.Policy
}

// window is b.fill(), worked out once: Rate and Burst do not change after
// a Limiter's first use. It is kept with the configuration it was worked
// out for, so a Limiter configured anew before first use never sees a
// stale one.
func (l *Limiter) window(b Bucket) time.Duration {
	if w := l.win.Load(); w != nil && w.b == b {
		return w.d
	}
	w := &cachedWindow{b: b, d: b.fill()}
	l.win.Store(w)
	return w.d
}

// cachedWindow is a Limiter's window and the bucket it was worked out for.
type cachedWindow struct {
	b Bucket
	d time.Duration
}

// Check is AllowAt with a context for the store and its error. On error,
// the decision allows the request and carries no figures.
func (l *Limiter) Check(ctx context.Context, key string, t time.Time) (Decision, error) {
	key = ShortKey(key)
	b := Bucket{Rate: l.Rate, Burst: l.Burst}
	var (
		d   Decision
		err error
	)
	if l.Store == nil {
		d, err = l.mem.Take(ctx, key, t, b)
	} else {
		d, err = l.Store.Take(ctx, key, t, b)
	}
	if err != nil {
		return Decision{OK: true}, err
	}
	// A store's figures become waits the response reports: held within
	// [0, header.MaxRetryAfter] whatever a store says.
	d.RetryAfter = clampWait(d.RetryAfter)
	d.Reset = clampWait(d.Reset)
	d.Remaining = max(d.Remaining, 0)
	l.complete(&d, b)
	return d, nil
}

// clampWait returns d within [0, header.MaxRetryAfter].
func clampWait(d time.Duration) time.Duration {
	return min(max(d, 0), maxWait)
}

// complete fills in the figures of d that come from l's configuration.
func (l *Limiter) complete(d *Decision, b Bucket) {
	d.Limit = int64(b.Burst)
	d.Window = l.window(b)
	d.Policy = l.Policy
}

// Wrap returns a handler that takes a token from the bucket of key(r)
// for each request r, at the time l.Now reports, before it reaches next; a
// nil key keys requests on SourceIP. An empty key skips limiting (a server in no-auth mode has no
// token to key a bucket on), as does a failing store.
//
// Every limited response carries the decision's headers (see SetHeaders).
// An allowed request goes on to next; a refused one goes to refuse, which
// writes the answer in the caller's envelope: the status 429
// (http.StatusTooManyRequests) and a body. A nil refuse answers 429 with
// a plain-text body.
func (l *Limiter) Wrap(next http.Handler, key func(*http.Request) string, refuse func(http.ResponseWriter, *http.Request, Decision)) http.Handler {
	return newLimitHandler(next, key, refuse, l.Check, l.Now)
}

// clock returns now, or time.Now when now is nil.
func clock(now func() time.Time) func() time.Time {
	if now == nil {
		return time.Now
	}
	return now
}

func newLimitHandler(next http.Handler, key func(*http.Request) string, refuse func(http.ResponseWriter, *http.Request, Decision), check func(context.Context, string, time.Time) (Decision, error), now func() time.Time) *limitHandler {
	if key == nil {
		key = SourceIP
	}
	return &limitHandler{next: next, key: key, refuse: refuse, check: check, now: clock(now)}
}

// limitHandler is the handler Limiter.Wrap returns.
type limitHandler struct {
	next   http.Handler
	key    func(*http.Request) string
	refuse func(http.ResponseWriter, *http.Request, Decision)
	check  func(context.Context, string, time.Time) (Decision, error)
	now    func() time.Time
}

func (h *limitHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	k := h.key(r)
	if k == "" {
		h.next.ServeHTTP(w, r)
		return
	}
	d, err := h.check(r.Context(), k, h.now())
	if err != nil {
		h.next.ServeHTTP(w, r)
		return
	}
	d.SetHeaders(w.Header())
	if d.OK {
		h.next.ServeHTTP(w, r)
		return
	}
	if h.refuse != nil {
		h.refuse(w, r, d)
		return
	}
	http.Error(w, http.StatusText(http.StatusTooManyRequests), http.StatusTooManyRequests)
}

// SetHeaders sets the rate-limit fields of a response to d in h:
//
//   - for a refused request only, Retry-After: d.RetryAfter in whole
//     seconds, rounded up, at least 1;
//   - X-RateLimit-Limit, X-RateLimit-Remaining, and X-RateLimit-Reset in
//     seconds until the reset, rounded up (and below 1e9, so that no
//     reader takes it for an epoch time);
//   - RateLimit-Policy and RateLimit, the structured fields of
//     draft-ietf-httpapi-ratelimit-headers-11, such as
//     `"default";q=20;w=1` and `"default";r=0;t=1` (w, the window in
//     seconds, rounded up and at least 1, is left out when d.Window is
//     zero).
//
// Negative figures are written as 0, waits longer than header.MaxRetryAfter as
// header.MaxRetryAfter, and figures too large for a field as its largest value.
func (d Decision) SetHeaders(h http.Header) {
	var buf [64]byte
	limit, remaining := max(d.Limit, 0), max(d.Remaining, 0)
	if !d.OK {
		h.Set("Retry-After", strconv.FormatInt(wholeSecondsUp(clampWait(d.RetryAfter), 1), 10))
	}
	reset := wholeSecondsUp(clampWait(d.Reset), 0)
	h.Set("X-RateLimit-Limit", strconv.FormatInt(limit, 10))
	h.Set("X-RateLimit-Remaining", strconv.FormatInt(remaining, 10))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(min(reset, maxResetSeconds), 10))

	p := appendPolicyName(buf[:0], d.Policy)
	p = append(p, ";q="...)
	p = strconv.AppendInt(p, min(limit, maxSFInteger), 10)
	if d.Window > 0 {
		p = append(p, ";w="...)
		p = strconv.AppendInt(p, min(wholeSecondsUp(d.Window, 1), maxSFInteger), 10)
	}
	h.Set("RateLimit-Policy", string(p))

	c := appendPolicyName(buf[:0], d.Policy)
	c = append(c, ";r="...)
	c = strconv.AppendInt(c, min(remaining, maxSFInteger), 10)
	c = append(c, ";t="...)
	c = strconv.AppendInt(c, min(reset, maxSFInteger), 10)
	h.Set("RateLimit", string(c))
}

// maxSFInteger is the largest Integer of a structured field (RFC 9651).
const maxSFInteger = 999_999_999_999_999

// maxResetSeconds is the largest X-RateLimit-Reset SetHeaders writes:
// readers take 1e9 and above for an epoch time.
const maxResetSeconds = 1e9 - 1

// wholeSecondsUp returns d in whole seconds, rounded up, and at least least.
func wholeSecondsUp(d time.Duration, least int64) int64 {
	s := int64(d / time.Second)
	if d%time.Second > 0 {
		s++
	}
	if s < least {
		s = least
	}
	return s
}

// appendPolicyName appends name, or "default" when it is empty, as a
// structured-field String (RFC 9651): quoted, with " and \ escaped, and
// bytes outside printable ASCII left out.
func appendPolicyName(b []byte, name string) []byte {
	if name == "" {
		name = "default"
	}
	b = append(b, '"')
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c >= 0x20 && c < 0x7f:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// SourceIP returns the address r came from, without its port: the host
// of r.RemoteAddr, the key Wrap limits on by default. It trusts no
// forwarding header; behind a proxy that sets one, key on that header
// with a function of your own.
func SourceIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

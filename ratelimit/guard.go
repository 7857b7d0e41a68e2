package ratelimit

import (
	"context"
	"net"
	"net/http"
	"time"
)

// EdgeBody is the body an edge flood guard in front of an MCP server
// answers a blocked request with: a JSON-RPC error -32000 with a null id,
// telling the client to slow down and retry after a few seconds. Pass it
// to RefuseWith.
const EdgeBody = `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Rate limited at the edge. Slow down and retry after a few seconds."}}`

// A Guard is a windowed flood guard with a block period, like a CDN's
// rate-limit rule: it counts each key's requests in a Window that opens
// with the key's first request, and once a key goes over Limit in its
// window, every request of that key is refused until Block has passed.
// Refused requests are not counted. After the block, counting starts
// again in a new window; with a Block shorter than Window, a key still
// over Limit when its block ends is blocked anew on its next request.
//
// The zero Guard allows 100 requests per 10 seconds, then blocks the key
// for 10 seconds. A Guard must not be copied after first use, nor its
// fields changed. It is safe for concurrent use.
type Guard struct {
	Limit  int           // requests a key may make in a Window; zero means 100
	Window time.Duration // zero means 10 seconds
	Block  time.Duration // how long a key over Limit is refused; zero means Window

	// Policy names the limit in the RateLimit headers, and separates
	// this guard's counters from others' in a shared store; empty means
	// "default".
	Policy string

	// Store holds the counters. Nil means an in-memory store of the
	// Guard's own.
	Store Store

	// Now is the clock that Allow and the handler of Wrap read, so a
	// server can inject its own; nil means time.Now. AllowAt and Check
	// take the time as an argument and do not read it.
	Now func() time.Time

	mem MemoryStore
}

func (g *Guard) config() (limit int64, window, block time.Duration) {
	limit, window, block = int64(g.Limit), g.Window, g.Block
	if limit <= 0 {
		limit = 100
	}
	if window <= 0 {
		window = 10 * time.Second
	}
	if block <= 0 {
		block = window
	}
	return limit, window, block
}

func (g *Guard) store() Store {
	if g.Store != nil {
		return g.Store
	}
	return &g.mem
}

// Allow reports whether a request from key may pass now. It is shorthand
// for AllowAt(key, g.Now()), with time.Now when Now is nil.
func (g *Guard) Allow(key string) Decision {
	return g.AllowAt(key, clock(g.Now)())
}

// AllowAt reports whether a request from key may pass at time t, and
// counts it if so. A key longer than MaxKeyLen is kept as its digest (see
// ShortKey). When the store fails, the request passes and the
// decision carries no figures; use Check to see the error.
func (g *Guard) AllowAt(key string, t time.Time) Decision {
	d, err := g.Check(context.Background(), key, t)
	if err != nil {
		return Decision{OK: true}
	}
	return d
}

// Check is AllowAt with a context for the store and its error. On error,
// the decision lets the request pass and carries no figures.
//
// An allowed decision's Remaining and Reset describe the key's window; a
// refused decision's RetryAfter and Reset are the time left in the block.
func (g *Guard) Check(ctx context.Context, key string, t time.Time) (Decision, error) {
	limit, window, block := g.config()
	s := g.store()
	key = ShortKey(key)
	prefix := "guard\x00" + g.Policy + "\x00"
	blockKey, windowKey := prefix+"b\x00"+key, prefix+"w\x00"+key
	d := Decision{Limit: limit, Window: window, Policy: g.Policy}

	b, err := s.Add(ctx, blockKey, 0, t, t)
	if err != nil {
		return Decision{OK: true}, err
	}
	if b.Value > 0 {
		d.RetryAfter = nonNegative(b.Expires.Sub(t))
		d.Reset = d.RetryAfter
		return d, nil
	}

	w, err := s.Add(ctx, windowKey, 1, t, t.Add(window))
	if err != nil {
		return Decision{OK: true}, err
	}
	if w.Value <= limit {
		d.OK = true
		d.Remaining = limit - w.Value
		d.Reset = nonNegative(w.Expires.Sub(t))
		return d, nil
	}

	// Over the limit: block the key from now on.
	b, err = s.Add(ctx, blockKey, 1, t, t.Add(block))
	if err != nil {
		return Decision{OK: true}, err
	}
	d.RetryAfter = nonNegative(b.Expires.Sub(t))
	d.Reset = d.RetryAfter
	return d, nil
}

// Wrap returns a handler that counts each request r under key(r), at the
// time g.Now reports, before it reaches next; it works as Limiter.Wrap
// does. To answer a blocked request with a JSON-RPC error, pass
// RefuseWith("application/json", []byte(EdgeBody)) as refuse.
func (g *Guard) Wrap(next http.Handler, key func(*http.Request) string, refuse func(http.ResponseWriter, *http.Request, Decision)) http.Handler {
	return newLimitHandler(next, key, refuse, g.Check, g.Now)
}

// RefuseWith returns a refuse function for Limiter.Wrap and Guard.Wrap
// that answers HTTP 429 with body, as contentType. The rate-limit
// headers, Retry-After among them, are already set when it runs.
func RefuseWith(contentType string, body []byte) func(http.ResponseWriter, *http.Request, Decision) {
	return func(w http.ResponseWriter, _ *http.Request, _ Decision) {
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(http.StatusTooManyRequests)
		w.Write(body)
	}
}

// SourceIP returns the address r came from, without its port: the host
// of r.RemoteAddr. It trusts no forwarding header; behind a proxy that
// sets one, key on that header with a function of your own.
func SourceIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// SourceKey returns a key function that keys a request on its source
// address (see SourceIP) and, when colo is not empty and the request
// carries that header (a CDN's location header, say), on its value too:
// "<colo value> <address>".
func SourceKey(colo string) func(*http.Request) string {
	return func(r *http.Request) string {
		ip := SourceIP(r)
		if colo == "" {
			return ip
		}
		if v := r.Header.Get(colo); v != "" {
			return v + " " + ip
		}
		return ip
	}
}

// nonNegative returns d, or 0 when d is negative.
func nonNegative(d time.Duration) time.Duration {
	if d < 0 {
		return 0
	}
	return d
}

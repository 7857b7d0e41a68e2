package mcpserver

import (
	"context"
	"net/http"
	"time"

	"github.com/mcperr/mcperr/ratelimit"
	"github.com/mcperr/mcperr/ratelimit/header"
)

// EdgeRefusal is the body of the edge flood guard's 429, exactly as the
// Vulnetix error contract gives it: a JSON-RPC error -32000 with a null id,
// telling the client to slow down and retry after a few seconds.
const EdgeRefusal = `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Rate limited at the edge. Slow down and retry after a few seconds."}}`

// edgeGuard is a windowed flood guard with a block period, like a CDN's
// rate-limit rule: it counts each key's requests in a window that opens
// with the key's first request, and once a key goes over limit in its
// window, every request of that key is refused until block has passed.
// Refused requests are not counted. After the block, counting starts
// again in a new window; with a block shorter than the window, a key still
// over the limit when its block ends is blocked anew on its next request.
// It is built on the counters of a ratelimit.Store (Add), so replicas
// given one redisstore.Store share it.
//
// The zero edgeGuard allows 100 requests per 10 seconds, then blocks the
// key for 10 seconds. It is safe for concurrent use.
type edgeGuard struct {
	limit  int           // requests a key may make in a window; zero means 100
	window time.Duration // zero means 10 seconds
	block  time.Duration // how long a key over limit is refused; zero means window

	// policy names the limit in the RateLimit headers, and separates
	// this guard's counters from others' in a shared store; empty means
	// "default".
	policy string

	// store holds the counters; nil means mem.
	store ratelimit.Store
	mem   ratelimit.MemoryStore
}

func (g *edgeGuard) config() (limit int64, window, block time.Duration) {
	limit, window, block = int64(g.limit), g.window, g.block
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

func (g *edgeGuard) counters() ratelimit.Store {
	if g.store != nil {
		return g.store
	}
	return &g.mem
}

// check counts a request from key at time t, unless key is blocked, and
// reports whether it may pass. A long key is kept as its digest
// (ratelimit.ShortKey). When the store fails, the decision lets the
// request pass, carries no figures, and comes with the error.
//
// An allowed decision's Remaining and Reset describe the key's window; a
// refused decision's RetryAfter and Reset are the time left in the block,
// at most header.MaxRetryAfter whatever the store says.
func (g *edgeGuard) check(ctx context.Context, key string, t time.Time) (ratelimit.Decision, error) {
	limit, window, block := g.config()
	s := g.counters()
	key = ratelimit.ShortKey(key)
	// One group per source ({key}): its two counters stay on one server
	// of a Redis Cluster, and sources spread across the servers.
	prefix := "guard\x00" + g.policy + "\x00{" + key + "}\x00"
	blockKey, windowKey := prefix+"b", prefix+"w"
	d := ratelimit.Decision{Limit: limit, Window: window, Policy: g.policy}

	b, err := s.Add(ctx, blockKey, 0, t, t)
	if err != nil {
		return ratelimit.Decision{OK: true}, err
	}
	if b.Value > 0 {
		d.RetryAfter = until(b.Expires, t)
		d.Reset = d.RetryAfter
		return d, nil
	}

	w, err := s.Add(ctx, windowKey, 1, t, t.Add(window))
	if err != nil {
		return ratelimit.Decision{OK: true}, err
	}
	if w.Value <= limit {
		d.OK = true
		d.Remaining = limit - max(w.Value, 0)
		d.Reset = until(w.Expires, t)
		return d, nil
	}

	// Over the limit: block the key from now on.
	b, err = s.Add(ctx, blockKey, 1, t, t.Add(block))
	if err != nil {
		return ratelimit.Decision{OK: true}, err
	}
	d.RetryAfter = until(b.Expires, t)
	d.Reset = d.RetryAfter
	return d, nil
}

// until returns the time from t to a counter's expiry, within [0,
// header.MaxRetryAfter]: a store's reply becomes a wait.
func until(expires, t time.Time) time.Duration {
	if expires.IsZero() {
		return 0
	}
	return min(max(expires.Sub(t), 0), header.MaxRetryAfter)
}

// sourceKey returns a key function that keys a request on its source
// address (see ratelimit.SourceIP) and, when colo is not empty and the
// request carries that header (a CDN's location header, say), on its
// value too: "<colo value> <address>".
func sourceKey(colo string) func(*http.Request) string {
	return func(r *http.Request) string {
		ip := ratelimit.SourceIP(r)
		if colo == "" {
			return ip
		}
		if v := r.Header.Get(colo); v != "" {
			return v + " " + ip
		}
		return ip
	}
}

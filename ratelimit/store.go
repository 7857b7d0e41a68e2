package ratelimit

import (
	"context"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"
)

// Store keeps the state of a Limiter, a Guard and a Budget: token buckets
// and counters that expire, both named by a string key. A MemoryStore is
// the default and serves one process; replicas of a server that must
// share their limits give every replica the same Store backed by a shared
// database instead, and nothing else changes.
//
// # Sharing a store between replicas
//
// A shared store implements the two methods against its database, each as
// one atomic step so that replicas racing on a key never lose an update.
// With Redis, say:
//
//   - Add is INCRBY key n, then PEXPIREAT key expires NX (set the expiry
//     only when the key has none), then PTTL key: three commands in one
//     MULTI/EXEC or a short Lua script. Adding 0 to a missing key must not
//     create it (EXISTS first, in the script).
//   - Take is GCRA in a Lua script: the key holds the bucket's theoretical
//     arrival time tat in milliseconds. With interval = 1s/Rate and
//     tolerance = Burst*interval, tat = max(tat, now); the token is granted
//     when tat+interval-now <= tolerance, and then tat+interval is stored
//     with PEXPIREAT tat+interval (the bucket is full again by then, so the
//     key may vanish). Remaining is floor((tolerance-(tat-now))/interval)
//     after the take, Reset is tat-now, and a refusal's RetryAfter is
//     tat+interval-tolerance-now.
//
// The t arguments carry the caller's clock (an injected one in tests); a
// shared store may use its own clock instead, so that replicas with skewed
// clocks agree. A store that cannot answer returns an error: a Limiter or
// a Guard then lets the request through (fails open), and a Budget lets
// the message or call proceed, so an outage of the store is never an
// outage of the server. The error is returned to callers of Check and of
// the Budget's methods, who may decide otherwise.
//
// Store implementations must be safe for concurrent use.
type Store interface {
	// Take takes one token at t from the token bucket named key, which
	// holds at most b.Burst tokens and refills at b.Rate tokens a second;
	// a bucket seen for the first time is full. It fills in the
	// decision's OK, RetryAfter, Remaining and Reset; the caller fills in
	// the rest. A refused request takes nothing.
	Take(ctx context.Context, key string, t time.Time, b Bucket) (Decision, error)

	// Add adds n (which may be negative) to the counter named key and
	// returns the counter after the addition. A counter that does not
	// exist, or whose expiry is at or before t, counts from zero and
	// expires at expires; an existing counter keeps its expiry. Adding 0
	// reads the counter without creating it.
	Add(ctx context.Context, key string, n int64, t, expires time.Time) (Count, error)
}

// Bucket describes a token bucket in the model of golang.org/x/time/rate:
// it holds at most Burst tokens and refills at Rate tokens a second.
type Bucket struct {
	Rate  rate.Limit
	Burst int
}

// fill reports how long an empty bucket takes to fill up.
func (b Bucket) fill() time.Duration {
	return tokensDuration(b.Rate, float64(b.Burst))
}

// serverMaxWait is the longest wait a Limiter, a Guard or a Budget reports.
const serverMaxWait = 1 << 31 * time.Second

// tokensDuration reports how long r takes to produce tokens, rounded up
// to the nanosecond, within [0, serverMaxWait].
func tokensDuration(r rate.Limit, tokens float64) time.Duration {
	if tokens <= 0 || r == rate.Inf {
		return 0
	}
	if r <= 0 {
		return serverMaxWait
	}
	x := float64(time.Second) * tokens / float64(r)
	if !(x < float64(serverMaxWait)) {
		return serverMaxWait
	}
	d := time.Duration(x)
	if float64(d) < x {
		d++
	}
	return d
}

// Count is a counter's value and the moment it expires.
type Count struct {
	Value   int64
	Expires time.Time // zero when the counter does not exist
}

// DefaultMaxKeys is the number of keys a MemoryStore whose MaxKeys is zero
// keeps at most, buckets and counters each.
const DefaultMaxKeys = 1 << 20

// MemoryStore is the Store of one process: it keeps buckets and counters
// in maps. A bucket that has refilled to its burst, and a counter past its
// expiry, carry nothing that a new one would not, and are swept away
// lazily, with no goroutine in the background. Buckets are swept whenever
// their map is rebuilt, which happens once lookups of new keys have missed
// it as often as it has keys; counters whenever their map has doubled in
// size since the last sweep. Either way the cost is amortized over the
// keys added, and memory stays within a small multiple of the keys that
// are live (seen within a bucket's fill time or a counter's lifetime). It
// never goes above MaxKeys: past it, live keys are forgotten too,
// arbitrarily, which resets them (a forgotten bucket is full again, a
// forgotten counter zero), so that a flood of distinct keys is served
// leniently rather than exhausting memory.
//
// A decision for a known key takes no lock of the store's own, only the
// rate.Limiter's, and allocates nothing.
//
// The zero value is ready to use. A MemoryStore must not be copied after
// first use. It is safe for concurrent use.
type MemoryStore struct {
	// MaxKeys bounds the number of buckets, and separately the number
	// of counters, kept at once. Zero means DefaultMaxKeys.
	MaxKeys int

	// Buckets are found without a lock in read, an immutable map that is
	// replaced, never changed. New buckets go to dirty, under bmu; once
	// lookups have missed read as often as read has keys, read is rebuilt
	// from both, without the buckets that are full: so the rebuilding,
	// which is also the sweep, costs O(1) a miss.
	read   atomic.Pointer[map[string]*memBucket]
	bmu    sync.Mutex
	dirty  map[string]*memBucket // under bmu
	misses int                   // under bmu

	mu       sync.Mutex // guards counters and nextC
	counters map[string]*memCounter
	nextC    int // sweep counters when len(counters) reaches this
}

// memBucket is one token bucket of a MemoryStore.
type memBucket struct {
	lim *rate.Limiter
	cfg atomic.Pointer[Bucket] // the configuration lim was last set to
}

// memCounter is one counter of a MemoryStore.
type memCounter struct {
	value   int64
	expires time.Time
}

// memMinSweep is the size below which a MemoryStore's counters are never
// swept.
const memMinSweep = 1024

// memMinPromote is the number of lookups that must miss a MemoryStore's
// read map before it is rebuilt.
const memMinPromote = 32

var _ Store = (*MemoryStore)(nil)

func (s *MemoryStore) maxKeys() int {
	if s.MaxKeys > 0 {
		return s.MaxKeys
	}
	return DefaultMaxKeys
}

// Len reports the number of buckets and counters the store holds now,
// swept or not: the figure its memory is proportional to.
func (s *MemoryStore) Len() (buckets, counters int) {
	s.bmu.Lock()
	if m := s.read.Load(); m != nil {
		buckets = len(*m)
	}
	buckets += len(s.dirty)
	s.bmu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	return buckets, len(s.counters)
}

// Take implements Store. It never returns an error.
func (s *MemoryStore) Take(_ context.Context, key string, t time.Time, b Bucket) (Decision, error) {
	var d Decision
	s.take(key, t, b, &d)
	return d, nil
}

// take is Take, filling in *d (which is zero) to spare copies.
func (s *MemoryStore) take(key string, t time.Time, b Bucket, d *Decision) {
	var e *memBucket
	if m := s.read.Load(); m != nil {
		e = (*m)[key]
	}
	if e == nil || *e.cfg.Load() != b {
		e = s.slowBucket(key, t, b)
	}
	takeToken(e.lim, t, b, d)
}

// slowBucket returns key's bucket, set to b: a full new one if there is
// none.
func (s *MemoryStore) slowBucket(key string, t time.Time, b Bucket) *memBucket {
	s.bmu.Lock()
	defer s.bmu.Unlock()
	read := s.read.Load()
	var e *memBucket
	if read != nil {
		e = (*read)[key]
	}
	if e == nil {
		e = s.dirty[key]
		s.misses++
	}
	if e != nil && *e.cfg.Load() != b {
		e.lim.SetLimitAt(t, b.Rate)
		e.lim.SetBurstAt(t, b.Burst)
		cfg := b
		e.cfg.Store(&cfg)
	}
	n := len(s.dirty)
	if read != nil {
		n += len(*read)
	}
	if e == nil {
		n++ // the bucket about to be added
	}
	if s.misses >= memMinPromote && (read == nil || s.misses >= len(*read)) || n > s.maxKeys() {
		s.rebuild(t, n > s.maxKeys())
		if e != nil && (*s.read.Load())[key] != e {
			// Dropped as full, before this call could take its token: a
			// full bucket is as good as a new one, so keep it.
			e = nil
		}
	}
	if e == nil {
		e = &memBucket{lim: rate.NewLimiter(b.Rate, b.Burst)}
		cfg := b
		e.cfg.Store(&cfg)
		if s.dirty == nil {
			s.dirty = make(map[string]*memBucket)
		}
		// Clone, so that a key cut from a larger string does not keep it alive.
		s.dirty[strings.Clone(key)] = e
	}
	return e
}

// rebuild replaces read with the buckets of read and dirty that are not
// full at t, then, when full is set (MaxKeys is reached) and more than
// half of MaxKeys remain, forgets arbitrary others down to half; s.bmu is
// held. A take racing with the rebuild on a bucket it drops may be
// forgotten: at worst, one token too many.
func (s *MemoryStore) rebuild(t time.Time, full bool) {
	old := s.read.Load()
	n := len(s.dirty)
	if old != nil {
		n += len(*old)
	}
	max := s.maxKeys()
	keep := func(e *memBucket) bool {
		return e.lim.TokensAt(t) < float64(e.cfg.Load().Burst)
	}
	m := make(map[string]*memBucket, min(n, max))
	add := func(src map[string]*memBucket) {
		for k, e := range src {
			if keep(e) {
				m[k] = e
			}
		}
	}
	if old != nil {
		add(*old)
	}
	add(s.dirty)
	if full && len(m) > max/2 {
		drop := len(m) - max/2
		for k := range m {
			if drop <= 0 {
				break
			}
			delete(m, k)
			drop--
		}
	}
	s.read.Store(&m)
	s.dirty = nil
	s.misses = 0
}

// shrink makes room under max after a sweep left n keys, calling drop
// with the number of keys to forget, and returns the size, at least least,
// that triggers the next sweep.
func shrink(n, max, least int, drop func(int)) int {
	if n >= max {
		// Keep at most half, so the next sweep is not the next call.
		drop(n - max/2)
		n = max / 2
	}
	next := 2 * n
	if next < least {
		next = least
	}
	if next > max {
		next = max
	}
	return next
}

// Add implements Store. It never returns an error.
func (s *MemoryStore) Add(_ context.Context, key string, n int64, t, expires time.Time) (Count, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.counters[key]
	if c != nil && !c.expires.After(t) {
		delete(s.counters, key)
		c = nil
	}
	if c == nil {
		if n == 0 {
			return Count{}, nil
		}
		if s.counters == nil {
			s.counters = make(map[string]*memCounter)
		}
		if len(s.counters) >= s.nextC {
			s.sweepCounters(t)
		}
		c = &memCounter{expires: expires}
		s.counters[strings.Clone(key)] = c
	}
	c.value = saturatingAdd(c.value, n)
	return Count{Value: c.value, Expires: c.expires}, nil
}

// sweepCounters drops the counters expired at t, then, if more than
// MaxKeys remain, arbitrary others; s.mu is held.
func (s *MemoryStore) sweepCounters(t time.Time) {
	for k, c := range s.counters {
		if !c.expires.After(t) {
			delete(s.counters, k)
		}
	}
	s.nextC = shrink(len(s.counters), s.maxKeys(), memMinSweep, func(drop int) {
		for k := range s.counters {
			if drop == 0 {
				break
			}
			delete(s.counters, k)
			drop--
		}
	})
}

// takeToken takes one token from lim at t and describes the outcome in
// *d, which is zero.
func takeToken(lim *rate.Limiter, t time.Time, b Bucket, d *Decision) {
	ok := lim.AllowN(t, 1)
	d.OK = ok
	if b.Rate == rate.Inf {
		d.Remaining = int64(b.Burst)
		return
	}
	tokens := lim.TokensAt(t)
	if tokens > 0 {
		// Floor, forgiving the rounding of float arithmetic.
		d.Remaining = int64(tokens + 1e-9)
	}
	d.Reset = tokensDuration(b.Rate, float64(b.Burst)-tokens)
	if !ok {
		if b.Burst < 1 {
			// The bucket never holds a token.
			d.RetryAfter = serverMaxWait
		} else {
			d.RetryAfter = tokensDuration(b.Rate, 1-tokens)
		}
	}
}

// saturatingAdd returns a+b, held within the range of int64.
func saturatingAdd(a, b int64) int64 {
	s := a + b
	if b > 0 && s < a {
		return math.MaxInt64
	}
	if b < 0 && s > a {
		return math.MinInt64
	}
	return s
}

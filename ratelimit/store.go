package ratelimit

import (
	"context"
	"hash/maphash"
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
// a Guard then lets the request through (fails open), and a Budget refuses
// nothing and charges nothing, so an outage of the store is never an
// outage of the server; callers that want otherwise use the Check methods,
// which return the error.
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

// tokensDuration reports how long r takes to produce tokens, within
// [0, serverMaxWait].
func tokensDuration(r rate.Limit, tokens float64) time.Duration {
	if tokens <= 0 || r == rate.Inf {
		return 0
	}
	if r <= 0 {
		return serverMaxWait
	}
	d := float64(time.Second) * tokens / float64(r)
	if d >= float64(serverMaxWait) {
		return serverMaxWait
	}
	return time.Duration(math.Ceil(d))
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
// lazily: whenever a map has doubled in size since its last sweep, the
// next call that adds a key sweeps the whole map, so the cost is amortized
// over the keys added and no goroutine runs in the background. Memory
// therefore stays within a small multiple of the keys that are live (seen
// within a bucket's fill time or a counter's lifetime), and never above
// MaxKeys: past it, live keys are forgotten too, arbitrarily, which
// resets them (a forgotten bucket is full again, a forgotten counter
// zero), so that a flood of distinct keys is served leniently rather than
// exhausting memory.
//
// The zero value is ready to use. A MemoryStore must not be copied after
// first use. It is safe for concurrent use.
type MemoryStore struct {
	// MaxKeys bounds the number of buckets, and separately the number
	// of counters, kept at once. Zero means DefaultMaxKeys.
	MaxKeys int

	// Buckets are spread over shards, each with its own lock, so that
	// decisions for different keys rarely wait for each other.
	seedOnce sync.Once
	seed     maphash.Seed
	shards   [memShards]memShard

	mu       sync.Mutex // guards counters and nextC
	counters map[string]*memCounter
	nextC    int // sweep counters when len(counters) reaches this
}

// memShards is the number of shards of a MemoryStore's buckets.
const memShards = 32

// memShard holds the buckets of the keys that hash to it.
type memShard struct {
	mu   sync.RWMutex
	m    map[string]*memBucket
	next int                    // sweep when len(m) reaches this
	_    [64 - (24+8+8)%64]byte // keep shards on separate cache lines
}

// memBucket is one token bucket of a MemoryStore.
type memBucket struct {
	lim *rate.Limiter
	b   Bucket // the configuration lim was last set to; guarded by the shard's lock
	// full is when the bucket will be full again, in Unix nanoseconds.
	full atomic.Int64
}

// memCounter is one counter of a MemoryStore.
type memCounter struct {
	value   int64
	expires time.Time
}

// memMinSweep is the size below which a MemoryStore map is never swept.
const memMinSweep = 1024

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
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.RLock()
		buckets += len(sh.m)
		sh.mu.RUnlock()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return buckets, len(s.counters)
}

func (s *MemoryStore) shard(key string) *memShard {
	s.seedOnce.Do(func() { s.seed = maphash.MakeSeed() })
	return &s.shards[maphash.String(s.seed, key)%memShards]
}

// Take implements Store. It never returns an error.
func (s *MemoryStore) Take(_ context.Context, key string, t time.Time, b Bucket) (Decision, error) {
	sh := s.shard(key)
	sh.mu.RLock()
	e := sh.m[key]
	same := e != nil && e.b == b
	sh.mu.RUnlock()
	if !same {
		e = s.bucket(sh, key, t, b)
	}
	d := takeToken(e.lim, t, b)
	e.full.Store(t.Add(d.Reset).UnixNano())
	return d, nil
}

// bucket returns key's bucket in sh, set to b: a full new one if sh has
// none.
func (s *MemoryStore) bucket(sh *memShard, key string, t time.Time, b Bucket) *memBucket {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if e := sh.m[key]; e != nil {
		if e.b != b {
			e.lim.SetLimitAt(t, b.Rate)
			e.lim.SetBurstAt(t, b.Burst)
			e.b = b
		}
		return e
	}
	if sh.m == nil {
		sh.m = make(map[string]*memBucket)
	}
	if len(sh.m) >= sh.next {
		s.sweepShard(sh, t)
	}
	e := &memBucket{lim: rate.NewLimiter(b.Rate, b.Burst), b: b}
	// Clone, so that a key cut from a larger string does not keep it alive.
	sh.m[strings.Clone(key)] = e
	return e
}

// sweepShard drops the buckets of sh that are full at t, then, if the
// shard's share of MaxKeys remains, arbitrary others; sh.mu is held. A
// take racing with the sweep on a full bucket may be forgotten: at
// worst, one token too many.
func (s *MemoryStore) sweepShard(sh *memShard, t time.Time) {
	now := t.UnixNano()
	for k, e := range sh.m {
		if e.full.Load() <= now {
			delete(sh.m, k)
		}
	}
	max := s.maxKeys() / memShards
	if max < 1 {
		max = 1
	}
	sh.next = shrink(len(sh.m), max, memMinSweep/memShards, func(drop int) {
		for k := range sh.m {
			if drop <= 0 {
				break
			}
			delete(sh.m, k)
			drop--
		}
	})
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

// takeToken takes one token from lim at t and describes the outcome.
func takeToken(lim *rate.Limiter, t time.Time, b Bucket) Decision {
	ok := lim.AllowN(t, 1)
	if b.Rate == rate.Inf {
		return Decision{OK: ok, Remaining: int64(b.Burst)}
	}
	tokens := lim.TokensAt(t)
	d := Decision{OK: ok}
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
	return d
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

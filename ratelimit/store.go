package ratelimit

import (
	"context"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"

	"github.com/mcperr/mcperr/ratelimit/header"
)

// Store keeps the state of limits, each named by a string key, as three
// primitives: token buckets (Take, which a Limiter uses), counters that
// expire (Add: a fixed window, a block period) and quotas charged all or
// nothing (Spend: messages a minute, credits a month). A MemoryStore is
// the default and serves one process; replicas of a server that must
// share their limits give every replica the same Store backed by a shared
// database instead, and nothing else changes.
//
// # Sharing a store between replicas
//
// A shared store implements the three methods against its database, each
// as one atomic step, so that replicas racing on a key never lose an
// update nor see another's half-made change. Module
// github.com/mcperr/mcperr/redisstore is such a store on Redis: a Lua
// script per method, GCRA for Take, a counter with an expiry for Add, and
// the all-or-nothing charge of Spend.
//
// The t arguments carry the caller's clock (an injected one in tests); a
// shared store may use its own clock instead, taking expiries relative to
// t, so that replicas with skewed clocks agree. A store that cannot
// answer returns an error: a Limiter then lets the request through (fails
// open), so an outage of the store is never an outage of the server, and
// callers of Add and Spend should do the same. Every figure a store
// returns is held within [0, header.MaxRetryAfter] where it becomes a wait, whatever
// the store says.
//
// # Keys
//
// Keys may be of any length and hold any bytes. A Limiter bounds them
// before they reach the store: a key longer than 64 bytes is replaced by
// its SHA-256 digest (see ShortKey), so a caller-controlled key of 60 KB
// costs the store what one of 60 bytes does; callers of Add and Spend
// should bound theirs the same way.
//
// A key may name the group it belongs to the way Redis hash tags do: the
// text between its first "{" and the first "}" after it. The quotas one
// Spend charges must be of one group, the keys of one customer, say
// "{acct-7}:month" and "{acct-7}:minute"; a store spread over several
// servers (a Redis Cluster) keeps each group on one server, so that a
// Spend stays one atomic step, while different customers spread across
// the servers. A key without a group is a group of its own.
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
	Add(ctx context.Context, key string, n int64, t, expires time.Time) (Counter, error)

	// Spend charges n at t to every limit of ls as one atomic step, and
	// returns their levels, one for each limit, in order. When n is
	// positive and would take a limit that is not Soft past its Max, the
	// charge is refused and nothing changes: so a charge that fits is
	// never refused because of another that is being refused, and the
	// limits are never overspent. A negative n refunds, and is never
	// refused; n = 0 reads the levels without creating anything.
	Spend(ctx context.Context, ls []Quota, n int64, t time.Time) ([]Level, error)
}

// A Quota is one of the limits a Spend charges. With Per zero it is a
// counter, as Add keeps: it holds what was added, from zero, until
// Expires. With Per above zero it is a meter: what it holds drains
// continuously at Max every Per, the way a token bucket of Max tokens
// refills in Per, and the key vanishes once it is empty.
type Quota struct {
	Key string

	// Max is the most the limit may hold after a charge, and a meter's
	// size.
	Max int64

	// Per is the time a full meter takes to drain; zero makes the limit
	// a counter.
	Per time.Duration

	// Expires is when a counter created by this charge expires; an
	// existing counter keeps its own. Meters ignore it.
	Expires time.Time

	// Soft counts past Max instead of refusing: the charge is made
	// whatever the limit holds.
	Soft bool
}

// A Level is what a limit holds, as a Spend reports it.
type Level struct {
	// OK reports whether the charge fits the limit: a Soft limit, a
	// refund and a read always fit.
	OK bool

	// Used is what the limit holds after the charge, or before it when
	// the Spend was refused; a meter's is rounded up to a whole unit.
	Used int64

	// Wait is, when the charge does not fit, how long until it would: a
	// counter's time until it expires, a meter's until it has drained
	// enough. A charge above a meter's Max never fits: its Wait is the
	// longest wait a limiter reports (header.MaxRetryAfter).
	Wait time.Duration
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

// maxWait is the longest wait a Limiter and a Store report: 2^31 seconds,
// some 68 years, standing for never; the largest Retry-After too.
const maxWait = header.MaxRetryAfter

// tokensDuration reports how long r takes to produce tokens, rounded up
// to the nanosecond, within [0, maxWait].
func tokensDuration(r rate.Limit, tokens float64) time.Duration {
	if tokens <= 0 || r == rate.Inf {
		return 0
	}
	if r <= 0 {
		return maxWait
	}
	x := float64(time.Second) * tokens / float64(r)
	if !(x < float64(maxWait)) {
		return maxWait
	}
	d := time.Duration(x)
	if float64(d) < x {
		d++
	}
	return d
}

// Counter is a counter's value and the moment it expires.
type Counter struct {
	Value   int64
	Expires time.Time // zero when the counter does not exist
}

// defaultMaxKeys is the number of keys a MemoryStore whose MaxKeys is zero
// keeps at most, buckets and counters each.
const defaultMaxKeys = 1 << 20

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
	// of counters and quotas, kept at once. Zero means 1<<20 (about a
	// million).
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

	mu       sync.Mutex // guards counters, meters, nextC and nextM
	counters map[string]*memCounter
	nextC    int // sweep counters when len(counters) reaches this
	meters   map[string]*memMeter
	nextM    int // sweep meters when len(meters) reaches this
}

// memBucket is one token bucket of a MemoryStore.
type memBucket struct {
	lim *rate.Limiter
	cfg atomic.Pointer[Bucket] // the configuration lim was last set to

	mu      sync.Mutex // held to take a token, and by rebuild to drop the bucket
	dropped bool       // under mu: rebuild dropped it, so a take looks the key up again
}

// memCounter is one counter of a MemoryStore.
type memCounter struct {
	value   int64
	expires time.Time
}

// memMeter is one meter of a MemoryStore (see Quota): its level at stamp,
// and the size and period it last drained by.
type memMeter struct {
	level float64
	stamp time.Time
	max   int64
	per   time.Duration
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
	return defaultMaxKeys
}

// len reports the number of buckets, and of counters and meters, the
// store holds now, swept or not: the figure its memory is proportional to.
func (s *MemoryStore) len() (buckets, counters int) {
	s.bmu.Lock()
	if m := s.read.Load(); m != nil {
		buckets = len(*m)
	}
	buckets += len(s.dirty)
	s.bmu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	return buckets, len(s.counters) + len(s.meters)
}

// Take implements Store. It never returns an error.
func (s *MemoryStore) Take(_ context.Context, key string, t time.Time, b Bucket) (Decision, error) {
	var d Decision
	s.take(key, t, b, &d)
	return d, nil
}

// take is Take, filling in *d (which is zero) to spare copies.
func (s *MemoryStore) take(key string, t time.Time, b Bucket, d *Decision) {
	for {
		var e *memBucket
		if m := s.read.Load(); m != nil {
			e = (*m)[key]
		}
		if e == nil || *e.cfg.Load() != b {
			e = s.slowBucket(key, t, b)
		}
		e.mu.Lock()
		if !e.dropped {
			takeToken(e.lim, t, b, d)
			e.mu.Unlock()
			return
		}
		// A rebuild dropped it after the lookup: a token taken from it
		// would be lost, and the key's next bucket would start full.
		e.mu.Unlock()
	}
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
// held. A bucket is dropped under its own mu, so that a take racing with
// the rebuild takes its token either before (and the bucket is kept, as
// no longer full) or from the key's next bucket.
func (s *MemoryStore) rebuild(t time.Time, full bool) {
	old := s.read.Load()
	n := len(s.dirty)
	if old != nil {
		n += len(*old)
	}
	max := s.maxKeys()
	keep := func(e *memBucket) bool {
		e.mu.Lock()
		defer e.mu.Unlock()
		if e.lim.TokensAt(t) < float64(e.cfg.Load().Burst) {
			return true
		}
		e.dropped = true
		return false
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
			e := m[k]
			e.mu.Lock()
			e.dropped = true
			e.mu.Unlock()
			delete(m, k)
			drop--
		}
	}
	s.read.Store(&m)
	s.dirty = nil
	s.misses = 0
}

// sweep drops the entries of m that are done, then, if max or more remain,
// arbitrary others down to half of max, and returns the size, at least
// least and at most max, that triggers the next sweep.
func sweep[V any](m map[string]V, done func(V) bool, max, least int) int {
	for k, v := range m {
		if done(v) {
			delete(m, k)
		}
	}
	n := len(m)
	if n >= max {
		// Keep at most half, so the next sweep is not the next call.
		drop := n - max/2
		for k := range m {
			if drop == 0 {
				break
			}
			delete(m, k)
			drop--
		}
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
func (s *MemoryStore) Add(_ context.Context, key string, n int64, t, expires time.Time) (Counter, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.add(key, n, t, expires)
}

// add is Add; s.mu is held.
func (s *MemoryStore) add(key string, n int64, t, expires time.Time) (Counter, error) {
	c := s.counters[key]
	if c != nil && !c.expires.After(t) {
		delete(s.counters, key)
		c = nil
	}
	if c == nil {
		if n == 0 {
			return Counter{}, nil
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
	return Counter{Value: c.value, Expires: c.expires}, nil
}

// sweepCounters drops the counters expired at t, then, if more than
// MaxKeys remain, arbitrary others; s.mu is held.
func (s *MemoryStore) sweepCounters(t time.Time) {
	s.nextC = sweep(s.counters, func(c *memCounter) bool { return !c.expires.After(t) }, s.maxKeys(), memMinSweep)
}

// Spend implements Store. It never returns an error.
func (s *MemoryStore) Spend(_ context.Context, ls []Quota, n int64, t time.Time) ([]Level, error) {
	out := make([]Level, len(ls))
	s.mu.Lock()
	defer s.mu.Unlock()
	ok := true
	for i, l := range ls {
		var used float64
		if l.Per > 0 {
			if m := s.meters[l.Key]; m != nil {
				used = drain(m.level, t.Sub(m.stamp), l)
			}
		} else if c := s.counters[l.Key]; c != nil && c.expires.After(t) {
			used = float64(c.value)
			out[i].Wait = c.expires.Sub(t)
		}
		out[i] = judge(l, used, n, out[i].Wait, t)
		ok = ok && out[i].OK
	}
	if !ok || n == 0 {
		return out, nil
	}
	for i, l := range ls {
		if l.Per > 0 {
			out[i].Used = s.meter(l, n, t)
		} else {
			c, _ := s.add(l.Key, n, t, l.Expires)
			out[i].Used = c.Value
		}
	}
	return out, nil
}

// meter charges n to the meter of l at t and returns its level, rounded
// up; s.mu is held.
func (s *MemoryStore) meter(l Quota, n int64, t time.Time) int64 {
	m := s.meters[l.Key]
	if m == nil {
		if n < 0 {
			return 0
		}
		if s.meters == nil {
			s.meters = make(map[string]*memMeter)
		}
		if len(s.meters) >= s.nextM {
			s.sweepMeters(t)
		}
		m = &memMeter{}
		s.meters[strings.Clone(l.Key)] = m
	} else {
		m.level = drain(m.level, t.Sub(m.stamp), l)
	}
	m.level = max(m.level+float64(n), 0)
	m.stamp, m.max, m.per = t, l.Max, l.Per
	return ceilLevel(m.level)
}

// sweepMeters drops the meters that have drained empty by t, then, past
// MaxKeys, arbitrary others; s.mu is held.
func (s *MemoryStore) sweepMeters(t time.Time) {
	s.nextM = sweep(s.meters, func(m *memMeter) bool {
		return drain(m.level, t.Sub(m.stamp), Quota{Max: m.max, Per: m.per}) <= 0
	}, s.maxKeys(), memMinSweep)
}

// levelSlack forgives the rounding of float arithmetic when a meter's
// level is compared with whole units.
const levelSlack = 1e-9

// drain returns what a meter of l that held level holds after elapsed.
func drain(level float64, elapsed time.Duration, l Quota) float64 {
	if elapsed <= 0 || level <= 0 {
		return max(level, 0)
	}
	if l.Max <= 0 {
		return level // a meter of size 0 never drains
	}
	return max(level-float64(elapsed)*float64(l.Max)/float64(l.Per), 0)
}

// ceilLevel rounds a meter's level up to a whole unit, forgiving rounding.
func ceilLevel(level float64) int64 {
	if level >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(math.Ceil(level - levelSlack))
}

// judge returns the level of l, which holds used, for a charge of n: OK
// when it fits, with the time until it would when it does not. untilExpiry
// is a live counter's time left.
func judge(l Quota, used float64, n int64, untilExpiry time.Duration, t time.Time) Level {
	v := Level{OK: true}
	if l.Per > 0 {
		v.Used = ceilLevel(used)
	} else {
		v.Used = int64(used)
	}
	if n <= 0 || l.Soft {
		return v
	}
	over := used + float64(n) - float64(l.Max)
	if over <= levelSlack {
		return v
	}
	v.OK = false
	switch {
	case l.Per <= 0 && untilExpiry > 0:
		v.Wait = untilExpiry
	case l.Per <= 0:
		// No live counter: this charge alone overfills a new one, which
		// would expire at l.Expires.
		v.Wait = clampWait(l.Expires.Sub(t))
	case n > l.Max:
		v.Wait = maxWait
	default:
		v.Wait = min(durationCeil(over*float64(l.Per)/float64(l.Max)), maxWait)
	}
	return v
}

// durationCeil returns x nanoseconds rounded up, forgiving rounding, and
// at most header.MaxRetryAfter.
func durationCeil(x float64) time.Duration {
	if !(x < float64(maxWait)) {
		return maxWait
	}
	return time.Duration(math.Ceil(x - levelSlack))
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
			d.RetryAfter = maxWait
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

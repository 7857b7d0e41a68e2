package redisstore

import (
	"context"
	"crypto/sha256"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"log"
	"net"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/rueidis"
	"golang.org/x/time/rate"

	"github.com/mcperr/mcperr/ratelimit"
	"github.com/mcperr/mcperr/ratelimit/header"
)

// DefaultTimeout is how long a Store waits for Redis on one call when
// Options.Timeout is zero: a round trip on a local network takes well
// under a millisecond, so a call that takes this long finds Redis down or
// stalled, and the caller goes on without it (fails open).
const DefaultTimeout = 250 * time.Millisecond

// DefaultLogEvery is the interval at which a Store whose Options.LogEvery
// is zero logs store errors: the first error of an interval is logged
// with the number of errors since the last report; the others are only
// counted.
const DefaultLogEvery = 10 * time.Second

// DefaultPrefix is the prefix of a Store's keys when Options.Prefix is
// empty.
const DefaultPrefix = "mcperr:"

// Options configure a Store. The zero value is ready to use.
type Options struct {
	// Prefix is put before every key the Store writes, so that several
	// servers (or a test) share one Redis database apart; empty means
	// DefaultPrefix.
	Prefix string

	// Timeout bounds each call to Redis; zero means DefaultTimeout.
	Timeout time.Duration

	// ErrorLog receives the store's errors, once per LogEvery at most;
	// nil means the log package's standard logger.
	ErrorLog *log.Logger

	// LogEvery is the shortest interval between two logged errors; zero
	// means DefaultLogEvery.
	LogEvery time.Duration
}

// Store is a ratelimit.Store on Redis, shared by every replica that uses
// the same Redis database and prefix. Each of its methods is one script
// run on the server, one round trip: GCRA for Take, a counter with an
// expiry for Add, the all-or-nothing charge for Spend. Time is the Redis
// server's (TIME), so replicas whose clocks disagree still agree on every
// limit; the t arguments only serve to carry an expiry over as a
// duration. Every key expires once it carries nothing a new key would
// not: a bucket when it is full, a counter at the end of its period, a
// meter when it has drained.
//
// A call that fails (Redis down, stalled past Timeout, a Redis Cluster
// that answers CLUSTERDOWN, a reply that is not what the script returns,
// a panic of the client) returns an *Error, so that a Limiter, and every
// caller of Add and Spend that fails open, lets the request through; the
// failure is logged once per LogEvery. A Store is safe for concurrent use;
// Close releases its connections.
type Store struct {
	client   rueidis.Client
	prefix   string
	timeout  time.Duration
	logEvery time.Duration
	logger   *log.Logger

	mu      sync.Mutex // guards lastLog and quiet
	lastLog time.Time
	quiet   int // errors not logged since lastLog

	// cluster is set on a Redis Cluster, whose hash slots each node owns
	// part of; any other Redis is one node, whose state is hung[0].
	cluster bool

	// hung holds, per hash slot of a Redis Cluster (in hung[0] for any
	// other Redis), when, in Unix nanoseconds, calls try Redis again after
	// one ran into the timeout: until then the calls to that slot fail at
	// once, so that a request does not wait out the timeout once per call
	// it makes, and the keys of the other slots, on nodes that answer, stay
	// limited. nil until a call first times out.
	hung atomic.Pointer[[slots]atomic.Int64]
}

// slots is the number of hash slots of a Redis Cluster.
const slots = 16384

// hungPause is how long a Store fails the calls to a slot at once after
// one timed out.
const hungPause = time.Second

// ErrHung reports a call not sent because a recent one found Redis not
// answering within the timeout.
var ErrHung = errors.New("no answer from Redis within the timeout; not tried again yet")

var _ ratelimit.Store = (*Store)(nil)

// Error is a failure of one call to Redis.
type Error struct {
	Op  string // "take", "add", "spend" or "connect"
	Err error
}

// Error returns "redisstore: " followed by the operation and the cause.
func (e *Error) Error() string { return "redisstore: " + e.Op + ": " + e.Err.Error() }

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// errClient reports a call the Redis client refused by panicking (rueidis
// does on a script whose keys lie in different hash slots of a Redis
// Cluster); the store recovers, and the call fails as any other.
var errClient = errors.New("the Redis client panicked")

// ErrReply reports a reply from Redis that is not of the shape the
// store's scripts return: a server that is not Redis, or a key of the
// store's prefix written by something else.
var ErrReply = errors.New("unexpected reply")

// ParseURL checks a Redis URL of the form redis://[user:password@]host:port/db
// (rediss:// for TLS) and returns the client options it stands for. The
// error, if any, never repeats the URL, which may hold a password.
func ParseURL(s string) (rueidis.ClientOption, error) {
	u, err := url.Parse(s)
	if err != nil {
		return rueidis.ClientOption{}, errors.New("not a URL")
	}
	if u.Scheme != "redis" && u.Scheme != "rediss" {
		return rueidis.ClientOption{}, fmt.Errorf("scheme %q: want redis:// or rediss://", u.Scheme)
	}
	if u.Host == "" || u.Port() == "" {
		return rueidis.ClientOption{}, errors.New("want host:port, as in redis://127.0.0.1:6379/0")
	}
	if db := u.Path; db != "" && db != "/" {
		if _, err := strconv.Atoi(db[1:]); err != nil {
			return rueidis.ClientOption{}, fmt.Errorf("database %q is not a number", db[1:])
		}
	}
	opt, err := rueidis.ParseURL(s)
	if err != nil {
		return rueidis.ClientOption{}, errors.New("not a Redis URL")
	}
	return opt, nil
}

// New connects to the Redis at url (redis://host:port/db) and returns a
// Store on it. It fails when the URL does not parse or Redis does not
// answer within the timeout.
func New(ctx context.Context, url string, o Options) (*Store, error) {
	opt, err := ParseURL(url)
	if err != nil {
		return nil, &Error{Op: "connect", Err: err}
	}
	return NewWithOptions(ctx, opt, o)
}

// NewWithOptions is New with rueidis client options instead of a URL, for
// a Redis behind TLS, a sentinel, or a dialer of the caller's.
func NewWithOptions(ctx context.Context, opt rueidis.ClientOption, o Options) (*Store, error) {
	s := &Store{prefix: o.Prefix, timeout: o.Timeout, logEvery: o.LogEvery, logger: o.ErrorLog}
	if s.prefix == "" {
		s.prefix = DefaultPrefix
	}
	if s.timeout <= 0 {
		s.timeout = DefaultTimeout
	}
	if s.logEvery <= 0 {
		s.logEvery = DefaultLogEvery
	}
	if s.logger == nil {
		s.logger = log.Default()
	}
	// The store needs no client-side cache nor anything else of RESP3:
	// RESP2 serves every Redis that runs the scripts (3.2 and later).
	// A dead server is noticed within the timeout.
	opt.DisableCache = true
	opt.AlwaysRESP2 = true
	if opt.Dialer.Timeout == 0 {
		opt.Dialer.Timeout = s.timeout
	}
	if opt.ConnWriteTimeout == 0 {
		opt.ConnWriteTimeout = 4 * s.timeout
	}
	if opt.DialCtxFn == nil && opt.DialFn != nil {
		dial := opt.DialFn
		opt.DialCtxFn = func(_ context.Context, dst string, d *net.Dialer, cfg *tls.Config) (net.Conn, error) {
			return dial(dst, d, cfg)
		}
		opt.DialFn = nil
	}
	opt.DialCtxFn = checkedDial(opt.DialCtxFn)
	c, err := rueidis.NewClient(opt)
	if err != nil {
		return nil, &Error{Op: "connect", Err: err}
	}
	s.client = c
	s.cluster = c.Mode() == rueidis.ClientModeCluster
	ctx, cancel := context.WithTimeout(ctx, 4*s.timeout)
	defer cancel()
	if err := c.Do(ctx, c.B().Ping().Build()).Error(); err != nil {
		c.Close()
		return nil, &Error{Op: "connect", Err: err}
	}
	return s, nil
}

// Client returns the store's Redis client, so that a server keeps the
// rest of its shared state (saved queries, sessions) in the same Redis,
// over the same connections, with its replies checked the same way. The
// store closes it on Close.
func (s *Store) Client() rueidis.Client { return s.client }

// Timeout returns the longest a call to Redis waits, which a server that
// uses Client applies to its own calls too.
func (s *Store) Timeout() time.Duration { return s.timeout }

// Prefix returns the prefix of the store's keys, under which a server
// that uses Client keeps its own keys too.
func (s *Store) Prefix() string { return s.prefix }

// Close closes the store's connections.
func (s *Store) Close() { s.client.Close() }

// key returns the Redis key of a store key: the prefix, the key's group
// as a hash tag when it has one, then the key, or its digest when it is
// long. The keys of one group (see ratelimit.Store) share a hash slot, so
// a script that touches several of them runs on one server of a Redis
// Cluster, and groups spread across the cluster. A key without a group
// (a token, an address) is hashed whole, as it always was.
func (s *Store) key(k string) string {
	g, ok := group(k)
	if !ok {
		return s.prefix + ratelimit.ShortKey(k)
	}
	return s.prefix + "{" + hashTag(g) + "}" + ratelimit.ShortKey(k)
}

// group returns the group of key k: the text between its first "{" and
// the first "}" after it, the way Redis finds a hash tag.
func group(k string) (string, bool) {
	i := strings.IndexByte(k, '{')
	if i < 0 {
		return "", false
	}
	j := strings.IndexByte(k[i+1:], '}')
	if j < 0 {
		return "", false
	}
	return k[i+1 : i+1+j], true
}

// maxTag is the longest group kept as it is in a hash tag.
const maxTag = 64

// hashTag returns group g as a hash tag's content: g itself, or, when g
// would not survive as one (empty, or long), a digest of it, so that
// every key of a group gets the same tag.
func hashTag(g string) string {
	if g != "" && len(g) <= maxTag {
		return g
	}
	sum := sha256.Sum256([]byte(g))
	return "g:" + hex.EncodeToString(sum[:12])
}

// fail wraps err, logs it unless an error was logged less than LogEvery
// ago, and returns it.
func (s *Store) fail(op string, err error) error {
	e := &Error{Op: op, Err: err}
	now := time.Now()
	s.mu.Lock()
	if !s.lastLog.IsZero() && now.Sub(s.lastLog) < s.logEvery {
		s.quiet++
		s.mu.Unlock()
		return e
	}
	quiet := s.quiet
	s.lastLog, s.quiet = now, 0
	s.mu.Unlock()
	if quiet > 0 {
		s.logger.Printf("%v (and %d more errors since the last report; requests pass unlimited while the store fails)", e, quiet)
	} else {
		s.logger.Printf("%v (requests pass unlimited while the store fails)", e)
	}
	return e
}

// run runs a script within the store's timeout and returns its reply as
// integers, of which there must be want (a multiple of want when each is
// true).
func (s *Store) run(ctx context.Context, op string, script *rueidis.Lua, keys, args []string, want int, each bool) ([]int64, error) {
	slot := s.slot(keys)
	hung := s.hung.Load()
	if hung != nil {
		if until := hung[slot].Load(); until != 0 && time.Now().UnixNano() < until {
			return nil, s.fail(op, ErrHung)
		}
	}
	tctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	msgs, err := exec(tctx, s.client, script, keys, args)
	if err != nil {
		if ctx.Err() == nil && tctx.Err() != nil {
			// The store's own timeout, not the caller's.
			if hung == nil {
				s.hung.CompareAndSwap(nil, new([slots]atomic.Int64))
				hung = s.hung.Load()
			}
			hung[slot].Store(time.Now().Add(hungPause).UnixNano())
		}
		return nil, s.fail(op, err)
	}
	if hung != nil && hung[slot].Load() != 0 {
		hung[slot].Store(0)
	}
	if len(msgs) != want && !(each && want > 0 && len(msgs)%want == 0) {
		return nil, s.fail(op, fmt.Errorf("%w: %d values", ErrReply, len(msgs)))
	}
	out := make([]int64, len(msgs))
	for i, m := range msgs {
		if out[i], err = m.AsInt64(); err != nil {
			return nil, s.fail(op, fmt.Errorf("%w: %v", ErrReply, err))
		}
	}
	return out, nil
}

// slot returns the hash slot of a call's keys on a Redis Cluster (the
// first key's: a script's keys share one, or the call fails), 0 on any
// other Redis.
func (s *Store) slot(keys []string) uint16 {
	if !s.cluster || len(keys) == 0 {
		return 0
	}
	cmd := s.client.B().Get().Key(keys[0]).Build()
	return cmd.Slot()
}

// exec runs script, turning a panic of the client into an error: rueidis
// panics on a script whose keys lie in different hash slots of a Redis
// Cluster, and a store failure of any kind fails the call, never the
// request or the process.
func exec(ctx context.Context, c rueidis.Client, script *rueidis.Lua, keys, args []string) (msgs []rueidis.RedisMessage, err error) {
	defer func() {
		if p := recover(); p != nil {
			msgs, err = nil, fmt.Errorf("%w: %v", errClient, p)
		}
	}()
	return script.Exec(ctx, c, keys, args).ToArray()
}

// micros returns d in whole microseconds, rounded up.
func micros(d time.Duration) int64 {
	return int64((d + time.Microsecond - 1) / time.Microsecond)
}

// millis returns d in whole milliseconds, rounded up.
func millis(d time.Duration) int64 {
	return int64((d + time.Millisecond - 1) / time.Millisecond)
}

// fromMillis returns n milliseconds as a duration, at most header.MaxRetryAfter.
func fromMillis(n int64) time.Duration { return clamped(n, time.Millisecond) }

// fromMicros returns n microseconds as a duration, at most header.MaxRetryAfter.
func fromMicros(n int64) time.Duration { return clamped(n, time.Microsecond) }

// clamped returns n units as a duration, 0 when n is not above 0 and at
// most header.MaxRetryAfter, whatever a server replied (the product could
// overflow).
func clamped(n int64, unit time.Duration) time.Duration {
	if n <= 0 {
		return 0
	}
	if n >= int64(header.MaxRetryAfter/unit) {
		return header.MaxRetryAfter
	}
	return time.Duration(n) * unit
}

// Take implements ratelimit.Store with GCRA on the Redis clock: the
// bucket's key holds its theoretical arrival time and expires when the
// bucket is full again.
func (s *Store) Take(ctx context.Context, key string, _ time.Time, b ratelimit.Bucket) (ratelimit.Decision, error) {
	switch {
	case b.Rate == rate.Inf:
		return ratelimit.Decision{OK: true, Remaining: int64(b.Burst)}, nil
	case b.Burst < 1:
		// The bucket never holds a token.
		return ratelimit.Decision{RetryAfter: header.MaxRetryAfter}, nil
	}
	interval := float64(header.MaxRetryAfter / time.Microsecond)
	if b.Rate > 0 {
		interval = min(1e6/float64(b.Rate), interval)
	}
	r, err := s.run(ctx, "take", takeScript, []string{s.key(key)},
		[]string{strconv.FormatFloat(interval, 'g', -1, 64), strconv.Itoa(b.Burst)}, 4, false)
	if err != nil {
		return ratelimit.Decision{}, err
	}
	return ratelimit.Decision{
		OK:         r[0] == 1,
		Remaining:  max(r[1], 0),
		Reset:      fromMicros(r[2]),
		RetryAfter: fromMicros(r[3]),
	}, nil
}

// Add implements ratelimit.Store with INCRBY and PEXPIRE in one script. A
// new counter expires expires-t after now on the Redis clock; the Count's
// Expires is carried back to the caller's clock as t plus the time left.
func (s *Store) Add(ctx context.Context, key string, n int64, t, expires time.Time) (ratelimit.Counter, error) {
	r, err := s.run(ctx, "add", addScript, []string{s.key(key)},
		[]string{strconv.FormatInt(n, 10), strconv.FormatInt(millis(expires.Sub(t)), 10)}, 2, false)
	if err != nil {
		return ratelimit.Counter{}, err
	}
	c := ratelimit.Counter{Value: r[0]}
	switch {
	case r[1] >= 0:
		// The time left, held within header.MaxRetryAfter as every wait is.
		c.Expires = t.Add(fromMillis(r[1]))
	case n != 0:
		// Not kept: its expiry was not in the future.
		c.Expires = expires
	}
	return c, nil
}

// Spend implements ratelimit.Store: every limit is checked, then every
// limit charged, in one script. Counters are INCRBY strings that expire at
// the end of their period, meters hashes of a level and its time that
// expire once drained.
func (s *Store) Spend(ctx context.Context, ls []ratelimit.Quota, n int64, t time.Time) ([]ratelimit.Level, error) {
	if len(ls) == 0 {
		return nil, nil
	}
	keys := make([]string, len(ls))
	args := make([]string, 1, 1+4*len(ls))
	args[0] = strconv.FormatInt(n, 10)
	for i, l := range ls {
		keys[i] = s.key(l.Key)
		soft := "0"
		if l.Soft {
			soft = "1"
		}
		args = append(args, strconv.FormatInt(l.Max, 10), strconv.FormatInt(micros(max(l.Per, 0)), 10),
			strconv.FormatInt(millis(l.Expires.Sub(t)), 10), soft)
	}
	r, err := s.run(ctx, "spend", spendScript, keys, args, 3*len(ls), false)
	if err != nil {
		return nil, err
	}
	out := make([]ratelimit.Level, len(ls))
	for i := range out {
		out[i] = ratelimit.Level{OK: r[3*i] == 1, Used: r[3*i+1], Wait: fromMicros(r[3*i+2])}
	}
	return out, nil
}

package redisstore

import (
	"context"
	"errors"
	"fmt"
	"log"
	"math"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/rueidis"

	"github.com/mcperr/mcperr/ratelimit"
	"github.com/mcperr/mcperr/ratelimit/header"
)

// The keys of one group share a hash tag, whatever the group holds; a key
// without a group is hashed whole.
func TestKeyGroups(t *testing.T) {
	long := strings.Repeat("x", 100)
	s := &Store{prefix: "p:"}
	tests := []struct {
		a, b string
		same bool // the Redis keys of a and b share their hash tag
	}{
		{"{acct-7}:month", "{acct-7}:minute", true},
		{"budget\x00\x00month\x00{acct-7}\x00123", "budget\x00\x00credits\x00{acct-7}", true},
		{"{acct-7}:month", "{acct-8}:month", false},
		{"{" + long + "}:a", "{" + long + "}:b", true},
		{"{}:a", "{}:b", true},
		{"{a}b}:x", "{a}b}:y", true},
		{"token-1", "token-2", false},
	}
	tag := func(k string) string {
		rk := s.key(k)
		i := strings.IndexByte(rk, '{')
		j := strings.IndexByte(rk[i+1:], '}')
		if i < 0 || j <= 0 {
			return rk // no tag: Redis hashes the whole key
		}
		return rk[i+1 : i+1+j]
	}
	for _, tt := range tests {
		ta, tb := tag(tt.a), tag(tt.b)
		if (ta == tb) != tt.same {
			t.Errorf("%q has tag %q, %q has %q: same %v, want %v", s.key(tt.a), ta, s.key(tt.b), tb, ta == tb, tt.same)
		}
	}
	for k, want := range map[string]string{
		"{acct-7}:month": "p:{acct-7}{acct-7}:month",
		"token-1":        "p:token-1",
		long:             "p:" + ratelimit.ShortKey(long),
	} {
		if got := s.key(k); got != want {
			t.Errorf("key(%.20q) = %q, want %q", k, got, want)
		}
	}
}

// panicClient is a Redis client whose every call panics, as rueidis does
// on a script whose keys lie in different hash slots of a cluster.
type panicClient struct{ rueidis.Client }

func (panicClient) B() rueidis.Builder { panic("cross slot command") }

func (panicClient) Do(context.Context, rueidis.Completed) rueidis.RedisResult {
	panic("cross slot command")
}

// A panic of the client fails the call with an *Error, and a Limiter lets
// the request through: it never takes the request or the process down.
func TestClientPanicFailsOpen(t *testing.T) {
	logs := &syncBuffer{}
	s := &Store{client: panicClient{}, prefix: "p:", timeout: time.Second, logEvery: time.Hour, logger: log.New(logs, "", 0)}
	ctx := context.Background()
	now := time.Now()
	_, errTake := s.Take(ctx, "k", now, ratelimit.Bucket{Rate: 1, Burst: 1})
	_, errAdd := s.Add(ctx, "k", 1, now, now.Add(time.Second))
	_, errSpend := s.Spend(ctx, []ratelimit.Quota{{Key: "{a}:x", Max: 1}, {Key: "{b}:y", Max: 1}}, 1, now)
	for i, err := range []error{errTake, errAdd, errSpend} {
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, errClient) {
			t.Errorf("call %d: %v, want an *Error for the client's panic", i, err)
		}
	}
	lim := &ratelimit.Limiter{Rate: 1, Burst: 1, Store: s}
	if d := lim.AllowAt("k", now); !d.OK {
		t.Errorf("a Limiter on a panicking client: %+v, want the request allowed", d)
	}
	if !strings.Contains(logs.String(), "panicked") {
		t.Errorf("the panic was not logged: %q", logs)
	}
}

// Whatever a server replies, a wait the store reports stays within
// [0, header.MaxRetryAfter]: an expiry of 2^63-1 milliseconds, or a negative one, is
// never carried over as an overflowed time.
func TestHostileRepliesClamped(t *testing.T) {
	var reply atomic.Value
	url := fakeRedis(t, func(cmd []string) string {
		switch strings.ToUpper(cmd[0]) {
		case "HELLO":
			return "-ERR unknown command 'HELLO'\r\n"
		case "PING":
			return "+PONG\r\n"
		case "CLUSTER":
			return "-ERR This instance has cluster support disabled\r\n"
		case "EVALSHA", "EVAL":
			return reply.Load().(string)
		}
		return "+OK\r\n"
	})
	s, err := New(context.Background(), url, Options{Timeout: 5 * time.Second, ErrorLog: log.New(&syncBuffer{}, "", 0)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	now := time.Now()
	inRange := func(d time.Duration) bool { return d >= 0 && d <= header.MaxRetryAfter }
	for _, big := range []int64{math.MaxInt64, math.MaxInt64 / 1000, 1 << 53, -2, math.MinInt64} {
		n := fmt.Sprint(big)
		reply.Store("*2\r\n:1\r\n:" + n + "\r\n")
		c, err := s.Add(ctx, "k", 1, now, now.Add(time.Second))
		if err != nil {
			t.Fatal(err)
		}
		if left := c.Expires.Sub(now); !inRange(left) {
			t.Errorf("Add with %s ms left: expires in %v, want within [0, header.MaxRetryAfter]", n, left)
		}

		reply.Store("*4\r\n:0\r\n:" + n + "\r\n:" + n + "\r\n:" + n + "\r\n")
		d, err := s.Take(ctx, "k", now, ratelimit.Bucket{Rate: 1, Burst: 1})
		if err != nil {
			t.Fatal(err)
		}
		if !inRange(d.Reset) || !inRange(d.RetryAfter) || d.Remaining < 0 {
			t.Errorf("Take replying %s: %+v, want waits within [0, header.MaxRetryAfter]", n, d)
		}

		reply.Store("*3\r\n:0\r\n:" + n + "\r\n:" + n + "\r\n")
		lv, err := s.Spend(ctx, []ratelimit.Quota{{Key: "k", Max: 1}}, 1, now)
		if err != nil {
			t.Fatal(err)
		}
		if !inRange(lv[0].Wait) {
			t.Errorf("Spend replying %s: %+v, want a wait within [0, header.MaxRetryAfter]", n, lv[0])
		}
	}
}

// On a Redis Cluster, the limits are exact under concurrency as on one
// server: every script's keys share a hash slot.
func TestClusterExactUnder64Clients(t *testing.T) {
	exactUnder64Clients(t, clusterURL(t))
}

// On a Redis Cluster, a customer's keys share a slot, customers spread
// across the slots, and a Spend across two customers fails (and fails
// open) instead of panicking.
func TestClusterSlots(t *testing.T) {
	url := clusterURL(t)
	s, logs := newStoreAt(t, url, Options{LogEvery: time.Hour})
	ctx := context.Background()
	now := time.Now()
	slot := func(key string) int64 {
		n, err := s.client.Do(ctx, s.client.B().ClusterKeyslot().Key(key).Build()).AsInt64()
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if a, b := slot(s.key("{acct-7}:month")), slot(s.key("{acct-7}:minute")); a != b {
		t.Errorf("one customer's keys in slots %d and %d", a, b)
	}
	slots := map[int64]bool{}
	for i := range 100 {
		slots[slot(s.key(fmt.Sprintf("{acct-%d}:month", i)))] = true
	}
	if len(slots) < 90 {
		t.Errorf("100 customers in %d slots, want them spread", len(slots))
	}

	lv, err := s.Spend(ctx, credits("acct-7", 10, 10, now), 3, now)
	if err != nil || !lv[0].OK || !lv[1].OK {
		t.Fatalf("a Spend of one customer's quotas: %+v, %v", lv, err)
	}
	var e *Error
	_, err = s.Spend(ctx, []ratelimit.Quota{{Key: "{acct-1}:month", Max: 5}, {Key: "{acct-2}:month", Max: 5}}, 1, now)
	if !errors.As(err, &e) {
		t.Errorf("a Spend across customers: %v, want an *Error", err)
	}
	t.Log(strings.TrimSpace(logs.String()))
}

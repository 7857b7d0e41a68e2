package redisstore

import (
	"context"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/mcperr/mcperr/ratelimit"
)

// stores returns the stores a benchmark compares: MemoryStore, the
// anchor, and a Store on the test server.
func stores(b *testing.B) []struct {
	name string
	s    ratelimit.Store
} {
	out := []struct {
		name string
		s    ratelimit.Store
	}{{"memory", &ratelimit.MemoryStore{}}}
	if os.Getenv(EnvURL) != "" {
		s, _ := newStore(b, Options{})
		out = append(out, struct {
			name string
			s    ratelimit.Store
		}{"redis", s})
	}
	return out
}

// latencies runs op b.N times and reports the median and 99th percentile
// of one op, wall time (a round trip to Redis is mostly waiting).
func latencies(b *testing.B, op func(i int)) {
	d := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		op(i)
		d = append(d, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(d)
	if len(d) > 0 {
		b.ReportMetric(float64(d[len(d)/2].Nanoseconds()), "p50-ns")
		b.ReportMetric(float64(d[len(d)*99/100].Nanoseconds()), "p99-ns")
	}
}

// A Limiter's decision: one Take, one round trip on Redis.
func BenchmarkTake(b *testing.B) {
	for _, s := range stores(b) {
		b.Run(s.name, func(b *testing.B) {
			lim := &ratelimit.Limiter{Rate: 1e9, Burst: 1 << 30, Store: s.s}
			ctx := context.Background()
			now := time.Now()
			latencies(b, func(i int) {
				if _, err := lim.Check(ctx, "key-"+strconv.Itoa(i%64), now); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// A full reservation of a priced call: a Spend of its worst case on the
// month and the minute, then a refund down to a lower price (two round
// trips on Redis).
func BenchmarkReserve(b *testing.B) {
	for _, s := range stores(b) {
		b.Run(s.name, func(b *testing.B) {
			ctx := context.Background()
			now := time.Now()
			latencies(b, func(i int) {
				ls := credits("account-"+strconv.Itoa(i%64), 1<<50, 1<<40, now)
				lv, err := s.s.Spend(ctx, ls, 5, now)
				if err != nil || !lv[0].OK || !lv[1].OK {
					b.Fatal(lv, err)
				}
				if _, err := s.s.Spend(ctx, soft(ls), -3, now); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

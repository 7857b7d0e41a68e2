//go:build linux

package ratelimit

import (
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/mcperr/mcperr/internal/cputime"
)

// TestAllowRatio measures Limiter.Allow for a known key against its anchor,
// rate.Limiter.Allow, in CPU time rather than wall time, so a machine
// shared with other work still gives a fair ratio; and Limiter.AllowAt
// against rate.Limiter.AllowN, both given the time. Each round times a
// fixed count of N calls and of 2N calls of each side, the sides
// alternating, and takes (T(2N) - T(N)) / N as the cost of one call (the
// loop's and the clock reads' fixed costs cancel); the ratio printed is the
// median of the rounds' ratios. Both use a bucket of rate 1 and burst 1e9,
// so every call takes a token and the key stays known. It runs only with
// MCPERR_RATIOS=1, with one P so no other goroutine runs in between:
//
//	MCPERR_RATIOS=1 GOMAXPROCS=1 go test -count=1 -run TestAllowRatio -v ./ratelimit
//
// The goal for Allow: at most 1.5x. AllowAt has none (see BENCHMARKS.md).
func TestAllowRatio(t *testing.T) {
	if os.Getenv("MCPERR_RATIOS") == "" {
		t.Skip("set MCPERR_RATIOS=1 to measure")
	}
	const (
		n      = 2_000_000
		rounds = 7
	)
	key := "token-0123456789abcdef"
	at := time.Now()
	cases := []struct {
		name         string
		ours, anchor func(count int) time.Duration
		goal         float64
	}{
		{"Limiter.Allow / rate.Limiter.Allow",
			func(count int) time.Duration {
				l := NewLimiter(1, 1e9)
				l.Allow(key)
				t0 := cputime.Process()
				for range count {
					l.Allow(key)
				}
				return cputime.Process() - t0
			},
			func(count int) time.Duration {
				lim := rate.NewLimiter(1, 1e9)
				t0 := cputime.Process()
				for range count {
					lim.Allow()
				}
				return cputime.Process() - t0
			}, 1.5},
		{"Limiter.AllowAt / rate.Limiter.AllowN",
			func(count int) time.Duration {
				l := NewLimiter(1, 1e9)
				l.AllowAt(key, at)
				t0 := cputime.Process()
				for range count {
					l.AllowAt(key, at)
				}
				return cputime.Process() - t0
			},
			func(count int) time.Duration {
				lim := rate.NewLimiter(1, 1e9)
				t0 := cputime.Process()
				for range count {
					lim.AllowN(at, 1)
				}
				return cputime.Process() - t0
			}, 0},
	}
	perCall := func(f func(int) time.Duration) float64 {
		one := f(n)
		two := f(2 * n)
		return float64(two-one) / n
	}
	med := func(v []float64) float64 {
		v = slices.Clone(v)
		slices.Sort(v)
		return v[len(v)/2]
	}
	for _, c := range cases {
		var o, a, r []float64
		for i := range rounds {
			var x, y float64
			if i%2 == 0 {
				x, y = perCall(c.ours), perCall(c.anchor)
			} else {
				y, x = perCall(c.anchor), perCall(c.ours)
			}
			o, a, r = append(o, x), append(a, y), append(r, x/y)
		}
		verdict := "(no goal)"
		if c.goal > 0 {
			verdict = fmt.Sprintf("goal <= %.1fx: met", c.goal)
			if med(r) > c.goal {
				verdict = fmt.Sprintf("goal <= %.1fx: MISSED", c.goal)
			}
		}
		t.Logf("%s: %.1f / %.1f ns (CPU, medians of %d rounds) = %.2fx, rounds %.2f; %s",
			c.name, med(o), med(a), rounds, med(r), r, verdict)
	}
}

package ratelimit

import (
	"strconv"
	"testing"
	"time"

	"golang.org/x/time/rate"
)

// The anchor the keyed limiter is measured against: a bare rate.Limiter, one bucket, no key. Every
// benchmark here uses a bucket of rate 1 and burst 1e9, so each call takes
// a token and a Limiter's bucket never refills to full (and is never
// forgotten): the key stays known. Ratios: see BENCHMARKS.md.
func BenchmarkRateLimiterAllow(b *testing.B) {
	lim := rate.NewLimiter(1, 1e9)
	b.ReportAllocs()
	for b.Loop() {
		lim.Allow()
	}
}

func BenchmarkRateLimiterAllowParallel(b *testing.B) {
	lim := rate.NewLimiter(1, 1e9)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			lim.Allow()
		}
	})
}

// A Limiter's decision for a key it knows.
func BenchmarkLimiterAllow(b *testing.B) {
	l := NewLimiter(1, 1e9)
	key := "token-0123456789abcdef"
	l.Allow(key)
	b.ReportAllocs()
	for b.Loop() {
		l.Allow(key)
	}
}

func BenchmarkLimiterAllowParallel(b *testing.B) {
	l := NewLimiter(1, 1e9)
	key := "token-0123456789abcdef"
	l.Allow(key)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			l.Allow(key)
		}
	})
}

// Parallel, each goroutine on a key of its own among 1,000 known keys.
func BenchmarkLimiterAllowParallelKeys(b *testing.B) {
	l := NewLimiter(1, 1e9)
	keys := make([]string, 1000)
	for i := range keys {
		keys[i] = "token-" + strconv.Itoa(i)
		l.Allow(keys[i])
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			l.Allow(keys[i%len(keys)])
			i++
		}
	})
}

// AllowAt with a given time, against rate.Limiter.AllowN with the same.
func BenchmarkRateLimiterAllowN(b *testing.B) {
	lim := rate.NewLimiter(1, 1e9)
	t := time.Now()
	b.ReportAllocs()
	for b.Loop() {
		lim.AllowN(t, 1)
	}
}

func BenchmarkLimiterAllowAt(b *testing.B) {
	l := NewLimiter(1, 1e9)
	key := "token-0123456789abcdef"
	t := time.Now()
	b.ReportAllocs()
	for b.Loop() {
		l.AllowAt(key, t)
	}
}

package ratelimit

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/ratelimit/header"
)

// Whatever the decision, SetHeaders writes fields that package header's
// reader reads back to the same figures.
func FuzzDecisionSetHeaders(f *testing.F) {
	f.Add(false, int64(50*time.Millisecond), int64(20), int64(0), int64(time.Second), int64(time.Second), "default")
	f.Add(true, int64(0), int64(100), int64(42), int64(7500*time.Millisecond), int64(10*time.Second), "edge")
	f.Add(false, int64(maxWait), int64(-1), int64(-5), int64(-1), int64(-1), "a\"b\\c\x00")
	f.Add(false, int64(1<<62), int64(1<<62), int64(1<<62), int64(1<<62), int64(1<<62), "")
	f.Fuzz(func(t *testing.T, ok bool, retry, limit, remaining, reset, window int64, policy string) {
		d := Decision{OK: ok, RetryAfter: time.Duration(retry), Limit: limit, Remaining: remaining,
			Reset: time.Duration(reset), Window: time.Duration(window), Policy: policy}
		h := http.Header{}
		d.SetHeaders(h)
		info := header.Parse(h, limiterT0)

		secs := wholeSecondsUp(max(d.Reset, 0), 0)
		want := header.Limits{
			Limit: max(limit, 0), Remaining: max(remaining, 0),
			Reset:    time.Duration(min(secs, maxResetSeconds)) * time.Second,
			HasLimit: true, HasRemaining: true, HasReset: true,
		}
		if want.Reset > 365*24*time.Hour { // the reader believes no reset beyond a year
			want.Reset, want.HasReset = 0, false
		}
		if diff := cmp.Diff(want, info.Limits); diff != "" {
			t.Errorf("%+v: limits read back (-want +got):\n%s\nheaders: %v", d, diff, h)
		}
		if info.HasRetryAfter == ok {
			t.Errorf("%+v: HasRetryAfter = %v", d, info.HasRetryAfter)
		}
		if !ok {
			w := min(wholeSecondsUp(d.RetryAfter, 1), 1<<31)
			if info.RetryAfter != time.Duration(w)*time.Second {
				t.Errorf("%+v: Retry-After read back as %v, want %ds", d, info.RetryAfter, w)
			}
		}
		if len(info.Policies) != 1 || len(info.Current) != 1 {
			t.Fatalf("%+v: RateLimit-Policy %q and RateLimit %q read back as %+v, %+v", d, h.Get("RateLimit-Policy"), h.Get("RateLimit"), info.Policies, info.Current)
		}
		if info.Policies[0].Quota != min(want.Limit, maxSFInteger) || info.Current[0].Remaining != min(want.Remaining, maxSFInteger) || info.Policies[0].Name != info.Current[0].Policy {
			t.Errorf("%+v: structured fields read back as %+v, %+v", d, info.Policies, info.Current)
		}
	})
}

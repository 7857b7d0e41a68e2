package ratelimit

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// budgetT0 is 4 days, 13 hours and 30 minutes before December: 394200
// seconds, the wait a refused monthly budget reports, away from the
// month's end.
var budgetT0 = time.Date(2026, 11, 26, 10, 30, 0, 0, time.UTC)

var (
	freePlan = Plan{MessagesPerMinute: 60, CreditsPerMinute: 10, CreditsPerMonth: 1000, StopAtAllocation: true}
	proPlan  = Plan{MessagesPerMinute: 60, CreditsPerMinute: 10, CreditsPerMonth: 1000}
)

func TestBudgetReserve(t *testing.T) {
	type call struct {
		at     time.Duration // since budgetT0
		max    int64
		actual int64 // settled right after, when OK
		want   Verdict
	}
	tests := []struct {
		name  string
		plan  Plan
		spent int64 // credits spent this month before the calls, a minute earlier
		calls []call
	}{{
		name:  "insufficient credits: the wait is the 394200 seconds to the month's end",
		plan:  freePlan,
		spent: 1000,
		calls: []call{{max: 3, want: Verdict{
			Refusal:    InsufficientCredits,
			RetryAfter: 394200 * time.Second,
			Month:      Usage{Limit: 1000, Used: 1000, Remaining: 0},
		}}},
	}, {
		name:  "the last credits fit exactly, the next call does not",
		plan:  freePlan,
		spent: 997,
		calls: []call{
			{max: 3, actual: 3, want: Verdict{OK: true, Credits: Usage{10, 3, 7}, Month: Usage{1000, 1000, 0}}},
			{max: 1, want: Verdict{Refusal: InsufficientCredits, RetryAfter: 394200 * time.Second, Month: Usage{1000, 1000, 0}}},
			// A free call always fits.
			{max: 0, want: Verdict{OK: true, Credits: Usage{10, 3, 7}, Month: Usage{1000, 1000, 0}}},
		},
	}, {
		name:  "overage: a key that does not stop at its allocation",
		plan:  proPlan,
		spent: 1000,
		calls: []call{
			{max: 3, actual: 2, want: Verdict{OK: true, Credits: Usage{10, 3, 7}, Month: Usage{1000, 1003, 0}}},
			{max: 3, actual: 3, want: Verdict{OK: true, Credits: Usage{10, 5, 5}, Month: Usage{1000, 1005, 0}}},
		},
	}, {
		name: "the minute's credits refill continuously: credit_rate_limited until this call fits",
		plan: proPlan, // 10 credits a minute: one every 6 seconds
		calls: []call{
			{at: 0, max: 10, actual: 10, want: Verdict{OK: true, Credits: Usage{10, 10, 0}, Month: Usage{1000, 10, 990}}},
			{at: 0, max: 1, want: Verdict{
				Refusal:    CreditRateLimited,
				RetryAfter: 6 * time.Second,
				Credits:    Usage{10, 10, 0},
				Month:      Usage{1000, 10, 990},
			}},
			// Half a credit has come back: the wait is for the other half.
			{at: 3 * time.Second, max: 1, want: Verdict{
				Refusal:    CreditRateLimited,
				RetryAfter: 3 * time.Second,
				Credits:    Usage{10, 10, 0},
				Month:      Usage{1000, 10, 990},
			}},
			{at: 6 * time.Second, max: 1, actual: 1, want: Verdict{OK: true, Credits: Usage{10, 10, 0}, Month: Usage{1000, 11, 989}}},
			// A larger call waits for all it may cost.
			{at: 9 * time.Second, max: 2, want: Verdict{
				Refusal:    CreditRateLimited,
				RetryAfter: 9 * time.Second,
				Credits:    Usage{10, 10, 0},
				Month:      Usage{1000, 11, 989},
			}},
			// A call that cost nothing gives its reservation back...
			{at: 12 * time.Second, max: 1, actual: 0, want: Verdict{OK: true, Credits: Usage{10, 10, 0}, Month: Usage{1000, 12, 988}}},
			// ...so the next one fits at once.
			{at: 12 * time.Second, max: 1, actual: 1, want: Verdict{OK: true, Credits: Usage{10, 10, 0}, Month: Usage{1000, 12, 988}}},
			// A minute later the credits are all back.
			{at: 72 * time.Second, max: 10, actual: 10, want: Verdict{OK: true, Credits: Usage{10, 10, 0}, Month: Usage{1000, 22, 978}}},
		},
	}, {
		name: "a call above the credits a minute can never fit: credit_budget_exceeded, not a retry",
		plan: proPlan,
		calls: []call{
			{max: 11, want: Verdict{Refusal: CreditBudgetExceeded}},
			{max: 10, actual: 1, want: Verdict{OK: true, Credits: Usage{10, 10, 0}, Month: Usage{1000, 10, 990}}},
		},
	}, {
		name:  "both spent: the month's refusal wins",
		plan:  freePlan,
		spent: 999,
		calls: []call{
			{max: 1, actual: 1, want: Verdict{OK: true, Credits: Usage{10, 1, 9}, Month: Usage{1000, 1000, 0}}},
			{max: 10, want: Verdict{Refusal: InsufficientCredits, RetryAfter: 394200 * time.Second, Month: Usage{1000, 1000, 0}}},
		},
	}, {
		name: "no per-minute limit",
		plan: Plan{CreditsPerMonth: 5, StopAtAllocation: true},
		calls: []call{
			{max: 5, actual: 5, want: Verdict{OK: true, Month: Usage{5, 5, 0}}},
			{max: 1, want: Verdict{Refusal: InsufficientCredits, RetryAfter: 394200 * time.Second, Month: Usage{5, 5, 0}}},
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b Budget
			ctx := context.Background()
			if tt.spent > 0 {
				r, err := b.ReserveAt(ctx, "key", Plan{CreditsPerMonth: tt.plan.CreditsPerMonth}, tt.spent, budgetT0.Add(-time.Minute))
				if err != nil || !r.OK {
					t.Fatalf("spending %d: %+v, %v", tt.spent, r.Verdict, err)
				}
			}
			for i, c := range tt.calls {
				at := budgetT0.Add(c.at)
				r, err := b.ReserveAt(ctx, "key", tt.plan, c.max, at)
				if err != nil {
					t.Fatalf("call %d: %v", i, err)
				}
				if diff := cmp.Diff(c.want, r.Verdict); diff != "" {
					t.Errorf("call %d (max %d at %v): verdict mismatch (-want +got):\n%s", i, c.max, c.at, diff)
				}
				if err := r.SettleAt(ctx, c.actual, at); err != nil {
					t.Fatalf("call %d: settle: %v", i, err)
				}
			}
		})
	}
}

func TestVerdictRetryAfterSeconds(t *testing.T) {
	tests := []struct {
		v    Verdict
		want int64
	}{
		{Verdict{OK: true}, 0},
		{Verdict{Refusal: CreditRateLimited}, 1},
		{Verdict{Refusal: CreditRateLimited, RetryAfter: 1500 * time.Millisecond}, 2},
		{Verdict{Refusal: InsufficientCredits, RetryAfter: 394200 * time.Second}, 394200},
	}
	for _, tt := range tests {
		if got := tt.v.RetryAfterSeconds(); got != tt.want {
			t.Errorf("%+v.RetryAfterSeconds() = %d, want %d", tt.v, got, tt.want)
		}
	}
}

func TestBudgetMessage(t *testing.T) {
	var b Budget
	ctx := context.Background()
	plan := Plan{MessagesPerMinute: 3}
	type result struct {
		At time.Duration
		V  Verdict
	}
	var got []result
	for _, at := range []time.Duration{0, time.Second, 2 * time.Second, 30 * time.Second, 45 * time.Second, 60 * time.Second} {
		v, err := b.MessageAt(ctx, "key", plan, budgetT0.Add(at))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, result{at, v})
	}
	want := []result{
		{0, Verdict{OK: true, Messages: Usage{3, 1, 2}}},
		{time.Second, Verdict{OK: true, Messages: Usage{3, 2, 1}}},
		{2 * time.Second, Verdict{OK: true, Messages: Usage{3, 3, 0}}},
		{30 * time.Second, Verdict{Refusal: MessageRateLimited, RetryAfter: 30 * time.Second, Messages: Usage{3, 3, 0}}},
		// Refusals are not counted.
		{45 * time.Second, Verdict{Refusal: MessageRateLimited, RetryAfter: 15 * time.Second, Messages: Usage{3, 3, 0}}},
		{60 * time.Second, Verdict{OK: true, Messages: Usage{3, 1, 2}}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("verdicts mismatch (-want +got):\n%s", diff)
	}

	// No limit: nothing counted, nothing refused.
	for range 100 {
		if v, _ := b.MessageAt(ctx, "other", Plan{}, budgetT0); !v.OK {
			t.Fatalf("unlimited plan refused: %+v", v)
		}
	}
}

// monthUsed reads the credits used this month by key.
func monthUsed(t *testing.T, b *Budget, key string, at time.Time) int64 {
	t.Helper()
	r, err := b.ReserveAt(context.Background(), key, Plan{}, 0, at)
	if err != nil {
		t.Fatal(err)
	}
	return r.Month.Used
}

func TestReservationSettle(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name   string
		settle func(r *Reservation) // the settlements, in order
		want   int64                // the month's credits used after them
	}{
		{"actual below the worst case: the rest refunded", func(r *Reservation) { r.SettleAt(ctx, 1, budgetT0) }, 1},
		{"actual equal", func(r *Reservation) { r.SettleAt(ctx, 3, budgetT0) }, 3},
		{"actual above the worst case: charged", func(r *Reservation) { r.SettleAt(ctx, 5, budgetT0) }, 5},
		{"negative actual is zero", func(r *Reservation) { r.SettleAt(ctx, -7, budgetT0) }, 0},
		{"settled twice: the second does nothing", func(r *Reservation) {
			r.SettleAt(ctx, 1, budgetT0)
			r.SettleAt(ctx, 0, budgetT0)
		}, 1},
		{"never settled: the worst case stands", func(r *Reservation) {}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b Budget
			r, err := b.ReserveAt(ctx, "key", proPlan, 3, budgetT0)
			if err != nil || !r.OK || r.Reserved() != 3 {
				t.Fatalf("reserve: %+v reserved %d, %v", r.Verdict, r.Reserved(), err)
			}
			tt.settle(r)
			if got := monthUsed(t, &b, "key", budgetT0); got != tt.want {
				t.Errorf("month used = %d, want %d", got, tt.want)
			}
		})
	}
}

// A refused call refunds nothing it never reserved.
func TestReservationRefusedSettles(t *testing.T) {
	var b Budget
	ctx := context.Background()
	plan := Plan{CreditsPerMonth: 2, StopAtAllocation: true}
	ok, _ := b.ReserveAt(ctx, "key", plan, 2, budgetT0)
	refused, _ := b.ReserveAt(ctx, "key", plan, 2, budgetT0)
	if !ok.OK || refused.OK || refused.Reserved() != 0 {
		t.Fatalf("reservations: %+v, %+v", ok.Verdict, refused.Verdict)
	}
	if err := refused.SettleAt(ctx, 0, budgetT0); err != nil {
		t.Fatal(err)
	}
	if got := monthUsed(t, &b, "key", budgetT0); got != 2 {
		t.Errorf("month used = %d, want 2", got)
	}
}

// A refund for a period that has ended is dropped; an extra charge goes to
// the period of the settlement.
func TestReservationSettleAcrossPeriods(t *testing.T) {
	ctx := context.Background()
	end := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	before := end.Add(-time.Second)

	var b Budget
	r, _ := b.ReserveAt(ctx, "key", proPlan, 3, before)
	r.SettleAt(ctx, 1, end) // refund after the month ended
	s, _ := b.ReserveAt(ctx, "key", proPlan, 3, before)
	s.SettleAt(ctx, 5, end) // 2 more than reserved, charged in December
	got := []int64{monthUsed(t, &b, "key", before), monthUsed(t, &b, "key", end)}
	if diff := cmp.Diff([]int64{6, 2}, got); diff != "" {
		t.Errorf("November, December used (-want +got):\n%s", diff)
	}

	// The minute's refund, within the minute, makes room.
	var c Budget
	plan := Plan{CreditsPerMinute: 3, CreditsPerMonth: 100}
	at := budgetT0
	r, _ = c.ReserveAt(ctx, "key", plan, 3, at)
	r.SettleAt(ctx, 0, at.Add(time.Second))
	if r2, _ := c.ReserveAt(ctx, "key", plan, 3, at.Add(2*time.Second)); !r2.OK {
		t.Errorf("after a full refund, the minute refused: %+v", r2.Verdict)
	}
}

// Months begin in the budget's Location.
func TestBudgetLocation(t *testing.T) {
	tokyo := time.FixedZone("JST", 9*3600)
	b := Budget{Location: tokyo}
	at := time.Date(2026, 11, 30, 14, 0, 0, 0, time.UTC) // November 30th, 23:00 in Tokyo
	r, _ := b.ReserveAt(context.Background(), "key", Plan{CreditsPerMonth: 0, StopAtAllocation: true}, 1, at)
	if diff := cmp.Diff(Verdict{Refusal: InsufficientCredits, RetryAfter: time.Hour}, r.Verdict); diff != "" {
		t.Errorf("verdict mismatch (-want +got):\n%s", diff)
	}
}

func TestBudgetStoreFails(t *testing.T) {
	b := Budget{Store: failingStore{}}
	ctx := context.Background()
	v, err := b.MessageAt(ctx, "key", freePlan, budgetT0)
	if !errors.Is(err, errStoreDown) || !v.OK {
		t.Errorf("MessageAt: %+v, %v; want allowed with the error", v, err)
	}
	r, err := b.ReserveAt(ctx, "key", freePlan, 3, budgetT0)
	if !errors.Is(err, errStoreDown) || !r.OK || r.Reserved() != 0 {
		t.Errorf("ReserveAt: %+v reserved %d, %v; want allowed uncharged with the error", r.Verdict, r.Reserved(), err)
	}
}

// Many goroutines reserving at once never spend more than the allocation:
// with calls priced exactly, the calls that run spend all of it.
func TestBudgetConcurrent(t *testing.T) {
	var b Budget
	ctx := context.Background()
	plan := Plan{MessagesPerMinute: 500, CreditsPerMonth: 300, StopAtAllocation: true}
	var (
		wg                    sync.WaitGroup
		granted, refused, msg atomic.Int64
	)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				if v, _ := b.MessageAt(ctx, "key", plan, budgetT0); v.OK {
					msg.Add(1)
				}
				r, err := b.ReserveAt(ctx, "key", plan, 1, budgetT0)
				if err != nil {
					t.Error(err)
					return
				}
				if r.OK {
					granted.Add(1)
					r.SettleAt(ctx, 1, budgetT0)
				} else {
					refused.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	used := monthUsed(t, &b, "key", budgetT0)
	type totals struct{ Messages, Used, Calls int64 }
	got := totals{msg.Load(), used, granted.Load() + refused.Load()}
	if diff := cmp.Diff(totals{500, 300, 800}, got); diff != "" {
		t.Errorf("totals mismatch (-want +got):\n%s", diff)
	}
	if granted.Load() != 300 {
		t.Errorf("%d calls granted, want 300", granted.Load())
	}
}

// Reserving more than is settled, concurrently: what is used is exactly
// what was settled, and never more than the allocation.
func TestBudgetConcurrentRefunds(t *testing.T) {
	var b Budget
	ctx := context.Background()
	plan := Plan{CreditsPerMinute: 1 << 40, CreditsPerMonth: 300, StopAtAllocation: true}
	var (
		wg      sync.WaitGroup
		granted atomic.Int64
	)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				r, _ := b.ReserveAt(ctx, "key", plan, 5, budgetT0)
				if r.OK {
					granted.Add(1)
					r.SettleAt(ctx, 1, budgetT0)
				}
			}
		}()
	}
	wg.Wait()
	used := monthUsed(t, &b, "key", budgetT0)
	if used != granted.Load() || used > 300 || used < 296 {
		t.Errorf("used %d with %d calls granted at 1 credit each; want them equal, within [296, 300]", used, granted.Load())
	}
}

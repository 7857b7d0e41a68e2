package mcpserver

import (
	"context"
	"errors"
	"math"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/examples/internal/redistest"
	"github.com/mcperr/mcperr/ratelimit"
	"github.com/mcperr/mcperr/ratelimit/header"
)

// budgetT0 is 4 days, 13 hours and 30 minutes before December: 394200
// seconds, the wait a refused monthly budget reports, away from the
// month's end.
var budgetT0 = time.Date(2026, 11, 26, 10, 30, 0, 0, time.UTC)

var (
	freePlan = allowance{MessagesPerMinute: 60, CreditsPerMinute: 10, CreditsPerMonth: 1000, StopAtAllocation: true}
	proPlan  = allowance{MessagesPerMinute: 60, CreditsPerMinute: 10, CreditsPerMonth: 1000}
)

func TestBudgetReserve(t *testing.T) {
	type call struct {
		at     time.Duration // since budgetT0
		max    int64
		actual int64 // settled right after, when OK
		want   verdict
	}
	tests := []struct {
		name  string
		plan  allowance
		spent int64 // credits spent this month before the calls, a minute earlier
		calls []call
	}{{
		name:  "insufficient credits: the wait is the 394200 seconds to the month's end",
		plan:  freePlan,
		spent: 1000,
		calls: []call{{max: 3, want: verdict{
			Refusal:    InsufficientCredits,
			RetryAfter: 394200 * time.Second,
			Month:      usage{Limit: 1000, Used: 1000, Remaining: 0},
		}}},
	}, {
		name:  "the last credits fit exactly, the next call does not",
		plan:  freePlan,
		spent: 997,
		calls: []call{
			{max: 3, actual: 3, want: verdict{OK: true, Credits: usage{10, 3, 7}, Month: usage{1000, 1000, 0}}},
			{max: 1, want: verdict{Refusal: InsufficientCredits, RetryAfter: 394200 * time.Second, Month: usage{1000, 1000, 0}}},
			// A free call always fits.
			{max: 0, want: verdict{OK: true, Credits: usage{10, 3, 7}, Month: usage{1000, 1000, 0}}},
		},
	}, {
		name:  "overage: a key that does not stop at its allocation",
		plan:  proPlan,
		spent: 1000,
		calls: []call{
			{max: 3, actual: 2, want: verdict{OK: true, Credits: usage{10, 3, 7}, Month: usage{1000, 1003, 0}}},
			{max: 3, actual: 3, want: verdict{OK: true, Credits: usage{10, 5, 5}, Month: usage{1000, 1005, 0}}},
		},
	}, {
		name: "the minute's credits refill continuously: credit_rate_limited until this call fits",
		plan: proPlan, // 10 credits a minute: one every 6 seconds
		calls: []call{
			{at: 0, max: 10, actual: 10, want: verdict{OK: true, Credits: usage{10, 10, 0}, Month: usage{1000, 10, 990}}},
			{at: 0, max: 1, want: verdict{
				Refusal:    CreditRateLimited,
				RetryAfter: 6 * time.Second,
				Credits:    usage{10, 10, 0},
				Month:      usage{1000, 10, 990},
			}},
			// Half a credit has come back: the wait is for the other half.
			{at: 3 * time.Second, max: 1, want: verdict{
				Refusal:    CreditRateLimited,
				RetryAfter: 3 * time.Second,
				Credits:    usage{10, 10, 0},
				Month:      usage{1000, 10, 990},
			}},
			{at: 6 * time.Second, max: 1, actual: 1, want: verdict{OK: true, Credits: usage{10, 10, 0}, Month: usage{1000, 11, 989}}},
			// A larger call waits for all it may cost.
			{at: 9 * time.Second, max: 2, want: verdict{
				Refusal:    CreditRateLimited,
				RetryAfter: 9 * time.Second,
				Credits:    usage{10, 10, 0},
				Month:      usage{1000, 11, 989},
			}},
			// A call that cost nothing gives its reservation back...
			{at: 12 * time.Second, max: 1, actual: 0, want: verdict{OK: true, Credits: usage{10, 10, 0}, Month: usage{1000, 12, 988}}},
			// ...so the next one fits at once.
			{at: 12 * time.Second, max: 1, actual: 1, want: verdict{OK: true, Credits: usage{10, 10, 0}, Month: usage{1000, 12, 988}}},
			// A minute later the credits are all back.
			{at: 72 * time.Second, max: 10, actual: 10, want: verdict{OK: true, Credits: usage{10, 10, 0}, Month: usage{1000, 22, 978}}},
		},
	}, {
		name: "a call above the credits a minute can never fit: credit_budget_exceeded, not a retry",
		plan: proPlan,
		calls: []call{
			{max: 11, want: verdict{Refusal: CreditBudgetExceeded}},
			{max: 10, actual: 1, want: verdict{OK: true, Credits: usage{10, 10, 0}, Month: usage{1000, 10, 990}}},
		},
	}, {
		name:  "both spent: the month's refusal wins",
		plan:  freePlan,
		spent: 999,
		calls: []call{
			{max: 1, actual: 1, want: verdict{OK: true, Credits: usage{10, 1, 9}, Month: usage{1000, 1000, 0}}},
			{max: 10, want: verdict{Refusal: InsufficientCredits, RetryAfter: 394200 * time.Second, Month: usage{1000, 1000, 0}}},
		},
	}, {
		name: "no per-minute limit",
		plan: allowance{CreditsPerMonth: 5, StopAtAllocation: true},
		calls: []call{
			{max: 5, actual: 5, want: verdict{OK: true, Month: usage{5, 5, 0}}},
			{max: 1, want: verdict{Refusal: InsufficientCredits, RetryAfter: 394200 * time.Second, Month: usage{5, 5, 0}}},
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b budget
			ctx := context.Background()
			if tt.spent > 0 {
				r, err := b.reserveAt(ctx, "key", allowance{CreditsPerMonth: tt.plan.CreditsPerMonth}, tt.spent, budgetT0.Add(-time.Minute))
				if err != nil || !r.OK {
					t.Fatalf("spending %d: %+v, %v", tt.spent, r.verdict, err)
				}
			}
			for i, c := range tt.calls {
				at := budgetT0.Add(c.at)
				r, err := b.reserveAt(ctx, "key", tt.plan, c.max, at)
				if err != nil {
					t.Fatalf("call %d: %v", i, err)
				}
				if diff := cmp.Diff(c.want, r.verdict); diff != "" {
					t.Errorf("call %d (max %d at %v): verdict mismatch (-want +got):\n%s", i, c.max, c.at, diff)
				}
				if err := r.settleAt(ctx, c.actual, at); err != nil {
					t.Fatalf("call %d: settle: %v", i, err)
				}
			}
		})
	}
}

func TestVerdictRetryAfterSeconds(t *testing.T) {
	tests := []struct {
		v    verdict
		want int64
	}{
		{verdict{OK: true}, 0},
		{verdict{Refusal: CreditRateLimited}, 1},
		{verdict{Refusal: CreditRateLimited, RetryAfter: 1500 * time.Millisecond}, 2},
		{verdict{Refusal: InsufficientCredits, RetryAfter: 394200 * time.Second}, 394200},
	}
	for _, tt := range tests {
		if got := tt.v.retryAfterSeconds(); got != tt.want {
			t.Errorf("%+v.retryAfterSeconds() = %d, want %d", tt.v, got, tt.want)
		}
	}
}

func TestBudgetMessage(t *testing.T) {
	var b budget
	ctx := context.Background()
	plan := allowance{MessagesPerMinute: 3}
	type result struct {
		At time.Duration
		V  verdict
	}
	var got []result
	for _, at := range []time.Duration{0, time.Second, 2 * time.Second, 30 * time.Second, 45 * time.Second, 60 * time.Second} {
		v, err := b.messageAt(ctx, "key", plan, budgetT0.Add(at))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, result{at, v})
	}
	want := []result{
		{0, verdict{OK: true, Messages: usage{3, 1, 2}}},
		{time.Second, verdict{OK: true, Messages: usage{3, 2, 1}}},
		{2 * time.Second, verdict{OK: true, Messages: usage{3, 3, 0}}},
		{30 * time.Second, verdict{Refusal: MessageRateLimited, RetryAfter: 30 * time.Second, Messages: usage{3, 3, 0}}},
		// Refusals are not counted.
		{45 * time.Second, verdict{Refusal: MessageRateLimited, RetryAfter: 15 * time.Second, Messages: usage{3, 3, 0}}},
		{60 * time.Second, verdict{OK: true, Messages: usage{3, 1, 2}}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("verdicts mismatch (-want +got):\n%s", diff)
	}

	// No limit: nothing counted, nothing refused.
	for range 100 {
		if v, _ := b.messageAt(ctx, "other", allowance{}, budgetT0); !v.OK {
			t.Fatalf("unlimited plan refused: %+v", v)
		}
	}
}

// ledgerMonthUsed reads the credits used this month by key.
func ledgerMonthUsed(t *testing.T, b *budget, key string, at time.Time) int64 {
	t.Helper()
	r, err := b.reserveAt(context.Background(), key, allowance{}, 0, at)
	if err != nil {
		t.Fatal(err)
	}
	return r.Month.Used
}

func TestReservationSettle(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name   string
		settle func(r *reservation) // the settlements, in order
		want   int64                // the month's credits used after them
	}{
		{"actual below the worst case: the rest refunded", func(r *reservation) { r.settleAt(ctx, 1, budgetT0) }, 1},
		{"actual equal", func(r *reservation) { r.settleAt(ctx, 3, budgetT0) }, 3},
		{"actual above the worst case: charged", func(r *reservation) { r.settleAt(ctx, 5, budgetT0) }, 5},
		{"negative actual is zero", func(r *reservation) { r.settleAt(ctx, -7, budgetT0) }, 0},
		{"settled twice: the second does nothing", func(r *reservation) {
			r.settleAt(ctx, 1, budgetT0)
			r.settleAt(ctx, 0, budgetT0)
		}, 1},
		{"never settled: the worst case stands", func(r *reservation) {}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b budget
			r, err := b.reserveAt(ctx, "key", proPlan, 3, budgetT0)
			if err != nil || !r.OK || r.charged() != 3 {
				t.Fatalf("reserve: %+v reserved %d, %v", r.verdict, r.charged(), err)
			}
			tt.settle(r)
			if got := ledgerMonthUsed(t, &b, "key", budgetT0); got != tt.want {
				t.Errorf("month used = %d, want %d", got, tt.want)
			}
		})
	}
}

// A refused call refunds nothing it never reserved.
func TestReservationRefusedSettles(t *testing.T) {
	var b budget
	ctx := context.Background()
	plan := allowance{CreditsPerMonth: 2, StopAtAllocation: true}
	ok, _ := b.reserveAt(ctx, "key", plan, 2, budgetT0)
	refused, _ := b.reserveAt(ctx, "key", plan, 2, budgetT0)
	if !ok.OK || refused.OK || refused.charged() != 0 {
		t.Fatalf("reservations: %+v, %+v", ok.verdict, refused.verdict)
	}
	if err := refused.settleAt(ctx, 0, budgetT0); err != nil {
		t.Fatal(err)
	}
	if got := ledgerMonthUsed(t, &b, "key", budgetT0); got != 2 {
		t.Errorf("month used = %d, want 2", got)
	}
}

// A refund for a period that has ended is dropped; an extra charge goes to
// the period of the settlement.
func TestReservationSettleAcrossPeriods(t *testing.T) {
	ctx := context.Background()
	end := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	before := end.Add(-time.Second)

	var b budget
	r, _ := b.reserveAt(ctx, "key", proPlan, 3, before)
	r.settleAt(ctx, 1, end) // refund after the month ended
	s, _ := b.reserveAt(ctx, "key", proPlan, 3, before)
	s.settleAt(ctx, 5, end) // 2 more than reserved, charged in December
	got := []int64{ledgerMonthUsed(t, &b, "key", before), ledgerMonthUsed(t, &b, "key", end)}
	if diff := cmp.Diff([]int64{6, 2}, got); diff != "" {
		t.Errorf("November, December used (-want +got):\n%s", diff)
	}

	// The minute's refund, within the minute, makes room.
	var c budget
	plan := allowance{CreditsPerMinute: 3, CreditsPerMonth: 100}
	at := budgetT0
	r, _ = c.reserveAt(ctx, "key", plan, 3, at)
	r.settleAt(ctx, 0, at.Add(time.Second))
	if r2, _ := c.reserveAt(ctx, "key", plan, 3, at.Add(2*time.Second)); !r2.OK {
		t.Errorf("after a full refund, the minute refused: %+v", r2.verdict)
	}
}

// Months begin in the budget's Location.
func TestBudgetLocation(t *testing.T) {
	tokyo := time.FixedZone("JST", 9*3600)
	b := budget{Location: tokyo}
	at := time.Date(2026, 11, 30, 14, 0, 0, 0, time.UTC) // November 30th, 23:00 in Tokyo
	r, _ := b.reserveAt(context.Background(), "key", allowance{CreditsPerMonth: 0, StopAtAllocation: true}, 1, at)
	if diff := cmp.Diff(verdict{Refusal: InsufficientCredits, RetryAfter: time.Hour}, r.verdict); diff != "" {
		t.Errorf("verdict mismatch (-want +got):\n%s", diff)
	}
}

func TestBudgetStoreFails(t *testing.T) {
	b := budget{Store: redistest.Down{}}
	ctx := context.Background()
	v, err := b.messageAt(ctx, "key", freePlan, budgetT0)
	if !errors.Is(err, redistest.ErrDown) || !v.OK {
		t.Errorf("MessageAt: %+v, %v; want allowed with the error", v, err)
	}
	r, err := b.reserveAt(ctx, "key", freePlan, 3, budgetT0)
	if !errors.Is(err, redistest.ErrDown) || !r.OK || r.charged() != 0 {
		t.Errorf("ReserveAt: %+v reserved %d, %v; want allowed uncharged with the error", r.verdict, r.charged(), err)
	}
}

// Many goroutines reserving at once never spend more than the allocation:
// with calls priced exactly, the calls that run spend all of it.
func TestBudgetConcurrent(t *testing.T) {
	var b budget
	ctx := context.Background()
	plan := allowance{MessagesPerMinute: 500, CreditsPerMonth: 300, StopAtAllocation: true}
	var (
		wg                    sync.WaitGroup
		granted, refused, msg atomic.Int64
	)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				if v, _ := b.messageAt(ctx, "key", plan, budgetT0); v.OK {
					msg.Add(1)
				}
				r, err := b.reserveAt(ctx, "key", plan, 1, budgetT0)
				if err != nil {
					t.Error(err)
					return
				}
				if r.OK {
					granted.Add(1)
					r.settleAt(ctx, 1, budgetT0)
				} else {
					refused.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	used := ledgerMonthUsed(t, &b, "key", budgetT0)
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
	var b budget
	ctx := context.Background()
	plan := allowance{CreditsPerMinute: 1 << 40, CreditsPerMonth: 300, StopAtAllocation: true}
	var (
		wg      sync.WaitGroup
		granted atomic.Int64
	)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				r, _ := b.reserveAt(ctx, "key", plan, 5, budgetT0)
				if r.OK {
					granted.Add(1)
					r.settleAt(ctx, 1, budgetT0)
				}
			}
		}()
	}
	wg.Wait()
	used := ledgerMonthUsed(t, &b, "key", budgetT0)
	if used != granted.Load() || used > 300 || used < 296 {
		t.Errorf("used %d with %d calls granted at 1 credit each; want them equal, within [296, 300]", used, granted.Load())
	}
}

// slowStore is a MemoryStore whose every call takes a millisecond first,
// as a store across a network does.
type slowStore struct{ ratelimit.MemoryStore }

func (s *slowStore) Add(ctx context.Context, key string, n int64, t, expires time.Time) (ratelimit.Counter, error) {
	time.Sleep(time.Millisecond)
	return s.MemoryStore.Add(ctx, key, n, t, expires)
}

func (s *slowStore) Spend(ctx context.Context, ls []ratelimit.Quota, n int64, t time.Time) ([]ratelimit.Level, error) {
	time.Sleep(time.Millisecond)
	return s.MemoryStore.Spend(ctx, ls, n, t)
}

// A reservation never refuses a call that fits, even while another call
// that does not fit is being refused on a store that takes its time: the
// refused call never holds a charge another can see. Each trial leaves 2
// credits, then reserves 3 and 2 at once; the 2 must run every time.
func TestBudgetReserveNeverRefusesAFit(t *testing.T) {
	for _, tt := range []struct {
		name string
		plan allowance
	}{
		{"2 credits left this month", allowance{CreditsPerMonth: 10, StopAtAllocation: true}},
		{"2 credits left this minute", allowance{CreditsPerMinute: 10, CreditsPerMonth: 1000}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			refused := 0
			for range 200 {
				b := budget{Store: &slowStore{}}
				if r, err := b.reserveAt(ctx, "key", tt.plan, 8, budgetT0); err != nil || !r.OK {
					t.Fatalf("spending 8: %+v, %v", r.verdict, err)
				}
				var (
					wg    sync.WaitGroup
					large *reservation
				)
				wg.Add(1)
				go func() {
					defer wg.Done()
					large, _ = b.reserveAt(ctx, "key", tt.plan, 3, budgetT0)
				}()
				time.Sleep(500 * time.Microsecond) // into the large call's round trip
				small, err := b.reserveAt(ctx, "key", tt.plan, 2, budgetT0)
				wg.Wait()
				if err != nil {
					t.Fatal(err)
				}
				if large.OK {
					t.Fatalf("the 3-credit call ran with 2 credits left: %+v", large.verdict)
				}
				if !small.OK {
					refused++
				}
			}
			if refused > 0 {
				t.Errorf("%d of 200 trials refused a 2-credit call with 2 credits left", refused)
			}
		})
	}
}

// wildSpendStore refuses every Spend with a wait no store should give.
type wildSpendStore struct {
	redistest.Down
	wait time.Duration
}

func (s wildSpendStore) Spend(_ context.Context, ls []ratelimit.Quota, _ int64, _ time.Time) ([]ratelimit.Level, error) {
	lv := make([]ratelimit.Level, len(ls))
	for i := range lv {
		lv[i] = ratelimit.Level{Used: 1, Wait: s.wait}
	}
	return lv, nil
}

// Whatever a store answers, a refusal's wait stays within [0, header.MaxRetryAfter],
// and its retry_after_secs within the 2^31 seconds that stand for never.
func TestBudgetClampsStoreReplies(t *testing.T) {
	for _, w := range []time.Duration{math.MaxInt64, header.MaxRetryAfter + time.Second, math.MinInt64} {
		b := budget{Store: wildSpendStore{wait: w}}
		v, err := b.messageAt(context.Background(), "k", freePlan, budgetT0)
		if err != nil {
			t.Fatal(err)
		}
		r, err := b.reserveAt(context.Background(), "k", freePlan, 1, budgetT0)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range []verdict{v, r.verdict} {
			if v.OK || v.RetryAfter < 0 || v.RetryAfter > header.MaxRetryAfter || v.retryAfterSeconds() < 1 || v.retryAfterSeconds() > 1<<31 {
				t.Errorf("a store waiting %v: %+v, %d s; want a refusal with a wait within [0, header.MaxRetryAfter]", w, v, v.retryAfterSeconds())
			}
		}
	}
}

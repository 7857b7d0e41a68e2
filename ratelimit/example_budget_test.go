package ratelimit_test

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/mcperr/mcperr/ratelimit"
)

// creditsError is how a credits API words a Budget's refusal of a
// priced call: the budget gives the figures, the server the sentence.
type creditsError struct {
	Error          string `json:"error"`
	Code           string `json:"code"`
	Detail         string `json:"detail"`
	RetryAfterSecs int64  `json:"retry_after_secs"`
	Credits        struct {
		Min int64 `json:"min"`
		Max int64 `json:"max"`
	} `json:"credits"`
	CreditsLimit     int64 `json:"credits_limit"`
	CreditsUsed      int64 `json:"credits_used"`
	CreditsRemaining int64 `json:"credits_remaining"`
}

// A key that stops at its monthly allocation of 1,000 credits has spent
// them all; a call that may cost 3 is refused, and the refusal carries
// the month's figures.
func ExampleBudget() {
	var budget ratelimit.Budget
	ctx := context.Background()
	free := ratelimit.Plan{MessagesPerMinute: 60, CreditsPerMinute: 100, CreditsPerMonth: 1000, StopAtAllocation: true}
	now := time.Date(2026, 11, 26, 10, 30, 0, 0, time.UTC)

	// Spend the month's allocation earlier in the month.
	for i := range 10 {
		at := now.Add(time.Duration(i-10) * time.Hour)
		r, _ := budget.ReserveAt(ctx, "demo-free", free, 100, at)
		r.SettleAt(ctx, 100, at)
	}

	const minCost, maxCost = 3, 3
	r, err := budget.ReserveAt(ctx, "demo-free", free, maxCost, now)
	if err != nil {
		fmt.Println(err)
		return
	}
	if !r.OK {
		e := creditsError{
			Error:            "insufficient credits",
			Code:             string(r.Refusal),
			Detail:           fmt.Sprintf("this call can cost up to %d credits and %d are left this month; ...", maxCost, r.Month.Remaining),
			RetryAfterSecs:   r.RetryAfterSeconds(),
			CreditsLimit:     r.Month.Limit,
			CreditsUsed:      r.Month.Used,
			CreditsRemaining: r.Month.Remaining,
		}
		e.Credits.Min, e.Credits.Max = minCost, maxCost
		out, _ := json.Marshal(e)
		fmt.Println(string(out))
	}
	// Output:
	// {"error":"insufficient credits","code":"insufficient_credits","detail":"this call can cost up to 3 credits and 0 are left this month; ...","retry_after_secs":394200,"credits":{"min":3,"max":3},"credits_limit":1000,"credits_used":1000,"credits_remaining":0}
}

// Reserve, then settle: the call is checked against its worst case and
// charged it before it runs, then charged what it actually cost.
func ExampleReservation() {
	var budget ratelimit.Budget
	ctx := context.Background()
	plan := ratelimit.Plan{CreditsPerMinute: 10, CreditsPerMonth: 1000}
	now := time.Date(2026, 11, 26, 10, 30, 30, 0, time.UTC)

	r, _ := budget.ReserveAt(ctx, "demo-pro", plan, 8, now)
	fmt.Println("may run:", r.OK, "reserved:", r.Reserved(), "minute used:", r.Credits.Used)

	// Meanwhile another call does not fit in the minute's credits: they
	// refill at 10 a minute, so the 3 it lacks take 18 seconds.
	other, _ := budget.ReserveAt(ctx, "demo-pro", plan, 5, now)
	fmt.Println("other:", other.Refusal, "retry after", other.RetryAfterSeconds(), "s")

	// The first call cost 2 credits: 6 go back.
	r.SettleAt(ctx, 2, now.Add(time.Second))
	other, _ = budget.ReserveAt(ctx, "demo-pro", plan, 5, now.Add(time.Second))
	fmt.Println("other now:", other.OK, "minute used:", other.Credits.Used, "month used:", other.Month.Used)
	// Output:
	// may run: true reserved: 8 minute used: 8
	// other: credit_rate_limited retry after 18 s
	// other now: true minute used: 7 month used: 7
}

// A per-minute message limit of 60: every HTTP message takes a token, the
// handshake included, and the 61st message of a minute is answered 429
// with message_rate_limited.
func ExampleBudget_MessageAt() {
	var budget ratelimit.Budget
	ctx := context.Background()
	plan := ratelimit.Plan{MessagesPerMinute: 60}
	now := time.Date(2026, 11, 26, 10, 30, 15, 0, time.UTC)
	var v ratelimit.Verdict
	for range 61 {
		v, _ = budget.MessageAt(ctx, "demo-pro", plan, now)
	}
	fmt.Println(v.OK, v.Refusal, "Retry-After:", v.RetryAfterSeconds())
	// Output:
	// false message_rate_limited Retry-After: 45
}

package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// creditsError is how a credits API words a budget's refusal of a
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
func Example_insufficientCredits() {
	var b budget
	ctx := context.Background()
	free := allowance{MessagesPerMinute: 60, CreditsPerMinute: 100, CreditsPerMonth: 1000, StopAtAllocation: true}
	now := time.Date(2026, 11, 26, 10, 30, 0, 0, time.UTC)

	// Spend the month's allocation earlier in the month.
	for i := range 10 {
		at := now.Add(time.Duration(i-10) * time.Hour)
		r, _ := b.reserveAt(ctx, "demo-free", free, 100, at)
		r.settleAt(ctx, 100, at)
	}

	const minCost, maxCost = 3, 3
	r, err := b.reserveAt(ctx, "demo-free", free, maxCost, now)
	if err != nil {
		fmt.Println(err)
		return
	}
	if !r.OK {
		e := creditsError{
			Error:            "insufficient credits",
			Code:             string(r.Refusal),
			Detail:           fmt.Sprintf("this call can cost up to %d credits and %d are left this month; ...", maxCost, r.Month.Remaining),
			RetryAfterSecs:   r.retryAfterSeconds(),
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
func Example_reservation() {
	var b budget
	ctx := context.Background()
	plan := allowance{CreditsPerMinute: 10, CreditsPerMonth: 1000}
	now := time.Date(2026, 11, 26, 10, 30, 30, 0, time.UTC)

	r, _ := b.reserveAt(ctx, "demo-pro", plan, 8, now)
	fmt.Println("may run:", r.OK, "reserved:", r.charged(), "minute used:", r.Credits.Used)

	// Meanwhile another call does not fit in the minute's credits: they
	// refill at 10 a minute, so the 3 it lacks take 18 seconds.
	other, _ := b.reserveAt(ctx, "demo-pro", plan, 5, now)
	fmt.Println("other:", other.Refusal, "retry after", other.retryAfterSeconds(), "s")

	// The first call cost 2 credits: 6 go back.
	r.settleAt(ctx, 2, now.Add(time.Second))
	other, _ = b.reserveAt(ctx, "demo-pro", plan, 5, now.Add(time.Second))
	fmt.Println("other now:", other.OK, "minute used:", other.Credits.Used, "month used:", other.Month.Used)
	// Output:
	// may run: true reserved: 8 minute used: 8
	// other: credit_rate_limited retry after 18 s
	// other now: true minute used: 7 month used: 7
}

// A per-minute message limit of 60: every HTTP message takes a token, the
// handshake included, and the 61st message of a minute is answered 429
// with message_rate_limited.
func Example_messages() {
	var b budget
	ctx := context.Background()
	plan := allowance{MessagesPerMinute: 60}
	now := time.Date(2026, 11, 26, 10, 30, 15, 0, time.UTC)
	var v verdict
	for range 61 {
		v, _ = b.messageAt(ctx, "demo-pro", plan, now)
	}
	fmt.Println(v.OK, v.Refusal, "Retry-After:", v.retryAfterSeconds())
	// Output:
	// false message_rate_limited Retry-After: 45
}

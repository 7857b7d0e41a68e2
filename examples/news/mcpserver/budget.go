package mcpserver

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// account is one API key's state: its plan and its watches. What it spends
// is counted by the server's budget under the account's id (never
// the key itself). The local stdio server uses an account with no key, no
// limits and no watch store.
type account struct {
	id    string
	key   Key
	local bool

	mu      sync.Mutex // guards watches
	watches []*watch
}

// plan is what the account's plan lets it spend.
func (a *account) plan() allowance {
	return allowance{
		MessagesPerMinute: int64(a.key.MessagesPerMinute),
		CreditsPerMinute:  a.key.CreditsPerMinute,
		CreditsPerMonth:   a.key.MonthlyCredits,
		StopAtAllocation:  a.key.StopsAtAllocation,
	}
}

func monthStart(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
}

// seconds writes n seconds for a sentence.
func seconds(n int64) string {
	if n == 1 {
		return "1 second"
	}
	return fmt.Sprintf("%d seconds", n)
}

// usage is the figures of one limit: its size, what is used of it and
// what remains (never negative, even in overage); an account's credit
// figures for the month, as the REST headers and tool errors carry them.
type usage struct {
	Limit, Used, Remaining int64
}

// figures fills a tool error's month figures.
func figures(e *ToolError, u usage) {
	e.CreditsLimit, e.CreditsUsed, e.CreditsRemaining = ptr(u.Limit), ptr(u.Used), ptr(u.Remaining)
}

// takeMessage counts one HTTP message of the account at t, or reports how
// long until its next minute when this one's messages are spent. A budget
// store that fails lets the message through.
func (s *Server) takeMessage(ctx context.Context, a *account, t time.Time) (ok bool, retryAfterSecs int64) {
	v, err := s.budget.messageAt(ctx, a.id, a.plan(), t)
	if err != nil || v.OK {
		return true, 0
	}
	return false, v.retryAfterSeconds()
}

// balance reads the account's month figures at t (a reservation of
// nothing).
func (s *Server) balance(ctx context.Context, a *account, t time.Time) usage {
	r, _ := s.budget.reserveAt(ctx, a.id, a.plan(), 0, t)
	return r.Month
}

// reserve holds the call's worst case against the month and the minute's
// credits, or refuses it with insufficient_credits or credit_rate_limited
// (whose retry_after_secs is the time until the minute's credits, which
// refill continuously, hold the worst case again).
// A reservation that passes must be settled (settle).
func (s *Server) reserve(ctx context.Context, a *account, p Credits, t time.Time) (*reservation, *ToolError) {
	if a.local {
		return nil, nil
	}
	r, err := s.budget.reserveAt(ctx, a.id, a.plan(), p.Max, t)
	if err != nil || r.OK {
		return r, nil // a failing store lets the call through uncharged
	}
	var e *ToolError
	switch r.Refusal {
	case CreditBudgetExceeded:
		// call refuses such a call before it reserves; this is the same answer.
		e = newError(CreditBudgetExceeded, "this call can cost up to %d credits, more than this key's %d credits a minute; narrow the call (estimate: true shows the breakdown)", p.Max, a.key.CreditsPerMinute)
		e.Credits = &p
		return nil, e
	case InsufficientCredits:
		next := monthStart(t).AddDate(0, 1, 0)
		e = newError(InsufficientCredits,
			"this call can cost up to %d credits and %d are left this month; the allocation renews at %s. A cheaper call may still fit, or upgrade the plan",
			p.Max, r.Month.Remaining, next.Format(time.RFC3339))
	default:
		e = newError(CreditRateLimited,
			"this call can cost up to %d credits and this minute's credits are spent (%d of %d a minute left); retry after %s",
			p.Max, r.Credits.Remaining, r.Credits.Limit, seconds(r.retryAfterSeconds()))
	}
	e.RetryAfterSecs = r.retryAfterSeconds()
	e.Credits = &p
	figures(e, r.Month)
	return nil, e
}

// settle charges a reserved call what it cost (0 when it failed) and
// returns the month's figures after the charge.
func (s *Server) settle(ctx context.Context, r *reservation, cost int64, t time.Time) *usage {
	if r == nil {
		return nil
	}
	r.settleAt(ctx, cost, t)
	used := r.Month.Used - r.charged() + cost
	return &usage{r.Month.Limit, used, max(r.Month.Limit-used, 0)}
}

// spend charges n credits to the account at t, outside any call: tests and
// the tour use it to stage a spent month (minute false) or a spent minute
// (minute true, which counts against the month too).
func (s *Server) spend(ctx context.Context, a *account, n int64, minute bool, t time.Time) {
	p := allowance{}
	if minute {
		p.CreditsPerMinute = a.key.CreditsPerMinute
	}
	r, _ := s.budget.reserveAt(ctx, a.id, p, n, t)
	r.settleAt(ctx, n, t)
}

// spendMessages counts n messages of the account at t.
func (s *Server) spendMessages(ctx context.Context, a *account, n int, t time.Time) {
	p := allowance{MessagesPerMinute: 1 << 62}
	for range n {
		s.budget.messageAt(ctx, a.id, p, t)
	}
}

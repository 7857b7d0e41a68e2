package ratelimit

import (
	"context"
	"errors"
	"strconv"
	"sync/atomic"
	"time"
)

// Refusal names the limit of a Budget that refused a message or a call.
// Its values are error codes a server can send to the client as they are.
type Refusal string

const (
	// MessageRateLimited: the key sent all the messages its plan allows
	// this minute. Every message counts, the handshake included. A server
	// answers HTTP 429 with Retry-After; the client sends the same
	// message again after it.
	MessageRateLimited Refusal = "message_rate_limited"

	// CreditRateLimited: the minute's credits are spent. The call was
	// priced and refused before it ran; it may be retried after
	// RetryAfter, the time the credits take to refill enough for it,
	// usually a second or two.
	CreditRateLimited Refusal = "credit_rate_limited"

	// CreditBudgetExceeded: the call's worst case costs more than the
	// key's credits a minute, so it can never run as priced. Retrying
	// does not help (RetryAfter is zero): narrow the call, or change plan.
	CreditBudgetExceeded Refusal = "credit_budget_exceeded"

	// InsufficientCredits: the key stops at its monthly allocation, and
	// the call's worst case costs more than the credits left. Retrying
	// helps only after RetryAfter, at the start of next month, which may
	// be days away; a cheaper call may still fit.
	InsufficientCredits Refusal = "insufficient_credits"
)

// Plan is what a key may spend: messages a minute, credits a minute and
// credits a month. A zero per-minute figure means no limit.
type Plan struct {
	MessagesPerMinute int64
	CreditsPerMinute  int64
	CreditsPerMonth   int64 // the monthly allocation

	// StopAtAllocation refuses a call whose worst case costs more than
	// the credits left this month (InsufficientCredits). Without it, the
	// key may go over its allocation (overage), and the month's usage
	// is still counted.
	StopAtAllocation bool
}

// Usage gives the figures of one limit: its size, what is used of it and
// what remains (never negative, even in overage).
type Usage struct {
	Limit, Used, Remaining int64
}

// makeUsage returns the figures of a limit of which used is spent.
func makeUsage(limit, used int64) Usage {
	rem := limit - used
	if rem < 0 {
		rem = 0
	}
	return Usage{Limit: limit, Used: used, Remaining: rem}
}

// Verdict is a Budget's answer: whether the message or call may proceed,
// the limit that refused it and when to retry, and the figures of the
// limits that were consulted (zero for the others).
type Verdict struct {
	OK      bool
	Refusal Refusal // which limit refused; empty when OK

	// RetryAfter is, for a refusal, the time until the same message or
	// call would fit: the minute's end for messages, the time the
	// minute's credits take to refill enough for the call, the month's
	// end for the month's credits; zero for CreditBudgetExceeded, which
	// retrying does not cure.
	RetryAfter time.Duration

	Messages Usage // this minute's messages
	Credits  Usage // the minute's credits: CreditsPerMinute, rounded up what is spent of them
	Month    Usage // this month's credits
}

// RetryAfterSeconds returns RetryAfter in whole seconds, rounded up: at
// least 1 for a refusal that a retry cures, 0 when OK or refused with
// CreditBudgetExceeded: the figure for a retry_after_secs field or a
// Retry-After header.
func (v Verdict) RetryAfterSeconds() int64 {
	if v.OK || v.Refusal == CreditBudgetExceeded {
		return 0
	}
	return wholeSecondsUp(v.RetryAfter, 1)
}

// A Budget counts what keys spend, per minute and per month, against the
// Plan each call brings along: messages (MessageAt) and priced calls
// (ReserveAt). Messages count per minute of the clock; credits a minute
// refill continuously, as a token bucket that holds a minute's credits;
// months begin at midnight on the first day, in Location. Keys longer than
// MaxKeyLen are kept as their digest (ShortKey).
//
// A priced call is reserved, then settled. Before it runs, the call's worst
// case (its maximum price) is checked against the credits left, and
// charged if it fits, in one atomic step of the store (Store.Spend); after
// it runs, Settle charges its actual price in place of the reservation,
// refunding the difference. So two calls running at once can never both
// spend the last credits, a call that fits is never refused because
// another is being refused, and a call is never charged more than it
// cost. A refused call is charged nothing and its
// Settle refunds nothing; a reservation settles at most once.
//
// The zero Budget keeps its counters in memory, in UTC months. A Budget must
// not be copied after first use. It is safe for concurrent use.
type Budget struct {
	// Store holds the counters. Nil means an in-memory store of the
	// Budget's own.
	Store Store

	// Location is where months begin; nil means UTC.
	Location *time.Location

	// Name separates this budget's counters from others' in a shared
	// store.
	Name string

	mem MemoryStore
}

func (b *Budget) store() Store {
	if b.Store != nil {
		return b.Store
	}
	return &b.mem
}

// counterKey returns the store key of key's counter for what in the period
// that begins at start. A long key is kept as its digest (ShortKey).
func (b *Budget) counterKey(what, key string, start time.Time) string {
	return b.meterKey(what, key) + "\x00" + strconv.FormatInt(start.Unix(), 10)
}

// meterKey returns the store key of key's meter for what.
func (b *Budget) meterKey(what, key string) string {
	return "budget\x00" + b.Name + "\x00" + what + "\x00" + ShortKey(key)
}

// clockMinute returns the minute t falls in.
func clockMinute(t time.Time) (start, end time.Time) {
	start = t.Truncate(time.Minute)
	return start, start.Add(time.Minute)
}

// month returns the month t falls in, in b.Location.
func (b *Budget) month(t time.Time) (start, end time.Time) {
	loc := b.Location
	if loc == nil {
		loc = time.UTC
	}
	y, m, _ := t.In(loc).Date()
	return time.Date(y, m, 1, 0, 0, 0, 0, loc), time.Date(y, m+1, 1, 0, 0, 0, 0, loc)
}

// Message counts one message of key now. It is shorthand for
// MessageAt(ctx, key, p, time.Now()).
func (b *Budget) Message(ctx context.Context, key string, p Plan) (Verdict, error) {
	return b.MessageAt(ctx, key, p, time.Now())
}

// MessageAt counts one message of key at time t against
// p.MessagesPerMinute, or refuses it with MessageRateLimited and the time
// until the minute ends. A refused message is not counted. When the store
// fails, the message is allowed and the error returned.
func (b *Budget) MessageAt(ctx context.Context, key string, p Plan, t time.Time) (Verdict, error) {
	if p.MessagesPerMinute <= 0 {
		return Verdict{OK: true}, nil
	}
	start, end := clockMinute(t)
	ls := [1]Limit{{Key: b.counterKey("msg", key, start), Max: p.MessagesPerMinute, Expires: end}}
	lv, err := b.store().Spend(ctx, ls[:], 1, t)
	if err != nil || len(lv) != 1 {
		return Verdict{OK: true}, storeErr(err)
	}
	v := Verdict{OK: lv[0].OK, Messages: makeUsage(p.MessagesPerMinute, lv[0].Used)}
	if !v.OK {
		v.Refusal = MessageRateLimited
		v.RetryAfter = lv[0].Wait
	}
	return v, nil
}

// errLevels reports a store whose Spend answered with the wrong number of
// levels.
var errLevels = errors.New("ratelimit: the store answered a Spend with the wrong number of levels")

// storeErr returns err, or errLevels when a store answered without one
// but with the wrong number of levels.
func storeErr(err error) error {
	if err != nil {
		return err
	}
	return errLevels
}

// A Reservation is the charge a Budget made for a call's worst case,
// awaiting the call's actual price. Its Verdict says whether the call may
// run.
type Reservation struct {
	Verdict

	b        *Budget
	reserved int64 // credits charged; 0 when refused
	month    Limit // the month's counter
	minute   Limit // the minute's meter; Key empty when the plan has none
	owner    string
	settled  atomic.Bool
}

// monthLimit returns key's counter of credits for the month of t.
func (b *Budget) monthLimit(key string, p Plan, t time.Time) Limit {
	start, end := b.month(t)
	return Limit{Key: b.counterKey("month", key, start), Max: p.CreditsPerMonth, Expires: end, Soft: !p.StopAtAllocation}
}

// minuteLimit returns key's meter of credits a minute: CreditsPerMinute
// that refill continuously over a minute.
func (b *Budget) minuteLimit(key string, p Plan) Limit {
	return Limit{Key: b.meterKey("credits", key), Max: p.CreditsPerMinute, Per: time.Minute}
}

// Reserve checks and reserves a call of key now. It is shorthand for
// ReserveAt(ctx, key, p, max, time.Now()).
func (b *Budget) Reserve(ctx context.Context, key string, p Plan, max int64) (*Reservation, error) {
	return b.ReserveAt(ctx, key, p, max, time.Now())
}

// ReserveAt checks a call of key at time t that may cost up to max
// credits, and charges max if the call may run: to the month and to the
// minute's credits in one step of the store, so that a call that fits is
// never refused because another is being refused, and two calls never
// both spend the last credits.
//
// The call is refused with CreditBudgetExceeded when max is more than
// p.CreditsPerMinute (it could never fit; this comes first), with
// InsufficientCredits when p.StopAtAllocation and max is more than this
// month's credits left (a refusal for the month outlasts one for the
// minute), or with CreditRateLimited when max is more than the minute's
// credits left. The minute's credits refill continuously, CreditsPerMinute
// a minute, up to CreditsPerMinute: a CreditRateLimited refusal's
// RetryAfter is the time until max credits are there.
//
// The verdict's Month and Credits give the figures after the charge, or,
// for a refusal, before it; a server reporting the month's
// credits_limit, credits_used and credits_remaining takes them from
// Month. When the store fails, the call is allowed uncharged and the
// error returned.
func (b *Budget) ReserveAt(ctx context.Context, key string, p Plan, max int64, t time.Time) (*Reservation, error) {
	if max < 0 {
		max = 0
	}
	r := &Reservation{b: b, owner: key}
	r.Verdict.OK = true
	if p.CreditsPerMinute > 0 && max > p.CreditsPerMinute {
		r.Verdict = Verdict{Refusal: CreditBudgetExceeded}
		return r, nil
	}
	r.month = b.monthLimit(key, p, t)
	ls := [2]Limit{r.month}
	n := 1
	if p.CreditsPerMinute > 0 {
		r.minute = b.minuteLimit(key, p)
		ls[1] = r.minute
		n = 2
	}
	lv, err := b.store().Spend(ctx, ls[:n], max, t)
	if err != nil || len(lv) != n {
		r.minute = Limit{}
		return r, storeErr(err)
	}
	r.Month = makeUsage(p.CreditsPerMonth, lv[0].Used)
	if n == 2 {
		r.Credits = makeUsage(p.CreditsPerMinute, lv[1].Used)
	}
	switch {
	case !lv[0].OK:
		r.Verdict = Verdict{Refusal: InsufficientCredits, RetryAfter: lv[0].Wait, Month: r.Month}
	case n == 2 && !lv[1].OK:
		r.Verdict = Verdict{Refusal: CreditRateLimited, RetryAfter: lv[1].Wait, Credits: r.Credits, Month: r.Month}
	default:
		r.reserved = max
	}
	return r, nil
}

// Reserved returns the credits the reservation charged: the call's worst
// case, or 0 for a refused call.
func (r *Reservation) Reserved() int64 { return r.reserved }

// Settle charges the call its actual price now. It is shorthand for
// SettleAt(ctx, actual, time.Now()).
func (r *Reservation) Settle(ctx context.Context, actual int64) error {
	return r.SettleAt(ctx, actual, time.Now())
}

// SettleAt charges the call its actual price in place of the reservation,
// at time t: the difference from the reserved worst case is refunded (or,
// for a call that cost more than its worst case, charged, even past the
// limits). A refund goes back to the minute's credits and to the month
// that was charged, and is dropped from the month when that month has
// ended; an extra charge goes to the month of t. Settling a refused
// reservation, or one already settled, does nothing. A negative actual
// counts as 0.
func (r *Reservation) SettleAt(ctx context.Context, actual int64, t time.Time) error {
	if !r.OK || !r.settled.CompareAndSwap(false, true) {
		return nil
	}
	if actual < 0 {
		actual = 0
	}
	delta := actual - r.reserved
	if delta == 0 || r.month.Key == "" {
		return nil
	}
	var ls [2]Limit
	n := 0
	month := r.month
	if !t.Before(month.Expires) {
		month.Key = ""
		if delta > 0 {
			month = r.b.monthLimit(r.owner, Plan{}, t)
		}
	}
	for _, l := range [2]Limit{month, r.minute} {
		if l.Key != "" {
			l.Soft = true
			ls[n] = l
			n++
		}
	}
	if n == 0 {
		return nil
	}
	_, err := r.b.store().Spend(ctx, ls[:n], delta, t)
	return err
}

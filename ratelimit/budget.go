package ratelimit

import (
	"context"
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

	// CreditRateLimited: this minute's credits are spent. The call was
	// priced and refused before it ran; it may be retried after
	// RetryAfter, usually a second or two.
	CreditRateLimited Refusal = "credit_rate_limited"

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

	// RetryAfter is, for a refusal, the time until the refusing limit's
	// period ends: the minute, or the month.
	RetryAfter time.Duration

	Messages Usage // this minute's messages
	Credits  Usage // this minute's credits
	Month    Usage // this month's credits
}

// RetryAfterSeconds returns RetryAfter in whole seconds, rounded up: at
// least 1 for a refusal, 0 when OK: the figure for a retry_after_secs
// field or a Retry-After header.
func (v Verdict) RetryAfterSeconds() int64 {
	if v.OK {
		return 0
	}
	return wholeSecondsUp(v.RetryAfter, 1)
}

// A Budget counts what keys spend, per minute and per month, against the
// Plan each call brings along: messages (MessageAt) and priced calls
// (ReserveAt). Minutes are those of the clock; months begin at midnight on
// the first day, in Location.
//
// A priced call is reserved, then settled. Before it runs, the call's worst
// case (its maximum price) is checked against the credits left, and
// charged if it fits; after it runs, Settle charges its actual price in
// place of the reservation, refunding the difference. So two calls running
// at once can never both spend the last credits, and a call is never
// charged more than it cost. A refused call is charged nothing and its
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
// that begins at start.
func (b *Budget) counterKey(what, key string, start time.Time) string {
	return "budget\x00" + b.Name + "\x00" + what + "\x00" + key + "\x00" + strconv.FormatInt(start.Unix(), 10)
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
	s := b.store()
	start, end := clockMinute(t)
	k := b.counterKey("msg", key, start)
	c, err := s.Add(ctx, k, 1, t, end)
	if err != nil {
		return Verdict{OK: true}, err
	}
	if c.Value <= p.MessagesPerMinute {
		return Verdict{OK: true, Messages: makeUsage(p.MessagesPerMinute, c.Value)}, nil
	}
	if _, err := s.Add(ctx, k, -1, t, end); err != nil {
		return Verdict{OK: true}, err
	}
	return Verdict{
		Refusal:    MessageRateLimited,
		RetryAfter: nonNegative(c.Expires.Sub(t)),
		Messages:   makeUsage(p.MessagesPerMinute, c.Value-1),
	}, nil
}

// A Reservation is the charge a Budget made for a call's worst case,
// awaiting the call's actual price. Its Verdict says whether the call may
// run.
type Reservation struct {
	Verdict

	b        *Budget
	reserved int64 // credits charged; 0 when refused
	month    counterRef
	minute   counterRef // key empty when the plan has no minute limit
	settled  atomic.Bool
}

// counterRef names one counter a reservation charged.
type counterRef struct {
	key     string    // in the store; empty for none
	expires time.Time // the end of its period
	what    string    // "month" or "credits"
	owner   string    // the key the budget was asked about
}

// inPeriod returns the counter that corresponds to c in the period of t.
func (b *Budget) inPeriod(c counterRef, t time.Time) counterRef {
	var start time.Time
	if c.what == "month" {
		start, c.expires = b.month(t)
	} else {
		start, c.expires = clockMinute(t)
	}
	c.key = b.counterKey(c.what, c.owner, start)
	return c
}

// Reserve checks and reserves a call of key now. It is shorthand for
// ReserveAt(ctx, key, p, max, time.Now()).
func (b *Budget) Reserve(ctx context.Context, key string, p Plan, max int64) (*Reservation, error) {
	return b.ReserveAt(ctx, key, p, max, time.Now())
}

// ReserveAt checks a call of key at time t that may cost up to max
// credits, and charges max if the call may run. The call is refused with
// InsufficientCredits when p.StopAtAllocation and max is more than this
// month's credits left (this comes first: a refusal for the month outlasts
// one for the minute), or with CreditRateLimited when max is more than
// this minute's credits left. A call whose max exceeds CreditsPerMinute
// can never run, and should be refused before it is reserved.
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
	s := b.store()
	r := &Reservation{b: b}
	r.Verdict.OK = true

	mStart, mEnd := b.month(t)
	r.month = counterRef{key: b.counterKey("month", key, mStart), expires: mEnd, what: "month", owner: key}
	m, err := s.Add(ctx, r.month.key, max, t, mEnd)
	if err != nil {
		return r, err
	}
	if max > 0 && p.StopAtAllocation && m.Value > p.CreditsPerMonth {
		if _, err := s.Add(ctx, r.month.key, -max, t, mEnd); err != nil {
			return r, err
		}
		r.Verdict = Verdict{
			Refusal:    InsufficientCredits,
			RetryAfter: nonNegative(m.Expires.Sub(t)),
			Month:      makeUsage(p.CreditsPerMonth, m.Value-max),
		}
		return r, nil
	}
	r.Month = makeUsage(p.CreditsPerMonth, m.Value)

	if p.CreditsPerMinute > 0 {
		start, end := clockMinute(t)
		r.minute = counterRef{key: b.counterKey("credits", key, start), expires: end, what: "credits", owner: key}
		c, err := s.Add(ctx, r.minute.key, max, t, end)
		if err != nil {
			// The month's charge stands; Settle puts it right.
			r.reserved = max
			r.minute = counterRef{}
			return r, err
		}
		if max > 0 && c.Value > p.CreditsPerMinute {
			_, err1 := s.Add(ctx, r.minute.key, -max, t, end)
			_, err2 := s.Add(ctx, r.month.key, -max, t, mEnd)
			r.Verdict = Verdict{
				Refusal:    CreditRateLimited,
				RetryAfter: nonNegative(c.Expires.Sub(t)),
				Credits:    makeUsage(p.CreditsPerMinute, c.Value-max),
				Month:      makeUsage(p.CreditsPerMonth, m.Value-max),
			}
			if err1 != nil {
				return r, err1
			}
			return r, err2
		}
		r.Credits = makeUsage(p.CreditsPerMinute, c.Value)
	}
	r.reserved = max
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
// for a call that cost more than its worst case, charged). A refund goes
// back to the minute and month that were charged, and is dropped when
// that period has ended; an extra charge goes to the period of t. Settling
// a refused reservation, or one already settled, does nothing. A negative
// actual counts as 0.
func (r *Reservation) SettleAt(ctx context.Context, actual int64, t time.Time) error {
	if !r.OK || !r.settled.CompareAndSwap(false, true) {
		return nil
	}
	if actual < 0 {
		actual = 0
	}
	delta := actual - r.reserved
	if delta == 0 {
		return nil
	}
	s := r.b.store()
	var first error
	for _, c := range [2]counterRef{r.month, r.minute} {
		if c.key == "" {
			continue
		}
		if !t.Before(c.expires) {
			if delta < 0 {
				continue // the period charged has ended: nothing to refund
			}
			c = r.b.inPeriod(c, t)
		}
		if _, err := s.Add(ctx, c.key, delta, t, c.expires); err != nil && first == nil {
			first = err
		}
	}
	return first
}

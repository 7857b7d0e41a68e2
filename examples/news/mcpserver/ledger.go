package mcpserver

import (
	"context"
	"errors"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/ratelimit"
	"github.com/mcperr/mcperr/ratelimit/header"
)

// The budget below is built on the three primitives of ratelimit.Store
// (Spend, all or nothing), so that a ratelimit.MemoryStore serves one
// process and a redisstore.Store the replicas. Its refusals are the
// server's codes MessageRateLimited, CreditRateLimited,
// CreditBudgetExceeded (a call whose worst case is more than the key's
// credits a minute: retrying does not help) and InsufficientCredits.

// allowance is what a key may spend: messages a minute, credits a minute and
// credits a month. A zero per-minute figure means no limit.
type allowance struct {
	MessagesPerMinute int64
	CreditsPerMinute  int64
	CreditsPerMonth   int64 // the monthly allocation

	// StopAtAllocation refuses a call whose worst case costs more than
	// the credits left this month (InsufficientCredits). Without it, the
	// key may go over its allocation (overage), and the month's usage
	// is still counted.
	StopAtAllocation bool
}

// makeUsage returns the figures of a limit of which used is spent.
func makeUsage(limit, used int64) usage {
	rem := limit - used
	if rem < 0 {
		rem = 0
	}
	return usage{Limit: limit, Used: used, Remaining: rem}
}

// verdict is a budget's answer: whether the message or call may proceed,
// the limit that refused it and when to retry, and the figures of the
// limits that were consulted (zero for the others).
type verdict struct {
	OK      bool
	Refusal errkind.Kind // which limit refused; empty when OK

	// RetryAfter is, for a refusal, the time until the same message or
	// call would fit: the minute's end for messages, the time the
	// minute's credits take to refill enough for the call, the month's
	// end for the month's credits; zero for CreditBudgetExceeded, which
	// retrying does not cure.
	RetryAfter time.Duration

	Messages usage // this minute's messages
	Credits  usage // the minute's credits: CreditsPerMinute, rounded up what is spent of them
	Month    usage // this month's credits
}

// retryAfterSeconds returns RetryAfter in whole seconds, rounded up: at
// least 1 for a refusal that a retry cures, 0 when OK or refused with
// CreditBudgetExceeded: the figure for a retry_after_secs field or a
// Retry-After header.
func (v verdict) retryAfterSeconds() int64 {
	if v.OK || v.Refusal == CreditBudgetExceeded {
		return 0
	}
	return max(int64((v.RetryAfter+time.Second-1)/time.Second), 1)
}

// A budget counts what keys spend, per minute and per month, against the
// allowance each call brings along: messages (messageAt) and priced calls
// (reserveAt). Messages count per minute of the clock; credits a minute
// refill continuously, as a token bucket that holds a minute's credits;
// months begin at midnight on the first day, in Location. Keys longer than
// 64 bytes are kept as their digest (ratelimit.ShortKey).
//
// A priced call is reserved, then settled. Before it runs, the call's worst
// case (its maximum price) is checked against the credits left, and
// charged if it fits, in one atomic step of the store (Store.Spend); after
// it runs, settleAt charges its actual price in place of the reservation,
// refunding the difference. So two calls running at once can never both
// spend the last credits, a call that fits is never refused because
// another is being refused, and a call is never charged more than it
// cost. A refused call is charged nothing and its
// settleAt refunds nothing; a reservation settles at most once.
//
// The zero budget keeps its counters in memory, in UTC months. A budget must
// not be copied after first use. It is safe for concurrent use.
type budget struct {
	// Store holds the counters. Nil means an in-memory store of the
	// budget's own.
	Store ratelimit.Store

	// Location is where months begin; nil means UTC.
	Location *time.Location

	// Name separates this budget's counters from others' in a shared
	// store.
	Name string

	mem ratelimit.MemoryStore
}

func (b *budget) store() ratelimit.Store {
	if b.Store != nil {
		return b.Store
	}
	return &b.mem
}

// counterKey returns the store key of key's counter for what in the period
// that begins at start.
func (b *budget) counterKey(what, key string, start time.Time) string {
	return b.meterKey(what, key) + "\x00" + strconv.FormatInt(start.Unix(), 10)
}

// meterKey returns the store key of key's meter for what. Every key of
// one account is of the account's group ({key}, a long key kept as its
// digest), so that a Spend of its month and minute stays on one server of
// a Redis Cluster while accounts spread across the servers.
func (b *budget) meterKey(what, key string) string {
	return "budget\x00" + b.Name + "\x00" + what + "\x00{" + ratelimit.ShortKey(key) + "}"
}

// wait is a level's wait as a refusal reports it: within [0,
// header.MaxRetryAfter], whatever the store says.
func wait(l ratelimit.Level) time.Duration {
	return min(max(l.Wait, 0), header.MaxRetryAfter)
}

// clockMinute returns the minute t falls in.
func clockMinute(t time.Time) (start, end time.Time) {
	start = t.Truncate(time.Minute)
	return start, start.Add(time.Minute)
}

// month returns the month t falls in, in b.Location.
func (b *budget) month(t time.Time) (start, end time.Time) {
	loc := b.Location
	if loc == nil {
		loc = time.UTC
	}
	y, m, _ := t.In(loc).Date()
	return time.Date(y, m, 1, 0, 0, 0, 0, loc), time.Date(y, m+1, 1, 0, 0, 0, 0, loc)
}

// messageAt counts one message of key at time t against
// p.MessagesPerMinute, or refuses it with MessageRateLimited and the time
// until the minute ends. A refused message is not counted. When the store
// fails, the message is allowed and the error returned.
func (b *budget) messageAt(ctx context.Context, key string, p allowance, t time.Time) (verdict, error) {
	if p.MessagesPerMinute <= 0 {
		return verdict{OK: true}, nil
	}
	start, end := clockMinute(t)
	ls := [1]ratelimit.Quota{{Key: b.counterKey("msg", key, start), Max: p.MessagesPerMinute, Expires: end}}
	lv, err := b.store().Spend(ctx, ls[:], 1, t)
	if err != nil || len(lv) != 1 {
		return verdict{OK: true}, storeErr(err)
	}
	v := verdict{OK: lv[0].OK, Messages: makeUsage(p.MessagesPerMinute, lv[0].Used)}
	if !v.OK {
		v.Refusal = MessageRateLimited
		v.RetryAfter = wait(lv[0])
	}
	return v, nil
}

// errLevels reports a store whose Spend answered with the wrong number of
// levels.
var errLevels = errors.New("news: the store answered a Spend with the wrong number of levels")

// storeErr returns err, or errLevels when a store answered without one
// but with the wrong number of levels.
func storeErr(err error) error {
	if err != nil {
		return err
	}
	return errLevels
}

// A reservation is the charge a budget made for a call's worst case,
// awaiting the call's actual price. Its verdict says whether the call may
// run.
type reservation struct {
	verdict

	b        *budget
	reserved int64           // credits charged; 0 when refused
	month    ratelimit.Quota // the month's counter
	minute   ratelimit.Quota // the minute's meter; Key empty when the plan has none
	owner    string
	settled  atomic.Bool
}

// monthLimit returns key's counter of credits for the month of t.
func (b *budget) monthLimit(key string, p allowance, t time.Time) ratelimit.Quota {
	start, end := b.month(t)
	return ratelimit.Quota{Key: b.counterKey("month", key, start), Max: p.CreditsPerMonth, Expires: end, Soft: !p.StopAtAllocation}
}

// minuteLimit returns key's meter of credits a minute: CreditsPerMinute
// that refill continuously over a minute.
func (b *budget) minuteLimit(key string, p allowance) ratelimit.Quota {
	return ratelimit.Quota{Key: b.meterKey("credits", key), Max: p.CreditsPerMinute, Per: time.Minute}
}

// reserveAt checks a call of key at time t that may cost up to max
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
func (b *budget) reserveAt(ctx context.Context, key string, p allowance, max int64, t time.Time) (*reservation, error) {
	if max < 0 {
		max = 0
	}
	r := &reservation{b: b, owner: key}
	r.verdict.OK = true
	if p.CreditsPerMinute > 0 && max > p.CreditsPerMinute {
		r.verdict = verdict{Refusal: CreditBudgetExceeded}
		return r, nil
	}
	r.month = b.monthLimit(key, p, t)
	ls := [2]ratelimit.Quota{r.month}
	n := 1
	if p.CreditsPerMinute > 0 {
		r.minute = b.minuteLimit(key, p)
		ls[1] = r.minute
		n = 2
	}
	lv, err := b.store().Spend(ctx, ls[:n], max, t)
	if err != nil || len(lv) != n {
		r.minute = ratelimit.Quota{}
		return r, storeErr(err)
	}
	r.Month = makeUsage(p.CreditsPerMonth, lv[0].Used)
	if n == 2 {
		r.Credits = makeUsage(p.CreditsPerMinute, lv[1].Used)
	}
	switch {
	case !lv[0].OK:
		r.verdict = verdict{Refusal: InsufficientCredits, RetryAfter: wait(lv[0]), Month: r.Month}
	case n == 2 && !lv[1].OK:
		r.verdict = verdict{Refusal: CreditRateLimited, RetryAfter: wait(lv[1]), Credits: r.Credits, Month: r.Month}
	default:
		r.reserved = max
	}
	return r, nil
}

// reserved returns the credits the reservation charged: the call's worst
// case, or 0 for a refused call.
func (r *reservation) charged() int64 { return r.reserved }

// settleAt charges the call its actual price in place of the reservation,
// at time t: the difference from the reserved worst case is refunded (or,
// for a call that cost more than its worst case, charged, even past the
// limits). A refund goes back to the minute's credits and to the month
// that was charged, and is dropped from the month when that month has
// ended; an extra charge goes to the month of t. Settling a refused
// reservation, or one already settled, does nothing. A negative actual
// counts as 0.
func (r *reservation) settleAt(ctx context.Context, actual int64, t time.Time) error {
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
	var ls [2]ratelimit.Quota
	n := 0
	month := r.month
	if !t.Before(month.Expires) {
		month.Key = ""
		if delta > 0 {
			month = r.b.monthLimit(r.owner, allowance{}, t)
		}
	}
	for _, l := range [2]ratelimit.Quota{month, r.minute} {
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

// Package failures keeps the upstream failures of one tool call: the SDK
// adapters put a List in each call's context, envelope.Transport keeps there
// every failure it reads of the requests sent with that context, and
// envelope.ErrorOf reads them beside the handler's error (see Attach), so a
// failure an API client dropped on its way to the handler still reaches the
// agent.
package failures

import (
	"context"
	"sync"
)

// Max is the number of failures a List keeps: the last ones. A tool call
// that fails more upstream calls than this keeps its latest failures only.
const Max = 16

// A Kept is one failure of an upstream call: the failure (an
// *envelope.Error) and its HTTP status, 0 for a request that got no answer.
type Kept struct {
	Err    error
	Status int
}

// A List is the failures of one tool call, safe for concurrent use, so
// that the upstream calls a handler makes in parallel each keep theirs.
type List struct {
	mu   sync.Mutex
	kept []Kept
}

// Keep adds k to l, dropping the oldest failure when l holds Max.
func (l *List) Keep(k Kept) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.kept) == Max {
		copy(l.kept, l.kept[1:])
		l.kept = l.kept[:Max-1]
	}
	l.kept = append(l.kept, k)
}

// Kept returns a copy of the failures kept so far, oldest first.
func (l *List) Kept() []Kept {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Kept(nil), l.kept...)
}

type key struct{}

// callContext is the context of one tool call and its List: one
// allocation for both.
type callContext struct {
	context.Context
	list List
}

func (c *callContext) Value(k any) any {
	if k == (key{}) {
		return &c.list
	}
	return c.Context.Value(k)
}

// With returns a context for one tool call, derived from parent, and the
// List the failures of its upstream calls go to.
func With(parent context.Context) (context.Context, *List) {
	c := &callContext{Context: parent}
	return c, &c.list
}

// From returns the List of the tool call ctx belongs to; nil when ctx
// belongs to none.
func From(ctx context.Context) *List {
	l, _ := ctx.Value(key{}).(*List)
	return l
}

// Attached is a handler's error with the failures its call kept: what
// envelope.ErrorOf reads to find a failure the error itself no longer
// carries. It reads and unwraps as the handler's error.
type Attached struct {
	Err  error
	Kept []Kept
}

func (a *Attached) Error() string { return a.Err.Error() }
func (a *Attached) Unwrap() error { return a.Err }

// Attach returns err with the failures l kept attached, or err itself
// when l is nil or kept none.
func (l *List) Attach(err error) error {
	if l == nil || err == nil {
		return err
	}
	kept := l.Kept()
	if len(kept) == 0 {
		return err
	}
	return &Attached{Err: err, Kept: kept}
}

package adapter

import (
	"context"
	"time"

	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
)

// Long keeps a tool call that takes long inside the client's patience: it
// sends progress while the handler runs, and answers the agent itself when
// the call passes a deadline of the server's choosing. Clients time a call
// out (60 s by default in the TypeScript SDK's client, which answers the
// agent -32001 "Request timed out" while the server keeps working); one
// that sent a progressToken and set resetTimeoutOnProgress restarts that
// clock on each notifications/progress. The zero value does nothing: the
// handler runs as it would without it. Both adapters' Handle take one
// (gosdk.Handle, mcpgo.Handle); RunLong is their shared core.
type Long struct {
	// Interval is the time between notifications/progress while the
	// handler runs, sent only when the request carried a progressToken.
	// Zero sends none. Over stdio, and over Streamable HTTP when the call's
	// response is an event stream (mcp-go's handler switches to one; the
	// go-sdk's does unless StreamableHTTPOptions.JSONResponse is set, as
	// gosdk.HTTPHandler's default is), they reach the client; a JSON
	// response carries none, and the deadline still holds.
	Interval time.Duration

	// Deadline bounds the call: when it passes with the handler still
	// running, the handler's context is cancelled (so the upstream request
	// made with it is too) and the agent gets an unavailable kind object
	// whose retryAfterSeconds is Wait. Choose it below the clients' own
	// timeout (under 60 s for the TypeScript client's default) so the agent
	// reads the kind, not the client's timeout. Zero sets no deadline.
	Deadline time.Duration

	// Wait is the wait the deadline's answer asks for; zero means
	// Deadline, a call as long as the one that just gave up.
	Wait time.Duration
}

// RunLong runs fn under l with ctx. While fn runs, every l.Interval it
// calls progress with 1, 2, 3 and so on (progress may be nil: no
// notifications, as for a request without a progressToken). If
// l.Deadline passes first, RunLong cancels fn's context and returns at
// once the zero T and an *envelope.Error of kind unavailable with
// RetryAfter l.Wait (or l.Deadline); fn's own answer, when it comes, is
// dropped, so fn must return once its context is done. A ctx cancelled by
// the client ends the wait the same way, with ctx's error.
func RunLong[T any](ctx context.Context, l Long, progress func(ctx context.Context, n float64), fn func(ctx context.Context) (T, error)) (T, error) {
	if l.Deadline <= 0 && (l.Interval <= 0 || progress == nil) {
		return fn(ctx)
	}
	run, cancel := context.WithCancel(ctx)
	defer cancel()
	type answer struct {
		v   T
		err error
	}
	done := make(chan answer, 1) // buffered: fn's goroutine never blocks on a call that gave up
	go func() {
		v, err := fn(run)
		done <- answer{v, err}
	}()
	var tick <-chan time.Time
	if l.Interval > 0 && progress != nil {
		t := time.NewTicker(l.Interval)
		defer t.Stop()
		tick = t.C
	}
	var expired <-chan time.Time
	if l.Deadline > 0 {
		t := time.NewTimer(l.Deadline)
		defer t.Stop()
		expired = t.C
	}
	var zero T
	n := 0.0
	for {
		select {
		case a := <-done:
			return a.v, a.err
		case <-tick:
			n++
			progress(ctx, n)
		case <-expired:
			wait := l.Wait
			if wait <= 0 {
				wait = l.Deadline
			}
			return zero, &envelope.Error{Kind: errkind.Unavailable, RetryAfter: wait,
				Message: "The call took longer than the server allows (" + l.Deadline.String() + "); it was stopped."}
		case <-ctx.Done():
			return zero, ctx.Err()
		}
	}
}

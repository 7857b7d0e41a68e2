// Package upstream is what the SDK adapters' Handle and Raw do with the
// upstream failures of a tool call, in one place for both: give the call a
// place for the failures an envelope.Transport keeps (With), and find the
// failure a handler's error stands for (Error).
package upstream

import (
	"context"
	"errors"

	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/internal/failures"
	"github.com/mcperr/mcperr/wire"
)

// With returns the context a tool call's handler runs in: ctx, with a
// place for the failures of the upstream calls made with it.
func With(ctx context.Context) context.Context {
	c, _ := failures.With(ctx)
	return c
}

// Error returns the error to render for err, the error a handler of the
// call whose context is ctx returned: err itself when it holds a Renderer,
// which renders itself, or when no upstream failure stands for it; else
// the *envelope.Error that envelope.ErrorOf finds for err and the failures
// the call kept.
func Error(ctx context.Context, err error) error {
	var r wire.Renderer
	if err == nil || errors.As(err, &r) {
		return err
	}
	if e, ok := envelope.ErrorOf(failures.From(ctx).Attach(err)); ok {
		return e
	}
	return err
}

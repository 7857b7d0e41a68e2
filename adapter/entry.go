package adapter

import "context"

// An Entry is told when a tool call passes an adapter's checks and its
// handler is about to run: instrumentation (package telemetry) starts the
// call's span there, so that a call refused before any handler runs costs
// no span, and a call that reaches its handler has one its handler's spans
// are children of.
type Entry interface {
	// Enter returns the context the handler runs with: ctx with what the
	// entry adds (the call's span). It is called at most once a call.
	Enter(ctx context.Context) context.Context
}

type entryKey struct{}

// WithEntry returns ctx carrying e, which Enter calls when the call passes
// the adapter's checks.
func WithEntry(ctx context.Context, e Entry) context.Context {
	return context.WithValue(ctx, entryKey{}, e)
}

// EntryOf returns the Entry ctx carries, if any: the call is instrumented.
func EntryOf(ctx context.Context) (Entry, bool) {
	e, ok := ctx.Value(entryKey{}).(Entry)
	return e, ok
}

// Enter returns the context a tool call's handler runs with, once the
// adapter's checks passed: ctx, or what the Entry ctx carries makes of it.
// The adapters' validation calls it just before the handler; an Entry that
// was entered returns ctx as it is.
func Enter(ctx context.Context) context.Context {
	if e, ok := ctx.Value(entryKey{}).(Entry); ok {
		return e.Enter(ctx)
	}
	return ctx
}

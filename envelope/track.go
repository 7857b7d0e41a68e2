package envelope

import (
	"context"
	"errors"

	"github.com/mcperr/mcperr/internal/failures"
	"github.com/mcperr/mcperr/wire"
)

// Track gives ctx, the context of one tool call, a place for the upstream
// failures a Transport reads of the requests sent with it, and returns that
// context with the function that finds the failure a handler's error stands
// for: err itself when it is nil, holds a wire.Renderer (which renders
// itself) or no failure stands for it; else the *Error that ErrorOf finds in
// err and in the failures the call kept. So a failure an API client dropped
// on its way to the handler (a GraphQL client that keeps only a message, a
// client that quotes the body into prose) still reaches the agent.
//
// An SDK adapter calls it around each tool handler, and renders what find
// returns; gosdk's and mcpgo's Handle and Raw do. The calls a handler makes
// in parallel each keep their failures apart.
func Track(ctx context.Context) (_ context.Context, find func(err error) error) {
	c, list := failures.With(ctx)
	return c, func(err error) error {
		var r wire.Renderer
		if err == nil || errors.As(err, &r) {
			return err
		}
		if e, ok := ErrorOf(list.Attach(err)); ok {
			return e
		}
		return err
	}
}

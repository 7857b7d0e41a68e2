package adapter_test

import (
	"context"
	"fmt"

	"github.com/mcperr/mcperr/adapter"
)

// span is an Entry that starts its work, a span, only once the call is
// entered, and puts it in the handler's context.
type span struct{ started bool }

type spanKey struct{}

func (s *span) Enter(ctx context.Context) context.Context {
	if s.started {
		return ctx
	}
	s.started = true
	return context.WithValue(ctx, spanKey{}, s)
}

// Instrumentation puts an Entry in a call's context with WithEntry; the
// adapter's validation calls Enter once the call passed its checks, just
// before the handler, so a refused call never starts what Enter starts.
func ExampleEnter() {
	for _, refused := range []bool{true, false} {
		s := &span{}
		ctx := adapter.WithEntry(context.Background(), s)
		if !refused { // the validation passed: the handler runs with Enter's context
			ctx = adapter.Enter(ctx)
		}
		_, recorded := adapter.EntryOf(ctx)
		fmt.Printf("refused=%v recorded=%v span started=%v in the handler's context=%v\n",
			refused, recorded, s.started, ctx.Value(spanKey{}) != nil)
	}
	// Output:
	// refused=true recorded=true span started=false in the handler's context=false
	// refused=false recorded=true span started=true in the handler's context=true
}

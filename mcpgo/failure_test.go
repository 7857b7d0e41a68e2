package mcpgo_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/mcpgo"
)

// failures collects what an OnFailure hook hears.
type failures struct {
	mu  sync.Mutex
	got []adapter.Failure
}

func (f *failures) hook(ctx context.Context, fl adapter.Failure) {
	f.mu.Lock()
	f.got = append(f.got, fl)
	f.mu.Unlock()
}

type seen struct {
	Stage  adapter.Stage
	Tool   string
	Kind   errkind.Kind
	HasErr bool
}

// TestOnFailure: on every path (mcp-go's own HandleMessage, the
// Validator's, HTTPHandler), one hook hears each refused or failed
// tools/call once, read as the agent reads it: refused arguments, an
// unknown tool (which only the Validator's paths answer themselves), and a
// handler's failure with its Go error.
func TestOnFailure(t *testing.T) {
	for name, send := range transports {
		t.Run(name, func(t *testing.T) {
			var f failures
			s, v := testServer(&mcpgo.Options{Validation: mcpgo.Validation{OnFailure: f.hook}}, nil)
			send(t, s, v, body(1, "fail", `{"what":"ok"}`))
			send(t, s, v, body(2, "fail", `{"what":7}`))
			send(t, s, v, body(3, "fial", `{}`))
			send(t, s, v, body(4, "fail", `{"what":"envelope"}`))
			want := []seen{{Stage: adapter.Arguments, Tool: "fail", Kind: errkind.InvalidArguments}}
			if name != "stdio" { // mcp-go's own HandleMessage answers an unknown tool before any middleware
				want = append(want, seen{Stage: adapter.UnknownToolCall, Tool: "fial", Kind: errkind.InvalidArguments})
			}
			want = append(want, seen{Stage: adapter.Handler, Tool: "fail", Kind: errkind.NotFound, HasErr: true})
			var got []seen
			for _, fl := range f.got {
				got = append(got, seen{fl.Stage, fl.Tool, fl.Reading.Kind, fl.Err != nil})
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("failures heard (-want +got):\n%s", diff)
			}
			var e *envelope.Error
			if len(f.got) > 0 && !errors.As(f.got[len(f.got)-1].Err, &e) {
				t.Errorf("the handler's failure carries Err %v, want the *envelope.Error it returned", f.got[len(f.got)-1].Err)
			}
		})
	}
}

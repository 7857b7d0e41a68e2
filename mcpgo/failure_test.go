package mcpgo_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/adapter/adaptertest"
	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/mcpgo"
)

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
			var f adaptertest.Failures
			s, v := testServer(&mcpgo.Options{Validation: mcpgo.Validation{OnFailure: f.Hook}}, nil)
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
			heard := f.Got()
			for _, fl := range heard {
				got = append(got, seen{fl.Stage, fl.Tool, fl.Reading.Kind, fl.Err != nil})
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("failures heard (-want +got):\n%s", diff)
			}
			var e *envelope.Error
			if len(heard) > 0 && !errors.As(heard[len(heard)-1].Err, &e) {
				t.Errorf("the handler's failure carries Err %v, want the *envelope.Error it returned", heard[len(heard)-1].Err)
			}
		})
	}
}

package envelope_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/wire"
)

// ownKindError is a server's own error type that writes its kind object
// itself: a wire.KindError that is not an *envelope.Error.
type ownKindError struct{ kind errkind.Kind }

func (e ownKindError) Error() string { return "own: " + string(e.kind) }

func (e ownKindError) AppendKindObject(b []byte) []byte {
	return (&errkind.Object{Kind: e.kind, Message: "own"}).AppendJSON(b, nil)
}

// renderer is an error that gives its own tool result.
type renderer struct{ res *wire.ToolResult }

func (r renderer) Error() string                { return "renderer" }
func (r renderer) ToolResult() *wire.ToolResult { return r.res }

// The rule: KindOf(err) is the kind an agent reads in the result
// wire.ErrorResult(err) renders, for every error, so a server's logs and
// metrics name the kind its agents got. A server's own wrapped KindError
// gave server_error before, while ErrorResult wrote rate_limited.
func TestKindOfIsTheKindErrorResultRenders(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want errkind.Kind
	}{
		{"nil", nil, ""},
		{"plain error", errors.New("boom"), errkind.ServerError},
		{"*Error", &envelope.Error{Kind: errkind.NotFound}, errkind.NotFound},
		{"*Error without a kind", &envelope.Error{Message: "x"}, errkind.ServerError},
		{"wrapped *Error", fmt.Errorf("get: %w", &envelope.Error{Kind: errkind.Conflict}), errkind.Conflict},
		{"*Error of a kind of the server's own", &envelope.Error{Kind: "quota_exceeded"}, "quota_exceeded"},
		{"own KindError", ownKindError{errkind.RateLimited}, errkind.RateLimited},
		{"wrapped own KindError", fmt.Errorf("call: %w", ownKindError{errkind.RateLimited}), errkind.RateLimited},
		{"own KindError before an *Error", fmt.Errorf("%w: %w", ownKindError{errkind.Unavailable}, &envelope.Error{Kind: errkind.NotFound}), errkind.Unavailable},
		{"Renderer of a kind object", renderer{wire.TextError(`{"kind":"invalid_arguments","message":"x"}`)}, errkind.InvalidArguments},
		{"Renderer of prose, before an *Error", fmt.Errorf("%w: %w", renderer{wire.TextError("no such trace")}, &envelope.Error{Kind: errkind.NotFound}), errkind.ServerError},
		{"Renderer of nothing, before an own KindError", fmt.Errorf("%w: %w", renderer{nil}, ownKindError{errkind.Conflict}), errkind.Conflict},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := envelope.KindOf(tt.err)
			if got != tt.want {
				t.Errorf("KindOf = %q, want %q", got, tt.want)
			}
			if tt.err == nil {
				return
			}
			var text []string
			for _, c := range wire.ErrorResult(tt.err).Content {
				text = append(text, c.Text)
			}
			read := errkind.Read(errkind.Outcome{IsError: true, Text: strings.Join(text, "\n")}).Kind
			if read == "" {
				read = errkind.ServerError
			}
			if got != read {
				t.Errorf("KindOf = %q, but an agent reads %q in ErrorResult's %q", got, read, text)
			}
		})
	}
}

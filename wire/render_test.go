package wire_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/wire"
)

// ownError is a server's error with a shape of its own.
type ownError struct{ res *wire.ToolResult }

func (e ownError) Error() string                { return "own" }
func (e ownError) ToolResult() *wire.ToolResult { return e.res }

// TestRender: a Renderer in the error's chain gives the result, marked
// isError; one that gives no result or no content falls back to the kind
// object, as does an error without a Renderer; nil renders as nil. The
// Renderer's own result is never changed.
func TestErrorResultRenderer(t *testing.T) {
	prose := &wire.ToolResult{Content: []wire.Content{{Type: "text", Text: "Not found."}}, Meta: map[string]any{"k": "v"}}
	for _, c := range []struct {
		name string
		err  error
		want *wire.ToolResult
	}{
		{"a Renderer's result, marked isError", ownError{prose},
			&wire.ToolResult{Content: []wire.Content{{Type: "text", Text: "Not found."}}, Meta: map[string]any{"k": "v"}, IsError: true}},
		{"a Renderer wrapped", fmt.Errorf("get: %w", ownError{wire.TextError("gone")}), wire.TextError("gone")},
		{"a Renderer without a result falls back", ownError{nil}, wire.ErrorResult(errors.New("own"))},
		{"a Renderer without content falls back", ownError{&wire.ToolResult{}}, wire.ErrorResult(errors.New("own"))},
		{"a foreign error is server_error", errors.New("boom"), wire.ErrorResult(errors.New("boom"))},
		{"nil", nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if diff := cmp.Diff(c.want, wire.ErrorResult(c.err)); diff != "" {
				t.Errorf("ErrorResult (-want +got):\n%s", diff)
			}
		})
	}
	if prose.IsError {
		t.Error("Render marked the Renderer's own result isError; want a marked copy, the result unchanged")
	}
}

package adapter_test

import (
	"testing"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/schemaerr"
	"github.com/mcperr/mcperr/wire"
)

// TestUnknownToolCode: UnknownTool is the data.code the hint dialect answers
// a call to a tool the server does not have with.
func TestUnknownToolCode(t *testing.T) {
	r := schemaerr.Hint.RefuseTool("get_trac", []string{"get_trace"})
	if r.Error == nil {
		t.Fatalf("Hint.RefuseTool = %+v, want a JSON-RPC error", r)
	}
	if d, ok := r.Error.Data.(wire.ErrorData); !ok || d.Code != adapter.UnknownTool {
		t.Errorf("data = %#v, want data.code %q", r.Error.Data, adapter.UnknownTool)
	}
}

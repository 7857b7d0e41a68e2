package mcpgo_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcperr/mcperr/mcpgo"
	"github.com/mcperr/mcperr/schemaerr"
)

// TestOptionsBounds: Options.Bounds bound every call's arguments, and a call over them gets the
// dialect's refusal.
func TestOptionsBounds(t *testing.T) {
	lim := schemaerr.Bounds{MaxElements: 3}
	msg := body(1, "get_values", `{"path":["a","b","c","d"]}`)

	s, v := testServer(&mcpgo.Options{Bounds: lim}, nil)
	a := viaHTTP(t, s, v, msg)
	if a.Result == nil || !a.Result.IsError || len(a.Result.Content) != 1 {
		t.Fatalf("TypeScript dialect: got %+v %+v", a.Result, a.Error)
	}
	if d := cmp.Diff("MCP error -32602: Invalid arguments for tool get_values: arguments contain more than the maximum of 3 elements", a.Result.Content[0].Text); d != "" {
		t.Errorf("TypeScript dialect (-want +got)\n%s", d)
	}

	s, v = testServer(&mcpgo.Options{Dialect: mcpgo.Hint, Bounds: lim}, nil)
	a = viaHTTP(t, s, v, msg)
	if a.Error == nil {
		t.Fatalf("hint dialect: got %+v, want a JSON-RPC error", a.Result)
	}
	b, _ := json.Marshal(a.Error)
	if d := cmp.Diff(`{"code":-32602,"message":"Invalid arguments: arguments contain more than the maximum of 3 elements.","data":{"code":"invalid_parameter"}}`, string(b)); d != "" {
		t.Errorf("hint dialect (-want +got)\n%s", d)
	}
}

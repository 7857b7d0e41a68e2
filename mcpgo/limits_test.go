package mcpgo_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/adapter/adaptertest"
	"github.com/mcperr/mcperr/mcpgo"
	"github.com/mcperr/mcperr/schemaerr"
)

// TestOptionsBounds: Options.Bounds bound every call's arguments, and a call over them gets the
// dialect's refusal.
func TestOptionsBounds(t *testing.T) {
	lim := schemaerr.Bounds{MaxElements: 3}
	msg := body(1, "get_values", `{"path":["a","b","c","d"]}`)

	s, v := testServer(&mcpgo.Options{Validation: mcpgo.Validation{Bounds: lim}}, nil)
	a := viaHTTP(t, s, v, msg)
	if a.Result == nil || !a.Result.IsError || len(a.Result.Content) != 1 {
		t.Fatalf("TypeScript dialect: got %+v %+v", a.Result, a.Error)
	}
	if d := cmp.Diff("MCP error -32602: Invalid arguments for tool get_values: arguments contain more than the maximum of 3 elements", a.Result.Content[0].Text); d != "" {
		t.Errorf("TypeScript dialect (-want +got)\n%s", d)
	}

	s, v = testServer(&mcpgo.Options{Validation: mcpgo.Validation{Dialect: mcpgo.Hint, Bounds: lim}}, nil)
	a = viaHTTP(t, s, v, msg)
	if a.Error == nil {
		t.Fatalf("hint dialect: got %+v, want a JSON-RPC error", a.Result)
	}
	b, _ := json.Marshal(a.Error)
	if d := cmp.Diff(`{"code":-32602,"message":"Invalid arguments: arguments contain more than the maximum of 3 elements.","data":{"code":"invalid_parameter"}}`, string(b)); d != "" {
		t.Errorf("hint dialect (-want +got)\n%s", d)
	}
}

// TestOptionsPatterns: Options.Patterns runs the patterns RE2 cannot, so a
// tool whose schema uses a lookahead is validated; without it the schema does
// not compile and the call does not get the TypeScript SDK's refusal.
func TestOptionsPatterns(t *testing.T) {
	schemas := map[string]json.RawMessage{"get_values": json.RawMessage(`{"type":"object","properties":{"path":{"type":"array","items":{"type":"string","pattern":"^(?!secret)"}}}}`)}
	refusal := "MCP error -32602: Input validation error: Invalid arguments for tool get_values: Invalid string: must match pattern /^(?!secret)/ at path[0]"
	call := func(opts *mcpgo.Options, path string) string {
		s, v := testServer(opts, nil)
		a := viaHTTP(t, s, v, body(1, "get_values", `{"path":["`+path+`"]}`))
		b, _ := json.Marshal(a)
		if a.Result != nil && a.Result.IsError && len(a.Result.Content) == 1 {
			return a.Result.Content[0].Text
		}
		return string(b)
	}
	if got := call(&mcpgo.Options{Validation: mcpgo.Validation{Schemas: schemas, Patterns: adaptertest.Lookahead{}}}, "secret/key"); got != refusal {
		t.Errorf("with Patterns, a forbidden value: %q, want %q", got, refusal)
	}
	if got := call(&mcpgo.Options{Validation: mcpgo.Validation{Schemas: schemas, Patterns: adaptertest.Lookahead{}}}, "public/key"); strings.Contains(got, "pattern") || strings.Contains(got, "compile") {
		t.Errorf("with Patterns, an allowed value: %q, want it to reach the handler", got)
	}
	if got := call(&mcpgo.Options{Validation: mcpgo.Validation{Schemas: schemas}}, "secret/key"); got == refusal {
		t.Errorf("without Patterns: %q; want not the refusal (the schema does not compile)", got)
	}
}

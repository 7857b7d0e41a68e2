package gosdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/adapter/adaptertest"
	"github.com/mcperr/mcperr/gosdk"
	"github.com/mcperr/mcperr/schemaerr"
)

// TestOptionsBounds: Options.Bounds bound every call's arguments, and a call over them gets the
// dialect's refusal.
func TestOptionsBounds(t *testing.T) {
	lim := schemaerr.Bounds{MaxElements: 3}
	args := json.RawMessage(`{"path":["a","b","c","d"]}`)

	cs := session(t, testServer(&gosdk.Options{Validation: gosdk.Validation{Bounds: lim}}, nil, nil))
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_values", Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff("MCP error -32602: Invalid arguments for tool get_values: arguments contain more than the maximum of 3 elements", text(t, res)); d != "" {
		t.Errorf("TypeScript dialect (-want +got)\n%s", d)
	}

	cs = session(t, testServer(&gosdk.Options{Validation: gosdk.Validation{Dialect: gosdk.Hint, Bounds: lim}}, nil, nil))
	_, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_values", Arguments: args})
	var we *jsonrpc.Error
	if !errors.As(err, &we) {
		t.Fatalf("hint dialect: want a JSON-RPC error, got %v", err)
	}
	want := jsonrpc.Error{Code: -32602, Message: "Invalid arguments: arguments contain more than the maximum of 3 elements.", Data: json.RawMessage(`{"code":"invalid_parameter"}`)}
	if d := cmp.Diff(want, *we); d != "" {
		t.Errorf("hint dialect (-want +got)\n%s", d)
	}
}

// TestOptionsPatterns: Options.Patterns runs the patterns RE2 cannot, so a
// tool whose schema uses a lookahead is validated; without it the schema does
// not compile and no call gets the TypeScript SDK's refusal.
func TestOptionsPatterns(t *testing.T) {
	schemas := map[string]json.RawMessage{"get_values": json.RawMessage(`{"type":"object","properties":{"path":{"type":"array","items":{"type":"string","pattern":"^(?!secret)"}}}}`)}
	call := func(opts *gosdk.Options, path string) string {
		cs := session(t, testServer(opts, nil, nil))
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_values", Arguments: map[string]any{"path": []string{path}}})
		if err != nil {
			return "error: " + err.Error()
		}
		return text(t, res)
	}
	refusal := "MCP error -32602: Input validation error: Invalid arguments for tool get_values: Invalid string: must match pattern /^(?!secret)/ at path[0]"
	if got := call(&gosdk.Options{Validation: gosdk.Validation{Schemas: schemas, Patterns: adaptertest.Lookahead{}}}, "secret/key"); got != refusal {
		t.Errorf("with Patterns, a forbidden value: %q, want %q", got, refusal)
	}
	if got := call(&gosdk.Options{Validation: gosdk.Validation{Schemas: schemas, Patterns: adaptertest.Lookahead{}}}, "public/key"); got != `{"ok":true}` {
		t.Errorf("with Patterns, an allowed value: %q, want the handler's result", got)
	}
	if got := call(&gosdk.Options{Validation: gosdk.Validation{Schemas: schemas}}, "secret/key"); got == refusal || got == `{"ok":true}` {
		t.Errorf("without Patterns: %q; want neither the refusal nor the handler's result (the schema does not compile)", got)
	}
}

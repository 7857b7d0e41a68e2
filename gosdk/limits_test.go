package gosdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcperr/mcperr/gosdk"
	"github.com/mcperr/mcperr/schemaerr"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestOptionsBounds: Options.Bounds bound every call's arguments, and a call over them gets the
// dialect's refusal.
func TestOptionsBounds(t *testing.T) {
	lim := schemaerr.Bounds{MaxElements: 3}
	args := json.RawMessage(`{"path":["a","b","c","d"]}`)

	cs := session(t, testServer(&gosdk.Options{Bounds: lim}, nil, nil))
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_values", Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff("MCP error -32602: Invalid arguments for tool get_values: arguments contain more than the maximum of 3 elements", text(t, res)); d != "" {
		t.Errorf("TypeScript dialect (-want +got)\n%s", d)
	}

	cs = session(t, testServer(&gosdk.Options{Dialect: gosdk.Hint, Bounds: lim}, nil, nil))
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

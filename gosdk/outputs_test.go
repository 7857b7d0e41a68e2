package gosdk_test

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/adapter/adaptertest"
	"github.com/mcperr/mcperr/gosdk"
)

var updateOutputs = flag.Bool("update-outputs", false, "rewrite testdata/outputs.golden")

// Item is an element of the slice outputs.
type Item struct {
	Name string `json:"name"`
}

// TestOutputs records the results Handle sends for outputs of every JSON
// shape, objects and others (an array, a string, a number, nil slices, maps
// and pointers), as the go-sdk writes them on the wire, in
// testdata/outputs.golden: one line per tool, the tool's name and its
// result with _meta and resultType left out (the protocol revision's), keys
// sorted. The mcpgo adapter's test holds its Handle to the same file.
func TestOutputs(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "outputs", Version: "0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "object"}, gosdk.Handle(func(context.Context, *mcp.CallToolRequest, struct{}) (Item, error) {
		return Item{"a<b"}, nil
	}))
	mcp.AddTool(s, &mcp.Tool{Name: "slice"}, gosdk.Handle(func(context.Context, *mcp.CallToolRequest, struct{}) ([]Item, error) {
		return []Item{{"a<b"}, {"c"}}, nil
	}))
	mcp.AddTool(s, &mcp.Tool{Name: "empty_slice"}, gosdk.Handle(func(context.Context, *mcp.CallToolRequest, struct{}) ([]Item, error) {
		return []Item{}, nil
	}))
	mcp.AddTool(s, &mcp.Tool{Name: "nil_slice"}, gosdk.Handle(func(context.Context, *mcp.CallToolRequest, struct{}) ([]Item, error) {
		return nil, nil
	}))
	mcp.AddTool(s, &mcp.Tool{Name: "string"}, gosdk.Handle(func(context.Context, *mcp.CallToolRequest, struct{}) (string, error) {
		return "a<b", nil
	}))
	mcp.AddTool(s, &mcp.Tool{Name: "number"}, gosdk.Handle(func(context.Context, *mcp.CallToolRequest, struct{}) (float64, error) {
		return 2.5, nil
	}))
	mcp.AddTool(s, &mcp.Tool{Name: "nil_pointer"}, gosdk.Handle(func(context.Context, *mcp.CallToolRequest, struct{}) (*Item, error) {
		return nil, nil
	}))
	mcp.AddTool(s, &mcp.Tool{Name: "nil_map"}, gosdk.Handle(func(context.Context, *mcp.CallToolRequest, struct{}) (map[string]int, error) {
		return nil, nil
	}))
	names := []string{"object", "slice", "empty_slice", "nil_slice", "string", "number", "nil_pointer", "nil_map"}

	ctx := context.Background()
	var wire adaptertest.SafeBuffer // the SDK's writer goroutines write it
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, &mcp.LoggingTransport{Transport: st, Writer: &wire}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: n, Arguments: map[string]any{}}); err != nil {
			t.Fatalf("%s: %v", n, err)
		}
	}
	cs.Close()
	ss.Wait()

	results, err := callResults(wire.String())
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != len(names) {
		t.Fatalf("found %d tool results on the wire, want %d:\n%s", len(results), len(names), wire.String())
	}
	var got strings.Builder
	for _, n := range names {
		c, err := adaptertest.CanonicalResult(results[n])
		if err != nil {
			t.Fatal(err)
		}
		got.WriteString(n + " " + c + "\n")
	}
	if *updateOutputs {
		if err := os.WriteFile("testdata/outputs.golden", []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile("testdata/outputs.golden")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), got.String()); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
}

// callResults returns the result of each tools/call in a LoggingTransport's
// log, by the name of the tool called. An answer is paired with its call by
// the JSON-RPC id, not by its place in the log: the transport logs a write
// after it is sent, so the answer to the next call can be logged first.
func callResults(log string) (map[string]json.RawMessage, error) {
	type message struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
		Result json.RawMessage `json:"result"`
	}
	calls := map[string]string{}            // request id -> tool name
	answers := map[string]json.RawMessage{} // request id -> result
	sc := bufio.NewScanner(strings.NewReader(log))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		dir, line, ok := strings.Cut(sc.Text(), ": ")
		if !ok || dir != "read" && dir != "write" {
			continue
		}
		var m message
		if err := json.Unmarshal([]byte(line), &m); err != nil || len(m.ID) == 0 {
			continue
		}
		switch {
		case dir == "read" && m.Method == "tools/call":
			calls[string(m.ID)] = m.Params.Name
		case dir == "write" && m.Result != nil:
			answers[string(m.ID)] = m.Result
		}
	}
	results := map[string]json.RawMessage{}
	for id, name := range calls {
		r, ok := answers[id]
		if !ok {
			return nil, fmt.Errorf("no answer to the call of %s (id %s)", name, id)
		}
		results[name] = r
	}
	return results, sc.Err()
}

// TestCallResultsPairsAnswersByID checks that callResults pairs an answer
// with its call by id when the log holds the answers in another order than
// the calls (as it does when the answer to the next call is logged first).
func TestCallResultsPairsAnswersByID(t *testing.T) {
	log := `read: {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"number"}}
read: {"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"nil_pointer"}}
write: {"jsonrpc":"2.0","id":3,"result":{"content":[],"structuredContent":null}}
write: {"jsonrpc":"2.0","id":2,"result":{"content":[],"structuredContent":2.5}}
`
	got, err := callResults(log)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]json.RawMessage{
		"number":      json.RawMessage(`{"content":[],"structuredContent":2.5}`),
		"nil_pointer": json.RawMessage(`{"content":[],"structuredContent":null}`),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("callResults (-want +got):\n%s", diff)
	}
}

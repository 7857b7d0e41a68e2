package mcpgo_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcperr/mcperr/adapter/adaptertest"
	"github.com/mcperr/mcperr/mcpgo"
)

// OutputItem is an element of the slice outputs.
type OutputItem struct {
	Name string `json:"name"`
}

func addOutputTool[Out any](s *server.MCPServer, name string, out Out) {
	s.AddTool(mcp.NewTool(name), mcpgo.Handle(func(context.Context, mcp.CallToolRequest, struct{}) (Out, error) {
		return out, nil
	}))
}

// TestOutputsAgree holds Handle to what gosdk.Handle sends for outputs of
// every JSON shape, objects and others (an array, a string, a number, nil
// slices, maps and pointers): the gosdk adapter's test records the go-sdk's
// wire results in gosdk/testdata/outputs.golden, and mcp-go's results must
// be the same, compared as that test compares them.
func TestOutputsAgree(t *testing.T) {
	s := server.NewMCPServer("outputs", "0")
	addOutputTool(s, "object", OutputItem{"a<b"})
	addOutputTool(s, "slice", []OutputItem{{"a<b"}, {"c"}})
	addOutputTool(s, "empty_slice", []OutputItem{})
	addOutputTool(s, "nil_slice", []OutputItem(nil))
	addOutputTool(s, "string", "a<b")
	addOutputTool(s, "number", 2.5)
	addOutputTool(s, "nil_pointer", (*OutputItem)(nil))
	addOutputTool(s, "nil_map", map[string]int(nil))
	mcpgo.Validate(s, nil)

	want, err := os.ReadFile("../gosdk/testdata/outputs.golden")
	if err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(want))
	for sc.Scan() {
		name, _, _ := strings.Cut(sc.Text(), " ")
		resp := s.HandleMessage(context.Background(), json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"`+name+`","arguments":{}}}`))
		b, err := json.Marshal(resp)
		if err != nil {
			t.Fatal(err)
		}
		var m struct {
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal(b, &m); err != nil || m.Result == nil {
			t.Fatalf("%s: no result in %s", name, b)
		}
		c, err := adaptertest.CanonicalResult(m.Result)
		if err != nil {
			t.Fatal(err)
		}
		got.WriteString(name + " " + c + "\n")
	}
	if diff := cmp.Diff(string(want), got.String()); diff != "" {
		t.Errorf("mcpgo.Handle's results against gosdk.Handle's (-gosdk +mcpgo):\n%s", diff)
	}
}

package gosdk_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"strings"
	"sync"
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

// syncBuffer is a bytes.Buffer safe for the SDK's writer goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
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
	var wire syncBuffer
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

	// The answers to the calls, in order: the requests after initialize
	// are the calls.
	var results []json.RawMessage
	sc := bufio.NewScanner(strings.NewReader(wire.b.String()))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "write: ")
		if !ok {
			continue
		}
		var m struct {
			Result json.RawMessage `json:"result"`
		}
		if json.Unmarshal([]byte(line), &m) == nil && bytes.Contains(m.Result, []byte(`"content"`)) {
			results = append(results, m.Result)
		}
	}
	if len(results) != len(names) {
		t.Fatalf("found %d tool results on the wire, want %d:\n%s", len(results), len(names), wire.b.String())
	}
	var got strings.Builder
	for i, n := range names {
		c, err := adaptertest.CanonicalResult(results[i])
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

package stdio

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// testServer is an MCP server with two tools: "slow" answers after a few
// milliseconds (so its answer is still in flight when a piped input ends),
// and "bound" answers with text holding <, > and &.
func testServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "stdio-test", Version: "0"}, nil)
	schema := json.RawMessage(`{"type":"object"}`)
	s.AddTool(&mcp.Tool{Name: "slow", InputSchema: schema}, func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		select {
		case <-time.After(5 * time.Millisecond):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "slow done"}}}, nil
	})
	s.AddTool(&mcp.Tool{Name: "bound", InputSchema: schema}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "expected array to have <=8 items & >0"}}, IsError: true}, nil
	})
	return s
}

// serve runs testServer on a Transport over input and returns the output
// lines.
func serve(t testing.TB, input string, maxLine int) []string {
	t.Helper()
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	testServer().Run(ctx, &Transport{In: strings.NewReader(input), Out: &out, Drain: time.Second, MaxLine: maxLine})
	text := strings.TrimRight(out.String(), "\n")
	if text == "" {
		return nil
	}
	return strings.Split(text, "\n")
}

const (
	initLine    = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`
	initialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

func TestTransport(t *testing.T) {
	parse := `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`
	invalid := `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}`
	tests := []struct {
		name  string
		input []string
		want  []string // lines other than initialize's answer, in order
	}{
		{"not JSON", []string{"garbage", "{"}, []string{parse, parse}},
		{"not a message", []string{`"text"`, `[1]`, `{"foo":1}`}, []string{invalid, invalid, invalid}},
		{"bad id or params", []string{`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, `{"jsonrpc":"2.0","id":2.5,"method":"ping"}`, `{"jsonrpc":"2.0","id":"x","method":"ping","params":"p"}`}, []string{
			invalid,
			invalid,
			`{"jsonrpc":"2.0","id":"x","error":{"code":-32600,"message":"Invalid Request"}}`,
		}},
		{"a response without result or error", []string{`{"jsonrpc":"2.0","id":7}`}, []string{
			`{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"Invalid Request"}}`,
		}},
		{"answers in flight at the end of input", []string{
			initialized,
			`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow"}}`,
			`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"slow"}}`,
		}, []string{
			`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"slow done"}]}}`,
			`{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"slow done"}]}}`,
		}},
		{"<, > and & unescaped", []string{
			initialized,
			`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"bound"}}`,
		}, []string{`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"expected array to have <=8 items & >0"}],"isError":true}}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines := serve(t, strings.Join(append([]string{initLine}, tt.input...), "\n")+"\n", 0)
			var got []string
			for _, l := range lines {
				if !strings.Contains(l, `"serverInfo"`) {
					got = append(got, l)
				}
			}
			// Concurrent calls may be answered in any order.
			if diff := cmp.Diff(tt.want, got, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestTransportLongLine(t *testing.T) {
	long := `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":"` + strings.Repeat("a", 200<<10) + `"}}`
	lines := serve(t, long+"\n"+initLine+"\n", 100<<10)
	want := `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`
	if len(lines) != 2 || lines[0] != want || !strings.Contains(lines[1], "serverInfo") {
		t.Errorf("got %.300q", lines)
	}
}

func TestUnescapeHTML(t *testing.T) {
	tests := []struct{ in, want string }{
		{`"a \u003c= b \u0026 c \u003e d"`, `"a <= b & c > d"`},
		{`"\\u003c"`, `"\\u003c"`}, // an escaped backslash, then text
		{`"\\\u003c"`, `"\\<"`},
		{`"\u00e9\n"`, `"\u00e9\n"`},
		{`"tail \`, `"tail \`},
	}
	for _, tt := range tests {
		if got := string(unescapeHTML([]byte(tt.in))); got != tt.want {
			t.Errorf("unescapeHTML(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// FuzzUnescapeHTML: the output is the same JSON value as the input.
func FuzzUnescapeHTML(f *testing.F) {
	for _, s := range []string{`"\u003c=8"`, `{"a":"\\u003c\u0026"}`, `["\\\\\u003e"]`, `"x"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var want any
		if json.Unmarshal(in, &want) != nil {
			return
		}
		out := unescapeHTML(in)
		var got any
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("%q became %q, not JSON: %v", in, out, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("%q became %q (-want +got):\n%s", in, out, diff)
		}
	})
}

// FuzzTransport: whatever arrives on the input, the server does not crash
// and every line it writes is JSON.
func FuzzTransport(f *testing.F) {
	f.Add([]byte(initLine + "\ngarbage\n"))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n\n[]\n"))
	f.Add([]byte(initLine + "\n" + `{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"bound","arguments":{"path":[1]}}}` + "\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		for _, l := range serve(t, string(in), 0) {
			if !json.Valid([]byte(l)) {
				t.Fatalf("output line is not JSON: %q", l)
			}
		}
	})
}

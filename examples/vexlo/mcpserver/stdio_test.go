package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/examples/internal/rpctest"
	"github.com/mcperr/mcperr/examples/vexlo/demoapi"
	"github.com/mcperr/mcperr/gosdk"
)

// serveStdio runs a no-auth Server (its upstream unreachable) on
// gosdk.StdioTransport over input and returns the output lines.
func serveStdio(t testing.TB, input string) []string {
	t.Helper()
	s, err := New(Config{BaseURL: "http://127.0.0.1:1", Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s.Run(ctx, &gosdk.StdioTransport{In: strings.NewReader(input), Out: &out, Drain: time.Second})
	text := strings.TrimRight(out.String(), "\n")
	if text == "" {
		return nil
	}
	return strings.Split(text, "\n")
}

const initLine = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`

// TestStdio: the Vexlo server over gosdk.StdioTransport (whose own tests
// are in gosdk) answers a call still in flight at
// the end of the input, and writes the seed's rejection unescaped.
func TestStdio(t *testing.T) {
	tests := []struct {
		name  string
		input []string
		want  []string // lines other than initialize's answer, in order
	}{
		{"answers in flight at the end of input", []string{
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
			`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"vexlo_list_tags"}}`,
		}, []string{`network_error`}},
		{"the seed's rejection, unescaped", []string{
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
			`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"vexlo_get_values","arguments":{"traceId":"x","path":["","AA","AB","AC","AD","AE","AF","AG","AH"]}}}`,
		}, []string{`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"MCP error -32602: Input validation error: Invalid arguments for tool vexlo_get_values: Too big: expected array to have <=8 items at path"}],"isError":true}}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines := serveStdio(t, strings.Join(append([]string{initLine}, tt.input...), "\n")+"\n")
			var got []string
			for _, l := range lines {
				switch {
				case strings.Contains(l, `"serverInfo"`):
				case strings.Contains(l, `network_error`):
					got = append(got, "network_error")
				default:
					got = append(got, l)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzStdio drives arbitrary bytes through the Vexlo server on the stdio
// transport, in-process, against an in-process demo API: the session
// survives, every line written is JSON, and every request whose id can be
// read gets exactly one answer with that id as sent (rpctest.Check).
func FuzzStdio(f *testing.F) {
	f.Add([]byte(initLine + "\ngarbage\n"))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n\n[]\n"))
	f.Add([]byte(initLine + "\n" + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" + `{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"vexlo_get_values","arguments":{"traceId":"` + seedTrace + `","path":[1]}}}` + "\n"))
	f.Add([]byte(initLine + "\n" + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" + `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"vexlo_list_tags"}}` + "\n" + `{"jsonrpc":"2.0","id":1e400,"method":"ping"}`))
	api := demoapi.New(func() time.Time { return time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC) })
	s, err := New(Config{BaseURL: "http://vexlo.test", Token: api.DemoToken().Secret, Transport: rpctest.HandlerTransport{H: api},
		RetrySleep: func(context.Context, time.Duration) error { return nil }})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		rpctest.Check(t, s.mcp, in)
	})
}

// TestCheckShape: a success body must be an object holding each member the
// tool expects, with a value of the expected type; keys are read as JSON
// reads them, escapes included.
func TestCheckShape(t *testing.T) {
	want := []member{{"tags", '['}, {"x", '{'}}
	for _, tc := range []struct {
		raw, err string
	}{
		{`{"tags":["a"],"x":{"y":"}"}}`, ""},
		{`{"t\u0061gs":[],"x":{}}`, ""},
		{` { "x" : {} , "tags" : [ ] } `, ""},
		{`{"a":1,"tags":"s","x":{}}`, `the body has no "tags" of the expected type`},
		{`{"tags":[]}`, `the body has no "x" of the expected type`},
		{`{}`, `the body has no "tags" of the expected type`},
		{`null`, `the body has no "tags" of the expected type`},
		{`[1]`, "the body is not a JSON object"},
		{`"tags"`, "the body is not a JSON object"},
	} {
		var got string
		if err := (&body{raw: json.RawMessage(tc.raw), want: want}).CheckShape(); err != nil {
			got = err.Error()
		}
		if d := cmp.Diff(tc.err, got); d != "" {
			t.Errorf("%s: (-want +got)\n%s", tc.raw, d)
		}
	}
}

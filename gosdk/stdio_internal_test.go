package gosdk

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/adapter/stdio"
	"github.com/mcperr/mcperr/wire"
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
	testServer().Run(ctx, &StdioTransport{In: strings.NewReader(input), Out: &out, Drain: time.Second, MaxLine: maxLine})
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
	badID := `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: the id must be a string or an integer of at most 2^53 in magnitude"}}`
	deep := `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: objects and arrays nest deeper than 128 levels"}}`
	tests := []struct {
		name  string
		input []string
		want  []string // lines other than initialize's answer, in order
	}{
		{"not JSON", []string{"garbage", "{"}, []string{parse, parse}},
		{"not a message", []string{`"text"`, `[1]`, `{"foo":1}`}, []string{invalid, invalid, invalid}},
		{"bad id or params", []string{`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, `{"jsonrpc":"2.0","id":2.5,"method":"ping"}`, `{"jsonrpc":"2.0","id":"x","method":"ping","params":"p"}`}, []string{
			badID,
			badID,
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
		// Each of these lines ends the session on the go-sdk's own
		// transport (its decoder refuses it), losing the answers in flight.
		{"params nested 1,001 deep", []string{
			initialized,
			`{"jsonrpc":"2.0","method":"notifications/progress","params":` + nest("[", "]", 1001) + `}`,
			`{"jsonrpc":"2.0","id":2,"method":"ping"}`,
		}, []string{deep, `{"jsonrpc":"2.0","id":2,"result":{}}`}},
		{"tools/call arguments nested past 1,000", []string{
			initialized,
			`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{"a":` + nest("[", "]", 1200) + `}}}`,
			`{"jsonrpc":"2.0","id":3,"method":"ping"}`,
		}, []string{
			`{"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"Invalid Request: objects and arrays nest deeper than 128 levels"}}`,
			`{"jsonrpc":"2.0","id":3,"result":{}}`,
		}},
		{"id 1e400", []string{`{"jsonrpc":"2.0","id":1e400,"method":"ping"}`, `{"jsonrpc":"2.0","id":2,"method":"ping"}`}, []string{
			badID, `{"jsonrpc":"2.0","id":2,"result":{}}`,
		}},
		{"ids the SDK cannot carry", []string{
			`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
			`{"jsonrpc":"2.0","id":12345678901234567890123,"method":"ping"}`,
			`{"jsonrpc":"2.0","id":-0,"method":"ping"}`,
		}, []string{badID, badID, badID}},
		{"a number past float64 in params", []string{
			initialized,
			`{"jsonrpc":"2.0","id":"n","method":"tools/call","params":{"name":"slow","arguments":{"a":1e400}}}`,
		}, []string{`{"jsonrpc":"2.0","id":"n","error":{"code":-32600,"message":"Invalid Request: a number is too large to be carried as a float64"}}`}},
		{"ids echoed byte for byte", []string{
			`{"jsonrpc":"2.0","id":"\u0041","method":"ping"}`,
			`{"jsonrpc":"2.0","id":"<\/a>","method":"ping"}`,
			`{"jsonrpc":"2.0","id":9007199254740992,"method":"ping"}`,
			`{"jsonrpc":"2.0","id":-3,"method":"ping"}`,
		}, []string{
			`{"jsonrpc":"2.0","id":"\u0041","result":{}}`,
			`{"jsonrpc":"2.0","id":"<\/a>","result":{}}`,
			`{"jsonrpc":"2.0","id":9007199254740992,"result":{}}`,
			`{"jsonrpc":"2.0","id":-3,"result":{}}`,
		}},
		{"an id in flight", []string{
			initialized,
			`{"jsonrpc":"2.0","id":"\u0041","method":"tools/call","params":{"name":"slow"}}`,
			`{"jsonrpc":"2.0","id":"A","method":"ping"}`,
		}, []string{
			`{"jsonrpc":"2.0","id":"A","error":{"code":-32600,"message":"Invalid Request: a request with this id is still in flight"}}`,
			`{"jsonrpc":"2.0","id":"\u0041","result":{"content":[{"type":"text","text":"slow done"}]}}`,
		}},
		{"a batch", []string{`[{"jsonrpc":"2.0","id":2,"method":"ping"}]`}, []string{invalid}},
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

func nest(open, close string, n int) string {
	return strings.Repeat(open, n) + strings.Repeat(close, n)
}

// TestTransportInFlight: a line beyond what the SDK accepts, read while ten
// calls are in flight, is answered and loses none of them (on the go-sdk's
// own transport, four of ten were answered, then the session ended).
func TestTransportInFlight(t *testing.T) {
	bad := map[string]string{
		"params nested 1,001 deep":   `{"jsonrpc":"2.0","method":"notifications/progress","params":` + nest("[", "]", 1001) + `}`,
		"arguments nested past 1000": `{"jsonrpc":"2.0","id":99,"method":"tools/call","params":{"name":"slow","arguments":{"a":` + nest("[", "]", 1001) + `}}}`,
		"id 1e400":                   `{"jsonrpc":"2.0","id":1e400,"method":"ping"}`,
	}
	for name, line := range bad {
		t.Run(name, func(t *testing.T) {
			input := []string{initLine, initialized}
			var want []string
			for i := 10; i < 20; i++ {
				input = append(input, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"slow"}}`, i))
				want = append(want, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"slow done"}]}}`, i))
			}
			input = append(input, line, `{"jsonrpc":"2.0","id":"after","method":"ping"}`)
			want = append(want, `{"jsonrpc":"2.0","id":"after","result":{}}`)
			var got []string
			errors := 0
			for _, l := range serve(t, strings.Join(input, "\n")+"\n", 0) {
				switch {
				case strings.Contains(l, `"serverInfo"`):
				case strings.Contains(l, `"code":-32600`):
					errors++
				default:
					got = append(got, l)
				}
			}
			if diff := cmp.Diff(want, got, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" || errors != 1 {
				t.Errorf("%d errors (want 1); answers (-want +got):\n%s", errors, diff)
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

// FuzzFraming: the connection alone, with the SDK played by the test.
// Every input line is either handed on or answered, once; what is handed
// on is the message the line holds, as the message rule (package wire)
// reads it, with a request's id of the same value; and an answer written
// with the SDK's id goes out with the id as the client sent it, whether
// a result or an error, unless a cancellation named the request while it
// was in flight: that answer is dropped (a cancelled request is not
// answered), and the id stays in flight until the SDK writes it.
func FuzzFraming(f *testing.F) {
	for _, s := range framingSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var out bytes.Buffer
		c := newConn(bytes.NewReader(in), &out, time.Nanosecond, 1<<20)
		go c.readLoop()
		var handed []jsonrpc.Message
		for {
			m, err := c.Read(context.Background())
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			handed = append(handed, m)
		}
		c.Close()
		// The model: which lines are handed on, and as what.
		var want []jsonrpc.Message
		var sent []string // a request's id as sent, by its place in want
		lines := 0
		active := map[jsonrpc.ID]bool{}
		byKey := map[string]jsonrpc.ID{} // the requests in flight, by stdio.IDKey
		dropped := map[jsonrpc.ID]bool{} // cancelled while in flight
		for l := range bytes.SplitSeq(in, []byte("\n")) {
			l = bytes.TrimSpace(l)
			if len(l) == 0 {
				continue
			}
			lines++
			m, err := wire.CheckMessage(l)
			if err != nil {
				continue
			}
			switch m.Type {
			case wire.RequestMessage:
				var v any
				json.Unmarshal(m.ID, &v)
				id, err := jsonrpc.MakeID(v)
				if err != nil {
					t.Fatalf("%q: %v", m.ID, err)
				}
				if active[id] {
					continue
				}
				active[id] = true
				byKey[stdio.IDKey(m.ID)] = id
				want = append(want, &jsonrpc.Request{ID: id, Method: m.Method, Params: m.Params})
				sent = append(sent, string(m.ID))
			case wire.NotificationMessage:
				var p struct {
					RequestID json.RawMessage `json:"requestId"`
				}
				if m.Method == "notifications/cancelled" && json.Unmarshal(m.Params, &p) == nil && len(p.RequestID) > 0 {
					if id, ok := byKey[stdio.IDKey(p.RequestID)]; ok {
						dropped[id] = true
					}
				}
				want = append(want, &jsonrpc.Request{Method: m.Method, Params: m.Params})
				sent = append(sent, "")
			case wire.ResponseMessage:
				r, err := jsonrpc.DecodeMessage(l)
				if err != nil {
					t.Fatalf("the SDK refuses a response the check accepts, %q: %v", l, err)
				}
				want = append(want, r)
				sent = append(sent, "")
			}
		}
		answered := bytes.Count(out.Bytes(), []byte("\n"))
		if len(handed)+answered != lines {
			t.Fatalf("%q: %d lines, %d handed on, %d answered", in, lines, len(handed), answered)
		}
		for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
			if l != "" && !json.Valid([]byte(l)) {
				t.Fatalf("answer %q is not JSON", l)
			}
		}
		if diff := cmp.Diff(want, handed, cmp.AllowUnexported(jsonrpc.ID{}), cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("%q: handed on (-want +got):\n%s", in, diff)
		}
		for i, m := range handed {
			r, ok := m.(*jsonrpc.Request)
			if !ok || !r.IsCall() {
				continue
			}
			out.Reset()
			answer := &jsonrpc.Response{ID: r.ID, Result: json.RawMessage(`{"a":"\u003c"}`)}
			want := `{"jsonrpc":"2.0","id":` + sent[i] + `,"result":{"a":"<"}}` + "\n"
			if i%2 == 1 {
				answer = &jsonrpc.Response{ID: r.ID, Error: &jsonrpc.Error{Code: -32602, Message: "a <= b"}}
				want = `{"jsonrpc":"2.0","id":` + sent[i] + `,"error":{"code":-32602,"message":"a <= b"}}` + "\n"
			}
			if dropped[r.ID] {
				want = ""
			}
			if err := c.Write(context.Background(), answer); err != nil {
				t.Fatal(err)
			}
			if out.String() != want {
				t.Fatalf("answer to %v went out as %q, want %q", r.ID.Raw(), out.String(), want)
			}
		}
	})
}

// FuzzWriteResult: a result written around the bytes the SDK encoded is
// the line jsonrpc.EncodeMessage writes, with <, > and & unescaped and the
// id as sent.
func FuzzWriteResult(f *testing.F) {
	for _, s := range []string{`{}`, `{"content":[{"type":"text","text":"a \u003c= b \u0026 c"}],"isError":true}`, `[1,"\\u003c",{"a":null}]`, `"x"`} {
		f.Add([]byte(s), int64(3), "")
		f.Add([]byte(s), int64(0), `"\u0041"`)
	}
	f.Fuzz(func(t *testing.T, result []byte, n int64, s string) {
		var b bytes.Buffer
		if json.Compact(&b, result) != nil || b.Len() == 0 {
			return
		}
		result = b.Bytes() // the SDK's results are compact
		var sent string
		var id jsonrpc.ID
		if s != "" {
			if sent = string(mustMarshal(t, s)); stdio.IDKey([]byte(sent)) != `"`+s || !utf8.ValidString(s) {
				return
			}
			id, _ = jsonrpc.MakeID(s)
		} else {
			if n > (1<<53) || n < -(1<<53) {
				return
			}
			sent = strconv.FormatInt(n, 10)
			id, _ = jsonrpc.MakeID(float64(n))
		}
		var out bytes.Buffer
		c := newConn(strings.NewReader(""), &out, 0, 0)
		c.add(stdio.IDKey([]byte(sent)), []byte(sent), false) // added
		resp := &jsonrpc.Response{ID: id, Result: result}
		if err := c.Write(context.Background(), resp); err != nil {
			t.Fatal(err)
		}
		enc, err := jsonrpc.EncodeMessage(resp)
		if err != nil {
			t.Fatal(err)
		}
		encID, at, ok := wire.AnswerID(enc)
		if !ok {
			t.Fatalf("%s: no id", enc)
		}
		want := string(enc[:at]) + sent + string(stdio.AppendUnescapeHTML(nil, enc[at+len(encID):])) + "\n"
		if out.String() != want {
			t.Fatalf("wrote %q, want %q", out.String(), want)
		}
	})
}

func mustMarshal(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var framingSeeds = []string{
	initLine + "\ngarbage\n",
	`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n\n[]\n",
	initLine + "\n" + `{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"bound","arguments":{"path":[1]}}}` + "\n",
	`{"jsonrpc":"2.0","id":"\u0041","method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":"A","method":"ping"}` + "\n",
	`{"jsonrpc":"2.0","id":1e400,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
	`{"jsonrpc":"2.0","method":"notifications/progress","params":` + nest("[", "]", 200) + "}\n",
	`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"slow"}}` + "\n" + `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}` + "\n",
	`{"jsonrpc":"2.0","id":7,"result":{}}` + "\n" + `{"jsonrpc":"2.0","id":7,"error":{"code":1,"message":"m"}}`,
}

// TestTransportCancel: cancelling the server's context ends the session
// while the input is still open, and the answers already written stay.
func TestTransportCancel(t *testing.T) {
	inR, inW := io.Pipe()
	defer inW.Close()
	outR, outW := io.Pipe()
	defer outR.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- testServer().Run(ctx, &StdioTransport{In: inR, Out: outW}) }()
	go io.WriteString(inW, initLine+"\n")
	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil || !strings.Contains(line, `"serverInfo"`) {
		t.Fatalf("initialize: %q, %v", line, err)
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Run returned %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after its context was cancelled, with the input still open")
	}
}

// keepConn is a StdioTransport that keeps the connection it made.
type keepConn struct {
	t *StdioTransport
	c *conn
}

func (k *keepConn) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := k.t.Connect(ctx)
	k.c, _ = c.(*conn)
	return c, err
}

// TestSessionVersion: the revision the transport's error lines take their
// codes from is the one the SDK's answer to initialize negotiated, not the
// one the client asked for (the go-sdk answers 2025-11-25 to a client asking
// for 2026-07-28, whose requests name their revision themselves, or for a
// revision it does not know), and "" before initialize.
func TestSessionVersion(t *testing.T) {
	for _, tt := range []struct{ asked, want string }{
		{"", ""},
		{"2025-06-18", "2025-06-18"},
		{"2025-11-25", "2025-11-25"},
		{"2026-07-28", "2025-11-25"},
		{"1999-01-01", "2025-11-25"},
	} {
		in := `{"jsonrpc":"2.0","id":7,"method":"ping"}` + "\n"
		if tt.asked != "" {
			in = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + tt.asked + `","capabilities":{},"clientInfo":{"name":"c","version":"0"}}}` + "\n" + in
		}
		var out bytes.Buffer
		k := &keepConn{t: &StdioTransport{In: strings.NewReader(in), Out: &out}}
		testServer().Run(context.Background(), k)
		if got := k.c.sessionVersion(); got != tt.want {
			t.Errorf("asked %q: the session's revision is %q, want %q (output %s)", tt.asked, got, tt.want, out.String())
		}
	}
}

package stdio

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/errkind"
)

// A line over the bound is answered with a parse error, whether it ends
// within the reader's buffer or past it, and the lines after it are read.
func TestReaderBound(t *testing.T) {
	long := strings.Repeat("x", 200<<10)
	tests := []struct {
		name  string
		input string
		max   int
		want  []string
	}{
		{"short lines, blank ones skipped", "a\n\n  \r\nb\r\n c ", 0, []string{"a", "b", "c"}},
		{"over the bound within the buffer", "a\n" + strings.Repeat("y", 100) + "\nb\n", 10, []string{"a", "!", "b"}},
		{"over the bound past the buffer", "a\n" + long + "\nb", 100 << 10, []string{"a", "!", "b"}},
		{"long line under the bound", "a\n" + long + "\nb", 300 << 10, []string{"a", long, "b"}},
		{"over the bound at the end of the input", "a\n" + long, 100 << 10, []string{"a", "!"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, answers := readAll(NewReader(strings.NewReader(tt.input), tt.max))
			for _, a := range answers {
				if string(a) != string(ParseError) {
					t.Errorf("answer %q, want the parse error", a)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
		})
	}
}

// readAll reads r to its end: each line it returns, or "!" for a line it
// answered itself, and those answers.
func readAll(r *Reader) (lines []string, answers [][]byte) {
	for {
		line, answer, err := r.Next()
		if err != nil {
			return lines, answers
		}
		if answer != nil {
			lines = append(lines, "!")
			answers = append(answers, answer)
			continue
		}
		lines = append(lines, string(line))
	}
}

func TestAppendAnswer(t *testing.T) {
	tests := []struct {
		name, data, sent, want string
	}{
		{"id put back as sent", `{"jsonrpc":"2.0","id":"\u003c\u0026\u003e","result":{"text":"\u003c=8 \\u003c"}}`, `"<&>"`,
			`{"jsonrpc":"2.0","id":"<&>","result":{"text":"<=8 \\u003c"}}` + "\n"},
		{"a notification is written unescaped", `{"jsonrpc":"2.0","method":"m","params":{"a":"\u0026"}}`, `1`,
			`{"jsonrpc":"2.0","method":"m","params":{"a":"&"}}` + "\n"},
		{"no id given", `{"jsonrpc":"2.0","id":7,"error":{"code":1,"message":"\u00e9"}}`, ``,
			`{"jsonrpc":"2.0","id":7,"error":{"code":1,"message":"\u00e9"}}` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, string(AppendAnswer(nil, []byte(tt.data), []byte(tt.sent)))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// AppendUnescapeHTML writes the \u003c, \u003e and \u0026 escapes as <, >
// and &, and leaves every other escape, and an escaped backslash followed
// by "u003c", alone.
func TestAppendUnescapeHTML(t *testing.T) {
	tests := []struct{ in, want string }{
		{`"a \u003c= b \u0026 c \u003e d"`, `"a <= b & c > d"`},
		{`"\\u003c"`, `"\\u003c"`}, // an escaped backslash, then text
		{`"\\\u003c"`, `"\\<"`},
		{`"\u00e9\n"`, `"\u00e9\n"`},
		{`"tail \`, `"tail \`},
		{`"\\\\\u003c \\\\u003c"`, `"\\\\< \\\\u003c"`}, // runs of backslashes pair up
		{`"\u00e9\u003e\"\u0026"`, `"\u00e9>\"&"`},
		{`"\u003`, `"\u003`},
	}
	for _, tt := range tests {
		if got := string(AppendUnescapeHTML(nil, []byte(tt.in))); got != tt.want {
			t.Errorf("AppendUnescapeHTML(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// FuzzAppendUnescapeHTML checks that the unescaped JSON decodes to the same
// value as the JSON it was made from, and that on a value as encoding/json
// writes it, with its HTML escapes, the output is what it writes without
// them.
func FuzzAppendUnescapeHTML(f *testing.F) {
	for _, s := range []string{`"\u003c=8\u0026\u003e"`, `"\\u003c"`, `"\\\u003c"`, `{"a":["\u0026\u00e9"]}`, `"\u00"`, `{"a":"\\u003c\u0026"}`, `["\\\\\u003e"]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var before any
		if json.Unmarshal([]byte(s), &before) != nil {
			return
		}
		out := AppendUnescapeHTML(nil, []byte(s))
		var after any
		if err := json.Unmarshal(out, &after); err != nil {
			t.Fatalf("%q unescaped to %q, which does not decode: %v", s, out, err)
		}
		if diff := cmp.Diff(before, after); diff != "" {
			t.Fatalf("%q unescaped to %q, another value (-before +after):\n%s", s, out, diff)
		}
		escaped, err := json.Marshal(before)
		if err != nil {
			return
		}
		var plain bytes.Buffer
		enc := json.NewEncoder(&plain)
		enc.SetEscapeHTML(false)
		enc.Encode(before)
		if got, want := string(AppendUnescapeHTML(nil, escaped)), strings.TrimSuffix(plain.String(), "\n"); got != want {
			t.Fatalf("%q unescaped to %q, want %q", escaped, got, want)
		}
	})
}

// FuzzReader holds Reader to the plain reading of its rule: the input split
// at each newline, a line longer than the bound (its newline counted)
// answered with the parse error, every other line trimmed and kept unless
// blank.
func FuzzReader(f *testing.F) {
	f.Add("a\n\n b \r\nccccccccccccc\nd", 8)
	f.Add("", 1)
	f.Add("\n\n\n", 1)
	f.Fuzz(func(t *testing.T, input string, max int) {
		if max <= 0 || max > 1<<20 {
			return
		}
		var want []string
		for rest := input; rest != ""; {
			line, after, found := strings.Cut(rest, "\n")
			n := len(line)
			if found {
				n++
			}
			switch {
			case n > max:
				want = append(want, "!")
			case strings.TrimSpace(line) != "":
				want = append(want, strings.TrimSpace(line))
			}
			rest = after
		}
		got, _ := readAll(NewReader(strings.NewReader(input), max))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("lines of %q at bound %d (-want +got):\n%s", input, max, diff)
		}
	})
}

// Every error line takes its code from the code table of its revision
// (errkind.RPCCode.On): Busy's -32000 is -31000 from 2026-07-28 on, the
// other codes stand on every revision, and ParseError, which Reader.Next
// writes without a revision, is the line ErrorLine writes on each.
func TestCodesByRevision(t *testing.T) {
	code := func(line []byte) errkind.RPCCode {
		var a struct {
			Error struct{ Code errkind.RPCCode }
		}
		if err := json.Unmarshal(line, &a); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		return a.Error.Code
	}
	for _, tt := range []struct {
		version                                   string
		busy, inFlight, notJSON, batch, internalE errkind.RPCCode
	}{
		{"", -32000, -32600, -32700, -32600, -32603},
		{"2025-06-18", -32000, -32600, -32700, -32600, -32603},
		{"2025-11-25", -32000, -32600, -32700, -32600, -32603},
		{"2026-07-28", -31000, -32600, -32700, -32600, -32603},
	} {
		_, notJSON := Check([]byte("not json"), tt.version)
		_, batch := Check([]byte(`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`), tt.version)
		got := []errkind.RPCCode{code(Busy(json.RawMessage(`1`), 8, tt.version)), code(InFlight(json.RawMessage(`1`), tt.version)),
			code(notJSON), code(batch), code(ErrorLine(json.RawMessage(`1`), errkind.InternalError, "Internal error", tt.version))}
		want := []errkind.RPCCode{tt.busy, tt.inFlight, tt.notJSON, tt.batch, tt.internalE}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("revision %q: codes of Busy, InFlight, not JSON, a batch, -32603 (-want +got):\n%s", tt.version, diff)
		}
		if p := ErrorLine(nil, errkind.ParseError, "Parse error", tt.version); !bytes.Equal(p, ParseError) {
			t.Errorf("revision %q: the parse error is %s, want ParseError %s", tt.version, p, ParseError)
		}
	}
}

// Revision is the one a request's _meta names, else the session's.
func TestRevision(t *testing.T) {
	for _, tt := range []struct{ line, session, want string }{
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, "2025-06-18", "2025-06-18"},
		{`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`, "", "2026-07-28"},
		{`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"progressToken":1}}}`, "2025-11-25", "2025-11-25"},
	} {
		m, answer := Check([]byte(tt.line), "")
		if answer != nil {
			t.Fatalf("%s refused: %s", tt.line, answer)
		}
		if got := Revision(m, tt.session); got != tt.want {
			t.Errorf("Revision(%s, %q) = %q, want %q", tt.line, tt.session, got, tt.want)
		}
	}
	if got := Revision(nil, "2025-11-25"); got != "2025-11-25" {
		t.Errorf("Revision(nil) = %q, want the session's", got)
	}
}

// Report hands the hook a refusal as Stage Protocol, read as the client
// reads the line (its code, message and data), with the refused request's method and tool; a nil hook
// is not called.
func TestReport(t *testing.T) {
	m, _ := Check([]byte(`{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"get","arguments":{}}}`), "")
	var got []adapter.Failure
	hook := func(_ context.Context, f adapter.Failure) { got = append(got, f) }
	Report(context.Background(), hook, m, Busy(m.ID, 4, "2026-07-28"))
	Report(context.Background(), hook, nil, ParseError)
	Report(context.Background(), nil, nil, ParseError)
	busy := "Server busy: 4 requests are in flight; send it again once one is answered"
	want := []adapter.Failure{
		{Stage: adapter.Protocol, Method: "tools/call", Tool: "get", Reading: errkind.Read(errkind.Outcome{RPCCode: -31000, Message: busy,
			Data: json.RawMessage(`{"kind":"unavailable","code":"server_busy","message":"` + busy + `","retryAfterSeconds":1}`)})},
		{Stage: adapter.Protocol, Reading: errkind.Read(errkind.Outcome{RPCCode: errkind.ParseError, Message: "Parse error"})},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

package wire

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/errkind"
)

func nest(open, close string, n int) string {
	return strings.Repeat(open, n) + strings.Repeat(close, n)
}

// TestCheckMessage: the one JSON-RPC message rule. Ids a stack cannot echo
// byte for byte are refused with id null (issue 13: 1.5 came back as 1,
// 12345678901234567890123 as -9223372036854775808), messages nested past
// what the go-sdk's decoder takes and numbers no float64 carries are
// refused before they reach it, and everything else is read once.
func TestCheckMessage(t *testing.T) {
	type result struct {
		Type   string
		ID     string
		Method string
		Params string
		Code   errkind.RPCCode
		ErrID  string
		Err    string
	}
	tests := []struct {
		name string
		in   string
		want result
	}{
		{"request", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x"}}`,
			result{Type: "request", ID: "7", Method: "tools/call", Params: `{"name":"x"}`}},
		{"string id as sent", `{"jsonrpc":"2.0","id":"a\u0041<","method":"ping"}`,
			result{Type: "request", ID: `"a\u0041<"`, Method: "ping"}},
		{"2^53", `{"jsonrpc":"2.0","id":9007199254740992,"method":"ping"}`,
			result{Type: "request", ID: "9007199254740992", Method: "ping"}},
		{"-2^53", `{"jsonrpc":"2.0","id":-9007199254740992,"method":"ping"}`,
			result{Type: "request", ID: "-9007199254740992", Method: "ping"}},
		{"zero", `{"jsonrpc":"2.0","id":0,"method":"ping"}`, result{Type: "request", ID: "0", Method: "ping"}},
		{"notification", ` {"method":"notifications/initialized","jsonrpc":"2.0"} `,
			result{Type: "notification", Method: "notifications/initialized"}},
		{"escaped names", `{"json\u0072pc":"2\u002e0","\u0069d":1,"method":"p\u0069ng"}`,
			result{Type: "request", ID: "1", Method: "ping"}},
		{"response", `{"jsonrpc":"2.0","id":3,"result":{}}`, result{Type: "response", ID: "3"}},
		{"error response", `{"jsonrpc":"2.0","id":3,"error":{"code":-1,"message":"m"}}`, result{Type: "response", ID: "3"}},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, result{Type: "batch"}},
		{"at the depth bound", `{"jsonrpc":"2.0","id":1,"method":"m","params":` + nest("[", "]", maxDepth-1) + `}`,
			result{Type: "request", ID: "1", Method: "m", Params: nest("[", "]", maxDepth-1)}},
		{"a method of invalid UTF-8 reads as encoding/json reads it", "{\"jsonrpc\":\"2.0\",\"method\":\"\x81\"}",
			result{Type: "notification", Method: "\uFFFD"}},
		{"tiny numbers read as zero", `{"jsonrpc":"2.0","method":"m","params":[1e-400,-0.0,1E+308]}`,
			result{Type: "notification", Method: "m", Params: `[1e-400,-0.0,1E+308]`}},

		{"not JSON", `{"jsonrpc":"2.0","id":1`, result{Code: -32700, Err: "not valid JSON"}},
		{"empty", ``, result{Code: -32700, Err: "not valid JSON"}},
		{"trailing bytes", `{"jsonrpc":"2.0","id":1,"method":"m"} x`, result{Code: -32700, Err: "not valid JSON"}},
		{"bad number", `{"jsonrpc":"2.0","id":01,"method":"m"}`, result{Code: -32700, Err: "not valid JSON"}},
		{"bad escape", `{"jsonrpc":"2.0","id":"\x","method":"m"}`, result{Code: -32700, Err: "not valid JSON"}},
		{"control character", "{\"jsonrpc\":\"2.0\",\"id\":\"\t\",\"method\":\"m\"}", result{Code: -32700, Err: "not valid JSON"}},
		{"deep and broken", nest("[", "", 5000), result{Code: -32700, Err: "not valid JSON"}},

		{"id 1.5", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, result{Code: -32600, Err: "id cannot be echoed"}},
		{"id 1e400", `{"jsonrpc":"2.0","id":1e400,"method":"ping"}`, result{Code: -32600, Err: "id cannot be echoed"}},
		{"id 1e2", `{"jsonrpc":"2.0","id":1e2,"method":"ping"}`, result{Code: -32600, Err: "id cannot be echoed"}},
		{"id 23 digits", `{"jsonrpc":"2.0","id":12345678901234567890123,"method":"ping"}`, result{Code: -32600, Err: "id cannot be echoed"}},
		{"id 2^53+1", `{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`, result{Code: -32600, Err: "id cannot be echoed"}},
		{"id -0", `{"jsonrpc":"2.0","id":-0,"method":"ping"}`, result{Code: -32600, Err: "id cannot be echoed"}},
		{"id null", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, result{Code: -32600, Err: "id cannot be echoed"}},
		{"id object", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, result{Code: -32600, Err: "id cannot be echoed"}},
		{"id array", `{"jsonrpc":"2.0","id":[1],"method":"ping"}`, result{Code: -32600, Err: "id cannot be echoed"}},
		{"id true", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, result{Code: -32600, Err: "id cannot be echoed"}},
		{"id of invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":\"\x81\",\"method\":\"ping\"}", result{Code: -32600, Err: "id cannot be echoed"}},

		{"params nested 1,001 deep", `{"jsonrpc":"2.0","method":"notifications/x","params":` + nest("[", "]", 1001) + `}`,
			result{Code: -32600, Err: "nested too deep"}},
		{"arguments nested past the bound, id kept", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"t","arguments":{"a":` + strings.Repeat(`[{"a":`, 600) + "1" + strings.Repeat("}]", 600) + `}}}`,
			result{Code: -32600, ErrID: "4", Err: "nested too deep"}},
		{"one level past the bound", `{"jsonrpc":"2.0","id":1,"method":"m","params":` + nest("[", "]", maxDepth) + `}`,
			result{Code: -32600, ErrID: "1", Err: "nested too deep"}},
		{"deep batch", nest("[", "]", 10000), result{Code: -32600, Err: "nested too deep"}},
		{"number beyond float64", `{"jsonrpc":"2.0","id":"n","method":"m","params":[1e400]}`,
			result{Code: -32600, ErrID: `"n"`, Err: "number out of range"}},
		{"309 digits", `{"jsonrpc":"2.0","method":"m","params":[` + strings.Repeat("9", 309) + `]}`,
			result{Code: -32600, Err: "number out of range"}},

		{"not an object", `"text"`, result{Code: -32600, Err: "not a JSON-RPC 2.0 message"}},
		{"no version", `{"id":1,"method":"m"}`, result{Code: -32600, ErrID: "1", Err: "not a JSON-RPC 2.0 message"}},
		{"wrong version", `{"jsonrpc":"1.0","id":1,"method":"m"}`, result{Code: -32600, ErrID: "1", Err: "not a JSON-RPC 2.0 message"}},
		{"empty object", `{}`, result{Code: -32600, Err: "not a JSON-RPC 2.0 message"}},
		{"method not a string", `{"jsonrpc":"2.0","id":1,"method":5}`, result{Code: -32600, ErrID: "1", Err: "not a JSON-RPC 2.0 message"}},
		{"params a string", `{"jsonrpc":"2.0","id":"x","method":"m","params":"p"}`, result{Code: -32600, ErrID: `"x"`, Err: "not a JSON-RPC 2.0 message"}},
		{"Id in another case", `{"jsonrpc":"2.0","Id":1,"method":"m"}`, result{Code: -32600, Err: "not a JSON-RPC 2.0 message"}},
		{"id twice", `{"jsonrpc":"2.0","id":1,"id":2,"method":"m"}`, result{Code: -32600, ErrID: "2", Err: "not a JSON-RPC 2.0 message"}},
		{"response without result", `{"jsonrpc":"2.0","id":7}`, result{Code: -32600, ErrID: "7", Err: "not a JSON-RPC 2.0 message"}},
		{"response error not an object", `{"jsonrpc":"2.0","id":7,"error":5}`, result{Code: -32600, ErrID: "7", Err: "not a JSON-RPC 2.0 message"}},
		{"response error code 1.5", `{"jsonrpc":"2.0","id":7,"error":{"code":1.5,"message":"m"}}`, result{Code: -32600, ErrID: "7", Err: "not a JSON-RPC 2.0 message"}},
		{"method and result", `{"jsonrpc":"2.0","id":7,"method":"m","result":1}`, result{Code: -32600, ErrID: "7", Err: "not a JSON-RPC 2.0 message"}},
		{"neither method nor id", `{"jsonrpc":"2.0","result":1}`, result{Code: -32600, Err: "not a JSON-RPC 2.0 message"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := CheckMessage([]byte(tt.in))
			var got result
			if err != nil {
				var me *MessageError
				if !errors.As(err, &me) {
					t.Fatalf("error %v is not a *MessageError", err)
				}
				got = result{Code: me.Code, ErrID: string(me.ID), Err: me.Err.Error()}
				if !errors.Is(err, me.Err) || me.Reason == "" {
					t.Errorf("error %v: Err not wrapped or no reason", err)
				}
			} else {
				got = result{Type: typeName(m.Type), ID: string(m.ID), Method: m.Method, Params: string(m.Params)}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestCheckMessageTooLarge(t *testing.T) {
	in := `{"jsonrpc":"2.0","id":1,"method":"m","params":["` + strings.Repeat("a", MaxMessageBytes) + `"]}`
	_, err := CheckMessage([]byte(in))
	if !errors.Is(err, errTooLarge) {
		t.Fatalf("got %v, want errTooLarge", err)
	}
}

// depth returns the deepest nesting of objects and arrays in a valid JSON
// value.
func depth(b []byte) int {
	d, max := 0, 0
	in, esc := false, false
	for _, c := range b {
		switch {
		case in && esc:
			esc = false
		case in && c == '\\':
			esc = true
		case in && c == '"':
			in = false
		case in:
		case c == '"':
			in = true
		case c == '{' || c == '[':
			d++
			max = maxInt(max, d)
		case c == '}' || c == ']':
			d--
		}
	}
	return max
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// FuzzCheckMessage: CheckMessage calls a message JSON exactly when
// encoding/json does, accepts nothing nested past maxDepth, and what it
// accepts decodes as it says.
func FuzzCheckMessage(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x","arguments":{"a":[1,2.5e3,"\u00e9"]}}}`,
		`{"jsonrpc":"2.0","id":"a\"b","result":{}}`,
		`{"jsonrpc":"2.0","id":1e400,"method":"ping"}`,
		`[{"jsonrpc":"2.0","method":"m"}]`,
		`{"jsonrpc":"2.0","method":"m","params":[[[[[[[[[]]]]]]]]]}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m"}}`,
		`{"json\u0072pc":"2.0","id":-12,"method":"m"} `,
		` "x" `, `{`, `[1,]`, `{"a":tru}`, `-`, `0.e1`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := CheckMessage(b)
		if errors.Is(err, ErrNotJSON) == json.Valid(b) {
			t.Fatalf("%q: CheckMessage says %v, json.Valid %v", b, err, json.Valid(b))
		}
		if err != nil {
			return
		}
		if d := depth(b); d > maxDepth {
			t.Fatalf("%q: accepted at depth %d", b, d)
		}
		if m.Type == BatchMessage {
			return
		}
		var v struct {
			ID     any    `json:"id"`
			Method string `json:"method"`
		}
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("%q: accepted, does not decode: %v", b, err)
		}
		if v.Method != m.Method {
			t.Fatalf("%q: method %q, decoded %q", b, m.Method, v.Method)
		}
		if m.ID != nil {
			var id any
			json.Unmarshal(m.ID, &id)
			if !cmp.Equal(id, v.ID) {
				t.Fatalf("%q: id %s, decoded %v", b, m.ID, v.ID)
			}
		}
	})
}

var benchMessage = []byte(`{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"search_stories","arguments":{"query":"offshore wind","language":"en","signals":["sentiment","entities"],"limit":10},"_meta":{"progressToken":7}}}`)

// BenchmarkCheckMessage is the whole message rule on a typical tools/call:
// size, depth, numbers, the envelope and the id, in one pass.
func BenchmarkCheckMessage(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(benchMessage)))
	for b.Loop() {
		if _, err := CheckMessage(benchMessage); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckMessageAnchor is the anchor: what a transport did before,
// json.Valid and a decode of the envelope's members, which checks neither
// depth nor numbers nor ids.
func BenchmarkCheckMessageAnchor(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(benchMessage)))
	for b.Loop() {
		if !json.Valid(benchMessage) {
			b.Fatal("invalid")
		}
		var f struct {
			Version string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Method  *string         `json:"method"`
			Params  json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal(benchMessage, &f); err != nil {
			b.Fatal(err)
		}
	}
}

// typeName names a message type as the table above writes it.
func typeName(t MessageType) string {
	return map[MessageType]string{RequestMessage: "request", NotificationMessage: "notification", ResponseMessage: "response", BatchMessage: "batch"}[t]
}

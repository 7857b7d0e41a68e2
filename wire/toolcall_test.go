package wire

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// ToolCall reads a tools/call's params only when they are an object of a
// "name" string without escapes and an optional "arguments" object, each
// once; anything else (an escape, another member, arguments that are not
// an object, invalid UTF-8, another method) is left to the SDK.
func TestMessageToolCall(t *testing.T) {
	type got struct {
		Name, Args string
		OK         bool
	}
	tests := []struct {
		method, params string
		want           got
	}{
		{"tools/call", `{"name":"a"}`, got{"a", "", true}},
		{"tools/call", `{"name":"a","arguments":{"x":[1,"]"]}}`, got{"a", `{"x":[1,"]"]}`, true}},
		{"tools/call", ` {"arguments" :{ } , "name":"é"} `, got{"é", `{ }`, true}},
		{"tools/call", `{"name":"a\"b"}`, got{}},
		{"tools/call", `{"n\u0061me":"a"}`, got{}},
		{"tools/call", `{"name":"a","name":"b"}`, got{}},
		{"tools/call", `{"name":"a","arguments":1}`, got{}},
		{"tools/call", `{"name":"a","arguments":{},"arguments":{}}`, got{}},
		{"tools/call", `{"name":1}`, got{}},
		{"tools/call", `{"name":"a","x":1}`, got{}},
		{"tools/call", `{"name":"a",}`, got{}},
		{"tools/call", `{"name":"a"`, got{}},
		{"tools/call", `{"name":"a"}x`, got{}},
		{"tools/call", `{"name":"` + "\xff" + `"}`, got{}},
		{"tools/call", `{}`, got{}},
		{"tools/call", `"name"`, got{}},
		{"tools/call", ``, got{}},
		{"tools/list", `{"name":"a"}`, got{}},
	}
	for _, tt := range tests {
		m := &Message{Type: RequestMessage, Method: tt.method, Params: json.RawMessage(tt.params)}
		name, args, ok := m.ToolCall()
		if diff := cmp.Diff(tt.want, got{name, string(args), ok}); diff != "" {
			t.Errorf("%s %q: ToolCall (-want +got):\n%s", tt.method, tt.params, diff)
		}
	}
}

// FuzzMessageToolCall: params ToolCall reads decode, with encoding/json, to
// exactly the name and arguments it returns, and hold no other member.
func FuzzMessageToolCall(f *testing.F) {
	for _, s := range []string{`{"name":"a"}`, `{"name":"a","arguments":{"x":1}}`, ` {"arguments":{},"name":"é"} `, `{"name":"a","x":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, params []byte) {
		m := &Message{Type: RequestMessage, Method: "tools/call", Params: params}
		name, args, ok := m.ToolCall()
		if !ok {
			return
		}
		var members map[string]json.RawMessage
		if err := json.Unmarshal(params, &members); err != nil {
			t.Fatalf("%q: read as a call, but not a JSON object: %v", params, err)
		}
		var decoded string
		if err := json.Unmarshal(members["name"], &decoded); err != nil || decoded != name {
			t.Fatalf("%q: name %q, decoded %q (%v)", params, name, decoded, err)
		}
		if string(members["arguments"]) != string(args) {
			t.Fatalf("%q: arguments %q, decoded %q", params, args, members["arguments"])
		}
		delete(members, "name")
		delete(members, "arguments")
		if len(members) > 0 {
			t.Fatalf("%q: other members %v", params, members)
		}
	})
}

package wire

import (
	"encoding/json"
	"strings"
	"testing"
)

// AnswerID reads the id of a response an SDK wrote, where the envelope
// begins as the go-sdk writes it, and nothing else.
func TestAnswerID(t *testing.T) {
	tests := []struct {
		in, id string
		ok     bool
	}{
		{`{"jsonrpc":"2.0","id":"A","result":{"id":"B"}}`, `"A"`, true},
		{`{"jsonrpc":"2.0","id":"a\"b","error":{"code":1,"message":"m"}}`, `"a\"b"`, true},
		{`{"jsonrpc":"2.0","id":-12,"result":{}}`, `-12`, true},
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, ``, false},
		{`{"jsonrpc":"2.0","method":"x"}`, ``, false},
		{`{"id":1,"jsonrpc":"2.0","result":{}}`, ``, false},
		{`{"jsonrpc":"2.0","id":"unterminated`, ``, false},
		{`{"jsonrpc":"2.0","id":`, ``, false},
	}
	for _, tt := range tests {
		id, at, ok := AnswerID([]byte(tt.in))
		if string(id) != tt.id || ok != tt.ok || ok && tt.in[at:at+len(id)] != tt.id {
			t.Errorf("AnswerID(%s) = %s, %d, %v; want %s, %v", tt.in, id, at, ok, tt.id, tt.ok)
		}
	}
}

// FuzzAnswerID: an id AnswerID finds is a JSON value where it says, and
// the one encoding/json reads from the same response.
func FuzzAnswerID(f *testing.F) {
	for _, s := range []string{`{"jsonrpc":"2.0","id":"A","result":{}}`, `{"jsonrpc":"2.0","id":-1.5e3,"error":{}}`, `{"jsonrpc":"2.0","id":"\u00e9\"","result":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		id, at, ok := AnswerID(b)
		if !ok {
			return
		}
		if string(b[at:at+len(id)]) != string(id) || !json.Valid(id) {
			t.Fatalf("%q: id %q at %d", b, id, at)
		}
		var v struct {
			ID json.RawMessage `json:"id"`
		}
		// (A second "id" member would win in encoding/json; SDKs write one.)
		if strings.Count(string(b), `"id"`) == 1 && json.Unmarshal(b, &v) == nil && string(v.ID) != string(id) {
			t.Fatalf("%q: id %s, decoded %s", b, id, v.ID)
		}
	})
}

package envelope

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestScanTop: the top-level scan finds the members that decide whether a
// body is an error, and only at the top level.
func TestScanTop(t *testing.T) {
	tests := []struct {
		body string
		want byte // the first byte of the envelope's value; 0: not found
	}{
		{`{"error":{}}`, '{'},
		{` { "error" : "x" } `, '"'},
		{`{"a":1,"error":[1]}`, '['},
		{`{"a":{"error":{}},"b":2}`, 0},
		{`{"a":"\"error\":{}","b":2}`, 0},
		{`{"a":"x\\","error":{}}`, '{'},
		{`{"a":["}",{"error":1}],"error":null}`, 'n'},
		{`{"\u0065rror":{}}`, '{'},
		{`{"errors":{}}`, 0},
		{`[{"error":{}}]`, 0},
		{`{"error"`, 0},
		{`{"error":`, 0},
		{`{"a":1 "error":{}}`, 0},
		{`{"a":"unterminated,"error":{}}`, 0},
		{``, 0},
	}
	for _, tt := range tests {
		s := scanTop([]byte(tt.body), "error", '{')
		var got byte
		if len(s.env) > 0 {
			got = s.env[0]
		}
		if got != tt.want {
			t.Errorf("scanTop(%s).env starts %q; want %q", tt.body, got, tt.want)
		}
	}
	// The other members, with the envelope's key absent.
	s := scanTop([]byte(`{"ok":false,"data":{"a":null},"errors":[{"message":"m"}],"extensions":{}}`), "error", '{')
	got := []string{string(s.ok), string(s.data), string(s.errors)}
	if diff := cmp.Diff([]string{"false", `{"a":null}`, `[{"message":"m"}]`}, got); diff != "" || s.other {
		t.Errorf("spans (-want +got):\n%s\nother %v", diff, s.other)
	}
	// The error flags and JSON-RPC's member.
	s = scanTop([]byte(`{"jsonrpc":"2.0","success":false,"status":"error","id":1}`), "error", '{')
	got = []string{string(s.jsonrpc), string(s.success), string(s.status)}
	if diff := cmp.Diff([]string{`"2.0"`, "false", `"error"`}, got); diff != "" || !s.errorShape() {
		t.Errorf("flag spans (-want +got):\n%s\nerrorShape %v", diff, s.errorShape())
	}
	if s := scanTop([]byte(`{"ok":true,"success":true,"status":"ok"}`), "error", '{'); s.errorShape() {
		t.Error("flags that are not up make an error shape")
	}
	if s := scanTop([]byte(`{"errors":[],"id":1}`), "error", '{'); !s.other {
		t.Error("a member besides data, errors and extensions is not recorded")
	}
}

package envelope

import "testing"

func TestTopLevel(t *testing.T) {
	tests := []struct {
		body string
		want byte // 0: not found
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
		got, ok := topLevel([]byte(tt.body), "error")
		if ok != (tt.want != 0) || got != tt.want {
			t.Errorf("topLevel(%s) = %q, %v; want %q", tt.body, got, ok, tt.want)
		}
	}
}

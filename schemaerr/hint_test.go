package schemaerr_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/schemaerr"
	"github.com/mcperr/mcperr/wire"
)

// TestNilErrorIsNil: valid arguments give an error interface that is nil,
// not a nil *wire.RPCError wrapped in a non-nil error, whether the result
// of Check or a check is stored in an error variable or returned
// through one (the typed-nil trap).
func TestNilErrorIsNil(t *testing.T) {
	s, err := schemaerr.Compile([]byte(`{"type":"object","properties":{"q":{"type":"string"}},"additionalProperties":false}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	pass := func(json.RawMessage) error { return nil }
	var stored error = s.Check(json.RawMessage(`{"q":"go"}`), pass)
	if stored != nil {
		t.Errorf("Check(valid) stored in an error = %#v, want nil", stored)
	}
	through := func() error { return s.Check(json.RawMessage(`{"q":"go"}`)) }
	if err := through(); err != nil {
		t.Errorf("Check(valid) returned as an error = %#v, want nil", err)
	}
	if r := schemaerr.Hint.Refuse("t", nil); r != (schemaerr.Refusal{}) {
		t.Errorf("Hint.Refuse(no issues) = %+v, want the zero Refusal", r)
	}
	var c func(json.RawMessage) error = pass
	if err := c(nil); err != nil {
		t.Errorf("a passing Check = %#v", err)
	}
	if r := s.Reject("t", json.RawMessage(`{"q":"go"}`)); r != nil {
		t.Errorf("Reject(valid) = %+v, want nil", r)
	}
}

// TestHintErrors: every refusal is a *wire.RPCError that errors.As finds
// through wrapping, with code -32602 and the data.code of its cause, and
// marshals as the hint dialect writes it.
func TestHintErrors(t *testing.T) {
	s, err := schemaerr.Compile([]byte(`{"type":"object","properties":{"q":{"type":"string"}},"additionalProperties":false}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	own := func(json.RawMessage) error {
		return schemaerr.Unknown("unknown_signal", "signal", "cpu_usge", []string{"cpu_usage"})
	}
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"unknown parameter", s.Check(json.RawMessage(`{"qq":"go"}`)),
			`{"code":-32602,"message":"Unknown parameter 'qq'. Did you mean 'q'?","data":{"code":"unknown_parameter"}}`},
		{"invalid parameter", s.Check(json.RawMessage(`{"q":1}`)),
			`{"code":-32602,"message":"Invalid value for 'q': must be a string.","data":{"code":"invalid_parameter"}}`},
		{"a check's own code", s.Check(json.RawMessage(`{"q":"go"}`), own),
			`{"code":-32602,"message":"Unknown signal 'cpu_usge'. Did you mean 'cpu_usage'?","data":{"code":"unknown_signal"}}`},
		{"invalid", schemaerr.Invalid("out_of_credit", "No credit left."),
			`{"code":-32602,"message":"No credit left.","data":{"code":"out_of_credit"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var e *wire.RPCError
			if !errors.As(errors.Join(errors.New("context"), tt.err), &e) {
				t.Fatalf("errors.As found no *wire.RPCError in %#v", tt.err)
			}
			if e.Code != errkind.InvalidParams {
				t.Errorf("code %d, want -32602", e.Code)
			}
			b, err := json.Marshal(tt.err)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(b)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if !strings.Contains(tt.err.Error(), "("+e.DataCode()+")") {
				t.Errorf("Error() %q does not name the data code %q", tt.err, e.DataCode())
			}
		})
	}
}

// TestRefusalCodes: arguments refused before validation carry the exported
// codes, so a caller switches on constants rather than strings.
func TestRefusalCodes(t *testing.T) {
	s, err := schemaerr.Compile([]byte(`{"type":"object"}`), &schemaerr.Options{Bounds: schemaerr.Bounds{MaxBytes: 64, MaxDepth: 2, MaxElements: 3}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args, code string
	}{
		{`{"a":`, "invalid_json"},
		{`{"a":"` + strings.Repeat("x", 100) + `"}`, "too_large"},
		{`{"a":{"b":{"c":1}}}`, "too_deep"},
		{`{"a":[1,2,3,4]}`, "too_many_elements"},
	}
	for _, tt := range tests {
		issues := s.Validate(json.RawMessage(tt.args))
		if len(issues) != 1 || issues[0].Code != tt.code {
			t.Errorf("Validate(%.30s) = %+v, want one %s issue", tt.args, issues, tt.code)
		}
	}
}

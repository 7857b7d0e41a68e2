package adapter_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/schemaerr"
	"github.com/mcperr/mcperr/wire"
)

// TestUnknownToolCode: UnknownTool is the data.code the hint dialect answers
// a call to a tool the server does not have with.
func TestUnknownToolCode(t *testing.T) {
	r := schemaerr.Hint.RefuseTool("get_trac", []string{"get_trace"})
	if r.Error == nil {
		t.Fatalf("Hint.RefuseTool = %+v, want a JSON-RPC error", r)
	}
	if d, ok := r.Error.Data.(wire.ErrorData); !ok || d.Code != adapter.UnknownTool {
		t.Errorf("data = %#v, want data.code %q", r.Error.Data, adapter.UnknownTool)
	}
}

// TestNewSet: the set a validation compiles in validates with the
// validation's Schemas in place of the published schema, and bounds the
// arguments by its Bounds.
func TestNewSet(t *testing.T) {
	published := func() ([]byte, error) { return []byte(`{"type":"object"}`), nil }
	v := &adapter.Validation{
		Bounds:  schemaerr.Bounds{MaxBytes: 16},
		Schemas: map[string]json.RawMessage{"strict": json.RawMessage(`{"type":"object","additionalProperties":false}`)},
	}
	for _, tt := range []struct {
		tool, args string
		want       []string // the codes of the issues
	}{
		{"loose", `{"a":1}`, nil},
		{"strict", `{"a":1}`, []string{"unrecognized_keys"}},
		{"loose", `{"a":"0123456789"}`, []string{"too_large"}},
	} {
		s, err := adapter.NewSet[string](v).Schema(tt.tool, "v1", published)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, is := range s.Validate(json.RawMessage(tt.args)) {
			got = append(got, is.Code)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s %s: issues (-want +got):\n%s", tt.tool, tt.args, diff)
		}
	}
}

// TestReport: Report hands OnFailure the answer read as the agent reads it,
// with the stage, the tool and the handler's error; without OnFailure it
// does nothing.
func TestReport(t *testing.T) {
	var got []adapter.Failure
	v := &adapter.Validation{OnFailure: func(_ context.Context, f adapter.Failure) { got = append(got, f) }}
	boom := errors.New("boom")
	refusal := schemaerr.Hint.RefuseTool("get_trac", []string{"get_trace"}).Error
	data, _ := json.Marshal(refusal.Data)
	v.Report(context.Background(), adapter.UnknownToolCall, "get_trac", errkind.Outcome{RPCCode: refusal.Code, Message: refusal.Message, Data: data}, nil)
	v.Report(context.Background(), adapter.Handler, "get_trace", errkind.Outcome{IsError: true, Text: `{"kind":"not_found","message":"no trace"}`}, boom)
	type seen struct {
		Stage      adapter.Stage
		Method     string
		Tool, Code string
		Kind       errkind.Kind
		Err        error
	}
	var gotSeen []seen
	for _, f := range got {
		gotSeen = append(gotSeen, seen{f.Stage, f.Method, f.Tool, f.Reading.Code, f.Reading.Kind, f.Err})
	}
	want := []seen{
		{adapter.UnknownToolCall, "tools/call", "get_trac", adapter.UnknownTool, errkind.InvalidArguments, nil},
		{adapter.Handler, "tools/call", "get_trace", "", errkind.NotFound, boom},
	}
	if diff := cmp.Diff(want, gotSeen, cmp.Comparer(func(a, b error) bool { return a == b })); diff != "" {
		t.Errorf("failures (-want +got):\n%s", diff)
	}
	(&adapter.Validation{}).Report(context.Background(), adapter.Handler, "t", errkind.Outcome{IsError: true}, boom) // no hook: no call, no panic
}

// An adapter for another SDK compiles its tools' schemas in the set of its
// Validation, answers in its Dialect, and reports each refusal to its
// OnFailure.
func ExampleValidation() {
	v := &adapter.Validation{
		Dialect: schemaerr.Hint,
		OnFailure: func(_ context.Context, f adapter.Failure) {
			fmt.Println("failure:", f.Stage, f.Tool, f.Reading.Kind, f.Reading.Args)
		},
	}
	schemas := adapter.NewSet[string](v) // one per server; the version tells a replaced tool apart
	published := func() ([]byte, error) {
		return []byte(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`), nil
	}
	s, err := schemas.Schema("get_trace", "v1", published)
	if err != nil {
		panic(err) // the server's bug: answer -32603
	}
	r := v.Dialect.Refuse("get_trace", s.Validate(json.RawMessage(`{"id":7}`)))
	b, _ := json.Marshal(r.Error) // a hint-dialect refusal is a JSON-RPC error
	fmt.Println(string(b))
	data, _ := json.Marshal(r.Error.Data)
	v.Report(context.Background(), adapter.Arguments, "get_trace", errkind.Outcome{RPCCode: r.Error.Code, Message: r.Error.Message, Data: data}, nil)
	// Output:
	// {"code":-32602,"message":"Invalid value for 'id': must be a string.","data":{"code":"invalid_parameter"}}
	// failure: arguments get_trace invalid_arguments [id]
}

package wire_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/wire"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s (-want +got):\n%s", path, diff)
	}
}

// marshal is json.Marshal and a newline, as the golden files hold it.
func marshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// marshalSDK writes v as the SDKs put it on the wire: without escaping <, >
// and &, and with a newline.
func marshalSDK(t *testing.T, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// kindError is a server's own error type that writes its own kind object.
type kindError struct{ kind, message string }

func (e *kindError) Error() string { return e.kind + ": " + e.message }

func (e *kindError) AppendKindObject(b []byte) []byte {
	o := errkind.Object{Kind: errkind.Kind(e.kind), Message: e.message}
	return o.AppendJSON(b, []string{"message"})
}

// TestMarshal: every wire type marshals to the JSON MCP and the SDKs use,
// checked against a golden file per value: isError only when true,
// structuredContent and _meta only when set, data only when set.
func TestMarshal(t *testing.T) {
	success, err := wire.Success(map[string]any{"total": 6, "has_more": false, "title": "<b>&</b>"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		v    any
	}{
		{"content", wire.Content{Type: "text", Text: "hello"}},
		{"result_success", success},
		{"result_error_kind", wire.ErrorResult(&envelope.Error{Kind: errkind.NotFound, Code: "trace_not_found", Message: "no trace"})},
		{"result_error_own_kind", wire.ErrorResult(fmt.Errorf("wrapped: %w", &kindError{"credit_rate_limited", "spent"}))},
		{"result_error_foreign", wire.ErrorResult(errors.New("boom <&>"))},
		{"result_text_error", wire.TextError("MCP error -32602: Tool x not found")},
		{"result_json_error", wire.JSONError(map[string]any{"error": "not found", "code": "not_found"})},
		{"result_meta", &wire.ToolResult{Meta: map[string]any{"vulnetix/plan": "community"}, Content: []wire.Content{{Type: "text", Text: "x"}}, IsError: true}},
		{"rpc_error_hint", &wire.RPCError{Code: errkind.InvalidParams, Message: "Unknown parameter 'xyz'.", Data: wire.ErrorData{Code: "unknown_parameter"}}},
		{"rpc_error_hint_pointer", &wire.RPCError{Code: errkind.InvalidParams, Message: "Unknown parameter 'xyz'.", Data: &wire.ErrorData{Code: "unknown_parameter"}}},
		{"rpc_error_bare", &wire.RPCError{Code: errkind.MethodNotFound, Message: "Method not found: \"x\""}},
		{"rpc_error_object", &wire.RPCError{Code: errkind.UnsupportedVersion, Message: "Unsupported protocol version: 1900-01-01",
			Data: struct {
				Supported []string `json:"supported"`
				Requested string   `json:"requested"`
			}{[]string{"2026-07-28"}, "1900-01-01"}}},
		{"error_data", wire.ErrorData{Code: "invalid_parameter"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			golden(t, "marshal/"+tt.name+".json", marshalSDK(t, tt.v))
		})
	}
}

// TestSDKShapes: what the SDKs send reads into the wire types and writes
// back byte for byte (or, where a map's key order is the sender's own, as
// the same JSON value). The fixtures are captured: the TypeScript SDK's
// rejection result (seed 000), and results and errors the example servers
// send through the go-sdk (their golden transcripts).
func TestSDKShapes(t *testing.T) {
	tests := []struct {
		file  string
		v     any  // a pointer to the wire type to read into
		exact bool // the re-marshal is byte for byte
	}{
		{"ts_rejection.json", new(wire.ToolResult), true},
		{"gosdk_success.json", new(wire.ToolResult), true},
		{"gosdk_json_error.json", new(wire.ToolResult), true},
		{"gosdk_hint_error.json", new(wire.RPCError), true},
		{"vulnetix_meta_error.json", new(wire.ToolResult), false},
		{"vulnetix_version_error.json", new(wire.RPCError), false},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join("testdata", "sdk", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(want, tt.v); err != nil {
				t.Fatal(err)
			}
			got := marshalSDK(t, tt.v)
			if tt.exact {
				if diff := cmp.Diff(string(want), string(got)); diff != "" {
					t.Errorf("(-sent +re-marshalled):\n%s", diff)
				}
				return
			}
			var w, g any
			if err := json.Unmarshal(want, &w); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(got, &g); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(w, g); diff != "" {
				t.Errorf("(-sent +re-marshalled):\n%s", diff)
			}
		})
	}
}

// TestRoundTrip: a value marshalled and unmarshalled is the value again.
// Data comes back as encoding/json decodes an any, so an ErrorData returns
// as a map whose code DataCode still reads.
func TestRoundTrip(t *testing.T) {
	success, err := wire.Success(map[string]any{"total": 6})
	if err != nil {
		t.Fatal(err)
	}
	results := []*wire.ToolResult{
		success,
		wire.ErrorResult(&envelope.Error{Kind: errkind.RateLimited, HTTPStatus: 429}),
		wire.ErrorResult(errors.New("boom")),
		wire.TextError("prose"),
		wire.JSONError(map[string]any{"code": "x"}),
		{Meta: map[string]any{"k": "v", "n": 1.5}, Content: []wire.Content{{Type: "text", Text: "a"}, {Type: "text", Text: "b"}}},
	}
	for _, r := range results {
		var back wire.ToolResult
		if err := json.Unmarshal(marshal(t, r), &back); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(r, &back); diff != "" {
			t.Errorf("ToolResult round trip (-want +got):\n%s", diff)
		}
	}
	errs := []struct {
		in, want *wire.RPCError
	}{
		{&wire.RPCError{Code: errkind.InvalidParams, Message: "m", Data: wire.ErrorData{Code: "unknown_parameter"}},
			&wire.RPCError{Code: errkind.InvalidParams, Message: "m", Data: map[string]any{"code": "unknown_parameter"}}},
		{&wire.RPCError{Code: errkind.MethodNotFound, Message: "m"}, &wire.RPCError{Code: errkind.MethodNotFound, Message: "m"}},
		{&wire.RPCError{Code: -32099, Message: "m", Data: []any{"a", 1.0}}, &wire.RPCError{Code: -32099, Message: "m", Data: []any{"a", 1.0}}},
	}
	for _, tt := range errs {
		var back wire.RPCError
		if err := json.Unmarshal(marshal(t, tt.in), &back); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, &back); diff != "" {
			t.Errorf("RPCError round trip (-want +got):\n%s", diff)
		}
		if back.DataCode() != tt.in.DataCode() {
			t.Errorf("DataCode after the round trip = %q, want %q", back.DataCode(), tt.in.DataCode())
		}
		if diff := cmp.Diff(string(marshal(t, tt.in)), string(marshal(t, &back))); diff != "" {
			t.Errorf("RPCError re-marshal (-want +got):\n%s", diff)
		}
	}
	var d wire.ErrorData
	if err := json.Unmarshal([]byte(`{"code":"invalid_parameter"}`), &d); err != nil || d.Code != "invalid_parameter" {
		t.Errorf("ErrorData = %+v, %v", d, err)
	}
}

// TestErrorResultNil: ErrorResult(nil) is nil, and a typed nil *envelope.Error
// held in an error renders the zero Error's object rather than panicking.
func TestErrorResultNil(t *testing.T) {
	if wire.ErrorResult(nil) != nil {
		t.Error("ErrorResult(nil) != nil")
	}
	var e *envelope.Error
	var err error = e
	res := wire.ErrorResult(err)
	if res == nil || !res.IsError || !json.Valid([]byte(res.Content[0].Text)) {
		t.Errorf("ErrorResult of a typed nil *envelope.Error = %+v", res)
	}
}

// TestErrorResultAgrees: an error with no kind renders as server_error with
// its text, the same object an *envelope.Error of that kind and message
// writes, byte for byte, whatever the message holds.
func TestErrorResultAgrees(t *testing.T) {
	for _, msg := range []string{"boom", "", "a <b> & \"c\"\n\t\b\f\x01", "bad \xff utf-8", "line\u2028sep\u2029", "ünïcödé"} {
		got := wire.ErrorResult(errors.New(msg)).Content[0].Text
		want := (&envelope.Error{Kind: errkind.ServerError, Message: msg}).AppendKindObject(nil)
		if got != string(want) {
			t.Errorf("ErrorResult(errors.New(%q)) = %s, want %s", msg, got, want)
		}
		if !json.Valid([]byte(got)) {
			t.Errorf("not JSON: %s", got)
		}
	}
}

// TestDataCode reads data.code from every form Data takes.
func TestDataCode(t *testing.T) {
	tests := []struct {
		data any
		want string
	}{
		{nil, ""},
		{wire.ErrorData{Code: "a"}, "a"},
		{&wire.ErrorData{Code: "b"}, "b"},
		{(*wire.ErrorData)(nil), ""},
		{map[string]any{"code": "c"}, "c"},
		{map[string]any{"code": 3.0}, ""},
		{map[string]string{"code": "d"}, "d"},
		{[]any{"code"}, ""},
	}
	for _, tt := range tests {
		e := &wire.RPCError{Code: errkind.InvalidParams, Message: "m", Data: tt.data}
		if got := e.DataCode(); got != tt.want {
			t.Errorf("DataCode of %#v = %q, want %q", tt.data, got, tt.want)
		}
	}
	if got := (&wire.RPCError{Code: -32601, Message: "Tool x not found"}).Error(); got != "jsonrpc -32601: Tool x not found" {
		t.Errorf("Error() = %q", got)
	}
	if got := (&wire.RPCError{Code: -32602, Message: "m", Data: wire.ErrorData{Code: "unknown_parameter"}}).Error(); got != "jsonrpc -32602 (unknown_parameter): m" {
		t.Errorf("Error() = %q", got)
	}
}

func TestWriteRPCError(t *testing.T) {
	tests := []struct {
		name   string
		status int
		id     json.RawMessage
		err    *wire.RPCError
		want   string
		code   int
	}{
		{"seed 003 version", 0, json.RawMessage(`1`),
			&wire.RPCError{Code: errkind.UnsupportedVersion, Message: "Unsupported protocol version: 1900-01-01",
				Data: map[string]any{"supported": []string{"2026-07-28"}, "requested": "1900-01-01"}},
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version: 1900-01-01","data":{"requested":"1900-01-01","supported":["2026-07-28"]}}}`, 400},
		{"seed 003 edge", 429, nil,
			&wire.RPCError{Code: errkind.ImplementationDefined, Message: "Rate limited at the edge. Slow down and retry after a few seconds."},
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Rate limited at the edge. Slow down and retry after a few seconds."}}`, 429},
		{"seed 004 hint", 0, json.RawMessage(`"2"`),
			&wire.RPCError{Code: errkind.InvalidParams, Message: "Unknown parameter 'langauge'. Did you mean 'language'?", Data: map[string]string{"code": "unknown_parameter"}},
			`{"jsonrpc":"2.0","id":"2","error":{"code":-32602,"message":"Unknown parameter 'langauge'. Did you mean 'language'?","data":{"code":"unknown_parameter"}}}`, 400},
		{"bad id is null", 0, json.RawMessage(`{`),
			&wire.RPCError{Code: errkind.InternalError, Message: "x"},
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"x"}}`, 500},
		{"unencodable data dropped", 0, nil,
			&wire.RPCError{Code: errkind.ParseError, Message: "bad", Data: make(chan int)},
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad"}}`, 400},
		{"a string id is echoed as sent, & < > unescaped", 0, json.RawMessage(`"a&b<c>\u0041"`),
			&wire.RPCError{Code: errkind.InvalidParams, Message: "x"},
			`{"jsonrpc":"2.0","id":"a&b<c>\u0041","error":{"code":-32602,"message":"x"}}`, 400},
		{"message and data are written without HTML escaping", 0, json.RawMessage(`1`),
			&wire.RPCError{Code: errkind.InvalidParams, Message: "'limit' must be <=8 & >0", Data: map[string]string{"code": "a<b>&"}},
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"'limit' must be <=8 & >0","data":{"code":"a<b>&"}}}`, 400},
		{"an id with spaces is compacted", 0, json.RawMessage(` 7 `),
			&wire.RPCError{Code: errkind.InvalidParams, Message: "x"},
			`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"x"}}`, 400},
		{"a nil error is an internal error", 0, json.RawMessage(`3`), nil,
			`{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"Internal error"}}`, 500},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			wire.WriteRPCError(rec, tt.status, tt.id, tt.err)
			if rec.Code != tt.code {
				t.Errorf("status %d, want %d", rec.Code, tt.code)
			}
			if diff := cmp.Diff(tt.want+"\n", rec.Body.String()); diff != "" {
				t.Errorf("body (-want +got):\n%s", diff)
			}
			if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q", ct)
			}
		})
	}
}

func TestSuccess(t *testing.T) {
	type story struct {
		Title string `json:"title"`
	}
	type search struct {
		Total         int     `json:"total"`
		TotalRelation string  `json:"total_relation"`
		HasMore       bool    `json:"has_more"`
		Partial       bool    `json:"partial"`
		Coverage      string  `json:"coverage"`
		FromClamped   bool    `json:"from_clamped"`
		Stories       []story `json:"stories"`
	}
	res, err := wire.Success(search{Total: 1, TotalRelation: "exact", Coverage: "complete", Stories: []story{{Title: "<b>&</b>"}}})
	if err != nil {
		t.Fatal(err)
	}
	if string(res.StructuredContent) != res.Content[0].Text {
		t.Errorf("text block %s differs from structuredContent %s", res.Content[0].Text, res.StructuredContent)
	}
	golden(t, "success.json", marshal(t, res))

	res.Meta = map[string]any{"vulnetix/degraded": []string{"vendor-trends"}}
	golden(t, "success_meta.json", marshal(t, res))

	for _, v := range []any{[]int{1}, "s", nil, make(chan int)} {
		if _, err := wire.Success(v); err == nil {
			t.Errorf("Success(%T) accepted a value that is not a JSON object", v)
		}
	}
}

func TestTextAndJSONError(t *testing.T) {
	golden(t, "text_error.json", marshal(t, wire.TextError("Not found in the Vulnetix VDB: CVE-2099-0001")))
	seed004 := map[string]any{
		"error": "insufficient credits", "code": "insufficient_credits",
		"detail":           "this call can cost up to 3 credits and 0 are left this month",
		"retry_after_secs": 394200, "credits": map[string]int{"min": 3, "max": 3},
		"credits_limit": 1000, "credits_used": 1000, "credits_remaining": 0,
	}
	golden(t, "json_error.json", marshal(t, wire.JSONError(seed004)))
	if r := wire.JSONError(make(chan int)); !r.IsError || r.Content[0].Text == "" {
		t.Errorf("JSONError of an unencodable value: %+v", r)
	}
}

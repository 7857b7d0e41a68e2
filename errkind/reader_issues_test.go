package errkind_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcperr/mcperr/errkind"
)

const frame = "MCP error -32602: Input validation error: Invalid arguments for tool "

func i64(n int64) *int64 { return &n }

// parsed is the part of a Reading that a failed tool result's text carries,
// flattened the way the tests below state it.
type parsed struct {
	JSON bool // the text starts with "{"

	Kind              errkind.Kind // the object's own "kind", not classified
	Code              string
	Message           string
	Details           json.RawMessage
	HTTPStatus        int
	RetryAfterSeconds *int64
	Limit             *int64
	Remaining         *int64
	ResetSeconds      *int64
	Object            json.RawMessage

	RPCCode     errkind.RPCCode
	Tool        string
	UnknownTool bool
	Issues      []errkind.Issue
	Args        []string
	Text        string
}

// parseText reads text as a failed tool result's text with Read.
func parseText(text string) parsed {
	r := errkind.Read(errkind.Outcome{IsError: true, Text: text})
	p := parsed{Text: text, RPCCode: r.RPCCode, Tool: r.Tool, Issues: r.Issues, Args: r.Args,
		UnknownTool: r.Form == errkind.FormUnknownTool}
	p.JSON = strings.HasPrefix(strings.TrimLeft(text, " \t\r\n"), "{")
	if o := r.Object; o != nil {
		p.Kind, p.Code, p.Message, p.Details, p.HTTPStatus = o.Kind, o.Code, o.Message, o.Details, o.HTTPStatus
		p.RetryAfterSeconds, p.Limit, p.Remaining, p.ResetSeconds = o.RetryAfterSeconds, o.Limit, o.Remaining, o.ResetSeconds
		p.Object = json.RawMessage(strings.TrimLeft(text, " \t\r\n"))
	}
	return p
}

func TestReadValidationText(t *testing.T) {
	tests := []struct {
		name string
		text string
		want parsed
	}{
		{
			name: "seed 000 capture",
			text: frame + "vexlo_get_values: Too big: expected array to have <=8 items at path",
			want: parsed{RPCCode: errkind.InvalidParams, Tool: "vexlo_get_values",
				Issues: []errkind.Issue{{Message: "Too big: expected array to have <=8 items", Path: "path"}},
				Args:   []string{"path"}},
		},
		{
			name: "limit 101",
			text: frame + "vexlo_search_traces: Too big: expected number to be <=100 at limit",
			want: parsed{RPCCode: errkind.InvalidParams, Tool: "vexlo_search_traces",
				Issues: []errkind.Issue{{Message: "Too big: expected number to be <=100", Path: "limit"}},
				Args:   []string{"limit"}},
		},
		{
			name: "101 ids",
			text: frame + "vexlo_check_trace_status: Too big: expected array to have <=100 items at traceIds",
			want: parsed{RPCCode: errkind.InvalidParams, Tool: "vexlo_check_trace_status",
				Issues: []errkind.Issue{{Message: "Too big: expected array to have <=100 items", Path: "traceIds"}},
				Args:   []string{"traceIds"}},
		},
		{
			name: "windowHours",
			text: frame + "vexlo_find_related_traces: Too big: expected number to be <=168 at windowHours",
			want: parsed{RPCCode: errkind.InvalidParams, Tool: "vexlo_find_related_traces",
				Issues: []errkind.Issue{{Message: "Too big: expected number to be <=168", Path: "windowHours"}},
				Args:   []string{"windowHours"}},
		},
		{
			name: "examples limit",
			text: frame + "vexlo_get_function_examples: Too big: expected number to be <=5 at limit",
			want: parsed{RPCCode: errkind.InvalidParams, Tool: "vexlo_get_function_examples",
				Issues: []errkind.Issue{{Message: "Too big: expected number to be <=5", Path: "limit"}},
				Args:   []string{"limit"}},
		},
		{
			name: "unrecognized teams",
			text: frame + `vexlo_search_traces: Unrecognized key: "teams"`,
			want: parsed{RPCCode: errkind.InvalidParams, Tool: "vexlo_search_traces",
				Issues: []errkind.Issue{{Message: `Unrecognized key: "teams"`, Keys: []string{"teams"}}},
				Args:   []string{"teams"}},
		},
		{
			name: "unrecognized team",
			text: frame + `vexlo_check_trace_status: Unrecognized key: "team"`,
			want: parsed{RPCCode: errkind.InvalidParams, Tool: "vexlo_check_trace_status",
				Issues: []errkind.Issue{{Message: `Unrecognized key: "team"`, Keys: []string{"team"}}},
				Args:   []string{"team"}},
		},
		{
			name: "environment",
			text: frame + "vexlo_get_function: Invalid input at environment",
			want: parsed{RPCCode: errkind.InvalidParams, Tool: "vexlo_get_function",
				Issues: []errkind.Issue{{Message: "Invalid input", Path: "environment"}},
				Args:   []string{"environment"}},
		},
		{
			name: "two issues",
			text: frame + "vexlo_get_values: Too big: expected array to have <=8 items at path\nToo big: expected number to be <=100 at limit",
			want: parsed{RPCCode: errkind.InvalidParams, Tool: "vexlo_get_values",
				Issues: []errkind.Issue{
					{Message: "Too big: expected array to have <=8 items", Path: "path"},
					{Message: "Too big: expected number to be <=100", Path: "limit"},
				},
				Args: []string{"path", "limit"}},
		},
		{
			name: "two unrecognized keys, and a missing one",
			text: frame + "vexlo_strict: Invalid input: expected string, received undefined at name\nUnrecognized keys: \"foo\", \"bar\"",
			want: parsed{RPCCode: errkind.InvalidParams, Tool: "vexlo_strict",
				Issues: []errkind.Issue{
					{Message: "Invalid input: expected string, received undefined", Path: "name"},
					{Message: `Unrecognized keys: "foo", "bar"`, Keys: []string{"foo", "bar"}},
				},
				Args: []string{"name", "foo", "bar"}},
		},
		{
			name: "nested unrecognized key",
			text: frame + `vexlo_search: Unrecognized key: "foo" at environment`,
			want: parsed{RPCCode: errkind.InvalidParams, Tool: "vexlo_search",
				Issues: []errkind.Issue{{Message: `Unrecognized key: "foo"`, Path: "environment", Keys: []string{"foo"}}},
				Args:   []string{"environment.foo"}}, // the key's own path, as every SDK's text gives it
		},
		{
			name: "deep path and index",
			text: frame + "vexlo_search: Too big: expected number to be <=168 at filter.window.hours\nInvalid input: expected string, received number at path[2]",
			want: parsed{RPCCode: errkind.InvalidParams, Tool: "vexlo_search",
				Issues: []errkind.Issue{
					{Message: "Too big: expected number to be <=168", Path: "filter.window.hours"},
					{Message: "Invalid input: expected string, received number", Path: "path[2]"},
				},
				Args: []string{"filter.window.hours", "path[2]"}},
		},
		{
			name: "same argument twice",
			text: frame + "t: Too big: expected string to have <=20 characters at query\nInvalid string: must match pattern /^a$/ at query",
			want: parsed{RPCCode: errkind.InvalidParams, Tool: "t",
				Issues: []errkind.Issue{
					{Message: "Too big: expected string to have <=20 characters", Path: "query"},
					{Message: "Invalid string: must match pattern /^a$/", Path: "query"},
				},
				Args: []string{"query"}},
		},
		{
			name: "pattern with ' at ' and no path",
			text: frame + "t: Invalid string: must match pattern /^look at me$/",
			want: parsed{RPCCode: errkind.InvalidParams, Tool: "t",
				Issues: []errkind.Issue{{Message: "Invalid string: must match pattern /^look at me$/"}}},
		},
		{
			name: "unknown tool",
			text: "MCP error -32602: Tool vexlo_nope not found",
			want: parsed{RPCCode: errkind.InvalidParams, Tool: "vexlo_nope", UnknownTool: true},
		},
		{
			name: "another MCP error",
			text: "MCP error -32603: boom",
			want: parsed{RPCCode: errkind.InternalError},
		},
		{
			name: "prose",
			text: "Not found in the Vulnetix VDB: CVE-1",
			want: parsed{},
		},
		{
			name: "empty",
			text: "",
			want: parsed{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.want.Text = tt.text
			got := parseText(tt.text)
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Read (-want +got):\n%s", diff)
			}
		})
	}
}

func TestReadKindObjectText(t *testing.T) {
	tests := []struct {
		name string
		text string
		want parsed
	}{
		{
			name: "not_found",
			text: `{"kind":"not_found","code":"trace_not_found","message":"no trace with id deadbeefdeadbeefdeadbeefdeadbeef","details":{"trace_id":"deadbeefdeadbeefdeadbeefdeadbeef"}}`,
			want: parsed{JSON: true, Kind: errkind.NotFound, Code: "trace_not_found",
				Message: "no trace with id deadbeefdeadbeefdeadbeefdeadbeef",
				Details: json.RawMessage(`{"trace_id":"deadbeefdeadbeefdeadbeefdeadbeef"}`)},
		},
		{
			name: "rate_limited",
			text: `{"kind":"rate_limited","retryAfterSeconds":1,"limit":20,"remaining":0,"resetSeconds":1}`,
			want: parsed{JSON: true, Kind: errkind.RateLimited,
				RetryAfterSeconds: i64(1), Limit: i64(20), Remaining: i64(0), ResetSeconds: i64(1)},
		},
		{
			name: "server_error",
			text: "\n {\"kind\":\"server_error\",\"code\":\"internal_error\",\"httpStatus\":500,\"message\":\"boom\"}",
			want: parsed{JSON: true, Kind: errkind.ServerError, Code: "internal_error", HTTPStatus: 500, Message: "boom"},
		},
		{
			name: "seed 004 body",
			text: `{"error":"insufficient credits","code":"insufficient_credits","detail":"this call can cost up to 3 credits","retry_after_secs":394200,"credits_remaining":0}`,
			want: parsed{JSON: true, Code: "insufficient_credits", Message: "insufficient credits",
				Details: json.RawMessage(`"this call can cost up to 3 credits"`), RetryAfterSeconds: i64(394200)},
		},
		{
			name: "broken object",
			text: `{"kind":`,
			want: parsed{JSON: true},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseText(tt.text)
			if tt.want.Kind != "" || tt.want.Code != "" {
				tt.want.Object = json.RawMessage(strings.TrimLeft(tt.text, " \n"))
			}
			tt.want.Text = tt.text
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Read (-want +got):\n%s", diff)
			}
		})
	}
}

func FuzzReadText(f *testing.F) {
	for _, s := range []string{
		frame + "vexlo_get_values: Too big: expected array to have <=8 items at path",
		frame + "t: a at b\nUnrecognized keys: \"a\", \"b\"",
		"MCP error -32602: Tool x not found",
		`{"kind":"not_found","code":"a_not_found","details":{}}`,
		`{"limit":1e400}`,
		"MCP error x: y",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		p := parseText(text)
		if p.Text != text {
			t.Fatalf("Text not preserved")
		}
		if p.JSON != strings.HasPrefix(strings.TrimLeft(text, " \t\r\n"), "{") {
			t.Fatalf("JSON = %v for %q", p.JSON, text)
		}
		if p.JSON && (p.Tool != "" || p.Issues != nil) {
			t.Fatalf("JSON text parsed as MCP text: %+v", p)
		}
		for _, a := range p.Args {
			if a == "" {
				t.Fatalf("empty argument name from %q", text)
			}
		}
		if p.UnknownTool && len(p.Issues) > 0 {
			t.Fatalf("unknown tool with issues")
		}
		if utf8.ValidString(text) && !utf8.ValidString(p.Tool) {
			t.Fatalf("tool name not valid UTF-8")
		}
	})
}

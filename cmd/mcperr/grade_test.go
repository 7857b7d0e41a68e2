package main

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcperr/mcperr/errkind"
)

const limitText = "MCP error -32602: Input validation error: Invalid arguments for tool t: Too big: expected number to be <=100 at limit"

// An answer to forbidden arguments earns 40 for reaching the model, 25 for
// naming the field, 20 for the kind and move, 15 for the text agents know;
// an answer the control call gets too, or that reads as an upstream or
// handler failure, was accepted then failed and earns nothing; a refusal in
// a result without isError earns no reach points.
func TestGradeArgument(t *testing.T) {
	okCtl := &control{Answer: answerSuccess, Text: "42 results"}
	failCtl := &control{Answer: answerToolError, Text: `Error: request to https://api.example.com/v1/search?q="a" failed, reason: 401 Unauthorized`}
	tests := []struct {
		name   string
		answer string
		o      errkind.Outcome
		ctl    *control
		raw    string
		want   check
	}{
		{"the TypeScript SDK's text", answerToolError, errkind.Outcome{IsError: true, Text: limitText}, okCtl, "",
			check{Answer: answerToolError, Verdict: verdictRefused, Kind: "invalid_arguments", Move: "fix_argument", NamesField: true, KnownText: true, OK: true, Points: 100}},
		{"a kind object that names no argument at fault: the word in its message does not count", answerToolError, errkind.Outcome{IsError: true, Text: `{"kind":"invalid_arguments","message":"limit must be at most 100"}`}, okCtl, "",
			check{Answer: answerToolError, Verdict: verdictRefused, Kind: "invalid_arguments", Move: "fix_argument", Points: 60}},
		{"prose that names nothing, an error the control did not get", answerToolError, errkind.Outcome{IsError: true, Text: "something went wrong"}, okCtl, "",
			check{Answer: answerToolError, Verdict: verdictRefused, Move: "report", Points: 40}},
		{"the control's own failure, the value sent echoed in it", answerToolError, errkind.Outcome{IsError: true, Text: `Error: request to https://api.example.com/v1/search?q="12345" failed, reason: 401 Unauthorized`}, failCtl, "",
			check{Answer: answerToolError, Verdict: verdictFailed, Move: "report"}},
		{"a network failure the field's name appears in", answerToolError, errkind.Outcome{IsError: true, Text: "getaddrinfo ENOTFOUND api.example.com (limit=100)"}, okCtl, "",
			check{Answer: answerToolError, Verdict: verdictFailed, Move: "report"}},
		{"a crash of the handler", answerToolError, errkind.Outcome{IsError: true, Text: "TypeError: Cannot read properties of undefined (reading 'limit')"}, okCtl, "",
			check{Answer: answerToolError, Verdict: verdictFailed, Move: "report"}},
		{"a JSON-RPC internal error reads as server_error", answerRPCError, errkind.Outcome{RPCCode: -32603, Message: "internal error"}, okCtl, "",
			check{Answer: answerRPCError, Verdict: verdictFailed, Kind: "server_error", Move: "report", Code: -32603}},
		{"a JSON-RPC -32602 naming the parameter as the fault", answerRPCError, errkind.Outcome{RPCCode: -32602, Message: "Invalid value for 'limit': must be between 1 and 100.", Data: json.RawMessage(`{"code":"invalid_parameter"}`)}, okCtl, "",
			check{Answer: answerRPCError, Verdict: verdictRefused, Kind: "invalid_arguments", Move: "fix_argument", Code: -32602, NamesField: true, Points: 45}},
		{"a refusal in a result without isError", answerSuccess, errkind.Outcome{Text: `{"error":"Missing required arguments: limit"}`}, okCtl, `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"{\"error\":\"Missing required arguments: limit\"}"}]}}`,
			check{Answer: answerSuccess, Verdict: verdictInResult, Kind: "invalid_arguments", Move: "fix_argument", NamesField: true, Points: 45}},
		{"a result that is not a CallToolResult", answerSuccess, errkind.Outcome{}, okCtl, `{"jsonrpc":"2.0","id":3,"result":{"toolResult":{"ok":true}}}`,
			check{Answer: answerSuccess, Verdict: verdictMalformed}},
		{"the control's result again: accepted", answerSuccess, errkind.Outcome{Text: "42 results"}, okCtl, "",
			check{Answer: answerSuccess, Verdict: verdictAccepted}},
		{"a success", answerSuccess, errkind.Outcome{Text: "ok"}, nil, "", check{Answer: answerSuccess, Verdict: verdictAccepted}},
		{"the session ended", answerSessionEnded, errkind.Outcome{}, okCtl, "", check{Answer: answerSessionEnded}},
		{"no answer", answerNone, errkind.Outcome{}, okCtl, "", check{Answer: answerNone}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := check{Field: "limit", Expected: limitText}
			var raw []byte
			if tt.raw != "" {
				raw = []byte(tt.raw)
			}
			gradeArgument(&c, tt.answer, tt.o, tt.ctl, raw)
			if c.Why == "" {
				t.Error("no why")
			}
			opts := cmpopts.IgnoreFields(check{}, "Why", "Text", "Field", "Expected", "Raw")
			if diff := cmp.Diff(tt.want, c, opts, cmp.AllowUnexported(check{})); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// A raw line is ok when the session survived and the line was answered
// with its id, or refused with a null id.
func TestGradeLine(t *testing.T) {
	answer := func(s string) *rpcAnswer {
		var r rpcAnswer
		if err := json.Unmarshal([]byte(s), &r); err != nil {
			t.Fatal(err)
		}
		return &r
	}
	tests := []struct {
		name     string
		p        stdioProbe
		got      *rpcAnswer
		survived bool
		want     check
	}{
		{"refused with a null id", stdioProbe{name: "line not JSON"}, answer(`{"id":null,"error":{"code":-32700,"message":"Parse error"}}`), true,
			check{Answer: answerRPCError, OK: true, Points: 100}},
		{"the id echoed", stdioProbe{name: "id 1e400", id: "1e400"}, answer(`{"id":1E+400,"result":{}}`), true,
			check{Answer: answerSuccess, OK: true, Points: 100}},
		{"the id changed", stdioProbe{name: "id 1.5", id: "1.5"}, answer(`{"id":1,"result":{}}`), true,
			check{Answer: answerSuccess, Points: 50}},
		{"no answer", stdioProbe{name: "line not JSON"}, nil, true, check{Answer: answerNone, Points: 50}},
		{"the session ended", stdioProbe{name: "line not JSON"}, nil, false, check{Answer: answerSessionEnded}},
		{"unknown method, -32601", stdioProbe{name: "unknown method", id: `"m"`}, answer(`{"id":"m","error":{"code":-32601,"message":"no"}}`), true,
			check{Answer: answerRPCError, OK: true, Points: 100}},
		{"unknown method, -32603", stdioProbe{name: "unknown method", id: `"m"`}, answer(`{"id":"m","error":{"code":-32603,"message":"no"}}`), true,
			check{Answer: answerRPCError, Points: 50}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c check
			gradeLine(&c, tt.p, tt.got, tt.survived)
			checkProtocol(t, tt.want, c)
		})
	}
}

// checkProtocol checks got, a protocol probe's check: it is want but for
// its words and code, and names no kind or move (a protocol probe's
// JSON-RPC code is not read as a tool's kind).
func checkProtocol(t *testing.T, want, got check) {
	t.Helper()
	if got.Kind != "" || got.Move != "" {
		t.Errorf("kind / move %s / %s: a protocol probe's JSON-RPC code is not read as a tool's kind", got.Kind, got.Move)
	}
	opts := cmpopts.IgnoreFields(check{}, "Why", "Text", "Code")
	if diff := cmp.Diff(want, got, opts, cmp.AllowUnexported(check{})); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// An HTTP refusal is ok with a JSON-RPC body; without one it is worth half.
func TestGradeHTTP(t *testing.T) {
	rpcErr := &rpcAnswer{Error: &struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	}{Code: -32600, Message: "Unsupported Media Type"}}
	tests := []struct {
		name  string
		probe string
		ans   *httpAnswer
		want  check
	}{
		{"415 with a JSON-RPC body", "wrong Content-Type", &httpAnswer{status: 415, rpc: rpcErr}, check{Answer: answerHTTPError, Status: 415, OK: true, Points: 100}},
		{"415 in plain text", "wrong Content-Type", &httpAnswer{status: 415, body: "Content-Type must be 'application/json'"}, check{Answer: answerHTTPError, Status: 415, Points: 50}},
		{"500", "body not JSON", &httpAnswer{status: 500}, check{Answer: answerHTTPError, Status: 500}},
		{"GET as an event stream", "GET", &httpAnswer{status: 200, ctype: "text/event-stream"}, check{Answer: answerSuccess, Status: 200, OK: true, Points: 100}},
		{"an oversized body read", "oversized body", &httpAnswer{status: 200, rpc: &rpcAnswer{Result: json.RawMessage(`{}`)}}, check{Answer: answerSuccess, Status: 200, Points: 50}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c check
			gradeHTTP(&c, tt.probe, tt.ans, nil, true)
			checkProtocol(t, tt.want, c)
		})
	}
}

// The score weighs the argument checks 60% and the protocol checks 40%.
func TestScore(t *testing.T) {
	r := report{Checks: []check{
		{Points: 100, group: groupArguments}, {Points: 50, group: groupArguments},
		{Points: 0, group: groupProtocol}, {Points: 100, group: groupProtocol},
	}}
	r.grade()
	if r.Score != 65 || r.Grade != "D" || r.Arguments != 75 || r.Protocols != 50 {
		t.Errorf("score %d grade %s (arguments %d, protocol %d), want 65 D (75, 50)", r.Score, r.Grade, r.Arguments, r.Protocols)
	}
	for _, tt := range []struct {
		g, min string
		want   bool
	}{{"A", "A", false}, {"B", "A", true}, {"F", "D", true}, {"C", "F", false}} {
		if got := below(tt.g, tt.min); got != tt.want {
			t.Errorf("below(%s, %s) = %v", tt.g, tt.min, got)
		}
	}
}

// A field counts as named only where a validation text puts it: errkind's
// arguments at fault, zod's issue paths, a field first in a clause before
// the words of a refusal; never an echo of it elsewhere (a URL, a command
// line, a JSON key of an unrelated error).
func TestNamesField(t *testing.T) {
	tests := []struct {
		field, text string
		want        bool
	}{
		{"owner", `Invalid input: [{"code":"invalid_type","expected":"string","received":"number","path":["owner"],"message":"Expected string, received number"}]`, true},
		{"repo.name", `Invalid input: [{"code":"invalid_type","path":["repo","name"],"message":"Required"}]`, true},
		{"title", "Invalid arguments: title: Required", true},
		{"intent", "MCP error -32602: Tool 't' parameter validation failed: intent: Too small: expected string to have >=1 characters. Please check the parameter types", true},
		{"channel_id", `{"error":"Missing required arguments: channel_id and text"}`, true},
		{"thread_ts", `{"error":"Missing required arguments: channel_id, thread_ts, and text"}`, true},
		{"limit", `{"error":"Missing required arguments: channel_id and text"}`, false},
		{"thread_ts", `{"error":"Missing required arguments: channel_id and thread_ts"}`, true},
		{"description", "Invalid arguments: description: Expected string, received number", true},
		{"limit", "MCP error -32602: Input validation error: Invalid arguments for tool t: Too big: expected number to be <=100 at limit", true},
		{"query", "Error: request to https://api.example.com/search?query=12345 failed, reason: getaddrinfo EAI_AGAIN api.example.com", false},
		{"name", `{"error":{"name":"FetchError","message":"fetch failed"}}`, false},
		{"namespace", "kubectl get pods --namespace 12345 failed: exit status 1", false},
		{"path", "TypeError: Cannot read properties of undefined (reading 'path')", false},
	}
	for _, tt := range tests {
		r := errkind.Read(errkind.Outcome{IsError: true, Text: tt.text})
		if got := namesField(tt.field, r, tt.text); got != tt.want {
			t.Errorf("namesField(%q, %q) = %v, want %v (errkind read %q)", tt.field, tt.text, got, tt.want, r.Args)
		}
	}
}

// positionArgs never panics, and every field it returns is in the text.
func FuzzPositionArgs(f *testing.F) {
	for _, s := range []string{
		`Invalid input: [{"code":"invalid_type","path":["owner",0],"message":"Required"}]`,
		"Invalid arguments: title: Required; body: Expected string, received number",
		"[{", "}][{", "a: Required",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, a := range positionArgs(text) {
			if a == "" {
				t.Fatalf("an empty field from %q", text)
			}
		}
	})
}

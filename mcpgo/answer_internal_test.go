package mcpgo

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcperr/mcperr/adapter/stdio"
)

// sdkLine is the line ServeStdio writes for msg by encoding/json, mcp-go's
// own encoding: what appendAnswer must write byte for byte.
func sdkLine(t testing.TB, msg mcp.JSONRPCMessage, sent []byte) (string, bool) {
	t.Helper()
	data, err := json.Marshal(msg)
	if err != nil {
		return "", false
	}
	return string(stdio.AppendAnswer(nil, data, sent)), true
}

// tricky holds every byte encoding/json escapes in a string, and what it
// leaves alone.
const tricky = "a\"b\\c</d>&e\u2028f\u2029g\x00\x01\x1f\b\f\n\r\t\x7f\xff\xc3(é✓😀\\u003c"

// TestAppendAnswer: a tool result of the shape tool handlers return is
// written as mcp-go's encoding/json writes it, byte for byte; any other
// result or message is left to encoding/json (appendAnswer reports false).
func TestAppendAnswer(t *testing.T) {
	id := mcp.NewRequestId(int64(7))
	half := 0.5
	text := func(s ...string) []mcp.Content {
		var c []mcp.Content
		for _, s := range s {
			c = append(c, mcp.TextContent{Type: "text", Text: s})
		}
		return c
	}
	for _, tc := range []struct {
		name string
		msg  mcp.JSONRPCMessage
		sent string
		fast bool
	}{
		{"success", mcp.JSONRPCResponse{JSONRPC: "2.0", ID: id, Result: &mcp.CallToolResult{Content: text(`{"id":"abc","spans":3}`), StructuredContent: json.RawMessage(`{"id":"abc","spans":3}`)}}, "7", true},
		{"error, every escape", mcp.JSONRPCResponse{JSONRPC: "2.0", ID: id, Result: &mcp.CallToolResult{Content: text(tricky, ""), IsError: true}}, "7", true},
		{"no content", mcp.JSONRPCResponse{JSONRPC: "2.0", ID: id, Result: &mcp.CallToolResult{}}, "7", true},
		{"resultType", mcp.JSONRPCResponse{JSONRPC: "2.0", ID: id, Result: &mcp.CallToolResult{Result: mcp.Result{ResultType: mcp.ResultTypeComplete}, Content: text("x")}}, "7", true},
		{"by value", mcp.JSONRPCResponse{JSONRPC: "2.0", ID: id, Result: mcp.CallToolResult{Content: text("x")}}, "7", true},
		{"structured, spaced and escaped", mcp.JSONRPCResponse{JSONRPC: "2.0", ID: id, Result: &mcp.CallToolResult{Content: text("x"),
			StructuredContent: json.RawMessage(" {\"a\" : [1, 2.50, \"<\\u003c>\u2028\", null, true] ,\"b\":{}} ")}}, "7", true},
		{"raw structured", mcp.JSONRPCResponse{JSONRPC: "2.0", ID: id, Result: &mcp.CallToolResult{Content: text("x"), RawStructuredContent: json.RawMessage(`[1,"&"]`)}}, "7", true},
		{"id as sent, with escapes", mcp.JSONRPCResponse{JSONRPC: "2.0", ID: mcp.NewRequestId("<&>"), Result: &mcp.CallToolResult{Content: text("<&>")}}, `"\u003c&>"`, true},
		{"_meta", mcp.JSONRPCResponse{JSONRPC: "2.0", ID: id, Result: &mcp.CallToolResult{Result: mcp.Result{Meta: mcp.NewMetaFromMap(map[string]any{"k": "v"})}, Content: text("x")}}, "7", false},
		{"annotated text", mcp.JSONRPCResponse{JSONRPC: "2.0", ID: id, Result: &mcp.CallToolResult{Content: []mcp.Content{mcp.TextContent{Type: "text", Text: "x", Annotated: mcp.Annotated{Annotations: &mcp.Annotations{Priority: &half}}}}}}, "7", false},
		{"image", mcp.JSONRPCResponse{JSONRPC: "2.0", ID: id, Result: &mcp.CallToolResult{Content: []mcp.Content{mcp.ImageContent{Type: "image", Data: "AA==", MIMEType: "image/png"}}}}, "7", false},
		{"structured map", mcp.JSONRPCResponse{JSONRPC: "2.0", ID: id, Result: &mcp.CallToolResult{Content: text("x"), StructuredContent: map[string]any{"a": 1}}}, "7", false},
		{"structured empty", mcp.JSONRPCResponse{JSONRPC: "2.0", ID: id, Result: &mcp.CallToolResult{Content: text("x"), StructuredContent: json.RawMessage{}}}, "7", false},
		{"structured not JSON", mcp.JSONRPCResponse{JSONRPC: "2.0", ID: id, Result: &mcp.CallToolResult{Content: text("x"), StructuredContent: json.RawMessage(`{"a":`)}}, "7", false},
		{"another result", mcp.JSONRPCResponse{JSONRPC: "2.0", ID: id, Result: mcp.EmptyResult{}}, "7", false},
		{"an error", mcp.JSONRPCError{JSONRPC: "2.0", ID: id, Error: mcp.JSONRPCErrorDetails{Code: -32602, Message: "no"}}, "7", false},
		{"no id sent", mcp.JSONRPCResponse{JSONRPC: "2.0", ID: id, Result: &mcp.CallToolResult{Content: text("x")}}, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, fast := appendAnswer([]byte("kept"), tc.msg, []byte(tc.sent))
			if fast != tc.fast {
				t.Fatalf("appendAnswer reports %v, want %v", fast, tc.fast)
			}
			if !fast {
				if string(got) != "kept" {
					t.Errorf("appended %q on refusing", got[4:])
				}
				return
			}
			want, ok := sdkLine(t, tc.msg, []byte(tc.sent))
			if !ok {
				t.Fatal("encoding/json cannot encode what appendAnswer did")
			}
			if d := cmp.Diff("kept"+want, string(got)); d != "" {
				t.Errorf("(-encoding/json +appendAnswer):\n%s", d)
			}
		})
	}
}

// FuzzAppendAnswer: for any text, structured content, isError and id,
// appendAnswer writes what encoding/json does, or leaves it to it.
func FuzzAppendAnswer(f *testing.F) {
	f.Add(tricky, []byte(`{"a":"<\u2028>"}`), true, "x")
	f.Add("", []byte(` [ 1 , "\\u003c" ] `), false, "7")
	f.Add("\xed\xa0\x80", []byte(`{"a":`), false, "<&>")
	f.Fuzz(func(t *testing.T, text string, structured []byte, isError bool, id string) {
		r := &mcp.CallToolResult{Content: []mcp.Content{mcp.TextContent{Type: "text", Text: text}}, IsError: isError}
		if len(structured) > 0 {
			r.StructuredContent = json.RawMessage(structured)
		}
		sent, _ := json.Marshal(id)
		msg := mcp.JSONRPCResponse{JSONRPC: "2.0", ID: mcp.NewRequestId(id), Result: r}
		want, ok := sdkLine(t, msg, sent)
		got, fast := appendAnswer(nil, msg, sent)
		if !fast {
			if ok && json.Valid(structured) {
				t.Fatalf("refused a result encoding/json encodes: %q", want)
			}
			return
		}
		if !ok {
			t.Fatalf("wrote %q for a result encoding/json refuses", got)
		}
		if string(got) != want {
			t.Fatalf("appendAnswer %q\nencoding/json %q", got, want)
		}
	})
}

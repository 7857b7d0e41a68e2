package envelope

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcperr/mcperr/errkind"
)

// Content is one content block of a tool result. mcperr writes only text
// blocks.
type Content struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// Result is an MCP tool result (a CallToolResult) as plain values: it
// marshals to the JSON MCP expects, so it can be returned by a server built
// on any SDK, or on none.
type Result struct {
	Meta              map[string]any  `json:"_meta,omitempty"`
	Content           []Content       `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError,omitempty"`
}

// ErrorResult renders err as a tool error an agent can act on: isError, and
// one text block holding the JSON kind object, such as
//
//	{"content":[{"type":"text","text":"{\"kind\":\"authentication_failed\",\"message\":\"token revoked\"}"}],"isError":true}
//
// An err that holds no *Error is rendered as server_error with err's text as
// the message. ErrorResult(nil) returns nil.
func ErrorResult(err error) *Result {
	if err == nil {
		return nil
	}
	var e *Error
	if !errors.As(err, &e) {
		e = &Error{Kind: errkind.ServerError, Message: err.Error()}
	}
	return &Result{Content: []Content{{Type: "text", Text: string(e.appendJSON(nil))}}, IsError: true}
}

// TextError renders a tool error written as prose for the agent: isError
// and one text block, such as "Not found in the Vulnetix VDB: ...".
func TextError(text string) *Result {
	return &Result{Content: []Content{{Type: "text", Text: text}}, IsError: true}
}

// JSONError renders a tool error whose text is v's JSON, for a server with
// its own error object, such as
// {"error":"insufficient credits","code":"insufficient_credits",...}. A v
// that does not marshal is rendered as TextError of the marshal error.
func JSONError(v any) *Result {
	b, err := encode(v)
	if err != nil {
		return TextError(fmt.Sprintf("envelope: could not encode the error: %v", err))
	}
	return &Result{Content: []Content{{Type: "text", Text: string(b)}}, IsError: true}
}

// encode is json.Marshal without HTML escaping: the text is for an agent,
// not a browser, so <, > and & stay as they are.
func encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// Success renders a successful result: v's JSON as structuredContent and the
// same JSON as the one text block, for clients that predate
// structuredContent. v is encoded once. It must encode to a JSON object, as
// MCP requires of structuredContent.
func Success(v any) (*Result, error) {
	b, err := encode(v)
	if err != nil {
		return nil, fmt.Errorf("envelope: encoding the result: %w", err)
	}
	if len(b) == 0 || b[0] != '{' {
		return nil, fmt.Errorf("envelope: structuredContent must be a JSON object, got %.20s", b)
	}
	return &Result{Content: []Content{{Type: "text", Text: string(b)}}, StructuredContent: b}, nil
}

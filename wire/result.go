package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcperr/mcperr/errkind"
)

// Content is one content block of a tool result. mcperr writes only text
// blocks: Type "text" and the Text. Reading a result that holds another
// kind of block keeps its Type and drops the members a text block lacks.
type Content struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// ToolResult is an MCP tool result (a CallToolResult) as plain values: it
// marshals to the JSON MCP expects, so it can be returned by a server built
// on any SDK, or on none. isError is written only when true, as the go-sdk
// and the TypeScript SDK write it; a success omits it.
//
// Every constructor sets Content; MCP requires the array, so a result built
// by hand sets it too (a nil Content marshals as null, as the go-sdk's own
// type does).
type ToolResult struct {
	Meta              map[string]any  `json:"_meta,omitempty"`
	Content           []Content       `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError,omitempty"`

	// ResultType is the protocol revision's "resultType": "complete" on
	// revision 2026-07-28 and later, where every result says whether it is
	// final; "" (left out) before it. The constructors leave it empty: the
	// transport that knows the session's revision sets it.
	ResultType string `json:"resultType,omitempty"`
}

// A KindError is an error that writes its own JSON kind object (an
// errkind.Object), the text [ErrorResult] puts in an isError result.
// *envelope.Error is one; a server's own error type can be one too, with
// errkind.Object's AppendJSON doing the writing.
type KindError interface {
	error
	// AppendKindObject appends the JSON kind object, such as
	// {"kind":"not_found","code":"trace_not_found","message":"..."}, to b
	// and returns the extended slice.
	AppendKindObject(b []byte) []byte
}

// ErrorResult is the tool result of a tool handler's error, one an agent
// can act on. The first [Renderer] in err's chain gives its own result,
// marked isError (a result not marked is copied to be marked, never
// changed: an error may keep its result, or share one, and be rendered more
// than once). Otherwise the result is isError and one text block holding
// the JSON kind object, such as
//
//	{"content":[{"type":"text","text":"{\"kind\":\"authentication_failed\",\"message\":\"token revoked\"}"}],"isError":true}
//
// which the first [KindError] in err's chain writes. An err that holds
// neither is rendered as the errkind.Object of kind server_error with err's
// text as the message, the kind envelope.KindOf reports for it.
// ErrorResult(nil) returns nil.
func ErrorResult(err error) *ToolResult {
	if err == nil {
		return nil
	}
	var r Renderer
	if errors.As(err, &r) {
		if res := r.ToolResult(); res != nil && len(res.Content) > 0 {
			if !res.IsError {
				marked := *res
				marked.IsError = true
				res = &marked
			}
			return res
		}
	}
	var text []byte
	var k KindError
	if errors.As(err, &k) {
		text = k.AppendKindObject(nil)
	} else {
		text, _ = errkind.Object{Kind: errkind.ServerError, Message: err.Error()}.MarshalJSON()
	}
	return &ToolResult{Content: []Content{{Type: "text", Text: string(text)}}, IsError: true}
}

// TextError renders a tool error whose text the caller wrote: isError and
// one text block, such as prose ("Not found in the Vulnetix VDB: ..."), the
// TypeScript SDK's rejection text from schemaerr, or a kind object a server
// wrote in its taxonomy's own layout (errkind.Object's AppendJSON).
func TextError(text string) *ToolResult {
	return &ToolResult{Content: []Content{{Type: "text", Text: text}}, IsError: true}
}

// JSONError renders a tool error whose text is v's JSON, for a server with
// its own error object, such as
// {"error":"insufficient credits","code":"insufficient_credits",...}. A v
// that does not marshal is rendered as TextError of the marshal error.
func JSONError(v any) *ToolResult {
	b, err := encode(v)
	if err != nil {
		return TextError(fmt.Sprintf("wire: could not encode the error: %v", err))
	}
	return &ToolResult{Content: []Content{{Type: "text", Text: string(b)}}, IsError: true}
}

// Success renders a successful result: v's JSON as structuredContent and the
// same JSON as the one text block, for clients that predate
// structuredContent. v is encoded once. It must encode to a JSON object, as
// MCP requires of structuredContent.
func Success(v any) (*ToolResult, error) {
	b, err := encode(v)
	if err != nil {
		return nil, fmt.Errorf("wire: encoding the result: %w", err)
	}
	if len(b) == 0 || b[0] != '{' {
		return nil, fmt.Errorf("wire: structuredContent must be a JSON object, got %.20s", b)
	}
	return &ToolResult{Content: []Content{{Type: "text", Text: string(b)}}, StructuredContent: b}, nil
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

// A Renderer is an error that renders itself as a tool result: for a server
// whose tool errors have a shape of their own, such as prose for the agent or
// the server's own JSON error object (TextError, JSONError). [ErrorResult]
// sends its result in place of the kind object.
type Renderer interface {
	error
	// ToolResult returns the tool result the error reads as; a nil result,
	// or one without content, is not used.
	ToolResult() *ToolResult
}

package mcpgo

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcperr/mcperr/adapter/stdio"
)

// appendResult appends r as mcp-go encodes it (CallToolResult.MarshalJSON:
// its members in the order of their names, strings escaped as
// encoding/json escapes them, <, > and & included), byte for byte, and
// reports true, for a result of the shape tool handlers return: text
// blocks without annotations or _meta, structuredContent absent or a
// json.RawMessage, no _meta, no inputRequests and no requestState. For any
// other result it appends nothing and reports false, and the caller
// encodes r with encoding/json. It costs a tenth of that encoding, which
// builds a map of the members and encodes it by reflection, then checks
// and compacts the result a second time.
func appendResult(dst []byte, r *mcp.CallToolResult) ([]byte, bool) {
	if r.Meta != nil || len(r.InputRequests) > 0 || r.RequestState != "" {
		return dst, false
	}
	structured := r.RawStructuredContent
	if len(structured) == 0 && r.StructuredContent != nil {
		raw, ok := r.StructuredContent.(json.RawMessage)
		if !ok || len(raw) == 0 {
			return dst, false
		}
		structured = raw
	}
	for _, c := range r.Content {
		t, ok := c.(mcp.TextContent)
		if !ok || t.Annotations != nil || t.Meta != nil {
			return dst, false
		}
	}
	start := len(dst)
	dst = append(dst, `{"content":[`...)
	for i, c := range r.Content {
		t := c.(mcp.TextContent)
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"type":`...)
		dst = appendString(dst, t.Type)
		dst = append(dst, `,"text":`...)
		dst = appendString(dst, t.Text)
		dst = append(dst, '}')
	}
	dst = append(dst, ']')
	if r.IsError {
		dst = append(dst, `,"isError":true`...)
	}
	if r.ResultType != "" {
		dst = append(dst, `,"resultType":`...)
		dst = appendString(dst, string(r.ResultType))
	}
	if len(structured) > 0 {
		dst = append(dst, `,"structuredContent":`...)
		// As encoding/json writes a json.RawMessage: compacted, with <, >,
		// &, U+2028 and U+2029 escaped.
		var buf bytes.Buffer
		if json.Compact(&buf, structured) != nil {
			return dst[:start], false
		}
		b := bytes.NewBuffer(dst)
		json.HTMLEscape(b, buf.Bytes())
		dst = b.Bytes()
	}
	return append(dst, '}'), true
}

// appendAnswer appends the line that answers the request whose id the
// client wrote as sent with msg, when msg is a tool result appendResult
// encodes, and reports true: the line AppendAnswer makes of msg encoded by
// encoding/json, byte for byte (the id as sent, <, > and & unescaped after
// it). For any other msg it appends nothing and reports false.
func appendAnswer(dst []byte, msg mcp.JSONRPCMessage, sent []byte) ([]byte, bool) {
	resp, ok := msg.(mcp.JSONRPCResponse)
	if !ok || len(sent) == 0 {
		return dst, false
	}
	var r *mcp.CallToolResult
	switch v := resp.Result.(type) {
	case *mcp.CallToolResult:
		r = v
	case mcp.CallToolResult:
		r = &v
	}
	if r == nil {
		return dst, false
	}
	start := len(dst)
	dst = append(append(append(dst, `{"jsonrpc":"2.0","id":`...), sent...), `,"result":`...)
	body := len(dst)
	dst, ok = appendResult(dst, r)
	if !ok {
		return dst[:start], false
	}
	dst = append(dst, '}')
	// The unescaping writes over the bytes it reads, never ahead of them.
	return append(stdio.AppendUnescapeHTML(dst[:body], dst[body:]), '\n'), true
}

const hex = "0123456789abcdef"

// appendString appends s as a JSON string, escaped as encoding/json escapes
// it with HTML escaping on (as json.Marshal does): ", \ and control
// characters, <, > and &, U+2028 and U+2029, and each byte of invalid
// UTF-8 as \ufffd.
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

package envelope

import (
	"bytes"
	"encoding/json"
	"mime"
	"net/http"
	"strings"
	"unicode/utf8"
)

// This file reads the error bodies real APIs send besides the configured
// envelope. Reading happens only on the error path: a success body never
// reaches it unless its top level has an "ok", "errors" or envelope key.

// topSpans locates the members of a top-level JSON object that decide
// whether a body is an error: the envelope's key, "ok", "errors" and
// "data". Each span is the member's value as written; nil when absent.
// other records a member besides "data", "errors" and "extensions", which
// a GraphQL response never has.
type topSpans struct {
	env, ok, errors, data []byte
	other                 bool
}

// scanTop fills the spans of body's top-level object in one pass that
// skips every other value. It stops at the envelope's key when its value
// opens with start ('{' for a nested envelope, '"' for a flat one): the
// envelope decides, whatever follows. A body that is not an object, or not
// JSON as far as the scan reads, gives what was found so far; the decode
// that follows reports what is wrong with it.
func scanTop(body []byte, key string, start byte) topSpans {
	var s topSpans
	i := skipSpace(body, 0)
	if i >= len(body) || body[i] != '{' {
		return s
	}
	i++
	for {
		i = skipSpace(body, i)
		if i >= len(body) || body[i] != '"' {
			return s
		}
		end := skipString(body, i)
		if end < 0 {
			return s
		}
		q := body[i:end]
		i = skipSpace(body, end)
		if i >= len(body) || body[i] != ':' {
			return s
		}
		i = skipSpace(body, i+1)
		isKey := keyEqual(q, key)
		if isKey && i < len(body) && body[i] == start {
			s.env = body[i:]
			return s
		}
		vend := skipValue(body, i)
		if vend < 0 {
			return s
		}
		v := body[i:vend]
		switch {
		case isKey:
			s.env = v
		case keyEqual(q, "ok"):
			s.ok = v
		case keyEqual(q, "errors"):
			s.errors = v
		case keyEqual(q, "data"):
			s.data = v
		case !keyEqual(q, "extensions"):
			s.other = true
		}
		i = skipSpace(body, vend)
		if i >= len(body) || body[i] != ',' {
			return s
		}
		i++
	}
}

// graphQLFailed reports whether the spans are a GraphQL response that
// failed as a whole: no top-level member but data, errors and extensions;
// a non-empty errors array whose first error has a message; and data
// absent, null or an object holding only nulls. Errors beside real data
// are a partial success, which is data. A REST body with an errors array
// (JSON:API, Cloudflare, GitHub's field errors) has other members, or
// errors without a message, and is read as a REST error instead.
func (s *topSpans) graphQLFailed() bool {
	if s.other || len(s.errors) == 0 || s.errors[0] != '[' {
		return false
	}
	if j := skipSpace(s.errors, 1); j >= len(s.errors) || s.errors[j] == ']' {
		return false
	}
	if first := firstError(s.errors); first == nil || len(first["message"]) == 0 || first["message"][0] != '"' {
		return false
	}
	switch {
	case s.data == nil, string(s.data) == "null":
		return true
	case s.data[0] != '{':
		return false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(s.data, &m) != nil {
		return false
	}
	for _, v := range m {
		if string(v) != "null" {
			return false
		}
	}
	return true
}

// dialect is what an error body says, in whichever of the common dialects
// it is written.
type dialect struct {
	code    string
	message string
	details json.RawMessage
}

// readDialect reads the code, message and details of a top-level error
// object m, in the dialects public APIs use:
//
//   - code: a string "code"; Kubernetes' "reason"; an AIP-193 status name
//     ("NOT_FOUND") in "status"; a problem type other than about:blank in
//     "type"; an OAuth 2 or Slack string "error"; AWS's "__type" without
//     its namespace; a numeric "code" (Twilio, Discord).
//   - message: "message" (or "Message"), RFC 9457's "detail" then "title",
//     OAuth 2's "error_description", Jira's first "errorMessages" entry or
//     first field error ("summary: ...").
//   - both, when the top level has none: from the first member of an
//     "errors" array (JSON:API, Cloudflare, GitHub's field errors).
//   - details: "details", else "errors".
//
// It looks one level down at most (into the first error, or an "error"
// object), so a body nested deep costs what a flat one does.
func readDialect(m map[string]json.RawMessage) dialect {
	return readDialectAt(m, 0)
}

func readDialectAt(m map[string]json.RawMessage, depth int) dialect {
	var d dialect
	d.code = firstCode(m)
	for _, k := range []string{"message", "Message", "detail", "error_description", "title"} {
		if s, ok := stringOf(m[k]); ok && s != "" {
			d.message = s
			break
		}
	}
	if d.message == "" {
		d.message = jiraMessage(m)
	}
	if depth == 0 && (d.code == "" || d.message == "") {
		if first := firstError(m["errors"]); first != nil {
			inner := readDialectAt(first, depth+1)
			if d.code == "" {
				d.code = inner.code
			}
			if d.message == "" {
				d.message = inner.message
			}
		}
	}
	if depth == 0 && d.code == "" && d.message == "" {
		// An {"error":{...}} object under a Reader configured for
		// another envelope key.
		if raw := m["error"]; len(raw) > 0 && raw[0] == '{' {
			var inner map[string]json.RawMessage
			if json.Unmarshal(raw, &inner) == nil {
				return readDialectAt(inner, depth+1)
			}
		}
	}
	d.details = m["details"]
	if len(d.details) == 0 {
		d.details = m["errors"]
	}
	if string(d.details) == "null" {
		d.details = nil
	}
	return d
}

// firstCode picks the upstream's own code from m (see readDialect).
func firstCode(m map[string]json.RawMessage) string {
	if s, ok := stringOf(m["code"]); ok && s != "" {
		return s
	}
	if s, ok := stringOf(m["reason"]); ok && s != "" {
		return s
	}
	if s, ok := stringOf(m["status"]); ok && isStatusName(s) {
		return s
	}
	if s, ok := stringOf(m["type"]); ok && s != "" && s != "about:blank" && s != "error" {
		return s
	}
	if s, ok := stringOf(m["error"]); ok && s != "" {
		return s
	}
	if s, ok := stringOf(m["__type"]); ok && s != "" {
		// AWS writes "namespace#Name" (or "Name:extra"); SDKs keep Name.
		if i := strings.LastIndexByte(s, '#'); i >= 0 {
			s = s[i+1:]
		}
		if i := strings.IndexByte(s, ':'); i >= 0 {
			s = s[:i]
		}
		return s
	}
	if n, ok := numberOf(m["code"]); ok {
		return n
	}
	return ""
}

// isStatusName reports whether s looks like a canonical status name such
// as AIP-193's "NOT_FOUND", rather than a number ("404") or a word such as
// Kubernetes' "Failure".
func isStatusName(s string) bool {
	letter := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'A' && c <= 'Z':
			letter = true
		case c == '_' || c >= '0' && c <= '9':
		default:
			return false
		}
	}
	return letter
}

// stringOf decodes raw as a JSON string; ok is false for any other value.
func stringOf(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1]), true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// numberOf returns raw as written when it is a JSON number.
func numberOf(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || (raw[0] != '-' && (raw[0] < '0' || raw[0] > '9')) {
		return "", false
	}
	var n json.Number
	if json.Unmarshal(raw, &n) != nil {
		return "", false
	}
	return n.String(), true
}

// firstError decodes the first element of an errors array when it is an
// object.
func firstError(raw json.RawMessage) map[string]json.RawMessage {
	if len(raw) == 0 || raw[0] != '[' {
		return nil
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil || len(list) == 0 {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(list[0], &m) != nil {
		return nil
	}
	return m
}

// jiraMessage is the first entry of "errorMessages", else the first field
// error of an "errors" object, written "field: message".
func jiraMessage(m map[string]json.RawMessage) string {
	var list []string
	if json.Unmarshal(m["errorMessages"], &list) == nil {
		for _, s := range list {
			if s != "" {
				return s
			}
		}
	}
	raw := m["errors"]
	if len(raw) == 0 || raw[0] != '{' {
		return ""
	}
	// The first member in document order, so the message does not depend
	// on map iteration.
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return ""
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return ""
		}
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return ""
		}
		if s, ok := stringOf(v); ok && s != "" {
			return k.(string) + ": " + s
		}
	}
	return ""
}

// graphQLError reads a GraphQL response that failed: the code from the
// first error's extensions.code, else its type; the message from the first
// error.
func graphQLError(errorsRaw json.RawMessage) dialect {
	var d dialect
	first := firstError(errorsRaw)
	if first == nil {
		return d
	}
	d.message, _ = stringOf(first["message"])
	var ext map[string]json.RawMessage
	if json.Unmarshal(first["extensions"], &ext) == nil {
		d.code, _ = stringOf(ext["code"])
	}
	if d.code == "" {
		d.code, _ = stringOf(first["type"])
	}
	return d
}

// maxPlainMessage bounds the plain-text body taken as a message.
const maxPlainMessage = 256

// plainMessage is the message of a body that is not JSON: the body itself
// when the response says it is text/plain and it is one short line of
// printable UTF-8, else "" (an HTML page says nothing an agent can use).
func plainMessage(h http.Header, body []byte) string {
	mt, _, err := mime.ParseMediaType(h.Get("Content-Type"))
	if err != nil || mt != "text/plain" {
		return ""
	}
	s := strings.TrimSpace(string(body))
	if len(s) > maxPlainMessage || !utf8.ValidString(s) {
		return ""
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return ""
		}
	}
	return s
}

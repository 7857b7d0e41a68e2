package envelope

import (
	"bytes"
	"unicode/utf8"

	"github.com/mcperr/mcperr/internal/jsonscan"
)

// maxScanDepth bounds the nesting scanNested reads itself; a body nested
// deeper goes to json.Unmarshal, whose own bound (10000) then decides.
const maxScanDepth = 64

// scanNested is json.Unmarshal(body, &struct{Error nestedBody `json:"error"`})
// done by one scan in place, for the bodies where the two surely agree: the
// body is one valid JSON object whose "error" member, named once and
// exactly so, is an object whose "code", "message" and "details" members
// are each named at most once and exactly so, the first two strings
// without escapes in valid UTF-8. Any other member is skipped, as the
// decoder skips it, unless its name could match one of those in another
// case (the decoder folds case) or holds an escape or a non-ASCII byte.
// On such a body it fills n, details as a slice of body, and reports true;
// on any other it reports false and n holds nothing the caller may use:
// json.Unmarshal must decide, whatever the body.
func scanNested(body []byte, n *nestedBody) bool {
	var seen bool
	return scanObject(body, func(name, value []byte) bool {
		switch {
		case string(name) == "error":
			if seen || value[0] != '{' {
				return false
			}
			seen = true
			return scanInner(value, n)
		default:
			return !foldsTo(name, "error")
		}
	})
}

// scanInner reads the "error" object's members for scanNested.
func scanInner(obj []byte, n *nestedBody) bool {
	var code, msg, details bool
	_, ok := scanMembers(obj, 0, func(name, value []byte) bool {
		switch string(name) {
		case "code":
			if code {
				return false
			}
			code = true
			return plainString(value, &n.Code)
		case "message":
			if msg {
				return false
			}
			msg = true
			return plainString(value, &n.Message)
		case "details":
			if details {
				return false
			}
			details = true
			n.Details = value
			return true
		}
		return !foldsTo(name, "code") && !foldsTo(name, "message") && !foldsTo(name, "details")
	})
	return ok
}

// scanObject reports whether body is one JSON object and nothing else
// (white space aside), f accepting each of its members.
func scanObject(body []byte, f func(name, value []byte) bool) bool {
	i := jsonscan.Space(body, 0)
	end, ok := scanMembers(body, i, f)
	return ok && jsonscan.Space(body, end) == len(body)
}

// scanMembers walks the object at body[i] as jsonscan.Members does, with
// its values' nesting bounded by maxScanDepth, and calls f with each
// member's name (between its quotes) and value. ok is false when the object
// is not valid JSON, is nested too deep, when a name holds an escape or a
// byte outside ASCII, or when f returns false.
func scanMembers(body []byte, i int, f func(name, value []byte) bool) (end int, ok bool) {
	if i >= len(body) || body[i] != '{' {
		return i, false
	}
	i = jsonscan.Space(body, i+1)
	if i < len(body) && body[i] == '}' {
		return i + 1, true
	}
	for {
		v, nameEnd, esc, ok := jsonscan.Key(body, i)
		if !ok || esc {
			return v, false
		}
		var st jsonscan.Stats
		end, ok := jsonscan.Value(body, v, 2, &st)
		if !ok || st.Depth > maxScanDepth {
			return end, false
		}
		name := body[i+1 : nameEnd-1]
		for _, c := range name {
			if c >= utf8.RuneSelf {
				return end, false
			}
		}
		if !f(name, body[v:end]) {
			return end, false
		}
		i = jsonscan.Space(body, end)
		if i >= len(body) {
			return i, false
		}
		switch body[i] {
		case '}':
			return i + 1, true
		case ',':
			i = jsonscan.Space(body, i+1)
		default:
			return i, false
		}
	}
}

// foldsTo reports whether the decoder, which folds case, would take the
// member name for field.
func foldsTo(name []byte, field string) bool {
	return len(name) == len(field) && bytes.EqualFold(name, []byte(field))
}

// plainString sets *s to the JSON string v when v is one that decodes to
// its own bytes: no escape, valid UTF-8 (the decoder replaces invalid
// bytes). It reports false for any other value.
func plainString(v []byte, s *string) bool {
	if len(v) < 2 || v[0] != '"' {
		return false
	}
	in := v[1 : len(v)-1]
	if bytes.IndexByte(in, '\\') >= 0 || !utf8.Valid(in) {
		return false
	}
	*s = string(in)
	return true
}

package errkind

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// The members of the kind object besides "kind", by their JSON names, in
// the order an object whose kind declares no layout writes them (allFields).
const (
	fieldCode       = "code"              // the upstream's own code
	fieldMessage    = "message"           // the upstream's message, or the client's sentence
	fieldDetails    = "details"           // the upstream's details, as sent
	fieldHTTPStatus = "httpStatus"        // the upstream response's status
	fieldRetryAfter = "retryAfterSeconds" // how long to wait before retrying, in whole seconds
	fieldLimit      = "limit"             // the rate limit's size
	fieldRemaining  = "remaining"         // what is left of the rate limit
	fieldReset      = "resetSeconds"      // seconds until the rate limit resets
)

// Object is the JSON kind object a failed tool result carries as its text:
// "kind" first, then the members its kind declares, each when it is set.
//
//	{"kind":"not_found","code":"trace_not_found","message":"no trace with id ...","details":{"trace_id":"..."}}
//	{"kind":"rate_limited","retryAfterSeconds":1,"limit":20,"remaining":0,"resetSeconds":1}
//
// Its JSON Schema is [ObjectSchema]. Decoding one with encoding/json reads
// every member.
type Object struct {
	Kind              Kind            `json:"kind"`
	Code              string          `json:"code,omitempty"`              // the upstream's own code
	Message           string          `json:"message,omitempty"`           // the upstream's message, or the client's sentence
	Details           json.RawMessage `json:"details,omitempty"`           // the upstream's details, as sent
	HTTPStatus        int             `json:"httpStatus,omitempty"`        // the upstream response's status; 0 when none
	RetryAfterSeconds *int64          `json:"retryAfterSeconds,omitempty"` // the wait before a retry, when one is known
	Limit             *int64          `json:"limit,omitempty"`             // the rate limit's size, when the response gave it
	Remaining         *int64          `json:"remaining,omitempty"`         // what is left of it, when the response gave it
	ResetSeconds      *int64          `json:"resetSeconds,omitempty"`      // seconds until it resets, when the response gave it
}

// MarshalJSON writes the object with the members the standard taxonomy
// declares for its kind (see [Object.AppendJSON]); an object of a kind the
// standard taxonomy does not know writes every member that is set.
func (o Object) MarshalJSON() ([]byte, error) {
	a, _ := standardAdvice(o.Kind)
	return o.AppendJSON(make([]byte, 0, 64+len(o.Code)+len(o.Message)+len(o.Details)), a.Fields), nil
}

// AppendJSON appends the object to b: "kind" first, then each member fields
// lists, in that order, when it is set (a string not empty, a status not
// 0, a number not nil, details that are valid JSON). nil fields means every
// member, in the order [Advice.Fields] lists. A known wait is never dropped: when
// RetryAfterSeconds is set and fields leaves it out, it is written last.
// A taxonomy's layout for a kind is tax.Advise(kind).Fields.
//
// Strings are written as JSON strings that keep <, > and & as they are, so
// the text an agent reads stays readable; invalid UTF-8 becomes U+FFFD.
// (json.Marshal escapes those three again in what MarshalJSON returns; call
// MarshalJSON or AppendJSON directly for the text of a tool result.)
func (o *Object) AppendJSON(b []byte, fields []string) []byte {
	if fields == nil {
		fields = allFields
	}
	b = append(b, `{"kind":`...)
	b = appendString(b, string(o.Kind))
	wait := false
	for _, f := range fields {
		switch f {
		case fieldCode:
			if o.Code != "" {
				b = append(b, `,"code":`...)
				b = appendString(b, o.Code)
			}
		case fieldMessage:
			if o.Message != "" {
				b = append(b, `,"message":`...)
				b = appendString(b, o.Message)
			}
		case fieldDetails:
			b = o.appendDetails(b)
		case fieldHTTPStatus:
			if o.HTTPStatus != 0 {
				b = append(b, `,"httpStatus":`...)
				b = strconv.AppendInt(b, int64(o.HTTPStatus), 10)
			}
		case fieldRetryAfter:
			wait = true
			b = appendNumber(b, `,"retryAfterSeconds":`, o.RetryAfterSeconds)
		case fieldLimit:
			b = appendNumber(b, `,"limit":`, o.Limit)
		case fieldRemaining:
			b = appendNumber(b, `,"remaining":`, o.Remaining)
		case fieldReset:
			b = appendNumber(b, `,"resetSeconds":`, o.ResetSeconds)
		}
	}
	if !wait {
		b = appendNumber(b, `,"retryAfterSeconds":`, o.RetryAfterSeconds)
	}
	return append(b, '}')
}

// allFields is every member of the kind object besides "kind", in the
// order an object whose kind declares no fields writes them.
var allFields = []string{fieldCode, fieldMessage, fieldDetails, fieldHTTPStatus, fieldRetryAfter, fieldLimit, fieldRemaining, fieldReset}

func appendNumber(b []byte, member string, n *int64) []byte {
	if n == nil {
		return b
	}
	b = append(b, member...)
	return strconv.AppendInt(b, *n, 10)
}

func (o *Object) appendDetails(b []byte) []byte {
	if len(o.Details) == 0 {
		return b
	}
	n := len(b)
	buf := bytes.NewBuffer(append(b, `,"details":`...))
	if json.Compact(buf, o.Details) != nil {
		return b[:n] // details that are not JSON are left out rather than corrupt the object
	}
	return buf.Bytes()
}

const hex = "0123456789abcdef"

// appendString appends s as a JSON string. Unlike encoding/json it leaves
// <, > and & as they are; invalid UTF-8 becomes U+FFFD, and U+2028 and
// U+2029 are escaped so the text is safe in JavaScript too.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

//go:embed kindobject.schema.json
var objectSchema []byte

// ObjectSchema returns the JSON Schema (2020-12) of the kind object, the
// text of kindobject.schema.json in this package's directory, for a tool's
// outputSchema or a client's validation. Each call returns a fresh copy.
func ObjectSchema() json.RawMessage {
	return append(json.RawMessage(nil), objectSchema...)
}

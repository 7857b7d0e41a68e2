package envelope

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/ratelimit"
)

// Error is a kind-tagged failure of an upstream call: what [Reader.Read] and
// [Reader.Do] return when the response is not the caller's data. Every field
// but Kind is optional. errors.As finds it through any wrapping, and its
// MarshalJSON writes the JSON kind object an agent reads (see
// [Error.MarshalJSON]).
//
// No field holds a credential the request carried: Reader removes the
// values of the request's secret headers (Authorization, by default; see
// Reader.SecretHeaders) from everything it copies out of a response or an
// error.
type Error struct {
	Kind       errkind.Kind    // what the agent branches on; "" reads, prints and marshals as server_error
	Code       string          // the upstream's own code ("trace_not_found"), "" when it sent none
	Message    string          // the upstream's message, or the client's sentence for malformed_response and network_error
	Details    json.RawMessage // the upstream's details, as sent; nil when it sent none
	HTTPStatus int             // the response's status; 0 when no response exists

	// RetryAfter is how long to wait before retrying, when a wait is known:
	// the response's Retry-After, whatever the kind; for a rate_limited
	// error without one, the envelope's retry-after member, the reset of an
	// exhausted window, or ratelimit.DefaultRetryAfter (see Reader.Read).
	// Zero means no wait is known.
	RetryAfter time.Duration

	// RateLimit holds the X-RateLimit-* figures when the response carried
	// them; nil otherwise.
	RateLimit *ratelimit.Limits

	// Body is the JSON error body as sent (redacted): the envelope or any
	// other error shape Reader.Read reads, for members the Error does not
	// carry, such as a credit API's credits figures or a request id. nil
	// when the error was not read from a JSON body (a body that is not
	// JSON, over the bound or unreadable, a malformed_response, a network
	// error).
	Body json.RawMessage

	// Header is the header of the upstream's response (not the request's),
	// so a caller can reclassify on a field such as X-Maintenance-Mode
	// without reading the response again; nil when no response exists.
	// Fields that carry credentials are left out: Set-Cookie, and any of
	// the Reader's SecretHeaders the upstream echoed back; the request's
	// credentials are redacted from the other values. When nothing had to
	// be left out or redacted, Header is the response's own map: treat it
	// as read-only. MarshalJSON never writes it.
	Header http.Header `json:"-"`

	// Err is the underlying cause, if any: the network error of a request
	// that threw, the read error, the decode or shape error of a
	// malformed_response. Its text is redacted of the request's credentials.
	Err error
}

// Error returns "kind: code: message", leaving out the parts that are empty,
// followed by the cause when there is one the message does not already
// include. An Error with neither code nor message names its status
// ("server_error: HTTP 502"); a zero Error prints "server_error".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(string(e.kind()))
	for _, s := range []string{e.Code, e.Message} {
		if s != "" {
			b.WriteString(": ")
			b.WriteString(s)
		}
	}
	if e.Code == "" && e.Message == "" && e.HTTPStatus != 0 {
		b.WriteString(": HTTP ")
		b.WriteString(strconv.Itoa(e.HTTPStatus))
	}
	if e.Err != nil {
		if cause := e.Err.Error(); !strings.Contains(e.Message, cause) {
			b.WriteString(": ")
			b.WriteString(cause)
		}
	}
	return b.String()
}

// kind is e's Kind, with the empty kind read as server_error: the kind the
// Reader gives a failure it cannot name, and the kind wire.ErrorResult gives an
// error that holds no *Error.
func (e *Error) kind() errkind.Kind {
	if e.Kind == "" {
		return errkind.ServerError
	}
	return e.Kind
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is an *Error whose non-empty Kind and Code
// equal e's, so a test or a caller can write
//
//	errors.Is(err, &envelope.Error{Kind: errkind.NotFound})
//	errors.Is(err, &envelope.Error{Kind: errkind.NotFound, Code: "trace_not_found"})
//
// without comparing strings. Only Kind and Code take part: a target's
// Message, HTTPStatus and other fields are ignored, and a target with
// neither matches every *Error. errors.Is also looks past an *Error into
// its cause (Err): a sentinel such as [ErrTooLarge] or
// context.DeadlineExceeded.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	if !ok {
		return false
	}
	return (t.Kind == "" || t.Kind == e.kind()) && (t.Code == "" || t.Code == e.Code)
}

// ErrTooLarge is the cause (Error.Err) of the malformed_response a Reader
// returns for a body over its MaxBytes bound, so a caller can tell "too
// large" from "malformed" with errors.Is(err, envelope.ErrTooLarge).
var ErrTooLarge = errors.New("response body too large")

// KindOf returns the kind wire.ErrorResult renders err as: the kind of the
// first *Error in err's chain, server_error for an err that holds none (or
// an *Error with no kind), and "" only for a nil err.
func KindOf(err error) errkind.Kind {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.kind()
	}
	return errkind.ServerError
}

// MarshalJSON writes the JSON kind object: "kind" first, then the fields
// errkind's table lists for that kind, in its order and with its names,
// leaving out the ones that are empty:
//
//	authentication_failed, network_error: message
//	not_found, invalid_arguments: code, message, details
//	rate_limited: retryAfterSeconds, limit, remaining, resetSeconds
//	server_error: code, httpStatus, message
//	malformed_response: httpStatus, message
//
// Any other kind writes code, message, details, httpStatus,
// retryAfterSeconds, limit, remaining, resetSeconds, each when set. An
// empty Kind is written as server_error.
//
// A known wait is never dropped: every kind whose list lacks
// retryAfterSeconds writes it last when RetryAfter is set. rate_limited
// always writes it: a RetryAfter of zero (a hand-built Error) is written as
// the 60 seconds the read path reports when the upstream gave no wait
// (ratelimit.DefaultRetryAfter), never as 0, which would tell an agent to
// retry at once. Seconds are whole and rounded up, so an agent never waits
// too little.
func (e *Error) MarshalJSON() ([]byte, error) {
	return e.appendJSON(make([]byte, 0, 128+len(e.Message)+len(e.Details))), nil
}

func (e *Error) appendJSON(b []byte) []byte {
	b = append(b, `{"kind":`...)
	b = appendString(b, string(e.kind()))
	switch e.kind() {
	case errkind.AuthenticationFailed, errkind.NetworkError:
		b = e.appendMessage(b)
		b = e.appendWait(b)
	case errkind.NotFound, errkind.InvalidArguments:
		b = e.appendCode(b)
		b = e.appendMessage(b)
		b = e.appendDetails(b)
		b = e.appendWait(b)
	case errkind.RateLimited:
		b = e.appendRate(b, true)
	case errkind.ServerError:
		b = e.appendCode(b)
		b = e.appendStatus(b)
		b = e.appendMessage(b)
		b = e.appendWait(b)
	case errkind.MalformedResponse:
		b = e.appendStatus(b)
		b = e.appendMessage(b)
		b = e.appendWait(b)
	default:
		b = e.appendCode(b)
		b = e.appendMessage(b)
		b = e.appendDetails(b)
		b = e.appendStatus(b)
		b = e.appendRate(b, false)
	}
	return append(b, '}')
}

// appendWait writes retryAfterSeconds for a kind whose field list lacks
// it, when a wait is known.
func (e *Error) appendWait(b []byte) []byte {
	if e.RetryAfter <= 0 {
		return b
	}
	b = append(b, `,"retryAfterSeconds":`...)
	return strconv.AppendInt(b, ceilSeconds(e.RetryAfter), 10)
}

func (e *Error) appendCode(b []byte) []byte {
	if e.Code == "" {
		return b
	}
	b = append(b, `,"code":`...)
	return appendString(b, e.Code)
}

func (e *Error) appendMessage(b []byte) []byte {
	if e.Message == "" {
		return b
	}
	b = append(b, `,"message":`...)
	return appendString(b, e.Message)
}

func (e *Error) appendDetails(b []byte) []byte {
	if len(e.Details) == 0 {
		return b
	}
	n := len(b)
	b = append(b, `,"details":`...)
	var buf bytes.Buffer
	if json.Compact(&buf, e.Details) != nil {
		return b[:n] // details that are not JSON are left out rather than corrupt the object
	}
	return append(b, buf.Bytes()...)
}

func (e *Error) appendStatus(b []byte) []byte {
	if e.HTTPStatus == 0 {
		return b
	}
	b = append(b, `,"httpStatus":`...)
	return strconv.AppendInt(b, int64(e.HTTPStatus), 10)
}

func (e *Error) appendRate(b []byte, always bool) []byte {
	if wait := e.RetryAfter; always || wait > 0 {
		if wait <= 0 {
			wait = ratelimit.DefaultRetryAfter
		}
		b = append(b, `,"retryAfterSeconds":`...)
		b = strconv.AppendInt(b, ceilSeconds(wait), 10)
	}
	if l := e.RateLimit; l != nil {
		if l.HasLimit {
			b = append(b, `,"limit":`...)
			b = strconv.AppendInt(b, l.Limit, 10)
		}
		if l.HasRemaining {
			b = append(b, `,"remaining":`...)
			b = strconv.AppendInt(b, l.Remaining, 10)
		}
		if l.HasReset {
			b = append(b, `,"resetSeconds":`...)
			b = strconv.AppendInt(b, ceilSeconds(l.Reset), 10)
		}
	}
	return b
}

func ceilSeconds(d time.Duration) int64 {
	if d <= 0 {
		return 0
	}
	s := int64(d / time.Second)
	if d%time.Second != 0 {
		s++
	}
	return s
}

const hex = "0123456789abcdef"

// appendString appends s as a JSON string. Unlike encoding/json it leaves
// <, > and & as they are, so the text an agent reads stays readable; invalid
// UTF-8 becomes U+FFFD.
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

package envelope

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/ratelimit/header"
	"github.com/mcperr/mcperr/wire"
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
	// the longest the response speaks of, whatever the kind (Retry-After
	// and its millisecond fields, the body's own wait); for a rate_limited
	// error also the reset of an exhausted window, and at least
	// header.DefaultRetryAfter when the response asked for no delay (see
	// Reader.Read). Zero means no wait is known.
	RetryAfter time.Duration

	// RateLimit holds the X-RateLimit-* figures when the response carried
	// them; nil otherwise.
	RateLimit *header.Limits

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
	// that threw; for a malformed_response, the read error (which is
	// ErrBodyRead to errors.Is), ErrBodyTooLarge, or the decode or shape error.
	// Its text is redacted of the request's credentials.
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

// Unwrap returns the underlying cause; nil for a nil *Error, so that
// errors.As can walk past a typed nil.
func (e *Error) Unwrap() error {
	if e == nil {
		return nil
	}
	return e.Err
}

// Is reports whether target is an *Error whose non-empty Kind and Code
// equal e's, so a test or a caller can write
//
//	errors.Is(err, &envelope.Error{Kind: errkind.NotFound})
//	errors.Is(err, &envelope.Error{Kind: errkind.NotFound, Code: "trace_not_found"})
//
// without comparing strings. Only Kind and Code take part: a target's
// Message, HTTPStatus and other fields are ignored, and a target with
// neither matches every *Error. errors.Is also looks past an *Error into
// its cause (Err): a sentinel such as [ErrBodyTooLarge] or
// context.DeadlineExceeded.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	if !ok {
		return false
	}
	return (t.Kind == "" || t.Kind == e.kind()) && (t.Code == "" || t.Code == e.Code)
}

// ErrBodyTooLarge is the cause (Error.Err) of the malformed_response a Reader
// returns for a body over its MaxBytes bound, so a caller can tell "too
// large" from "malformed" with errors.Is(err, envelope.ErrBodyTooLarge).
var ErrBodyTooLarge = errors.New("response body too large")

// ErrBodyRead is the cause (Error.Err) of the malformed_response a Reader
// returns when the body could not be read to its end (the connection
// broke, or a deadline passed, while reading), so a caller can tell a
// failed read from a body that was read and is not JSON with
// errors.Is(err, envelope.ErrBodyRead). The read's own error stays in the
// chain beneath it, for errors.Is and errors.As.
var ErrBodyRead = errors.New("could not read the response body")

// KindOf returns the kind wire.ErrorResult renders err as, read from that
// result as an agent reads it (errkind.Read), so the two agree by
// construction: the kind object of the first wire.Renderer (with content) or
// wire.KindError in err's chain (an *Error is one, a server's own error type
// can be another); server_error for an err that holds neither, or whose
// result states no kind; and "" only for a nil err.
func KindOf(err error) errkind.Kind {
	if err == nil {
		return ""
	}
	var text strings.Builder
	for i, c := range wire.ErrorResult(err).Content {
		if i > 0 {
			text.WriteByte('\n')
		}
		text.WriteString(c.Text)
	}
	if k := errkind.Read(errkind.Outcome{IsError: true, Text: text.String()}).Kind; k != "" {
		return k
	}
	return errkind.ServerError
}

// Object returns e's JSON kind object as values: e's kind (server_error
// when empty), code, message, details and status; the wait in whole
// seconds, rounded up so an agent never waits too little; and the
// X-RateLimit-* figures the response gave. A rate_limited Error always
// carries a wait: a RetryAfter of zero (a hand-built Error) is given as the
// wait the read path reports when the upstream gave none
// (header.DefaultRetryAfter), never as 0, which would tell an agent to
// retry at once. A nil *Error gives the zero Error's object.
//
// A server whose taxonomy declares its own members for a kind writes the
// object in that layout:
//
//	o := e.Object()
//	text := o.AppendJSON(nil, tax.Advise(o.Kind).Fields)
func (e *Error) Object() errkind.Object {
	if e == nil {
		return errkind.Object{Kind: errkind.ServerError}
	}
	o := errkind.Object{Kind: e.kind(), Code: e.Code, Message: e.Message, Details: e.Details, HTTPStatus: e.HTTPStatus}
	var n [4]int64 // one allocation for every number the object carries
	if wait := e.RetryAfter; wait > 0 || o.Kind == errkind.RateLimited {
		if wait <= 0 {
			wait = header.DefaultRetryAfter
		}
		n[0] = ceilSeconds(wait)
		o.RetryAfterSeconds = &n[0]
	}
	if l := e.RateLimit; l != nil {
		if l.HasLimit {
			n[1] = l.Limit
			o.Limit = &n[1]
		}
		if l.HasRemaining {
			n[2] = l.Remaining
			o.Remaining = &n[2]
		}
		if l.HasReset {
			n[3] = ceilSeconds(l.Reset)
			o.ResetSeconds = &n[3]
		}
	}
	return o
}

// MarshalJSON writes e's kind object ([Error.Object]) in the layout the
// standard taxonomy declares for its kind (see errkind's Advice.Fields):
// "kind" first, then these members, in this order, each when it is set:
//
//	invalid_arguments, permission_denied,
//	not_found, conflict:                   code, message, details
//	authentication_failed, network_error:  message
//	rate_limited:                          retryAfterSeconds, limit, remaining, resetSeconds
//	unavailable:                           code, httpStatus, message, retryAfterSeconds
//	server_error:                          code, httpStatus, message
//	malformed_response:                    httpStatus, message
//
// Any other kind writes code, message, details, httpStatus,
// retryAfterSeconds, limit, remaining, resetSeconds, each when set. A known
// wait is never dropped: a kind whose list lacks retryAfterSeconds writes
// it last when a wait is known. Strings keep <, > and & as they are.
func (e *Error) MarshalJSON() ([]byte, error) {
	return e.AppendKindObject(make([]byte, 0, 128+len(e.Message)+len(e.Details))), nil
}

// AppendKindObject appends e's JSON kind object to b, the bytes MarshalJSON
// returns; it makes *Error a wire.KindError, so wire.ErrorResult renders it
// with the same bytes. A nil *Error writes the object of the zero Error.
func (e *Error) AppendKindObject(b []byte) []byte {
	o := e.Object()
	// A nil Taxonomy advises as errkind.Standard does: its Fields are the
	// standard layout, nil (every member) for a kind it does not know.
	return o.AppendJSON(b, (*errkind.Taxonomy)(nil).Advise(o.Kind).Fields)
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

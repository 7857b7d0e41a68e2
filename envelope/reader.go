package envelope

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/ratelimit/header"
)

// DefaultMaxBytes is the body size bound of a Reader whose MaxBytes is zero.
const DefaultMaxBytes = 10 << 20

// A Reader turns upstream HTTP responses into the caller's data or an
// *Error. Its zero value is ready to use: http.DefaultClient, the [errkind.Standard]
// taxonomy, the nested envelope {"error":{"code","message","details"}}, the
// error bodies public APIs send (see [Reader.Read]) and a 10 MiB bound. A Reader is safe for concurrent use as long as its fields
// are not changed.
type Reader struct {
	// Client sends the requests of Do; nil means http.DefaultClient.
	Client *http.Client

	// Taxonomy classifies error envelopes; nil means errkind.Standard's.
	Taxonomy *errkind.Taxonomy

	// MaxBytes bounds the body read; 0 means DefaultMaxBytes. A larger body
	// is a malformed_response, never a truncated parse.
	MaxBytes int64

	// Envelope is the shape of the upstream's error body; the zero value is
	// NestedShape's.
	Envelope Shape

	// SecretHeaders are the request headers whose values never appear in an
	// Error; nil means Authorization, Proxy-Authorization and X-Api-Key.
	SecretHeaders []string

	// Now reports the current time, used to measure a Retry-After date and
	// an X-RateLimit-Reset epoch; nil means time.Now.
	Now func() time.Time
}

// Shaper is implemented by success types that can tell whether a decoded
// body really is their shape. Read calls CheckShape on the decoded value
// (when it implements Shaper). Below status 400 a non-nil error is a
// malformed_response: "matched neither the error envelope nor the expected
// shape". At 400 and above, a nil error makes the body data (a 503 health
// body that says "degraded"), and a non-nil one makes it the upstream's
// error. JSON ignores unknown members, so without a Shaper any JSON object
// that is not an error shape decodes into a struct below 400, and none is
// data at 400 and above.
type Shaper interface {
	CheckShape() error
}

// Shape describes an upstream's own error envelope: a body whose top-level
// object has the member Key holding an object (nested) or a string (flat)
// is an error at any status. Empty member names take their defaults. The
// other error bodies a Reader knows (see [Reader.Read]) need no Shape.
type Shape struct {
	// Key is the top-level member that marks an error body; "" means "error".
	Key string

	// Flat says the members sit beside Key at the top level and Key holds a
	// string, as in {"error":"insufficient credits","code":"...","detail":"..."};
	// otherwise they sit inside Key's object.
	Flat bool

	// Code names the member holding the upstream's code; "" means "code".
	Code string

	// Message names the member holding the message; "" means "message"
	// in a nested shape and Key's own string in a flat one.
	Message string

	// Details names the member holding the details; "" means "details" in
	// a nested shape and "detail" in a flat one.
	Details string

	// RetryAfter, when set, names a member holding the seconds to wait
	// before retrying (such as "retry_after_secs"). The Retry-After
	// header wins over it.
	RetryAfter string
}

// NestedShape is the envelope {"error":{"code","message","details"}} that
// most APIs send; it is what the zero Shape means.
func NestedShape() Shape {
	return Shape{Key: "error", Code: "code", Message: "message", Details: "details"}
}

// FlatShape is the flat REST error body some APIs send instead:
// {"error":"<message>","code":"<code>","detail":...,"retry_after_secs":N,...}.
func FlatShape() Shape {
	return Shape{Key: "error", Flat: true, Code: "code", Details: "detail", RetryAfter: "retry_after_secs"}
}

// resolved is a Shape with its defaults filled in.
type resolved struct {
	Shape
	quotedKey []byte
	fast      int // fastNested, fastFlat, or 0 for the generic decode
}

const (
	fastNested = 1 + iota
	fastFlat
)

var quotedError = []byte(`"error"`)

// nestedResolved is the zero Shape resolved; read only.
var nestedResolved = NestedShape().fill()

func (s Shape) resolve() resolved {
	if s == (Shape{}) {
		return nestedResolved // the zero Reader's shape, resolved once
	}
	return s.fill()
}

// fill is resolve's work: the defaults filled in, the fast path chosen.
func (s Shape) fill() resolved {
	r := resolved{Shape: s}
	if r.Key == "" {
		r.Key = "error"
	}
	if r.Code == "" {
		r.Code = "code"
	}
	if r.Message == "" && !r.Flat {
		r.Message = "message"
	}
	if r.Details == "" {
		r.Details = "details"
		if r.Flat {
			r.Details = "detail"
		}
	}
	if r.Key == "error" {
		r.quotedKey = quotedError
	} else {
		r.quotedKey = []byte(strconv.Quote(r.Key))
	}
	switch {
	case r.Key == "error" && !r.Flat && r.Code == "code" && r.Message == "message" && r.Details == "details" && r.RetryAfter == "":
		r.fast = fastNested
	case r.Key == "error" && r.Flat && r.Code == "code" && r.Message == "" && r.Details == "detail" &&
		(r.RetryAfter == "" || r.RetryAfter == "retry_after_secs"):
		r.fast = fastFlat
	}
	return r
}

// Read reads and closes resp's body and decodes it into v (a pointer, as
// for json.Unmarshal; nil discards the body after checking it is JSON), or
// returns an *Error classified by the taxonomy. Error or data is decided
// by the body's shape, and by the status only where the shape leaves it
// open:
//
//   - At any status, these bodies are errors: the configured envelope
//     (by default {"error":{...}}, whose code is its "code" member, a string
//     or a number, else its "status" name or "type"); {"ok": false, ...};
//     and a GraphQL response whose errors array is non-empty while data is
//     absent, null or all nulls (code from the first error's
//     extensions.code, else its type; message from its message).
//   - At a status of 400 or more, any other JSON body is an error too,
//     unless v is a [Shaper] whose check accepts it (a 503 health body
//     {"status":"degraded"}; never on a 429). Its code and message are the
//     upstream's own, read in the common dialects: RFC 9457 problem
//     details (detail, else title), {"message":...}, {"errors":[...]},
//     OAuth 2's error and error_description, Kubernetes Status, Jira's
//     errorMessages, AWS's __type.
//   - Headers decide when the body cannot: a 429, or a 403 that carries
//     Retry-After, X-RateLimit-Remaining: 0 or a RateLimit field with
//     nothing left, is rate_limited; a 503 with Retry-After is unavailable;
//     each whatever its body says (unless its code names a kind the status
//     alone would not give) and even when the body is not JSON.
//   - Any other body of a status below 400 is data.
//
// The error carries the status, the upstream's details, and a wait
// (RetryAfter) whenever one is known: Retry-After, whatever the kind; for
// a rate_limited error without it, a retry-after member of the envelope,
// else (except on a 429) the reset of an exhausted window, else 60
// seconds. X-RateLimit-* figures go into RateLimit.
//
// A body that cannot be read, is over the bound, is not JSON (with no
// telling header), or on a status below 400 decodes into neither an error
// shape nor v (or fails v's [Shaper] check) is an *Error of kind
// malformed_response whose message is the client's own sentence, such as
// "response body is not valid JSON (status 502)". A 204, 205 or 304 with
// an empty body leaves v as it is and returns nil.
//
// The body is read once, within the bound. A success body that mentions
// none of the keys "error", "errors" and "ok" (and the envelope's key) is
// decoded straight into v, with no further work; one that mentions one is
// scanned once at its top level first.
func (r *Reader) Read(resp *http.Response, v any) error {
	if resp == nil {
		return &Error{Kind: errkind.NetworkError, Message: "no response"}
	}
	return r.read(resp, v, resp.Request, nil)
}

// ReadRaw is [Reader.Read] that also returns the body it read, as the
// upstream sent it, for a caller that passes the bytes on or counts them.
// The error is Read's. body is the caller's own copy, not redacted (Read
// redacts what it copies into an *Error, not the body a caller asks
// for); it is nil for a nil resp, and when the body could not be read
// whole: the error's cause is then [ErrBodyRead] or [ErrBodyTooLarge].
func (r *Reader) ReadRaw(resp *http.Response, v any) (body []byte, err error) {
	if resp == nil {
		return nil, r.Read(resp, v)
	}
	err = r.read(resp, v, resp.Request, &body)
	return body, err
}

// Do sends req with the Reader's Client and reads the response as Read does.
// A request that fails before a response exists (a refused connection, a DNS
// failure, a timeout or a cancelled context) is an *Error of kind
// network_error whose message is the failure's text with credentials
// removed; errors.Is still finds context.DeadlineExceeded in it.
func (r *Reader) Do(req *http.Request, v any) error {
	client := r.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		err = redactError(err, secretsOf(req, r.SecretHeaders))
		return &Error{Kind: errkind.NetworkError, Message: err.Error(), Err: err}
	}
	return r.read(resp, v, req, nil)
}

// read is Read and Do; a non-nil raw receives a copy of the body read.
func (r *Reader) read(resp *http.Response, v any, req *http.Request, raw *[]byte) error {
	status := resp.StatusCode
	buf, err := r.readBody(resp)
	if err != nil {
		return r.finish(err.(*Error), resp, req)
	}
	body := *buf
	if raw != nil {
		*raw = append([]byte{}, body...)
	}
	// Nothing keeps body once read returns (json.Unmarshal copies what it
	// keeps, and an Error keeps a copy), so buf goes back to the pool.
	defer putBuffer(buf)
	if len(body) == 0 && (status == http.StatusNoContent || status == http.StatusResetContent || status == http.StatusNotModified) {
		return nil
	}
	shape := r.Envelope.resolve()
	failed := status >= 400
	// A success body pays for the error shapes only when it mentions one
	// of their keys; then one pass over its top level decides.
	if failed || mentionsErrorKey(body, &shape) {
		e, err := r.errorShape(&shape, body, status)
		if err != nil {
			return r.finish(malformed(status, err, body), resp, req)
		}
		if e != nil {
			return r.finish(r.classify(e, resp.Header), resp, req)
		}
	}
	if failed {
		return r.failed(body, v, resp, req)
	}
	if v == nil {
		if !json.Valid(body) {
			return r.finish(notJSON(status, nil), resp, req)
		}
		return nil
	}
	if err := json.Unmarshal(body, v); err != nil {
		return r.finish(malformed(status, err, body), resp, req)
	}
	if s, ok := v.(Shaper); ok {
		if err := s.CheckShape(); err != nil {
			return r.finish(neither(status, err), resp, req)
		}
	}
	return nil
}

var (
	quotedOK     = []byte(`"ok"`)
	quotedErrors = []byte(`"errors"`)
	errorPrefix  = []byte(`"error`)
)

// mentionsErrorKey reports whether body holds, anywhere, a key that could
// make it an error shape: the envelope's key, "errors" or "ok". Most
// success bodies hold none, and skip the top-level scan.
func mentionsErrorKey(body []byte, s *resolved) bool {
	if s.Key == "error" {
		// `"error` finds "error" and "errors" in one search.
		return bytes.Contains(body, errorPrefix) || bytes.Contains(body, quotedOK)
	}
	return bytes.Contains(body, s.quotedKey) || bytes.Contains(body, quotedErrors) || bytes.Contains(body, quotedOK)
}

// errorShape reads body when its top level is an error at any status: the
// configured envelope, {"ok": false, ...}, or a GraphQL response that
// failed as a whole. It returns nil, nil for any other body. The Error's
// Kind is left for classify.
func (r *Reader) errorShape(s *resolved, body []byte, status int) (*Error, error) {
	start := byte('{')
	if s.Flat {
		start = '"'
	}
	top := scanTop(body, s.Key, start)
	if len(top.env) > 0 && top.env[0] == start {
		return r.decodeEnvelope(s, body, status)
	}
	var d dialect
	switch {
	case string(top.ok) == "false":
		m, err := decodeTop(body)
		if err != nil {
			return nil, err
		}
		d = readDialect(m)
	case top.graphQLFailed():
		if !json.Valid(body) {
			return nil, errNotJSON
		}
		d = graphQLError(top.errors)
	default:
		return nil, nil
	}
	return &Error{HTTPStatus: status, Code: d.code, Message: d.message, Details: d.details, Body: bytes.Clone(body)}, nil
}

var errNotJSON = errors.New("invalid JSON")

// decodeTop decodes body as a JSON object.
func decodeTop(body []byte) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, err
	}
	return m, nil
}

// failed reads the body of a status of 400 or more that is no error shape
// of errorShape. A body v's type accepts (a Shaper whose check passes) is
// data, except on a 429. Any other JSON body is an error in one of the
// common dialects (see readDialect), classified by its code and the
// status. A body that is not JSON is an error only when the headers tell
// what happened (see telling); otherwise it is malformed_response.
func (r *Reader) failed(body []byte, v any, resp *http.Response, req *http.Request) error {
	status := resp.StatusCode
	// An object is decoded (which checks it is JSON) once; anything else
	// is only checked.
	var m map[string]json.RawMessage
	var valid bool
	if i := skipSpace(body, 0); i < len(body) && body[i] == '{' {
		var err error
		m, err = decodeTop(body)
		valid = err == nil
	} else {
		valid = json.Valid(body)
	}
	if !valid {
		if k := r.telling(resp.Header, status); k != "" {
			e := &Error{Kind: k, HTTPStatus: status, Message: plainMessage(resp.Header, body)}
			return r.finish(e, resp, req)
		}
		return r.finish(notJSON(status, nil), resp, req)
	}
	if sh, ok := v.(Shaper); ok && status != http.StatusTooManyRequests {
		if json.Unmarshal(body, v) == nil && sh.CheckShape() == nil {
			return nil
		}
	}
	d := readDialect(m) // a nil map (an array, a string...) names nothing
	e := &Error{HTTPStatus: status, Code: d.code, Message: d.message, Details: d.details, Body: bytes.Clone(body)}
	return r.finish(r.classify(e, resp.Header), resp, req)
}

// classify sets e's kind from its code and status. When the headers tell
// what happened (see telling) and the code says nothing more than the
// status does, the headers decide.
func (r *Reader) classify(e *Error, h http.Header) *Error {
	e.Kind = r.Taxonomy.Classify(e.Code, e.HTTPStatus)
	if k := r.telling(h, e.HTTPStatus); k != "" && (e.Code == "" || e.Kind == r.Taxonomy.Classify("", e.HTTPStatus)) {
		e.Kind = k
	}
	return e
}

// telling returns the kind the headers of a response with this status
// give, whatever its body: rate_limited for a 429, and for a 403 that
// carries Retry-After, X-RateLimit-Remaining: 0 or a RateLimit field with
// nothing left; unavailable for a 503 that carries Retry-After. Otherwise
// "".
func (r *Reader) telling(h http.Header, status int) errkind.Kind {
	switch status {
	case http.StatusTooManyRequests:
		return errkind.RateLimited
	case http.StatusForbidden:
		if len(h["Retry-After"]) == 0 && !hasRateFields(h) {
			return ""
		}
		info := header.Parse(h, r.now())
		if info.HasRetryAfter || info.Limits.HasRemaining && info.Limits.Remaining == 0 {
			return errkind.RateLimited
		}
	case http.StatusServiceUnavailable:
		if len(h["Retry-After"]) == 0 {
			return ""
		}
		if _, ok := header.RetryAfter(h, r.now()); ok {
			return errkind.Unavailable
		}
	}
	return ""
}

func (r *Reader) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

// bufferPool holds read buffers of at most maxPooled bytes, so reading a
// success body costs no allocation beyond its decode. It is a cache, not
// state: nothing observable depends on it.
var bufferPool sync.Pool

const maxPooled = 256 << 10

func getBuffer(size int64) *[]byte {
	if p, ok := bufferPool.Get().(*[]byte); ok {
		if int64(cap(*p)) >= size {
			*p = (*p)[:0]
			return p
		}
		bufferPool.Put(p)
	}
	b := make([]byte, 0, size)
	return &b
}

func putBuffer(p *[]byte) {
	if c := cap(*p); c > 0 && c <= maxPooled {
		bufferPool.Put(p)
	}
}

// readBody reads resp.Body whole, within the bound, and closes it.
func (r *Reader) readBody(resp *http.Response) (*[]byte, error) {
	if resp.Body == nil || resp.Body == http.NoBody {
		return new([]byte), nil
	}
	defer resp.Body.Close()
	limit := r.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	if resp.ContentLength > limit {
		return nil, tooLarge(resp.StatusCode, limit)
	}
	size := int64(512)
	if resp.ContentLength > 0 {
		size = resp.ContentLength + 1 // +1 so io.EOF needs no second allocation
	}
	p := getBuffer(size)
	buf := *p
	for {
		n, err := resp.Body.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > limit {
			return nil, tooLarge(resp.StatusCode, limit)
		}
		if err == io.EOF {
			*p = buf
			return p, nil
		}
		if err != nil {
			return nil, &Error{Kind: errkind.MalformedResponse, HTTPStatus: resp.StatusCode,
				Message: fmt.Sprintf("could not read the response body (status %d): %v", resp.StatusCode, err), Err: readError{err}}
		}
		if len(buf) == cap(buf) {
			grow := min(int64(cap(buf)), limit+1-int64(cap(buf)))
			if grow <= 0 {
				grow = 1
			}
			buf = append(buf, make([]byte, grow)...)[:len(buf)]
		}
	}
}

func tooLarge(status int, limit int64) *Error {
	msg := fmt.Sprintf("response body is larger than the %d-byte limit (status %d)", limit, status)
	return &Error{Kind: errkind.MalformedResponse, HTTPStatus: status, Message: msg, Err: sentinel{msg, ErrBodyTooLarge}}
}

// readError is the cause of a body that could not be read: the read's
// own error, which errors.Is and errors.As find, that also is ErrBodyRead.
type readError struct{ err error }

func (e readError) Error() string        { return e.err.Error() }
func (e readError) Unwrap() error        { return e.err }
func (e readError) Is(target error) bool { return target == ErrBodyRead }

// sentinel is a cause that reads as the Error's own message (so Error()
// does not repeat it) and that errors.Is matches to a sentinel error.
type sentinel struct {
	msg string
	is  error
}

func (s sentinel) Error() string        { return s.msg }
func (s sentinel) Is(target error) bool { return target == s.is }

func notJSON(status int, err error) *Error {
	return &Error{Kind: errkind.MalformedResponse, HTTPStatus: status,
		Message: fmt.Sprintf("response body is not valid JSON (status %d)", status), Err: err}
}

func neither(status int, err error) *Error {
	return &Error{Kind: errkind.MalformedResponse, HTTPStatus: status,
		Message: fmt.Sprintf("response body matched neither the error envelope nor the expected shape (status %d)", status), Err: err}
}

// malformed picks the sentence for a failed decode: a syntax error (or an
// empty body) is "not valid JSON", anything else "matched neither".
func malformed(status int, err error, body []byte) *Error {
	var syn *json.SyntaxError
	if errors.As(err, &syn) || !json.Valid(body) {
		return notJSON(status, err)
	}
	return neither(status, err)
}

type nestedBody struct {
	Code    string          `json:"code"`
	Message string          `json:"message"`
	Details json.RawMessage `json:"details"`
}

type flatBody struct {
	Error          string          `json:"error"`
	Code           string          `json:"code"`
	Detail         json.RawMessage `json:"detail"`
	RetryAfterSecs *float64        `json:"retry_after_secs"`
}

// decodeEnvelope decodes the envelope body, whose top-level object has the
// Key member. The common envelope (a string code) is one json.Unmarshal of
// the body, which also checks that all of it is JSON; an envelope without
// a string code (a numeric code, a status name, a type) takes the generic
// path, a second decode into maps.
func (r *Reader) decodeEnvelope(s *resolved, body []byte, status int) (*Error, error) {
	// One allocation holds the Error and the decode target.
	x := &struct {
		e  Error
		nb struct {
			Error nestedBody `json:"error"`
		}
	}{}
	e, nb := &x.e, &x.nb
	e.HTTPStatus = status
	var retry *float64
	fast := s.fast
	switch fast {
	case fastNested:
		// The common envelope, a string code, decodes once; one without
		// a code (its status name or type may be the code) or with a
		// member of another type (a numeric code) takes the generic path.
		if err := json.Unmarshal(body, nb); err != nil {
			if isTypeError(err) {
				fast = 0
				break
			}
			return nil, err
		}
		if nb.Error.Code == "" {
			fast = 0
			break
		}
		n := &nb.Error
		e.Code, e.Message, e.Details = n.Code, n.Message, n.Details
	case fastFlat:
		var fb flatBody
		if err := json.Unmarshal(body, &fb); err != nil {
			if isTypeError(err) {
				fast = 0
				break
			}
			return nil, err
		}
		e.Code, e.Message, e.Details = fb.Code, fb.Error, fb.Detail
		if s.RetryAfter != "" {
			retry = fb.RetryAfterSecs
		}
	}
	if fast == 0 {
		top, err := decodeTop(body)
		if err != nil {
			return nil, err
		}
		members := top
		if !s.Flat {
			members = nil // a fresh map: the inner members only
			if err := json.Unmarshal(top[s.Key], &members); err != nil {
				return nil, err
			}
		}
		// A string code, else (nested) the code of the common dialects,
		// else a numeric code.
		e.Code, _ = stringOf(members[s.Code])
		if e.Code == "" && !s.Flat {
			e.Code = firstCode(members)
		}
		if e.Code == "" {
			e.Code, _ = numberOf(members[s.Code])
		}
		msgKey := s.Message
		if msgKey == "" {
			msgKey = s.Key
		}
		e.Message, _ = stringOf(members[msgKey])
		if e.Message == "" && !s.Flat {
			e.Message = readDialect(members).message
		}
		e.Details = members[s.Details]
		if s.RetryAfter != "" {
			if raw, ok := members[s.RetryAfter]; ok {
				var f float64
				if json.Unmarshal(raw, &f) == nil {
					retry = &f
				}
			}
		}
	}
	if string(e.Details) == "null" {
		e.Details = nil
	}
	e.Body = bytes.Clone(body)
	if retry != nil && *retry > 0 {
		e.RetryAfter = secondsToDuration(*retry)
	}
	return e, nil
}

// isTypeError reports whether err is a JSON value of the wrong type for
// its member, which sends an envelope to the generic decode.
func isTypeError(err error) bool {
	var te *json.UnmarshalTypeError
	return errors.As(err, &te)
}

func secondsToDuration(s float64) time.Duration {
	if s >= float64(header.MaxRetryAfter/time.Second) || math.IsNaN(s) {
		return header.MaxRetryAfter
	}
	return time.Duration(math.Ceil(s * float64(time.Second)))
}

// finish adds what the response's headers say about waiting and rate
// limits, and removes the request's credentials from everything e holds.
//
// The wait: Retry-After whenever the response carries one, whatever the
// kind. Without it, a rate_limited error (or any error of a 429) waits what
// its body said (a retry-after member) and otherwise 60 seconds; one that
// is not a 429 first tries the reset of an exhausted window
// (X-RateLimit-Remaining: 0 or a RateLimit field with nothing left). A 429
// without Retry-After keeps the 60 seconds even when a reset is given.
func (r *Reader) finish(e *Error, resp *http.Response, req *http.Request) error {
	h := resp.Header
	limited := resp.StatusCode == http.StatusTooManyRequests || e.Kind == errkind.RateLimited
	secrets := secretsOf(req, r.SecretHeaders)
	rate, clean := inspectHeader(h, r.SecretHeaders, secrets)
	if limited || rate || len(h["Retry-After"]) > 0 {
		info := header.Parse(h, r.now())
		switch {
		case info.HasRetryAfter:
			e.RetryAfter = info.RetryAfter
		case limited && e.RetryAfter == 0:
			if d, ok := info.Wait(); ok && resp.StatusCode != http.StatusTooManyRequests && d > 0 {
				e.RetryAfter = d
			} else {
				e.RetryAfter = header.DefaultRetryAfter
			}
		}
		if l := info.Limits; !l.IsZero() {
			e.RateLimit = &l
		}
	}
	if e.Kind == "" {
		e.Kind = errkind.ServerError
	}
	redact(e, secrets)
	e.Header = responseHeader(h, r.SecretHeaders, secrets, clean)
	return e
}

// hasRateFields reports whether h has a rate-limit field (see
// isRateField), so Parse is skipped for the many responses without one.
func hasRateFields(h http.Header) bool {
	for k := range h {
		if isRateField(k) {
			return true
		}
	}
	return false
}

// isRateField reports whether a field name starts with X-RateLimit or
// RateLimit, in any case.
func isRateField(k string) bool {
	return len(k) >= 9 && strings.EqualFold(k[:9], "ratelimit") ||
		len(k) >= 11 && strings.EqualFold(k[:11], "x-ratelimit")
}

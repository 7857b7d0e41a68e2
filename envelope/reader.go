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
	"github.com/mcperr/mcperr/ratelimit"
)

// DefaultMaxBytes is the body size bound of a Reader whose MaxBytes is zero.
const DefaultMaxBytes = 10 << 20

// A Reader turns upstream HTTP responses into the caller's data or an
// *Error. Its zero value is ready to use: http.DefaultClient, the [errkind.Standard]
// taxonomy, the nested envelope {"error":{"code","message","details"}} and a
// 10 MiB bound. A Reader is safe for concurrent use as long as its fields
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
// (when it implements Shaper) and reports a non-nil error as a
// malformed_response: "matched neither the error envelope nor the expected
// shape". JSON ignores unknown members, so without a Shaper any JSON object
// that is not the error envelope decodes into a struct.
type Shaper interface {
	CheckShape() error
}

// Shape describes an upstream's error body. Error or data is decided by
// whether the body's top-level object has the member Key holding an object
// (nested) or a string (flat). Empty member names take their defaults.
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

func (s Shape) resolve() resolved {
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

// Read reads and closes resp's body and decodes it. When the body is the
// error envelope, Read returns an *Error classified by the taxonomy, with the
// upstream's code, message and details, the status, and on a 429 (or any
// rate_limited kind) the Retry-After delay and X-RateLimit-* figures.
// Otherwise it decodes the body into v (a pointer, as for json.Unmarshal; nil
// discards the body after checking it is JSON) and returns nil, whatever the
// status: a 503 whose body is the expected shape is data.
//
// A body that cannot be read, is over the bound, is not JSON, or decodes into
// neither the envelope nor v (or fails v's [Shaper] check) is an *Error of
// kind malformed_response whose message is the client's own sentence, such
// as "response body is not valid JSON (status 502)". A 204 or 304 with an
// empty body leaves v as it is and returns nil.
//
// The body is read once and decoded once: a body that does not mention the
// envelope's key is decoded straight into v.
func (r *Reader) Read(resp *http.Response, v any) error {
	if resp == nil {
		return &Error{Kind: errkind.NetworkError, Message: "no response"}
	}
	return r.read(resp, v, resp.Request)
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
	return r.read(resp, v, req)
}

func (r *Reader) read(resp *http.Response, v any, req *http.Request) error {
	status := resp.StatusCode
	buf, err := r.readBody(resp)
	if err != nil {
		return r.finish(err.(*Error), resp, req)
	}
	body := *buf
	// Nothing keeps body once read returns (json.Unmarshal copies what it
	// keeps, and an Error keeps a copy), so buf goes back to the pool.
	defer putBuffer(buf)
	if len(body) == 0 && (status == http.StatusNoContent || status == http.StatusNotModified) {
		return nil
	}
	shape := r.Envelope.resolve()
	if bytes.Contains(body, shape.quotedKey) {
		if c, ok := topLevel(body, shape.Key); ok && ((shape.Flat && c == '"') || (!shape.Flat && c == '{')) {
			e, err := r.decodeEnvelope(&shape, body, status)
			if err != nil {
				return r.finish(malformed(status, err, body), resp, req)
			}
			return r.finish(e, resp, req)
		}
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
				Message: fmt.Sprintf("could not read the response body (status %d): %v", resp.StatusCode, err), Err: err}
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
	return &Error{Kind: errkind.MalformedResponse, HTTPStatus: status,
		Message: fmt.Sprintf("response body is larger than the %d-byte limit (status %d)", limit, status)}
}

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
// Key member. Each path is one json.Unmarshal of the body, which also checks
// that all of it is JSON.
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
	switch s.fast {
	case fastNested:
		if err := json.Unmarshal(body, nb); err != nil {
			return nil, err
		}
		e.Code, e.Message, e.Details = nb.Error.Code, nb.Error.Message, nb.Error.Details
	case fastFlat:
		var fb flatBody
		if err := json.Unmarshal(body, &fb); err != nil {
			return nil, err
		}
		e.Code, e.Message, e.Details = fb.Code, fb.Error, fb.Detail
		if s.RetryAfter != "" {
			retry = fb.RetryAfterSecs
		}
	default:
		var top map[string]json.RawMessage
		if err := json.Unmarshal(body, &top); err != nil {
			return nil, err
		}
		members := top
		if !s.Flat {
			members = nil // a fresh map: the inner members only
			if err := json.Unmarshal(top[s.Key], &members); err != nil {
				return nil, err
			}
		}
		var err error
		if e.Code, err = member(members, s.Code); err != nil {
			return nil, err
		}
		msgKey := s.Message
		if msgKey == "" {
			msgKey = s.Key
		}
		if e.Message, err = member(members, msgKey); err != nil {
			return nil, err
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
	e.Kind = r.Taxonomy.Classify(e.Code, status)
	if retry != nil && *retry > 0 {
		e.RetryAfter = secondsToDuration(*retry)
	}
	return e, nil
}

// member decodes the string member name of m; absent or null is "".
func member(m map[string]json.RawMessage, name string) (string, error) {
	raw, ok := m[name]
	if !ok || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("envelope member %q: %w", name, err)
	}
	return s, nil
}

func secondsToDuration(s float64) time.Duration {
	if s >= float64(ratelimit.MaxRetryAfter/time.Second) || math.IsNaN(s) {
		return ratelimit.MaxRetryAfter
	}
	return time.Duration(math.Ceil(s * float64(time.Second)))
}

// finish adds what the response's headers say about rate limits and removes
// the request's credentials from everything e holds.
func (r *Reader) finish(e *Error, resp *http.Response, req *http.Request) error {
	h := resp.Header
	limited := resp.StatusCode == http.StatusTooManyRequests || e.Kind == errkind.RateLimited
	if limited || hasRateHeaders(h) {
		now := time.Now
		if r.Now != nil {
			now = r.Now
		}
		t := now()
		if limited {
			if d, ok := ratelimit.RetryAfter(h, t); ok {
				e.RetryAfter = d
			} else if e.RetryAfter == 0 {
				e.RetryAfter = ratelimit.DefaultRetryAfter
			}
		}
		if l := ratelimit.Parse(h, t).Limits; !l.IsZero() {
			e.RateLimit = &l
		}
	}
	if e.Kind == "" {
		e.Kind = errkind.ServerError
	}
	secrets := secretsOf(req, r.SecretHeaders)
	redact(e, secrets)
	e.Header = responseHeader(h, r.SecretHeaders, secrets)
	return e
}

// hasRateHeaders reports whether h has a field whose name starts with
// X-RateLimit or RateLimit, in any case, so Parse is skipped for the many
// responses without one.
func hasRateHeaders(h http.Header) bool {
	for k := range h {
		if len(k) >= 9 && strings.EqualFold(k[:9], "ratelimit") ||
			len(k) >= 11 && strings.EqualFold(k[:11], "x-ratelimit") {
			return true
		}
	}
	return false
}

package envelope

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/internal/jsonscan"
	"github.com/mcperr/mcperr/ratelimit/header"
)

// defaultMaxBytes is the body size bound of a Reader whose MaxBytes is zero.
const defaultMaxBytes = 10 << 20

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

	// MaxBytes bounds the body read; 0 means 10 MiB. A larger body
	// is a malformed_response, never a truncated parse.
	MaxBytes int64

	// Envelope is the shape of the upstream's error body; the zero value is
	// the envelope most APIs send, {"error":{"code","message","details"}}.
	Envelope Shape

	// SecretHeaders are the request headers whose values never appear in an
	// Error; nil means Authorization, Proxy-Authorization and X-Api-Key.
	// The values of the fields whose names say they hold a credential
	// (Cookie, Api-Key, X-*-Key, *-Token, *-Secret, ...; see the package doc)
	// never appear either, whatever this list holds.
	SecretHeaders []string

	// Secrets are values that never appear in an Error, wherever the
	// request carried them: a key the API takes in a query parameter
	// whose name does not say so, or in the body. Each is replaced by
	// [REDACTED].
	Secrets []string

	// Writes are the methods whose requests may act on the upstream, so
	// that a failure after one was sent (no answer, or a gateway's 502 or
	// 504) is not safe to retry; nil means POST and PATCH. A request that
	// carries an Idempotency-Key is safe to retry whatever its method.
	// See [Reader.Do].
	Writes []string

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
	// before retrying (such as "retry_after_secs"). The longest wait the
	// response speaks of wins, this one or a header's.
	RetryAfter string
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
var nestedResolved = Shape{}.fill()

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
//     or a number, else its "status" name or "type"); a JSON-RPC error
//     response, classified through errkind's JSON-RPC catalogue (a code of
//     an implementation's own by the words of its message, else by the
//     HTTP status); a body whose error flag is up ({"ok": false},
//     {"success": false} in any writing, false, 0 or "False", and
//     "Response" for "success"; JSend's {"status": "error"} and
//     {"status": "fail"}, "stat" for "status", "status" false, "result"
//     "error"; "error" true or a number
//     other than 0 beside a message); a numeric "code" other than 0 and
//     than a success status beside a message and no data; a GraphQL response whose errors array is non-empty while
//     data is absent, null or all nulls; any other non-empty "errors" list
//     with no data (read as a REST error, which keeps the field at fault
//     and the code); a top-level "status" code word that names a failure
//     ("REQUEST_DENIED", "OVER_QUERY_LIMIT"; not a resource's, with an
//     "id"); an OAuth 2 error ({"error", "error_description"}); below 400,
//     a top-level status, result or error number in any case style that
//     says failed beside a message ({"Status": "Fail", "Message"},
//     {"errno": 1001, "errmsg"}, {"RetCode": 171, "Message"}; not beside
//     data or an "id"), a status number of the API's own other than 0 and
//     the 2xx statuses HTTP defines ({"status": 311, "message"}; not
//     beside a payload or a message that says it succeeded), or a message that is only the word for a
//     failure ({"message": "NOTOK", "result": "Invalid API Key"}), or a
//     wrapper whose only member says so; below 400, a failure status
//     (400 to 599) in an object of the body's own with no payload beside
//     it ({"meta": {"status_code": 401}, "body": ""}), and a batch whose
//     every item is an error ({"responses": [{"error": {...}}]}); a SOAP
//     or XML-RPC fault; and an XML element whose status, class or result
//     attribute says failed (<response status="error">,
//     ResponseClass="Error"), or whose success child is false or result
//     child says so (<success>false</success>, <FunctionResult>NOK).
//   - At a status of 400 or more, any other JSON body is an error too,
//     unless v is a [Shaper] whose check accepts it (a 503 health body
//     {"status":"degraded"}; never on a 429). Its code and message are the
//     upstream's own, read in the dialects public APIs use: RFC 9457
//     problem details, {"message"}, {"errors":[...]} (of objects or of
//     strings), OAuth 2, Kubernetes Status, Google's AIP-193 and v1 errors
//     (a numeric code that repeats the status yields to errors[0].reason),
//     Jira, AWS's __type, Okta, Dropbox's error_summary, a top-level array
//     of errors, and more (the table in dialect.go). Members are found by
//     what they hold wherever APIs put the error object ("error",
//     "errors", "fault", "detail", "meta", a nested error, OData's
//     "odata.error"; an "innererror" whose code is its own is the more
//     specific error): "error" is the code when it is a word and the
//     message when it is a sentence; a message that is a catalogue's key
//     ("error.validation") is a label a title or a detail replaces; a message may be a list of {loc,
//     msg}, an object {lang, value} or an error object, and names the field
//     at fault ("field: message"); a sentence or the status's phrase is no
//     code. Where those members are not, a code and a message are found by
//     what their names say, in any case style ("errorNum", "status_message",
//     "err code", "errorText", a name ending in "code"), in the error
//     object wherever a member named for an error holds it
//     ("requestError", "detailedError", "_error") or in a list of objects
//     with a message ("reasons"). A code that is an HTTP reason phrase
//     ("Unauthorized", "BadRequest") says no more than the status, which
//     decides. Where the code says nothing of its own (none, a number, a
//     catalogue's entry such as "API0005", a phrase), the message's words
//     name a refused credential, a limit or a permission at 400, 422 and
//     the other generic 4xx ("Invalid session token", "API token
//     invalid", "User not authorized for this query"), and a credential or
//     a limit at a 403 ("Invalid token", "Quota exceeded"); "not found" at
//     a 400 does not override the status, nor do any words a 402 or a 5xx,
//     nor a message that opens with its status. The words are read as the
//     Reader's Taxonomy reads their family's code word (rate_limited,
//     unauthenticated, permission_denied, not_found, already_exists).
//     A code that is an HTTP error status, in a
//     body below 400, is read as that status. A code that names a kind wins
//     over a generic status; a code that says no more than the status
//     yields to a later one of the body that
//     says to stop or wait (an ErrorInfo reason API_KEY_INVALID under
//     INVALID_ARGUMENT); a generic code never overrides a status that tells
//     more (429, 401, 403, 404, 502-504).
//   - At 400 and above, an XML error document (<Error><Code>NoSuchKey
//     </Code><Message>..., a SOAP <Fault>) is an error with its code and
//     message. A UTF-8 byte-order mark before a body says nothing, and JSON
//     is read as JSON whatever the Content-Type. A body
//     that is text, HTML or nothing says only its status: it is the kind
//     the taxonomy gives that status (with the code of an x-ms-error-code,
//     x-amzn-ErrorType or other X-...-Error-Code field, a one-line text as
//     the message, and the error and error_description of a
//     WWW-Authenticate challenge, RFC 6750's, which also fill in what a
//     JSON or XML body left out), unless that kind is server_error, which
//     leaves it a malformed_response. So a 502, 503 or 504 page is
//     unavailable, and a Cloudflare 52x is read as the 502 it stands for.
//   - Headers decide when the body cannot: a 429, or a 403 that carries
//     Retry-After, X-RateLimit-Remaining: 0 or a RateLimit field with
//     nothing left, is rate_limited; a 503 with Retry-After is unavailable;
//     each whatever its body says (unless its code names a kind the status
//     alone would not give).
//   - Any other body of a status below 400 is data; so is an empty one of
//     a 2xx or a 304, which leaves v as it is, unless its header carries a
//     gRPC status other than OK (gRPC-Web's trailers-only failure), which
//     is an error of that status's kind.
//
// The error carries the status, the upstream's details, and a wait
// (RetryAfter) whenever one is known: the longest the response speaks of,
// so an agent never comes back early. That is the longest of Retry-After
// (in seconds, decimal seconds or as a date), Retry-After-Ms,
// x-ms-retry-after-ms and the body's own (the envelope's retry-after
// member, retry_after, retryAfter, retry_after_ms, a "back off" with its
// unit and their kin wherever the error object is, in JSON or XML, google.rpc.RetryInfo in its google.rpc and Connect
// forms, a JSON-RPC error's data); for a
// rate_limited error, also the reset of a window with nothing remaining;
// and for a rate_limited error whose response asked for no delay, at least
// header.DefaultRetryAfter, or the reset when it is later. X-RateLimit-* figures go
// into RateLimit.
//
// A body that cannot be read, is over the bound, is broken JSON (with no
// telling header), or on a status below 400 decodes into neither an error
// shape nor v (or fails v's [Shaper] check) is an *Error of kind
// malformed_response whose message is the client's own sentence, such as
// "response body is not valid JSON (status 500)".
//
// The body is read once, within the bound. A success body that mentions
// none of the keys "error", "errors", "ok", "success", "Response",
// "stat", "result" and "code" (and the envelope's key) is decoded straight into v, with no further work; one
// that mentions one is scanned once at its top level first.
func (r *Reader) Read(resp *http.Response, v any) error {
	if resp == nil {
		return &Error{Kind: errkind.NetworkError, Message: "no response"}
	}
	return r.acted(r.read(resp, v, resp.Request, nil), resp.Request)
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
	return body, r.acted(err, resp.Request)
}

// Do sends req with the Reader's Client and reads the response as Read does.
// A request that fails before a response exists (a refused connection, a DNS
// failure, a timeout or a cancelled context) is an *Error of kind
// network_error whose message names the method and the host, never the
// URL's path or query, then the failure's text with credentials removed
// ("POST api.example.com: context deadline exceeded"); errors.Is still finds
// context.DeadlineExceeded in it.
//
// A request that may act (see Reader.Writes) and failed after it was sent
// (no answer came back once it was written, or a gateway answered 502 or
// 504) may have acted: its *Error says so and is not safe to retry (see
// [Reader.Read]). Read and ReadRaw mark a 502 or 504 to such a request, the
// response's, the same way.
func (r *Reader) Do(req *http.Request, v any) error {
	client := r.Client
	if client == nil {
		client = http.DefaultClient
	}
	sent := r.traceWrite(&req)
	resp, err := client.Do(req)
	if err != nil {
		return r.noAnswer(req, err, sent)
	}
	return r.acted(r.read(resp, v, req, nil), req)
}

// read is Read and Do; a non-nil raw receives a copy of the body read. It
// is the whole reading path, in the order a response is read: the body;
// the success that needs nothing more; what the headers say; the body's
// format (JSON through the dialect table, XML through its Error element,
// text, HTML or nothing by its status); the taxonomy; the wait and the
// redaction.
func (r *Reader) read(resp *http.Response, v any, req *http.Request, raw *[]byte) error {
	status := resp.StatusCode

	// The body, read once within the bound.
	buf, err := r.readBody(resp)
	if err != nil {
		hd := r.hear(resp, req)
		return r.finish(err.(*Error), &hd)
	}
	body := *buf
	if raw != nil {
		*raw = append([]byte{}, body...)
	}
	// A UTF-8 byte-order mark says nothing: the body is what follows it.
	body = bytes.TrimPrefix(body, utf8BOM)
	// Nothing keeps body once read returns (json.Unmarshal copies what it
	// keeps, and an Error keeps a copy), so buf goes back to the pool.
	defer putBuffer(buf)

	// A success that needs nothing more: an empty 2xx or 304, and a body
	// below 400 that mentions no key of an error shape, decoded into v.
	shape := r.Envelope.resolve()
	if status < 400 {
		// gRPC-Web sends a failure as headers and no body (trailers-only).
		grpc := len(body) == 0 && grpcFailed(resp.Header)
		if len(body) == 0 && (status/100 == 2 || status == http.StatusNotModified) && !grpc {
			return nil
		}
		if !grpc && !mentionsErrorKey(body, &shape) && formatOf(body) != formatMarkup {
			if err := decodeData(body, v); err != nil {
				hd := r.hear(resp, req)
				return r.finish(malformed(status, err, body), &hd)
			}
			return nil
		}
	}

	// What the headers say, whatever the body.
	hd := r.hear(resp, req)

	// The body's format.
	var e *Error
	var alts codes
	switch formatOf(body) {
	case formatJSON:
		if e, alts, err = r.readJSON(&shape, body, status, v); err != nil {
			if declaredText(resp.Header) && opensAsText(body) {
				// Text that opens with a bracket ("[ERROR 400] Invalid API
				// key"), sent as text: read as the text it says it is.
				e = nil
				break
			}
			// Broken JSON: only the headers can tell what happened.
			if hd.telling == "" {
				return r.finish(malformed(status, err, body), &hd)
			}
			e = &Error{HTTPStatus: status, Message: plainMessage(resp.Header, body, status)}
		} else if e == nil {
			return nil // data, decoded into v
		}
	case formatMarkup:
		// An XML error document, or below 400 one that is nothing but an
		// error (a root <Error>, a SOAP or XML-RPC fault).
		if code, msg, ok := readXML(body, status < 400); ok {
			if code == strconv.Itoa(status) {
				code = "" // the status again says nothing more
			}
			e = &Error{HTTPStatus: status, Code: code, Message: msg}
			if mentionsWaitName(body) {
				e.RetryAfter = xmlWait(body)
			}
			// A fault whose code the taxonomy does not know (soap:Server,
			// env:Client: only which side failed) and whose text opens
			// with a code word it knows (MS_UNAVAILABLE, "ALREADY_STARTED:
			// web") is of that word's kind.
			if w := leadingCodeWord(msg); w != "" && w != code && !r.names(code) && r.names(w) {
				e.Kind = r.kindOf(w, status)
			}
		} else if status >= 400 && declaredXML(resp.Header) {
			// An XML document that is only its root's text: that text
			// is the message, as a one-line text body's is.
			if msg := xmlText(body); msg != "" {
				e = &Error{HTTPStatus: status, Message: msg}
			}
		}
	}
	onlyStatus := e == nil // text, HTML, nothing, or markup that is no XML error
	if onlyStatus {
		if status < 400 && !hd.grpc {
			return r.finish(notJSON(status, nil), &hd)
		}
		e = &Error{HTTPStatus: status, Message: plainMessage(resp.Header, body, status)}
	}
	if e.Code == "" {
		e.Code = hd.code
	}
	if e.Code == "" {
		e.Code = alts.class // the body's class, where nothing named a code
	}
	if e.Message == "" {
		e.Message = hd.message
	}

	// The taxonomy.
	r.classify(e, &hd, onlyStatus, alts.list[:alts.n])
	return r.finish(e, &hd)
}

var utf8BOM = []byte("\xef\xbb\xbf")

// leadingCodeWord is the code word in capitals (UPPER_SNAKE) that msg is,
// or that opens it before a colon ("BAD_NAME: web"), else "".
func leadingCodeWord(msg string) string {
	w, _, _ := strings.Cut(msg, ":")
	w = strings.TrimSpace(w)
	if len(w) < 3 || !isStatusName(w) {
		return ""
	}
	return w
}

// mentionsErrorKey reports whether body holds, anywhere, a key that could
// make it an error shape at any status: the envelope's key, "error",
// "errors" or another that opens with "err" or "Err", "ok", "success" or
// "Success", "Response", "stat", "result", "code", "ret" or "Ret",
// "Status", "Result", or
// "status" holding a code word or false (a
// JSON-RPC error and JSend's "status": "error" hold `"error`). Most
// success bodies hold none, and skip the top-level scan. It looks at what
// follows each quote once, in one pass: a search per key would pass over
// the body's quotes once per key.
func mentionsErrorKey(body []byte, s *resolved) bool {
	for i := 1; i < len(body); i++ {
		if keyStart[body[i]] && body[i-1] == '"' && flagKeyAt(body, i) {
			return true
		}
	}
	return s.Key != "error" && bytes.Contains(body, s.quotedKey)
}

// flagKeyAt reports whether body at i, just after a quote, opens one of
// the keys mentionsErrorKey looks for.
func flagKeyAt(body []byte, i int) bool {
	if i >= len(body) {
		return false
	}
	rest := body[i:]
	switch rest[0] {
	case 'e':
		return bytes.HasPrefix(rest, keyErr)
	case 'E':
		return bytes.HasPrefix(rest, keyErrUpper)
	case 'o':
		return bytes.HasPrefix(rest, keyOK)
	case 'c':
		return bytes.HasPrefix(rest, keyCode)
	case 'r':
		return bytes.HasPrefix(rest, keyResult) || bytes.HasPrefix(rest, keyRet)
	case 'R':
		return bytes.HasPrefix(rest, keyResponse) || bytes.HasPrefix(rest, keyRetUpper) || bytes.HasPrefix(rest, keyResultUpper)
	case 'S':
		return bytes.HasPrefix(rest, keyStatusUpper) || bytes.HasPrefix(rest, keySuccessUpper)
	case 's':
		switch {
		case bytes.HasPrefix(rest, keySuccess), bytes.HasPrefix(rest, keyStat):
			return true
		case bytes.HasPrefix(rest, keyStatus):
			return statusWordAt(body, i+len(keyStatus))
		case bytes.HasPrefix(rest, keyStatusCode), bytes.HasPrefix(rest, keyStatusCodeCamel), bytes.HasPrefix(rest, keyStatusCodeLower):
			return true
		}
	}
	return false
}

// keyStart marks the first letters of the keys mentionsErrorKey looks
// for.
var keyStart = [256]bool{'e': true, 'E': true, 'o': true, 'c': true, 'r': true, 'R': true, 's': true, 'S': true}

// The keys mentionsErrorKey looks for, each as it follows its opening
// quote.
var (
	keyErr      = []byte(`err`)
	keyErrUpper = []byte(`Err`) // "Error", "ErrorCode": a wrapped error object (see topSpans.wrappedFailure)
	keyOK       = []byte(`ok"`)
	keyCode     = []byte(`code"`)
	keyResult   = []byte(`result"`)
	keyResponse = []byte(`Response"`)
	keySuccess  = []byte(`success"`)
	keyStat     = []byte(`stat"`)
	keyStatus   = []byte(`status"`)
	quotedFail  = []byte(`"fail"`)
	// A status code of the API's own ("status_code": 210), which may say
	// failed beside a message (see flaggedFailure), or a failure status
	// in an object of the body (see statusFailure).
	keyStatusCode      = []byte(`status_code"`)
	keyStatusCodeCamel = []byte(`statusCode"`)
	keyStatusCodeLower = []byte(`statuscode"`)
	// A status, a result or a return code written in capitals ("Status",
	// "Result", "RetCode", "ret_code"), which may say failed beside a
	// message (see flaggedFailure).
	keyStatusUpper  = []byte(`Status"`)
	keySuccessUpper = []byte(`Success"`)
	keyResultUpper  = []byte(`Result"`)
	keyRet          = []byte(`ret`)
	keyRetUpper     = []byte(`Ret`)
)

// statusWordAt reports whether the value of the "status" member whose
// name ends before body[i] is a string that opens with a capital letter
// ("REQUEST_DENIED"), which may name a failure (see failedStatusWord), is
// JSend's "fail", or is false (a flag down) or a number (see
// flaggedFailure).
func statusWordAt(body []byte, i int) bool {
	k := jsonscan.Space(body, i)
	if k >= len(body) || body[k] != ':' {
		return false
	}
	k = jsonscan.Space(body, k+1)
	return k+1 < len(body) && body[k] == '"' && body[k+1] >= 'A' && body[k+1] <= 'Z' || k < len(body) && body[k] == 'f' ||
		bytes.HasPrefix(body[k:], quotedFail) || // JSend's {"status": "fail", "data": {...}}
		k < len(body) && body[k] >= '1' && body[k] <= '9' // a status number, which may be the API's own failure's
}

// format is how a body is written, as far as reading an error goes.
type format uint8

const (
	formatText   format = iota // text, or nothing
	formatJSON                 // an object or a list, or a JSON scalar
	formatMarkup               // XML or HTML
)

// formatOf tells a body's format from its first byte: a body that opens
// an object or a list is JSON (broken JSON included), one that opens with
// '<' is markup, and any other is text unless it is a JSON scalar.
func formatOf(body []byte) format {
	i := jsonscan.Space(body, 0)
	switch {
	case i == len(body):
		return formatText
	case body[i] == '{' || body[i] == '[':
		return formatJSON
	case body[i] == '<':
		return formatMarkup
	case json.Valid(body):
		return formatJSON
	}
	return formatText
}

// readJSON reads a JSON body: an error of the Reader's envelope or of a
// row of the dialect table, or data decoded into v (nil, nil). err is a
// body that is not JSON, or data that does not fit v.
func (r *Reader) readJSON(s *resolved, body []byte, status int, v any) (*Error, codes, error) {
	start := byte('{')
	if s.Flat {
		start = '"'
	}
	top := scanTop(body, s.Key, start)
	// An envelope whose object is empty ({"data": {...}, "error": {}})
	// holds no error: the member is there, the failure is not.
	envelope := len(top.env) > 0 && top.env[0] == start && !emptyObject(top.env)
	if envelope && s.fast != 0 {
		if e, err := fastEnvelope(s, body, status); e != nil || err != nil {
			return e, codes{}, err
		}
	}
	failed := status >= 400
	if !envelope && !top.errorShape() {
		if !failed && !flaggedFailure(body) && !top.wrappedFailure() {
			// A failure status in an object of the body's own, beside
			// no payload: an error of that status, its code that
			// number.
			if st, obj := statusFailure(body); st != 0 {
				if err := (&doc{root: body}).load(); err != nil {
					return nil, codes{}, err
				}
				return &Error{HTTPStatus: status, Code: strconv.Itoa(st), Message: messageOf(obj, 3), Body: bytes.Clone(body)}, codes{}, nil
			}
			// A batch answer whose every item failed: the first
			// item's error is the body's.
			if item := failedBatch(&top); item != nil {
				if e, alts, err := r.readJSON(s, item, status, nil); e != nil && err == nil {
					e.Body = bytes.Clone(body)
					return e, alts, nil
				}
			}
			return nil, codes{}, decodeData(body, v)
		}
		if sh, ok := v.(Shaper); ok && status != http.StatusTooManyRequests {
			if json.Unmarshal(body, v) == nil && sh.CheckShape() == nil {
				return nil, codes{}, nil // v's type accepts it: data
			}
		}
	}
	d := &doc{root: body, status: status, spans: top, names: r.names}
	if err := d.load(); err != nil {
		return nil, codes{}, err
	}
	row := rowFor(d, s, envelope, failed)
	if row == nil {
		return nil, codes{}, decodeData(body, v)
	}
	e := &Error{HTTPStatus: status, Body: bytes.Clone(body)}
	alts := row.read(d, e)
	if !row.rpc && row.name != graphQLRow {
		d.inner(e)
	}
	if e.Message == "" && failed {
		// A failure whose whole body is one JSON string ("start time must
		// be before end time") says it in that string.
		if v := bytes.TrimSpace(d.root); len(v) > 0 && v[0] == '"' {
			e.Message, _ = stringOf(v)
		}
	}
	if row.name == jsendRow && string(top.status) == `"fail"` && d.value("message") == nil {
		// JSend's fail: the keys of data are the request's fields at
		// fault ({"status": "fail", "data": {"title": "A title is
		// required"}}), so the first is the message, "field: message",
		// where no message member says it otherwise.
		if data := d.value("data"); len(data) > 0 && data[0] == '{' {
			if m := fieldError(data, false); m != "" {
				e.Message = m
			}
		}
	}
	if row.rpc {
		r.readRPC(e)
	}
	if row.name == graphQLRow && e.Code == "" {
		// A GraphQL error with no code whose extensions name an HTTP
		// failure (a router's subgraph answered 502) is of that status's
		// kind.
		if c := graphQLStatus(d); c != 0 {
			e.Kind = r.kindOf("", c)
		}
	}
	return e, alts, nil
}

// emptyObject reports whether v, a JSON value as written, is an object
// with no member ({}, { }).
func emptyObject(v []byte) bool {
	return len(v) > 0 && v[0] == '{' && jsonscan.Space(v, 1) < len(v) && v[jsonscan.Space(v, 1)] == '}'
}

// rowFor picks the row of the table that reads d. A body that holds the
// Reader's envelope is an error at any status, and read by the first row
// that holds, which is the envelope's own unless a row before it is
// marked; any other body below 400 only by a row of an error at any
// status.
func rowFor(d *doc, s *resolved, envelope, failed bool) *dialect {
	for i := range dialects {
		row := &dialects[i]
		switch {
		case row.envelope:
			if !envelope {
				continue
			}
			if s.fast == fastNested {
				return &nestedRow
			}
			er := envelopeRow(s)
			return &er
		case (row.anyStatus || failed || envelope) && row.when(d):
			return row
		}
	}
	return nil
}

// readRPC classifies a JSON-RPC error through errkind's catalogue, as
// the taxonomy reads any JSON-RPC error: by data's code when a rule knows
// it, else by its code. data's code and wait are the error's. A code
// outside the catalogue (an implementation's own, such as EIP-1474's
// -32005 or Bitcoin Core's -5), which the catalogue reports as a
// server_error whose meaning only the server knows, is read by what its
// message says when its words name a kind ("rate limit exceeded", "No such
// transaction"), else by the HTTP status it came with; below 400 it is
// read as any failure's numeric code is (see classify), so that words of
// an argument ("invalid command") say invalid_arguments there too. An
// error read from an answer is never network_error, and a generic kind
// gives way to a 429's or a 502's to 504's.
func (r *Reader) readRPC(e *Error) {
	n, err := strconv.ParseInt(e.Code, 10, 32)
	if err != nil || n == 0 {
		return // no JSON-RPC code: the taxonomy reads it as any code
	}
	c := errkind.RPCCode(n)
	rd := r.Taxonomy.Read(errkind.Outcome{RPCCode: c, Message: e.Message, Data: e.Details})
	e.Kind = rd.Kind
	if rd.Code != "" {
		e.Code = rd.Code
	}
	if rd.HasWait {
		e.RetryAfter = max(e.RetryAfter, rd.Wait)
	}
	if e.Kind == errkind.NetworkError {
		// An answer came back: what its message says of a connection
		// ("connection refused", "request timed out") is the upstream's
		// own call to another failing, a gateway's failure, not the
		// client's network_error.
		e.Kind = r.kindOf("", http.StatusBadGateway)
	}
	if k := r.kindOf("", e.HTTPStatus); e.HTTPStatus >= 400 && (k == errkind.RateLimited || k == errkind.Unavailable) &&
		yields(e.Kind, k) {
		// A catalogue's code that says no more than that the call
		// failed (-32603) never overrides a status that tells (a 429, a
		// 502 to 504).
		e.Kind = k
		return
	}
	own := c == errkind.ImplementationDefined || strings.HasPrefix(c.String(), "code(")
	if rd.Code == "" && own && e.Kind == errkind.ServerError {
		if e.HTTPStatus < 400 {
			// Below 400 such a code says no more than any numeric
			// code of a failed answer: the failure is read as one
			// (see classify), by its message's words, those of an
			// argument among them ("invalid command").
			e.Kind = ""
		} else if k, ok := r.messageKind(e); ok {
			e.Kind = k
		} else {
			e.Kind = r.kindOf("", e.HTTPStatus)
		}
	}
}

// messageKind is the kind the words of e's message name ("Invalid API
// Key", "Photo not found"): the family of phrases they hold (see
// proseKind), else the message read as a code is ("INVALID_USER_KEY",
// "TableDoesNotExistError"); ok is false when they name none. The
// phrases come first: a sentence read as a code takes the first rule any
// of its words matches, where the phrases see that "Max rate limit
// reached, please use an API key" names a limit, and that a message of
// two kinds names none.
func (r *Reader) messageKind(e *Error) (k errkind.Kind, ok bool) {
	msg := e.Message[:min(len(e.Message), maxPlainMessage)]
	if p, ok := proseKind(msg); ok {
		if k, ok := r.wordKind(p, e.HTTPStatus); ok {
			return k, true
		}
	}
	if r.names(msg) {
		return r.kindOf(msg, e.HTTPStatus), true
	}
	return "", false
}

// wordKind is the kind the Reader's taxonomy gives the code word of a
// family of phrases at status, as it would give the code itself, and
// whether the taxonomy knows the word: a server's own rules decide a
// message's words as they decide its codes.
func (r *Reader) wordKind(p *prose, status int) (errkind.Kind, bool) {
	if !r.names(p.code) {
		return "", false
	}
	return r.kindOf(p.code, status), true
}

// generic reports whether k tells the agent no more than that the call
// failed: server_error, or invalid_arguments.
func generic(k errkind.Kind) bool {
	return k == errkind.ServerError || k == errkind.InvalidArguments
}

// decodeData decodes a success body into v, and checks its shape when v
// is a Shaper.
func decodeData(body []byte, v any) error {
	if v == nil {
		if !json.Valid(body) {
			return errNotJSON
		}
		return nil
	}
	if err := json.Unmarshal(body, v); err != nil {
		return err
	}
	if s, ok := v.(Shaper); ok {
		return s.CheckShape()
	}
	return nil
}

var errNotJSON = errors.New("invalid JSON")

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

var (
	retryInfoType = []byte("google.rpc.RetryInfo")
	retryWord     = []byte("etry")
	retryCaps     = []byte("ETRY") // RETRY_AFTER_MS
	backoffWord   = []byte("backoff")
	waitWord      = []byte("wait_")
)

// mentionsWaitName reports whether an XML body may name a wait (see
// xmlWait): "etry" or "ack" ("RetryAfterSeconds", "BackOffMilliseconds").
func mentionsWaitName(body []byte) bool {
	return bytes.Contains(body, retryWord) || bytes.Contains(body, retryCaps) || bytes.Contains(body, []byte("ackOff")) ||
		bytes.Contains(body, []byte("ackoff")) || bytes.Contains(body, []byte("ACKOFF"))
}

// mayWait reports whether an error of this status may ask for a wait in
// its body: a 429, a 403 (a limit some APIs send so) or a 5xx.
func mayWait(status int) bool {
	return status == http.StatusTooManyRequests || status == http.StatusForbidden || status >= 500
}

// mentionsWait reports whether body may hold a wait member (see
// waitMembers), which the envelope's row reads: retry_after, retryAfter,
// retry_in_seconds, backoff_seconds, wait_seconds and their kin.
func mentionsWait(body []byte) bool {
	return bytes.Contains(body, retryWord) || bytes.Contains(body, backoffWord) || bytes.Contains(body, waitWord) ||
		bytes.Contains(body, retryCaps)
}

// fastEnvelope reads the common envelopes with one json.Unmarshal of the
// body, which also checks that all of it is JSON: the nested envelope
// with a string code, and the flat one. The nested one is read by
// scanNested where it reads as json.Unmarshal would, and so checked
// whole as well. It returns nil, nil for an
// envelope its row must read (no code, a numeric code, a member of
// another type).
func fastEnvelope(s *resolved, body []byte, status int) (*Error, error) {
	// One allocation holds the Error and the decode target.
	x := &struct {
		e  Error
		nb struct {
			Error nestedBody `json:"error"`
		}
	}{}
	e, nb := &x.e, &x.nb
	e.HTTPStatus = status
	switch s.fast {
	case fastNested:
		// The scan in place reads the bodies it is sure of as the decoder
		// would (TestScanNestedAgreesWithUnmarshal), at a fraction of its
		// cost; the decoder reads any other.
		scanned := scanNested(body, &nb.Error)
		if !scanned {
			nb.Error = nestedBody{}
			if err := json.Unmarshal(body, nb); err != nil {
				if isTypeError(err) {
					return nil, nil
				}
				return nil, err
			}
		}
		if nb.Error.Code == "" || nb.Error.Message == "" || opensWithStatus(nb.Error.Code, status) || placeholder(nb.Error.Code) ||
			mayWait(status) && mentionsWait(body) || mentionsInner(body) {
			return nil, nil // its row reads the other members, or a wait
		}
		n := &nb.Error
		e.Code, e.Message, e.Details = n.Code, n.Message, n.Details
		if scanned {
			e.Details = bytes.Clone(n.Details) // the scan's is a slice of the pooled body
		}
		if bytes.Contains(e.Details, retryInfoType) {
			e.RetryAfter = waitAt(&doc{root: body}, "error/"+retryInfo)
		}
	case fastFlat:
		var fb flatBody
		if err := json.Unmarshal(body, &fb); err != nil {
			if isTypeError(err) {
				return nil, nil
			}
			return nil, err
		}
		e.Code, e.Message, e.Details = fb.Code, fb.Error, fb.Detail
		if s.RetryAfter != "" && fb.RetryAfterSecs != nil && *fb.RetryAfterSecs > 0 {
			e.RetryAfter = secondsToDuration(*fb.RetryAfterSecs)
		}
	}
	if string(e.Details) == "null" {
		e.Details = nil
	}
	e.Body = bytes.Clone(body)
	return e, nil
}

// isTypeError reports whether err is a JSON value of the wrong type for
// its member, which sends an envelope to its row.
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

// declaredText reports whether h declares the body plain text
// (text/plain), which a body that opens as JSON would and is no JSON is.
func declaredText(h http.Header) bool {
	mt, _, _ := mime.ParseMediaType(h.Get("Content-Type"))
	return mt == "text/plain"
}

// declaredXML reports whether h declares the body XML (application/xml,
// text/xml, or a type whose suffix is +xml), not HTML.
func declaredXML(h http.Header) bool {
	mt, _, _ := mime.ParseMediaType(h.Get("Content-Type"))
	return mt == "application/xml" || mt == "text/xml" || strings.HasSuffix(mt, "+xml")
}

// opensAsText reports whether body, which opens with a bracket, goes on
// with a byte that opens no JSON member or value ("[ERROR 400] ...",
// "{maintenance} ..."): it is text that happens to open with a bracket,
// not JSON cut short.
func opensAsText(body []byte) bool {
	i := jsonscan.Space(body, 0)
	if i >= len(body) || body[i] != '{' && body[i] != '[' {
		return false
	}
	j := jsonscan.Space(body, i+1)
	if j >= len(body) {
		return false
	}
	c := body[j]
	if body[i] == '{' {
		return c != '"' && c != '}'
	}
	return !strings.ContainsRune(`"{[]-0123456789tfn`, rune(c))
}

// maxPlainMessage bounds the plain-text body taken as a message.
const maxPlainMessage = 256

// plainMessage is the message of a body that is not JSON: the body itself
// when it is one short line of printable UTF-8 that is not markup (sent as
// text/plain, or under any other type or none: Slack's webhooks answer
// "no_service" as text/html), else "" (an HTML page says nothing an agent
// can use). A 4xx body declared text/plain may run over several short
// lines ("The request content was malformed:\nObject is missing ..."): it
// tells the client what its request did wrong, and its line breaks reach
// the agent as spaces, as any message's do; at 5xx such a text is a
// platform's page or a trace, which the status says better.
func plainMessage(h http.Header, body []byte, status int) string {
	mt, _, _ := mime.ParseMediaType(h.Get("Content-Type"))
	text := mt == "text/plain"
	lines := text && status < 500
	if !text && (len(body) == 0 || body[0] == '<' || mt == "application/json") {
		return "" // markup, or JSON that did not parse, says nothing an agent can use
	}
	s := strings.TrimSpace(string(body))
	if len(s) > maxPlainMessage || !utf8.ValidString(s) {
		return ""
	}
	for _, r := range s {
		if r < 0x20 && !(lines && (r == '\n' || r == '\r' || r == '\t')) || r == 0x7f {
			return ""
		}
	}
	return s
}

// heard is what a response's header says, whatever its body, read on the
// error path only: in one pass over the fields, with header.Parse run at
// most once, and only when a field asks for it.
type heard struct {
	h       http.Header
	status  int
	secrets []string
	names   []string // the Reader's SecretHeaders

	rate, wait, clean bool // a rate-limit field; a field asking for a delay; nothing to hide

	// code is the upstream's code in a field of the header (codeField):
	// Azure's x-ms-error-code, or AWS's x-amzn-ErrorType without its
	// suffix.
	code, codeField string

	// messageField is the upstream's message in a field of the header
	// (isMessageField): X-Error-Message, X-...-Error-Message.
	messageField string

	// challenge is the WWW-Authenticate field, whose error and
	// error_description parameters (RFC 6750) give a code and a message.
	challenge, message string

	// telling is the kind the header gives whatever the body (see hear).
	telling errkind.Kind

	// grpc reports a gRPC status other than OK in the header, as gRPC-Web
	// sends a failure with no message (trailers-only): code is its
	// number, message its grpc-message. grpcStatus is the field.
	grpc       bool
	grpcStatus string

	info   header.Info
	parsed bool
}

// hear reads resp's header. It tells rate_limited for a 429, and for a 403
// that carries Retry-After, X-RateLimit-Remaining: 0 or a RateLimit field
// with nothing left; unavailable for a 503 that carries Retry-After.
func (r *Reader) hear(resp *http.Response, req *http.Request) heard {
	h := resp.Header
	hd := heard{h: h, status: resp.StatusCode, names: r.SecretHeaders, secrets: r.secrets(req)}
	inspectHeader(&hd, r.SecretHeaders, hd.secrets)
	if hd.codeField != "" {
		if c := awsType(strings.TrimSpace(hd.codeField)); isWord(c) {
			hd.code = c
		}
	}
	if hd.challenge != "" {
		code, desc := challengeError(hd.challenge)
		if hd.code == "" {
			hd.code = code
		}
		hd.message = desc
	}
	if hd.message == "" {
		hd.message = strings.TrimSpace(hd.messageField)
	}
	if n := grpcStatus(hd.grpcStatus); n > 0 {
		hd.grpc, hd.code, hd.telling = true, strconv.Itoa(n), r.kindOf(grpcCodes[n], 0)
		hd.message, _ = url.PathUnescape(h.Get("Grpc-Message"))
	}
	switch hd.status {
	case http.StatusTooManyRequests:
		hd.telling = errkind.RateLimited
	case http.StatusForbidden:
		if hd.wait || hd.rate {
			info := hd.parse(r)
			if info.HasRetryAfter || info.Limits.HasRemaining && info.Limits.Remaining == 0 {
				hd.telling = errkind.RateLimited
			}
		}
	case http.StatusServiceUnavailable:
		if hd.wait && hd.parse(r).HasRetryAfter {
			hd.telling = errkind.Unavailable
		}
	}
	return hd
}

// grpcFailed reports whether h carries a gRPC status other than OK (0),
// one of the seventeen gRPC defines.
func grpcFailed(h http.Header) bool {
	v := h["Grpc-Status"]
	return len(v) > 0 && grpcStatus(v[0]) > 0
}

// grpcStatus is the gRPC status a grpc-status field holds, 0 (OK) when it
// holds none of the seventeen.
func grpcStatus(v string) int {
	if v == "" || len(v) > 2 {
		return 0
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n >= len(grpcCodes) {
		return 0
	}
	return n
}

// grpcCodes are the gRPC status codes' names, by number, which the
// taxonomy reads by their words.
var grpcCodes = [...]string{"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
	"ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
	"UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"}

// parse is header.Parse of the header, run once.
func (hd *heard) parse(r *Reader) *header.Info {
	if !hd.parsed {
		hd.info, hd.parsed = header.Parse(hd.h, r.now()), true
	}
	return &hd.info
}

// classify sets e's kind through the taxonomy from its code and status,
// unless its dialect named it (a JSON-RPC error). A Cloudflare 52x the
// taxonomy reads as server_error is read as the 502 it stands for.
//
// A code that names a kind wins over the status; a code that says no more
// than the status (none, one no rule knows, or one of the status's own
// kind) yields to a later code of the body that names a kind the agent
// must stop or wait for (an ErrorInfo reason API_KEY_INVALID under
// INVALID_ARGUMENT, a reason quotaExceeded under PERMISSION_DENIED),
// which becomes e's code. A
// generic code, whose kind is server_error or invalid_arguments, never
// overrides a status that tells more (429, 502-504, 529), nor an
// unavailable code a 429. When the headers tell what happened and the
// code says no more than the status does, the headers decide. A body that
// said only its status (onlyStatus), with no code, whose status the
// taxonomy reads as server_error, is a malformed_response: the client
// could not read it. An error body below 400 whose code is an HTTP error
// status (ArcGIS's {"error": {"code": 404}} on a 200) is read as if it
// had come with that status.
func (r *Reader) classify(e *Error, hd *heard, onlyStatus bool, alts []string) {
	status := e.HTTPStatus
	if c := errorStatus(e.Code); status < 400 && c != 0 {
		status = c // an error body below 400 whose code is an HTTP error status
	}
	// A code that is an HTTP reason phrase and says no more than that the
	// request was refused ("BadRequest", "Internal Server Error"), or
	// "Unauthorized" or "Forbidden" at a 401 or a 403, which APIs write
	// for either, says no more than a status, and the response's own
	// status says it: the kind is read as if no code had come (Amazon's
	// SP-API, Didomi, Gotify and the frameworks that write the phrase as
	// the code). "Not Found" at a 400 still says not_found.
	code := uriName(e.Code)
	if status >= 400 && isReasonPhrase(code) {
		k := r.kindOf(code, 0)
		if generic(k) || (k == errkind.AuthenticationFailed || k == errkind.PermissionDenied) &&
			(status == http.StatusUnauthorized || status == http.StatusForbidden) {
			code = ""
		}
	}
	unread := e.Kind == "" // a JSON-RPC error comes read by the catalogue
	switch {
	case unread:
		e.Kind = r.kindOf(code, status)
		if code != "" && len(alts) == 0 && hd.telling == "" && !yields(e.Kind, errkind.RateLimited) {
			break // a code whose kind no status overrides, and no other code
		}
		byStatus := r.kindOf("", status)
		if e.Kind == byStatus || !r.names(code) {
			for _, c := range alts {
				if k := r.kindOf(c, status); k != byStatus && stops(k) && r.names(c) {
					e.Code, e.Kind, code = c, k, c
					break
				}
			}
		}
		if byStatus != e.Kind && yields(e.Kind, byStatus) && status != http.StatusPaymentRequired {
			e.Kind = byStatus
		}
		if hd.telling != "" && (code == "" || e.Kind == byStatus || yields(e.Kind, hd.telling)) {
			e.Kind = hd.telling
		}
	case hd.telling != "" && e.Kind == errkind.ServerError:
		e.Kind = hd.telling
	}
	if unread && status == http.StatusPaymentRequired && e.Kind == errkind.RateLimited && hd.telling == "" {
		// A quota or a limit under a 402 is an allowance a person must
		// pay for ("out_of_quota", "limit_exceeded"): waiting does not
		// bring it back, so the status's kind stands.
		e.Kind = r.kindOf("", status)
	}
	// A failure whose code and header say no more than that it failed is
	// read by what its message says. Below 400 ({"stat": "fail", "code":
	// 100, "message": "Invalid API Key"}): any kind its words name but
	// server_error. At 4xx (or below 400 where the code is a 4xx of a
	// kind that tells more, a 403 "Incorrect password"), when the
	// code says nothing of its own (none, a number, a catalogue's entry,
	// a reason phrase) and the message does not open with the status:
	// the phrases of proseKind replace invalid_arguments, and a
	// credential or a limit replaces a 403's permission_denied. At 5xx
	// the status speaks, and prose such as "database timeout" does not
	// override it. The words are read as the taxonomy reads their family's
	// code word (see wordKind).
	if unread && hd.telling == "" && e.Message != "" && (e.HTTPStatus < 400 || status < 500 && opaque(code)) &&
		generic(r.kindOf(code, 0)) {
		switch {
		case e.HTTPStatus < 400 && generic(e.Kind):
			// Below 400 no status says what failed: a code whose words
			// say an argument (invalid_date) is read as a 400 would be,
			// its message overriding it as proseOverrides lets a
			// message override a 400 (but a missing thing: the code
			// names the argument that matched nothing); else the
			// message's kind, else its words of an argument ("List ID
			// is required").
			arg := e.Kind == errkind.ServerError && wrongArgumentCode(code, alts)
			k, named := r.messageKind(e)
			switch {
			case named && k != errkind.ServerError && (!arg || k != errkind.NotFound && proseOverrides(k, errkind.InvalidArguments, http.StatusBadRequest, e.Message)):
				e.Kind = k
			case arg || !named && e.Kind == errkind.ServerError && saysArgument(e.Message, argumentWords[:]):
				if k, ok := r.wordKind(&argumentProse, status); ok {
					e.Kind = k
				}
			}
		case status >= 400 && !opensWithPhrase(e.Message, status):
			if p, ok := proseKind(e.Message); ok && proseOverrides(p.kind, e.Kind, status, e.Message) {
				if k, ok := r.wordKind(p, status); ok {
					e.Kind = k
				}
			} else if !ok && status == http.StatusForbidden && refusedKey(e.Message) {
				if k, ok := r.wordKind(&proseKinds[credentialProse], status); ok {
					e.Kind = k // a 403 "Invalid key": the key, not the caller, is refused
				}
			}
		}
	}
	// A 503 whose code says no more than the status (none, a number, its
	// reason phrase) and whose message says the caller went over its
	// limit ("Your requests are exceeding the allowable rate limit", "The
	// allowed number of requests has been exceeded") is rate_limited:
	// servers answer 503 to a caller over its rate as well as when they
	// are down. "Too many requests" alone may be the server's own load.
	if unread && status == http.StatusServiceUnavailable && e.Kind == errkind.Unavailable &&
		(hd.telling == "" || hd.telling == errkind.Unavailable) && (opaque(code) || isReasonPhrase(code)) {
		if p, ok := proseKind(e.Message); ok && p.kind == errkind.RateLimited && overLimit(e.Message) {
			if k, ok := r.wordKind(p, status); ok {
				e.Kind = k
			}
		}
	}
	if onlyStatus && e.Code == "" && e.Kind == errkind.ServerError {
		*e = *notJSON(e.HTTPStatus, nil)
	}
}

// uriName is the name a code that is a URI gives its error, its last
// path segment or its fragment (RFC 9457's type
// "https://signatureapi.com/docs/v1/errors/too-many-requests" names
// too-many-requests): the host and the path before it name the API and
// its pages, not the kind. A URN names its error in its last part
// (ACME's "urn:ietf:params:acme:error:rateLimited" names rateLimited).
// A code that is no URI is returned as it is.
func uriName(code string) string {
	if len(code) > 4 && strings.EqualFold(code[:4], "urn:") {
		if j := strings.LastIndexByte(code, ':'); j > 3 && j+1 < len(code) {
			return code[j+1:]
		}
		return code
	}
	i := strings.Index(code, "://")
	if i < 0 {
		return code
	}
	rest := strings.TrimRight(code[i+3:], "/")
	if j := strings.IndexByte(rest, '/'); j < 0 {
		return code // a host alone names nothing else
	}
	if j := strings.LastIndexAny(rest, "/#"); j >= 0 {
		rest = rest[j+1:]
	}
	return rest
}

// reasonPhrases are the reason phrases of the HTTP error statuses,
// normalized (see sameName), by their first letter: "unauthorized" under
// 'u', "serviceunavailable" under 's'.
var reasonPhrases = func() (p [26][]string) {
	for s := 400; s < 600; s++ {
		if t := strings.ToLower(strings.NewReplacer(" ", "", "-", "", "'", "").Replace(http.StatusText(s))); t != "" {
			p[t[0]-'a'] = append(p[t[0]-'a'], t)
		}
	}
	return p
}()

// isReasonPhrase reports whether code is the reason phrase of an HTTP
// error status in any case style ("Unauthorized", "SERVICE_UNAVAILABLE",
// "BadRequest", "Not Found").
func isReasonPhrase(code string) bool {
	if len(code) < 8 || len(code) > 40 {
		return false
	}
	first := code[0] | 0x20 // a phrase opens with a letter: its lower case
	if first < 'a' || first > 'z' {
		return false
	}
	for _, p := range reasonPhrases[first-'a'] {
		if sameName(code, p) {
			return true
		}
	}
	return false
}

// errorStatus is code as an HTTP error status (400 to 599), 0 when it is
// none.
func errorStatus(code string) int {
	if len(code) != 3 || code[0] != '4' && code[0] != '5' {
		return 0
	}
	n, err := strconv.Atoi(code)
	if err != nil {
		return 0
	}
	return n
}

// stops reports whether k changes the agent's move from the status's
// beyond fixing an argument: it must stop for a credential, or wait.
// Only such a kind lets a later code of the body take over from a first
// code that said no more than the status.
func stops(k errkind.Kind) bool {
	return k == errkind.AuthenticationFailed || k == errkind.RateLimited || k == errkind.Unavailable
}

// yields reports whether a code's kind k gives way to telling, the kind a
// status or the headers give: a generic kind (server_error,
// invalid_arguments) to rate_limited or unavailable, and unavailable to
// rate_limited.
func yields(k, telling errkind.Kind) bool {
	switch telling {
	case errkind.RateLimited:
		return k == errkind.ServerError || k == errkind.InvalidArguments || k == errkind.Unavailable
	case errkind.Unavailable, errkind.AuthenticationFailed, errkind.PermissionDenied, errkind.NotFound:
		return k == errkind.ServerError || k == errkind.InvalidArguments
	}
	return false
}

// names reports whether a rule of the taxonomy knows code, whatever the
// status: it names a kind other than the fallback's.
func (r *Reader) names(code string) bool {
	var t *errkind.Taxonomy
	if r != nil {
		t = r.Taxonomy
	}
	return code != "" && t.Classify(code, 0) != t.Classify("", 0)
}

// kindOf is the taxonomy's kind for a code and status, a Cloudflare 52x
// (520 to 527, 530) read as a 502 when the taxonomy makes it server_error.
func (r *Reader) kindOf(code string, status int) errkind.Kind {
	k := r.Taxonomy.Classify(code, status)
	if k == errkind.ServerError && (status >= 520 && status <= 527 || status == 530) {
		k = r.Taxonomy.Classify(code, http.StatusBadGateway)
	}
	return k
}

func (r *Reader) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

// finish sets e's wait and rate-limit figures from what the response
// says, and removes the request's credentials from everything e holds.
//
// The wait is the longest the response speaks of: the body's own, and any
// delay the header asks for, whatever the kind. A rate_limited error (or
// any error of a 429) also waits for the reset of a window with nothing
// remaining; and when the response asked for no delay, at least
// header.DefaultRetryAfter, or the window's reset when that is later
// (unless requests remain in it). A 429 that asked for no delay waits at
// least the default even when its window resets sooner.
func (r *Reader) finish(e *Error, hd *heard) error {
	limited := hd.status == http.StatusTooManyRequests || e.Kind == errkind.RateLimited
	if limited || hd.rate || hd.wait {
		info := hd.parse(r)
		wait, asked := e.RetryAfter, e.RetryAfter > 0
		if info.HasRetryAfter {
			wait, asked = max(wait, info.RetryAfter), true
		}
		if limited {
			l := info.Limits
			exhausted := l.HasRemaining && l.Remaining == 0 && l.HasReset
			switch {
			case exhausted && (asked || hd.status != http.StatusTooManyRequests):
				wait = max(wait, l.Reset)
			case !asked:
				wait = max(wait, header.DefaultRetryAfter)
				if l.HasReset && !(l.HasRemaining && l.Remaining > 0) {
					wait = max(wait, l.Reset)
				}
			}
		}
		e.RetryAfter = wait
		if l := info.Limits; l.HasLimit || l.HasRemaining || l.HasReset {
			e.RateLimit = &l
		}
	}
	if e.Kind == "" {
		e.Kind = errkind.ServerError
	}
	redact(e, hd.secrets)
	sanitize(e)
	e.Header = responseHeader(hd.h, hd.names, hd.secrets, hd.clean)
	return e
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
		limit = defaultMaxBytes
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
			return nil, bodyReadError(resp.StatusCode, err)
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

// bodyReadError is the malformed_response of a body whose read failed.
func bodyReadError(status int, err error) *Error {
	return &Error{Kind: errkind.MalformedResponse, HTTPStatus: status,
		Message: fmt.Sprintf("could not read the response body (status %d): %v", status, err), Err: readError{err}}
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
	if err == errNotJSON {
		return notJSON(status, nil)
	}
	var syn *json.SyntaxError
	if errors.As(err, &syn) || !json.Valid(body) {
		return notJSON(status, err)
	}
	return neither(status, err)
}

// isRateField reports whether a field name starts with X-RateLimit,
// X-Rate-Limit or RateLimit, in any case.
func isRateField(k string) bool {
	return len(k) >= 9 && strings.EqualFold(k[:9], "ratelimit") ||
		len(k) >= 11 && strings.EqualFold(k[:11], "x-ratelimit") ||
		len(k) >= 12 && strings.EqualFold(k[:12], "x-rate-limit")
}

// The fields that carry the upstream's code.
const (
	msErrorCode = 1 + iota
	amznErrorType
)

// codeFieldOf reports which field that carries the upstream's code k is,
// in any case: x-ms-error-code; x-amzn-ErrorType and any other X- field
// named for an error code (X-Error-Code, X-Vercel-Error, X-...-ErrorType);
// or neither (0).
func codeFieldOf(k string) int {
	switch {
	case len(k) == 15 && strings.EqualFold(k, "x-ms-error-code"):
		return msErrorCode
	case len(k) == 16 && strings.EqualFold(k, "x-amzn-errortype"):
		return amznErrorType
	case len(k) > 8 && strings.EqualFold(k[:2], "x-") && (hasSuffixFold(k, "-error-code") || hasSuffixFold(k, "-errortype") ||
		hasSuffixFold(k, "-error")):
		return amznErrorType
	}
	return 0
}

// isMessageField reports whether k is an X- field named for an error's
// message, in any case (X-Error-Message, X-Ca-Error-Message,
// X-...-ErrorMessage), as the fields codeFieldOf reads are named for its
// code.
func isMessageField(k string) bool {
	return len(k) > 10 && strings.EqualFold(k[:2], "x-") && (hasSuffixFold(k, "-error-message") || hasSuffixFold(k, "-errormessage"))
}

func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix)
}

// isWaitField reports whether a field asks for a delay: Retry-After,
// Retry-After-Ms or X-Ms-Retry-After-Ms, in any case.
func isWaitField(k string) bool {
	return len(k) >= 11 && strings.EqualFold(k[:11], "retry-after") ||
		len(k) == 19 && strings.EqualFold(k, "x-ms-retry-after-ms")
}

// Package front is the HTTP front of an MCP server on Streamable HTTP: an
// http.Handler that answers every refusal a request can meet before it
// reaches the MCP endpoint, with the status and JSON-RPC body a client
// expects, and checks each JSON-RPC message with the one rule the stdio
// transport applies too (wire.CheckMessage), so that nothing an SDK would
// choke on reaches it.
//
// The checks, in order:
//
//	Host or Origin not on the allowlist        403 (plain text, no JSON-RPC code)
//	path not Path and not a Public path        404 -32601
//	DELETE with an Mcp-Session-Id header       Gate, then Handler (a session ends)
//	method other than POST                     405 -32600, Allow: POST
//	Content-Type other than application/json   415 -32600
//	Gate (a flood guard, an API key)           its own answer
//	body over MaxBytes                         413 -32600
//	body not JSON                              400 -32700
//	a batch, or a message wire refuses         400 -32600 (id null unless it was read)
//
// A DELETE that names a session is a client ending it: it reaches Handler
// after the Gate, without a message, so that a stateful endpoint frees what
// the session holds (an endpoint without sessions refuses it itself). Every
// other request that passes reaches Handler as one checked JSON-RPC message
// (see Checked), and the answer goes back with the request's id exactly as the
// client wrote it: an SDK that decodes an id and writes it anew does not
// turn "\u0041" into "A". An id no JSON-RPC stack carries exactly (1.5,
// 1e400, 12345678901234567890123) is refused here with -32600 and id null,
// never answered with a rounded one. A plain-text error the endpoint still
// writes (status 400 or more) becomes a JSON-RPC error with the request's
// id, so every error body past the Host and Origin check is JSON-RPC.
//
// The limits of each client behind a Front, counting tool calls or every
// message and answering a client over its limit with the wait, are
// adapter.Limit (module github.com/mcperr/mcperr/adapter).
package front

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/wire"
)

// defaultMaxBytes bounds the body of a POST to the MCP endpoint on a Front
// whose MaxBytes is zero.
const defaultMaxBytes = 1 << 20

// Front is an http.Handler that answers the transport-level refusals of MCP
// over Streamable HTTP and checks the JSON-RPC message of each POST to the
// MCP endpoint, in the order the package comment gives, before a request
// reaches Handler. Every JSON-RPC body it writes has Content-Type:
// application/json.
//
// A request for a Public path goes to Handler after the Host and Origin
// check only, whatever its method, Content-Type and body: Front does not
// answer 405 or 415 there, so a POST or DELETE to "/health" reaches Handler
// too. A public endpoint that should answer only GET and HEAD checks the
// method itself.
//
// The MCP endpoint is handed the request with "Accept: application/json,
// text/event-stream", whatever the client sent: its answers are JSON, and
// an SDK that insists on the header (the go-sdk answers a plain-text 400
// without it) serves every client the same way.
type Front struct {
	// Handler serves the MCP endpoint and the Public paths.
	Handler http.Handler

	// Path is the MCP endpoint's path; "" means "/mcp".
	Path string

	// Public lists other paths Handler serves, such as "/health" or
	// "/.well-known/oauth-protected-resource". Front checks only their
	// Host and Origin: every method and Content-Type reaches Handler.
	Public []string

	// AllowedHosts lists the host names (without port) accepted in the Host
	// header and in the Origin header; nil means the loopback names
	// localhost, 127.0.0.1 and ::1, with any port. An entry "*" accepts any.
	AllowedHosts []string

	// AllowedOrigins lists further origins accepted in the Origin header,
	// written as scheme://host[:port], such as "https://app.example". A
	// request without Origin is not checked against it.
	AllowedOrigins []string

	// Gate, when set, sees each POST to Path that passed the Host, Origin,
	// path, method and Content-Type checks, before a byte of its body is
	// read, and each DELETE that ends a session: a flood guard or an API
	// key check belongs here. It returns
	// false after writing its own answer, and true to let the request on.
	Gate func(w http.ResponseWriter, r *http.Request) bool

	// MaxBytes bounds the body of a POST to Path; zero means 1
	// MiB.
	MaxBytes int64

	// OnRefuse, if set, is called with every JSON-RPC refusal Front writes
	// (the status and the error, as the client gets them), after writing
	// it: the hook for logs and metrics of what never reached Handler. The
	// 403s of the Host and Origin checks are plain text and do not reach
	// it.
	OnRefuse func(r *http.Request, status int, e *wire.RPCError)
}

var loopback = []string{"localhost", "127.0.0.1", "::1"}

// ServeHTTP applies the checks in order and passes on the requests that
// pass them.
func (f *Front) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !f.hostAllowed(r.Host) {
		http.Error(w, "Forbidden: Host header not allowed", http.StatusForbidden)
		return
	}
	if origin := r.Header.Get("Origin"); origin != "" && !f.originAllowed(origin) {
		http.Error(w, "Forbidden: Origin header not allowed", http.StatusForbidden)
		return
	}
	path := f.Path
	if path == "" {
		path = "/mcp"
	}
	if r.URL.Path != path {
		if slices.Contains(f.Public, r.URL.Path) && f.Handler != nil {
			f.Handler.ServeHTTP(w, r)
			return
		}
		f.refuse(w, r, http.StatusNotFound, nil, errkind.MethodNotFound, "Not found: the MCP endpoint is "+path)
		return
	}
	if r.Method == http.MethodDelete && r.Header.Get(sessionHeader) != "" {
		f.serveEnd(w, r)
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		f.refuse(w, r, http.StatusMethodNotAllowed, nil, errkind.InvalidRequest, "Method not allowed: use POST")
		return
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		f.refuse(w, r, http.StatusUnsupportedMediaType, nil, errkind.InvalidRequest, "Unsupported Media Type: Content-Type must be application/json")
		return
	}
	if f.Handler == nil {
		f.refuse(w, r, http.StatusInternalServerError, nil, errkind.InternalError, "no handler")
		return
	}
	if f.Gate != nil && !f.Gate(w, r) {
		return
	}
	f.serveMessage(w, r)
}

// sessionHeader carries the session a stateful endpoint gave its client.
const sessionHeader = "Mcp-Session-Id"

// serveEnd hands on a DELETE that ends a session, after the Gate: a
// stateful endpoint frees what the session holds, a stateless one answers
// as it answers every DELETE. A plain-text error it writes becomes a
// JSON-RPC error with id null, as for every message.
func (f *Front) serveEnd(w http.ResponseWriter, r *http.Request) {
	if f.Handler == nil {
		f.refuse(w, r, http.StatusInternalServerError, nil, errkind.InternalError, "no handler")
		return
	}
	if f.Gate != nil && !f.Gate(w, r) {
		return
	}
	aw := &answerWriter{ResponseWriter: w, f: f, r: r}
	f.Handler.ServeHTTP(aw, r)
	aw.finish()
}

// serveMessage reads and checks the body, and hands the message on.
func (f *Front) serveMessage(w http.ResponseWriter, r *http.Request) {
	max := f.MaxBytes
	if max <= 0 {
		max = defaultMaxBytes
	}
	tooLarge := func() {
		f.refuse(w, r, http.StatusRequestEntityTooLarge, nil, errkind.InvalidRequest, fmt.Sprintf("Invalid Request: the body is larger than %d bytes.", max))
	}
	if r.ContentLength > max { // refuse before reading a byte of it
		tooLarge()
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, max))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			tooLarge()
			return
		}
		f.refuse(w, r, http.StatusBadRequest, nil, errkind.InvalidRequest, "Invalid Request: the body could not be read.")
		return
	}
	m, err := wire.CheckMessage(body)
	if err != nil {
		var me *wire.MessageError
		switch {
		case !errors.As(err, &me):
			f.refuse(w, r, http.StatusBadRequest, nil, errkind.InvalidRequest, "Invalid Request.")
		case errors.Is(err, wire.ErrNotJSON):
			f.refuse(w, r, http.StatusBadRequest, nil, errkind.ParseError, "Parse error: the body is not valid JSON.")
		default:
			f.refuse(w, r, http.StatusBadRequest, me.ID, me.Code, "Invalid Request: "+me.Reason+".")
		}
		return
	}
	if m.Type == wire.BatchMessage {
		f.refuse(w, r, http.StatusBadRequest, nil, errkind.InvalidRequest, "Invalid Request: batch requests are not supported; send one JSON-RPC request per POST.")
		return
	}
	r2 := r.Clone(context.WithValue(r.Context(), messageKey{}, m))
	r2.Body = io.NopCloser(bytes.NewReader(body))
	r2.ContentLength = int64(len(body))
	r2.Header.Set("Accept", "application/json, text/event-stream")
	aw := &answerWriter{ResponseWriter: w, id: m.ID, f: f, r: r}
	f.Handler.ServeHTTP(aw, r2)
	aw.finish()
}

type messageKey struct{}

// Checked returns the JSON-RPC message Front checked for r, or nil when r
// did not come through a Front's MCP endpoint. A handler behind a Front
// reads the id, method and params from it instead of parsing the body
// again.
func Checked(r *http.Request) *wire.Message {
	m, _ := r.Context().Value(messageKey{}).(*wire.Message)
	return m
}

// refuse writes a JSON-RPC error response with Content-Type:
// application/json, through the one writer, wire.WriteRPCError: the id is
// written as it was sent.
func (f *Front) refuse(w http.ResponseWriter, r *http.Request, status int, id json.RawMessage, code errkind.RPCCode, message string) {
	e := &wire.RPCError{Code: code, Message: message}
	wire.WriteRPCError(w, status, id, e)
	if f.OnRefuse != nil {
		f.OnRefuse(r, status, e)
	}
}

// answerWriter carries the endpoint's answer back: a JSON body is held
// until the endpoint returns, to put the request's id back as sent; a
// plain-text error (status 400 or above) is rewritten as a JSON-RPC error
// with that id. Anything else (a stream, an empty 202) passes through.
type answerWriter struct {
	http.ResponseWriter
	id json.RawMessage // the request's id as sent; nil for a notification
	f  *Front          // whose OnRefuse hears a plain-text answer made JSON-RPC
	r  *http.Request

	status  int
	decided bool
	mode    int // passThrough, holdJSON or captureText
	held    bytes.Buffer
}

const (
	passThrough = iota
	holdJSON
	captureText
)

// maxCapture bounds the plain text kept from an endpoint's error.
const maxCapture = 1024

func (w *answerWriter) decide(code int) {
	if w.decided {
		return
	}
	w.decided, w.status = true, code
	isJSON := strings.HasPrefix(w.Header().Get("Content-Type"), "application/json")
	switch {
	case code >= 400 && !isJSON:
		w.mode = captureText
	case isJSON && w.id != nil:
		w.mode = holdJSON
	default:
		w.ResponseWriter.WriteHeader(code)
	}
}

func (w *answerWriter) WriteHeader(code int) {
	if code >= 100 && code < 200 {
		w.ResponseWriter.WriteHeader(code) // informational: not the answer
		return
	}
	w.decide(code)
}

func (w *answerWriter) Write(b []byte) (int, error) {
	w.decide(http.StatusOK)
	switch w.mode {
	case captureText:
		if room := maxCapture - w.held.Len(); room > 0 {
			w.held.Write(b[:min(len(b), room)])
		}
		return len(b), nil
	case holdJSON:
		return w.held.Write(b)
	}
	return w.ResponseWriter.Write(b)
}

// Flush passes a flush on, except while an answer is held.
func (w *answerWriter) Flush() {
	if w.decided && w.mode != passThrough {
		return
	}
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap returns the ResponseWriter underneath, for
// http.ResponseController.
func (w *answerWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// finish writes what was held. The endpoint has returned.
func (w *answerWriter) finish() {
	switch w.mode {
	case captureText:
		code := errkind.InvalidRequest
		switch {
		case w.status == http.StatusNotFound:
			code = errkind.MethodNotFound
		case w.status >= 500:
			code = errkind.InternalError
		}
		w.Header().Del("X-Content-Type-Options")
		w.f.refuse(w.ResponseWriter, w.r, w.status, w.id, code, wire.Printable(strings.TrimSpace(w.held.String())))
	case holdJSON:
		b := w.held.Bytes()
		if id, at, ok := wire.AnswerID(b); ok && !bytes.Equal(id, w.id) {
			b = append(append(b[:at:at], w.id...), b[at+len(id):]...)
			if w.Header().Get("Content-Length") != "" {
				w.Header().Set("Content-Length", strconv.Itoa(len(b)))
			}
		}
		w.ResponseWriter.WriteHeader(w.status)
		w.ResponseWriter.Write(b)
	}
}

func (f *Front) hostAllowed(hostport string) bool {
	return f.nameAllowed(hostname(hostport))
}

func (f *Front) nameAllowed(name string) bool {
	if name == "" {
		return false
	}
	allowed := f.AllowedHosts
	if allowed == nil {
		allowed = loopback
	}
	for _, a := range allowed {
		if a == "*" || strings.EqualFold(strings.Trim(a, "[]"), name) {
			return true
		}
	}
	return false
}

func (f *Front) originAllowed(origin string) bool {
	for _, o := range f.AllowedOrigins {
		if o == "*" || strings.EqualFold(strings.TrimSuffix(o, "/"), origin) {
			return true
		}
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return f.nameAllowed(hostname(u.Host))
}

// hostname strips the port and the brackets of an IPv6 literal.
func hostname(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return strings.Trim(hostport, "[]")
}

package envelope

import (
	"encoding/json"
	"mime"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/mcperr/mcperr/errkind"
)

// RPCError is the error member of a JSON-RPC error response: a protocol
// error, meaning the request never reached a tool.
type RPCError struct {
	Code    errkind.Code `json:"code"`
	Message string       `json:"message"`
	Data    any          `json:"data,omitempty"`
}

// Error returns "jsonrpc <code>: <message>".
func (e *RPCError) Error() string {
	return "jsonrpc " + strconv.Itoa(int(e.Code)) + ": " + e.Message
}

// rpcResponse is a JSON-RPC error response.
type rpcResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   *RPCError       `json:"error"`
}

var null = json.RawMessage("null")

// WriteRPCError writes the JSON-RPC error response
//
//	{"jsonrpc":"2.0","id":<id>,"error":{"code":...,"message":...,"data":...}}
//
// with Content-Type: application/json and the given status (0 means
// e.Code.HTTPStatus()). An id that is nil or not valid JSON is written as
// null, as JSON-RPC requires when the request's id is unknown.
func WriteRPCError(w http.ResponseWriter, status int, id json.RawMessage, e *RPCError) {
	if status == 0 {
		status = e.Code.HTTPStatus()
	}
	if len(id) == 0 || !json.Valid(id) {
		id = null
	}
	b, err := json.Marshal(rpcResponse{JSONRPC: "2.0", ID: id, Error: e})
	if err != nil {
		// Data did not marshal; send the error without it.
		b, _ = json.Marshal(rpcResponse{JSONRPC: "2.0", ID: id, Error: &RPCError{Code: e.Code, Message: e.Message}})
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(b)+1))
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

// Front is an http.Handler that answers the transport-level refusals of MCP
// over Streamable HTTP before a request reaches the MCP endpoint, checking in
// this order:
//
//	Host or Origin not on the allowlist      403 (no JSON-RPC body)
//	path not Path and not a Public path      404, -32601
//	method other than POST                   405, -32600, Allow: POST
//	Content-Type other than application/json 415, -32600
//
// Every JSON-RPC body it writes has Content-Type: application/json and id
// null. A request that passes every check goes to Handler.
//
// A request for a Public path goes to Handler after the Host and Origin
// check only, whatever its method and Content-Type: Front does not answer
// 405 or 415 there, so a POST or DELETE to "/health" reaches Handler too.
// A public endpoint that should answer only GET and HEAD checks the method
// itself.
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
		WriteRPCError(w, http.StatusNotFound, nil, &RPCError{Code: errkind.MethodNotFound,
			Message: "Not found: the MCP endpoint is " + path})
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		WriteRPCError(w, http.StatusMethodNotAllowed, nil, &RPCError{Code: errkind.InvalidRequest,
			Message: "Method not allowed: use POST"})
		return
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		WriteRPCError(w, http.StatusUnsupportedMediaType, nil, &RPCError{Code: errkind.InvalidRequest,
			Message: "Unsupported Media Type: Content-Type must be application/json"})
		return
	}
	if f.Handler == nil {
		WriteRPCError(w, http.StatusInternalServerError, nil, &RPCError{Code: errkind.InternalError,
			Message: "no handler"})
		return
	}
	f.Handler.ServeHTTP(w, r)
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

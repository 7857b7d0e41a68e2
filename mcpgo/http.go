package mcpgo

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/mcperr/mcperr/adapter/session"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/front"
	"github.com/mcperr/mcperr/ratelimit"
	"github.com/mcperr/mcperr/wire"
)

// Count says which messages take a token from a client's bucket: the
// Count of front.Limit.
type Count = front.Count

const (
	// ToolCalls counts tools/call requests only: the handshake,
	// notifications, tools/list and pings pass free. A refused call is
	// answered with HTTP 200 and a tool result of kind rate_limited whose
	// retryAfterSeconds is the wait, so the agent reads it; the response
	// carries Retry-After and the rate-limit headers too. It is the
	// default.
	ToolCalls = front.ToolCalls

	// Messages counts every POST to the endpoint, the handshake included.
	// A refused message is answered with HTTP 429, Retry-After, the
	// rate-limit headers and a JSON-RPC error body, code -32000, whose data
	// is the rate_limited kind object.
	Messages = front.Messages
)

// HTTPOptions configures HTTPHandler. The zero value serves stateless MCP
// at /mcp to loopback Host names, without limits.
type HTTPOptions struct {
	// Validator, the one Validate returned for the server, answers the
	// tools/call refusals mcp-go would otherwise answer itself (an unknown
	// tool, a hint-dialect -32602) before mcp-go reads the message.
	Validator *Validator

	// Path is the MCP endpoint's path; "" means "/mcp".
	Path string

	// AllowedHosts and AllowedOrigins are the Host and Origin allowlist:
	// nil AllowedHosts means the loopback names (localhost, 127.0.0.1, ::1)
	// with any port, an entry "*" accepts any; AllowedOrigins adds origins
	// written scheme://host[:port]. A request from elsewhere gets 403.
	AllowedHosts, AllowedOrigins []string

	// Streamable are further options of the SDK's Streamable HTTP server,
	// after the ones HTTPHandler sets: the endpoint path, stateless, and
	// no localhost protection (the allowlist does that job). Sessions are
	// Stateful's job: its session manager comes after these, and a
	// server.WithStateful here, without Stateful, keeps an idle session
	// for ever.
	Streamable []server.StreamableHTTPOption

	// Stateful keeps a session per initialize, as server.WithStateful
	// does, and ends it when the client sends DELETE, when no request has
	// named it for SessionTimeout, or when its client (Key) opens more
	// than MaxSessions; each initialize takes a token of the Limiter
	// whatever Count says (front.Limit.Sessions).
	Stateful bool

	// SessionTimeout is how long a session of a Stateful server may stay
	// idle; zero means ten minutes, a negative value never
	// ends an idle session.
	SessionTimeout time.Duration

	// MaxSessions is how many sessions of a Stateful server one client
	// (Key; an empty key is not bounded) may hold: opening one more ends
	// its least recently used one. Zero means 100, a
	// negative value no bound.
	MaxSessions int

	// MaxBytes bounds a request body; 0 means 4 MiB, and a negative value
	// wire.MaxMessageBytes, the most the message check accepts.
	MaxBytes int64

	// Limiter, if set, limits each client: Count says what takes a token,
	// and Key names the client's bucket (nil means the source address,
	// ratelimit.SourceIP; an empty key is not limited).
	Limiter *ratelimit.Limiter
	Key     func(*http.Request) string
	Count   Count

	// Refuse, if set, writes a refusal of the Limiter in the server's own
	// envelope, in place of the answers Count describes; the decision's
	// headers (Retry-After and the rate-limit fields) are already set.
	// Its answer passes through the front like every answer past it: one
	// with Content-Type: application/json reaches the client as written,
	// and a plain-text one of status 400 or more becomes a JSON-RPC error
	// carrying the request's id.
	Refuse func(w http.ResponseWriter, r *http.Request, d ratelimit.Decision)

	// Gate, if set, runs the server's own checks that need only the
	// request's headers, such as an API key. It is the front's Gate
	// (front.Front.Gate): it sees each POST to Path that passed the Host,
	// Origin, path, method and Content-Type checks, before a byte of its
	// body is read, and so before the body checks and the limits, and each
	// DELETE that ends a session. It returns false after writing its own
	// answer, which reaches the client as written, and true to let the
	// request on.
	Gate func(w http.ResponseWriter, r *http.Request) bool

	// Wrap, if set, wraps the SDK's handler: the handler it returns sees
	// each message that passed the front, the limits and the Validator,
	// reads it with front.Checked, and answers it itself (a server's own
	// protocol refusals) or passes it on to the SDK's handler.
	Wrap func(sdk http.Handler) http.Handler

	// Public maps other paths, such as "/health", to the handlers that
	// serve them. The front checks only their Host and Origin: every
	// method, Content-Type and body reaches the handler, unlimited.
	Public map[string]http.Handler
}

// HTTPHandler serves s over Streamable HTTP with the SDK's own server,
// behind a front that answers every refusal at the transport with the status
// and JSON-RPC body a client expects, in this order:
//
//	Host or Origin not on the allowlist      403
//	path other than Path                     404, -32601
//	DELETE with Mcp-Session-Id               Gate, then mcp-go ends the session
//	method other than POST                   405, -32600, Allow: POST
//	Content-Type other than application/json 415, -32600
//	Gate's own checks                        as Gate answers
//	body larger than MaxBytes                413, -32600
//	body not JSON                            400, -32700
//	a batch, or not a JSON-RPC message       400, -32600 (id null unless it was read)
//	client over its limit                    429, -32000 (Messages) or a rate_limited result (ToolCalls)
//	tools/call the Validator refuses         200, the dialect's answer
//	Wrap's own checks                        as Wrap answers
//
// The front (package front) does every check down to the message's: it
// reads the body once, bounded by MaxBytes, checks it as one JSON-RPC
// message with the rule the stdio transport applies too, and puts the
// request's id back as sent into every answer, or refuses an id it cannot
// echo byte for byte with -32600 and id null. The limits and the Validator
// read that checked message (front.Checked); mcp-go reads the body last.
// Every JSON-RPC body it writes has Content-Type: application/json.
func HTTPHandler(s *server.MCPServer, o *HTTPOptions) http.Handler {
	if o == nil {
		o = &HTTPOptions{}
	}
	path := o.Path
	if path == "" {
		path = "/mcp"
	}
	opts := append([]server.StreamableHTTPOption{
		server.WithEndpointPath(path),
		server.WithStateLess(true),
		server.WithDisableLocalhostProtection(true), // the front's allowlist checks Host and Origin
	}, o.Streamable...)
	maxBody := o.MaxBytes
	switch {
	case maxBody == 0:
		maxBody = 4 << 20
	case maxBody < 0:
		maxBody = wire.MaxMessageBytes
	}
	h := &httpHandler{
		validator: o.Validator,
		limit:     front.Limit{Limiter: o.Limiter, Key: o.Key, Count: o.Count, Refuse: o.Refuse, Sessions: o.Stateful},
		public:    o.Public,
		path:      path,
	}
	if o.Stateful {
		idle, max := o.SessionTimeout, o.MaxSessions
		if idle == 0 {
			idle = session.IdleTimeout
		}
		if max == 0 {
			max = session.MaxPerClient
		}
		h.sessions = session.New(max, idle)
		h.key = o.Key
		if h.key == nil {
			h.key = ratelimit.SourceIP
		}
		opts = append(opts, server.WithSessionIdManager(sessions{h.sessions}))
	}
	h.sdk = server.NewStreamableHTTPServer(s, opts...)
	h.end = h.sdk
	if o.Wrap != nil {
		h.sdk = o.Wrap(h.sdk)
	}
	return &front.Front{Handler: h, Path: o.Path, AllowedHosts: o.AllowedHosts, AllowedOrigins: o.AllowedOrigins,
		Public: slices.Collect(maps.Keys(o.Public)), Gate: o.Gate, MaxBytes: maxBody}
}

type httpHandler struct {
	sdk       http.Handler // behind Wrap
	end       http.Handler // mcp-go's own, for a DELETE that ends a session
	validator *Validator
	limit     front.Limit
	public    map[string]http.Handler
	path      string
	sessions  *session.Table             // nil unless Stateful
	key       func(*http.Request) string // the client of a session
}

// ServeHTTP serves a request the front passed: a Public path goes to its
// handler; a DELETE ending a session goes to mcp-go, which frees it; for
// the MCP endpoint the limits take what the message costs, the Validator
// answers the calls it refuses, and mcp-go (behind Wrap) serves the rest.
// A Stateful handler first ends the sessions left idle.
func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.sessions != nil {
		h.endSessions(r.Context(), h.sessions.Expired(time.Now()))
	}
	m := front.Checked(r)
	if m == nil { // a Public path, or a DELETE to the endpoint: no message
		if p, ok := h.public[r.URL.Path]; ok {
			p.ServeHTTP(w, r)
			return
		}
		h.end.ServeHTTP(w, r)
		return
	}
	if !h.limit.Admit(w, r, m) {
		return
	}
	if h.validator != nil && m.Type == wire.RequestMessage && m.Method == string(mcp.MethodToolsCall) {
		if resp, refused := h.validator.screenCall(m.ID, m.Params); refused {
			if e, ok := resp.(mcp.JSONRPCError); ok { // the hint dialect: HTTP 200, as mcp-go answers its own
				wire.WriteRPCError(w, http.StatusOK, m.ID, &wire.RPCError{Code: errkind.RPCCode(e.Error.Code), Message: e.Error.Message, Data: e.Error.Data})
				return
			}
			writeJSON(w, resp)
			return
		}
		r = r.WithContext(context.WithValue(r.Context(), checkedKey{}, true))
	}
	if id := r.Header.Get("Mcp-Session-Id"); id != "" && h.sessions != nil {
		h.sessions.Begin(id, time.Now())
		defer func() { h.sessions.Done(id, time.Now()) }()
	}
	h.sdk.ServeHTTP(w, r)
	if h.sessions != nil && m.Method == string(mcp.MethodInitialize) {
		if id := w.Header().Get("Mcp-Session-Id"); id != "" { // the session mcp-go opened
			h.endSessions(r.Context(), h.sessions.Open(id, h.key(r), time.Now()))
		}
	}
}

// writeJSON writes a JSON-RPC result response with HTTP 200.
func writeJSON(w http.ResponseWriter, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // "<=8 items" as the text says it, as the go-sdk writes it
	err := enc.Encode(v)
	b := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	if err != nil {
		wire.WriteRPCError(w, http.StatusInternalServerError, nil, &wire.RPCError{Code: errkind.InternalError, Message: "Internal error: the answer could not be encoded."})
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)+1))
	w.WriteHeader(http.StatusOK)
	w.Write(append(b, '\n'))
}

// endSessions ends sessions the table let go (idle, or over a client's
// bound) as a client's DELETE does, so that mcp-go frees all it holds for
// them.
func (h *httpHandler) endSessions(ctx context.Context, ids []string) {
	for _, id := range ids {
		r, err := http.NewRequestWithContext(context.WithoutCancel(ctx), http.MethodDelete, h.path, nil)
		if err != nil {
			return
		}
		r.Header.Set("Mcp-Session-Id", id)
		h.end.ServeHTTP(discard{http.Header{}}, r)
	}
}

// discard is the ResponseWriter of a DELETE no client sent.
type discard struct{ h http.Header }

func (d discard) Header() http.Header         { return d.h }
func (d discard) Write(b []byte) (int, error) { return len(b), nil }
func (d discard) WriteHeader(int)             {}

// sessions is the session id manager of a Stateful HTTPHandler, on the
// adapters' table of live sessions: it forgets a session once it ends, so
// that what it holds is bounded by the live ones (mcp-go's own stateful
// manager remembers every ended session for ever).
type sessions struct{ t *session.Table }

var errNoSession = errors.New("mcpgo: no such session")

// Generate starts a session; the handler records its client once mcp-go
// has answered the initialize.
func (s sessions) Generate() string {
	id := rand.Text()
	s.t.Open(id, "", time.Now())
	return id
}

// Validate reports whether id names a live session, and marks it used.
func (s sessions) Validate(id string) (isTerminated bool, err error) {
	if !s.t.Touch(id, time.Now()) {
		return false, errNoSession // mcp-go answers 404; the client starts a new session
	}
	return false, nil
}

// Terminate ends a session.
func (s sessions) Terminate(id string) (isNotAllowed bool, err error) {
	s.t.End(id)
	return false, nil
}

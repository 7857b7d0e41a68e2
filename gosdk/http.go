package gosdk

import (
	"maps"
	"net/http"
	"slices"
	"time"

	"github.com/mcperr/mcperr/adapter/session"
	"github.com/mcperr/mcperr/front"
	"github.com/mcperr/mcperr/ratelimit"
	"github.com/mcperr/mcperr/wire"
	"github.com/modelcontextprotocol/go-sdk/mcp"
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
	// Path is the MCP endpoint's path; "" means "/mcp".
	Path string

	// AllowedHosts and AllowedOrigins are the Host and Origin allowlist:
	// nil AllowedHosts means the loopback names (localhost, 127.0.0.1, ::1)
	// with any port, an entry "*" accepts any; AllowedOrigins adds origins
	// written scheme://host[:port]. A request from elsewhere gets 403.
	AllowedHosts, AllowedOrigins []string

	// Streamable configures the SDK's Streamable HTTP handler; nil means
	// stateless with JSON responses. Its DisableLocalhostProtection is set,
	// since the allowlist does that job. A stateful handler (Stateless
	// false) keeps a session per initialize: a client's DELETE ends it,
	// SessionTimeout zero means ten minutes (the SDK's zero
	// would keep an idle session for ever; a negative one still does), a
	// client (Key) holds at most MaxSessions, and each initialize takes a
	// token of the Limiter whatever Count says (front.Limit.Sessions).
	Streamable *mcp.StreamableHTTPOptions

	// MaxSessions is how many sessions of a stateful server one client
	// (Key; an empty key is not bounded) may hold: opening one more ends
	// its least recently used one. Zero means 100, a
	// negative value no bound.
	MaxSessions int

	// Limiter, if set, limits each client: Count says what takes a token,
	// and Key names the client's bucket (nil means the source address,
	// ratelimit.SourceIP; an empty key is not limited).
	Limiter *ratelimit.Limiter
	Key     func(*http.Request) string
	Count   Count

	// Refuse, if set, writes a refusal of the Limiter in the server's own
	// envelope, in place of the answers Count describes; the decision's
	// headers (Retry-After and the rate-limit fields) are already set.
	// Its answer passes through the front like every answer past
	// it: one with Content-Type: application/json reaches the client as
	// written, and a plain-text one of status 400 or more becomes a
	// JSON-RPC error carrying the request's id.
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
	// each message that passed the front and the limits, reads it with
	// front.Checked, and answers it itself (a server's own protocol
	// refusals) or passes it on to the SDK's handler.
	Wrap func(sdk http.Handler) http.Handler

	// Public maps other paths, such as "/health", to the handlers that
	// serve them. The front checks only their Host and Origin: every
	// method, Content-Type and body reaches the handler, unlimited.
	Public map[string]http.Handler
}

// HTTPHandler serves s over Streamable HTTP with the SDK's own handler,
// behind a front that answers every refusal at the transport with the status
// and JSON-RPC body a client expects, in this order:
//
//	Host or Origin not on the allowlist      403
//	path other than Path                     404, -32601
//	DELETE with Mcp-Session-Id               Gate, then the SDK ends the session
//	method other than POST                   405, -32600, Allow: POST
//	Content-Type other than application/json 415, -32600
//	Gate's own checks                        as Gate answers
//	body larger than the SDK's bound         413, -32600
//	body not JSON                            400, -32700
//	a batch, or not a JSON-RPC message       400, -32600 (id null unless it was read)
//	client over its limit                    429, -32000 (Messages) or a rate_limited result (ToolCalls)
//	Wrap's own checks                        as Wrap answers
//
// The front (package front) does every check down to the message's: it
// reads the body once, bounded by the SDK's MaxRequestBodyBytes (a negative
// one by wire.MaxMessageBytes), checks it as one JSON-RPC message with the
// rule the stdio transport applies too, and puts the request's id back as
// sent into every answer, or refuses an id it cannot echo byte for byte
// with -32600 and id null. The limits read that checked message
// (front.Checked); the SDK reads the body last. Every JSON-RPC body it
// writes has Content-Type: application/json.
func HTTPHandler(s *mcp.Server, o *HTTPOptions) http.Handler {
	if o == nil {
		o = &HTTPOptions{}
	}
	so := mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}
	if o.Streamable != nil {
		so = *o.Streamable
	}
	so.DisableLocalhostProtection = true // the front's allowlist checks Host and Origin
	if !so.Stateless && so.SessionTimeout == 0 {
		so.SessionTimeout = session.IdleTimeout
	}
	maxBody := so.MaxRequestBodyBytes
	switch {
	case maxBody == 0:
		maxBody = mcp.DefaultMaxRequestBodyBytes
	case maxBody < 0: // the SDK's "no bound": the most the message check accepts
		maxBody = wire.MaxMessageBytes
	}
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &so)
	h := &httpHandler{
		sdk:    sdk,
		end:    sdk,
		limit:  front.Limit{Limiter: o.Limiter, Key: o.Key, Count: o.Count, Refuse: o.Refuse, Sessions: !so.Stateless},
		public: o.Public,
		server: s,
	}
	if !so.Stateless {
		max := o.MaxSessions
		if max == 0 {
			max = session.MaxPerClient
		}
		h.sessions = session.New(max, so.SessionTimeout) // a negative one: the SDK's "never", the table's too
		h.key = o.Key
		if h.key == nil {
			h.key = ratelimit.SourceIP
		}
	}
	if o.Wrap != nil {
		h.sdk = o.Wrap(h.sdk)
	}
	return &front.Front{Handler: h, Path: o.Path, AllowedHosts: o.AllowedHosts, AllowedOrigins: o.AllowedOrigins,
		Public: slices.Collect(maps.Keys(o.Public)), Gate: o.Gate, MaxBytes: maxBody}
}

type httpHandler struct {
	sdk    http.Handler // behind Wrap
	end    http.Handler // the SDK's own, for a DELETE that ends a session
	limit  front.Limit
	public map[string]http.Handler

	server   *mcp.Server
	sessions *session.Table             // nil for a stateless server
	key      func(*http.Request) string // the client of a session
}

// ServeHTTP serves a request the front passed: a Public path goes to its
// handler; a DELETE ending a session goes to the SDK, which frees it (or,
// stateless, answers 405); for the MCP endpoint the limits take what the
// message costs, and the SDK (behind Wrap) serves what they admit.
func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	m := front.Checked(r)
	if m == nil { // a Public path, or a DELETE to the endpoint: no message
		if p, ok := h.public[r.URL.Path]; ok {
			p.ServeHTTP(w, r)
			return
		}
		h.end.ServeHTTP(w, r)
		if h.sessions != nil { // a session the SDK kept (another user's) still ends at its SessionTimeout
			h.sessions.End(r.Header.Get("Mcp-Session-Id"))
		}
		return
	}
	if !h.limit.Admit(w, r, m) {
		return
	}
	if h.sessions == nil {
		h.sdk.ServeHTTP(w, r)
		return
	}
	now := time.Now()
	h.endSessions(h.sessions.Expired(now))
	if id := r.Header.Get("Mcp-Session-Id"); id != "" {
		h.sessions.Begin(id, now)
		defer func() { h.sessions.Done(id, time.Now()) }()
	}
	h.sdk.ServeHTTP(w, r)
	if id := w.Header().Get("Mcp-Session-Id"); id != "" && m.Method == "initialize" { // the session the SDK opened
		h.endSessions(h.sessions.Open(id, h.key(r), time.Now()))
	}
}

// endSessions closes the sessions the table let go (idle, or over a
// client's bound); the SDK then frees what they hold.
func (h *httpHandler) endSessions(ids []string) {
	if len(ids) == 0 {
		return
	}
	end := make(map[string]bool, len(ids))
	for _, id := range ids {
		end[id] = true
	}
	for ss := range h.server.Sessions() {
		if end[ss.ID()] {
			ss.Close()
		}
	}
}

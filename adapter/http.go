package adapter

import (
	"context"
	"maps"
	"net/http"
	"slices"
	"time"

	"github.com/mcperr/mcperr/adapter/session"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/front"
	"github.com/mcperr/mcperr/ratelimit"
	"github.com/mcperr/mcperr/wire"
)

// HTTP is what the HTTP options of every adapter share, whatever the SDK
// behind them: the front's checks (package front), the per-client limits,
// the bound on one client's sessions, Wrap and Public. gosdk.HTTPOptions
// and mcpgo.HTTPOptions embed it; an adapter for another SDK serves its
// SDK's handler behind it with Handler. The zero value serves the MCP
// endpoint at /mcp to loopback Host names, without limits.
type HTTP struct {
	// Path is the MCP endpoint's path; "" means "/mcp".
	Path string

	// AllowedHosts and AllowedOrigins are the Host and Origin allowlist:
	// nil AllowedHosts means the loopback names (localhost, 127.0.0.1, ::1)
	// with any port, an entry "*" accepts any; AllowedOrigins adds origins
	// written scheme://host[:port]. A request from elsewhere gets 403.
	AllowedHosts, AllowedOrigins []string

	// MaxSessions is how many sessions of a stateful server one client
	// (Key; an empty key is not bounded) may hold: opening one more ends
	// its least recently used one. Zero means session.MaxPerClient (100), a
	// negative value no bound.
	MaxSessions int

	// Limiter, if set, limits each client: Count says what takes a token,
	// and Key names the client's bucket (nil means the source address,
	// ratelimit.SourceIP; an empty key is not limited). Key also names the
	// client whose sessions MaxSessions bounds.
	Limiter *ratelimit.Limiter
	Key     func(*http.Request) string
	Count   Unit

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
	// each message that passed the front, the limits and the adapter's own
	// screen (Backend.Screen), reads it with front.Checked, and answers it
	// itself (a server's own protocol refusals) or passes it on to the
	// SDK's handler.
	Wrap func(sdk http.Handler) http.Handler

	// Public maps other paths, such as "/health", to the handlers that
	// serve them. The front checks only their Host and Origin: every
	// method, Content-Type and body reaches the handler, unlimited.
	Public map[string]http.Handler

	// OnFailure, if set, hears every refusal the handler writes itself,
	// after writing it: the front's (Stage Protocol, with the HTTP status)
	// and the Limiter's (Stage Limited). What the SDK answers (arguments,
	// tools) reaches the adapter's validation hook instead. Log(nil) logs
	// them.
	OnFailure func(ctx context.Context, f Failure)
}

// A Backend is the SDK's side of the handler HTTP.Handler returns.
type Backend struct {
	// SDK is the SDK's Streamable HTTP handler. It serves each message that
	// passed the front, the limits and Screen (behind HTTP.Wrap), and each
	// DELETE to the endpoint (not wrapped), which ends a session.
	SDK http.Handler

	// MaxBytes bounds a request body as the SDK bounds it: a negative value
	// means wire.MaxMessageBytes (the SDK's "no bound" becomes the most the
	// message check accepts), zero the front's default.
	MaxBytes int64

	// Sessions is the table of a stateful endpoint's live sessions
	// (HTTP.Sessions makes it); nil for a stateless endpoint.
	Sessions *session.Table

	// End ends in the SDK the sessions the table let go (idle, or over
	// their client's bound), so that the SDK frees what they hold. It is
	// called only when Sessions is set.
	End func(ctx context.Context, ids []string)

	// Screen, if set, sees each message the limits admitted, before Wrap
	// and the SDK: it answers the message itself and returns nil, or
	// returns the request to pass on (r, or r with a context of its own).
	Screen func(w http.ResponseWriter, r *http.Request, m *wire.Message) *http.Request
}

// Sessions returns the table of live sessions of a stateful endpoint: each
// client (Key) holds at most MaxSessions, and a session idle for longer than
// idle ends (zero means session.IdleTimeout, a negative value never).
func (o *HTTP) Sessions(idle time.Duration) *session.Table {
	if idle == 0 {
		idle = session.IdleTimeout
	}
	max := o.MaxSessions
	if max == 0 {
		max = session.MaxPerClient
	}
	return session.New(max, idle)
}

// Handler returns the handler that serves b behind o, in this order: the
// front (front.Front: the Host and Origin allowlist, Path, Gate, the body
// bound and the message check), a Public path's handler, the limits
// (Limit; with b.Sessions an initialize always takes a token),
// b.Screen, Wrap, and the SDK. With b.Sessions, it also keeps the table:
// each request first ends the sessions left idle, a request naming a
// session marks it busy until answered, the session an initialize opened is
// recorded for its client (ending that client's least recently used one
// past MaxSessions), and a DELETE forgets the session it ends.
func (o *HTTP) Handler(b Backend) http.Handler {
	maxBytes := b.MaxBytes
	if maxBytes < 0 {
		maxBytes = wire.MaxMessageBytes
	}
	h := &handler{
		sdk:      b.SDK,
		end:      b.SDK,
		limit:    Limit{Limiter: o.Limiter, Key: o.Key, Count: o.Count, Refuse: o.Refuse, Sessions: b.Sessions != nil, OnFailure: o.OnFailure},
		public:   o.Public,
		screen:   b.Screen,
		sessions: b.Sessions,
		close:    b.End,
		key:      o.Key,
	}
	if h.key == nil {
		h.key = ratelimit.SourceIP
	}
	if o.Wrap != nil {
		h.sdk = o.Wrap(h.sdk)
	}
	f := &front.Front{Handler: h, Path: o.Path, AllowedHosts: o.AllowedHosts, AllowedOrigins: o.AllowedOrigins,
		Public: slices.Collect(maps.Keys(o.Public)), Gate: o.Gate, MaxBytes: maxBytes}
	if hook := o.OnFailure; hook != nil {
		f.OnRefuse = func(r *http.Request, status int, e *wire.RPCError) {
			fl := Failure{Stage: Protocol, HTTPStatus: status, Reading: errkind.Read(errkind.Outcome{RPCCode: e.Code, Message: e.Message})}
			if m := front.Checked(r); m != nil {
				fl.Method = m.Method
			}
			hook(r.Context(), fl)
		}
	}
	return f
}

type handler struct {
	sdk      http.Handler // behind Wrap
	end      http.Handler // the SDK's own, for a DELETE that ends a session
	limit    Limit
	public   map[string]http.Handler
	screen   func(w http.ResponseWriter, r *http.Request, m *wire.Message) *http.Request
	sessions *session.Table // nil for a stateless endpoint
	close    func(ctx context.Context, ids []string)
	key      func(*http.Request) string // the client of a session
}

// ServeHTTP serves a request the front passed: a Public path goes to its
// handler; a DELETE ending a session goes to the SDK, which frees it (or,
// stateless, answers it as it does); for the MCP endpoint the limits take
// what the message costs, the screen answers what it refuses, and the SDK
// (behind Wrap) serves the rest.
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
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
		if h.sessions != nil { // a session the SDK kept (another user's) still ends when idle
			h.sessions.End(r.Header.Get("Mcp-Session-Id"))
		}
		return
	}
	if !h.limit.Admit(w, r, m) {
		return
	}
	if h.screen != nil {
		if r = h.screen(w, r, m); r == nil {
			return
		}
	}
	if h.sessions == nil {
		h.sdk.ServeHTTP(w, r)
		return
	}
	if id := r.Header.Get("Mcp-Session-Id"); id != "" {
		h.sessions.Begin(id, time.Now())
		defer func() { h.sessions.Done(id, time.Now()) }()
	}
	h.sdk.ServeHTTP(w, r)
	if id := w.Header().Get("Mcp-Session-Id"); id != "" && m.Method == "initialize" { // the session the SDK opened
		h.endSessions(r.Context(), h.sessions.Open(id, h.key(r), time.Now()))
	}
}

// endSessions has the SDK end the sessions the table let go.
func (h *handler) endSessions(ctx context.Context, ids []string) {
	if len(ids) > 0 && h.close != nil {
		h.close(ctx, ids)
	}
}

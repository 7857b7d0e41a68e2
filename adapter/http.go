package adapter

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/mcperr/mcperr/adapter/session"
	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/front"
	"github.com/mcperr/mcperr/ratelimit"
	"github.com/mcperr/mcperr/ratelimit/header"
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
	// (Key; an empty key has no bound of its own) may hold at once. Zero
	// means session.MaxPerClient (100), a negative value no bound.
	// MaxTotalSessions is how many all clients together may hold; zero
	// means session.MaxTotal (10,000), a negative value no bound. An
	// initialize past either bound is refused, never an established session
	// ended: past MaxSessions with HTTP 429 and a rate_limited error, past
	// MaxTotalSessions with 503 and an unavailable one (see Handler). A
	// session idle past its timeout is never counted.
	MaxSessions, MaxTotalSessions int

	// Limiter, if set, limits each client: Count says what takes a token,
	// and Key names the client's bucket (an empty key is not limited).
	// Key also names the client whose sessions MaxSessions bounds.
	//
	// A client is what the server can trust to tell clients apart. Key nil
	// means SourceKey: the address the connection came from, an IPv6
	// address by its /64 prefix (AddrKey), so that one network cannot
	// take a client's share by sending from many addresses. Behind a
	// proxy or a shared NAT every client has the proxy's address: a server
	// there keys on what it trusts, such as an address its own proxy sets
	// in a header (read with AddrKey) or an authenticated subject.
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
// client (Key) holds at most MaxSessions, all of them together at most
// MaxTotalSessions, and a session idle for longer than idle ends (zero
// means session.IdleTimeout, a negative value never).
func (o *HTTP) Sessions(idle time.Duration) *session.Table {
	if idle == 0 {
		idle = session.IdleTimeout
	}
	return session.New(bound(o.MaxSessions, session.MaxPerClient), bound(o.MaxTotalSessions, session.MaxTotal), idle)
}

// bound returns n, or def when n is zero.
func bound(n, def int) int {
	if n == 0 {
		return def
	}
	return n
}

// Handler returns the handler that serves b behind o, in this order: the
// front (front.Front: the Host and Origin allowlist, Path, Gate, the body
// bound and the message check), a Public path's handler, the limits
// (Limit; with b.Sessions an initialize always takes a token),
// b.Screen, Wrap, and the SDK. With b.Sessions, it also keeps the table:
// each request first ends the sessions left idle, a request naming a
// session marks it busy until answered, the session an initialize opened is
// recorded for its client, and a DELETE forgets the session it ends.
//
// An initialize (naming no session) past the sessions' bounds is refused
// before the SDK sees it, with Retry-After (the time until the idle timeout
// can end one of the sessions counted, at least a second) and a JSON-RPC
// error carrying the request's id, code -32000 (-31000 from revision
// 2026-07-28 on), whose data is a kind object with the same wait:
//
//	client at MaxSessions       429, rate_limited:
//	                            "Too many sessions: this client holds 100, its bound; end one (DELETE) or retry after 600 seconds."
//	all at MaxTotalSessions     503, unavailable, "server_full":
//	                            "Server full: it holds 10000 sessions, its bound; retry after 600 seconds."
//
// A client over its own bound is told 429, as it is over its rate limit,
// and the server at its total 503, as a server out of capacity: the status
// says whose doing it is, and both carry the wait. The MCP specification
// names no answer for a session refused; the TypeScript client hands its
// caller any such status with the body, and mcp-go's client the message,
// and errkind.Read reads the kind and the wait from either, where a 404
// would tell a client its session ended and have it initialize again at
// once.
// OnFailure hears them as Stage Limited.
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
		h.key = SourceKey
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
		h.sdk.ServeHTTP(w, r)
		return
	}
	if m.Method != "initialize" {
		h.sdk.ServeHTTP(w, r)
		return
	}
	key := h.key(r)
	end, err := h.sessions.Reserve(key, time.Now())
	h.endSessions(r.Context(), end)
	if err != nil {
		h.refuse(w, r, m, err)
		return
	}
	defer h.sessions.Release(key)
	h.sdk.ServeHTTP(w, r)
	if id := w.Header().Get("Mcp-Session-Id"); id != "" { // the session the SDK opened
		h.sessions.Open(id, key, time.Now())
	}
}

// refuse answers an initialize the sessions' bounds refused (see Handler).
func (h *handler) refuse(w http.ResponseWriter, r *http.Request, m *wire.Message, err error) {
	var f *session.Full
	errors.As(err, &f) // Reserve's only error
	wait := f.Wait
	if wait <= 0 { // no idle timeout: no session ends by itself
		wait = header.DefaultRetryAfter
	}
	secs := int64((wait + time.Second - 1) / time.Second)
	e := &envelope.Error{Kind: errkind.RateLimited, RetryAfter: time.Duration(secs) * time.Second, // the kind object of a limit: its kind and wait
		Message: fmt.Sprintf("Too many sessions: this client holds %d, its bound; end one (DELETE) or retry after %d seconds.", f.Max, secs)}
	status := http.StatusTooManyRequests
	if f.Total {
		e.Kind, e.Code, status = errkind.Unavailable, "server_full", http.StatusServiceUnavailable
		e.Message = fmt.Sprintf("Server full: it holds %d sessions, its bound; retry after %d seconds.", f.Max, secs)
	}
	w.Header().Set("Retry-After", strconv.FormatInt(secs, 10))
	wire.WriteRPCError(w, status, m.ID, &wire.RPCError{Code: errkind.ImplementationDefined.On(httpRevision(r, m)), Message: e.Message, Data: e})
	if hook := h.limit.OnFailure; hook != nil {
		obj, _ := e.Object().MarshalJSON()
		hook(r.Context(), Failure{Stage: Limited, Method: m.Method, HTTPStatus: status, Reading: errkind.Read(errkind.Outcome{IsError: true, Text: string(obj)})})
	}
}

// endSessions has the SDK end the sessions the table let go.
func (h *handler) endSessions(ctx context.Context, ids []string) {
	if len(ids) > 0 && h.close != nil {
		h.close(ctx, ids)
	}
}

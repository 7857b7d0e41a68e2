package gosdk

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/adapter/session"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/front"
	"github.com/mcperr/mcperr/wire"
)

// Unit is what a limit counts, the Count of HTTPOptions (adapter.Unit,
// whose doc says how a refusal of each is answered).
type Unit = adapter.Unit

// The units: ToolCalls (the default: tools/call requests only) and
// Messages (every POST to the endpoint).
const (
	ToolCalls = adapter.ToolCalls
	Messages  = adapter.Messages
)

// HTTPOptions configures HTTPHandler. The zero value serves stateless MCP
// at /mcp to loopback Host names, without limits.
type HTTPOptions struct {
	// HTTP holds what every adapter's HTTP options share: Path, the Host
	// and Origin allowlist, MaxSessions and MaxTotalSessions, the Limiter
	// with its Key, Count and Refuse, Gate, Wrap and Public (see
	// adapter.HTTP).
	adapter.HTTP

	// Streamable configures the SDK's Streamable HTTP handler; nil means
	// stateless with JSON responses. Its DisableLocalhostProtection is set,
	// since the allowlist does that job. A stateful handler (Stateless
	// false) keeps a session per initialize: a client's DELETE ends it,
	// SessionTimeout zero means ten minutes (session.IdleTimeout; the SDK's
	// zero would keep an idle session for ever; a negative one still does),
	// a client (Key) holds at most MaxSessions (100) and all clients at
	// most MaxTotalSessions (10,000), an initialize past either refused
	// and no session ended for it, and each initialize takes a token of the
	// Limiter whatever Count says (adapter.Limit.Sessions).
	Streamable *mcp.StreamableHTTPOptions
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
//	client over its limit                    429, -32000 (-31000 on 2026-07-28; Messages) or a rate_limited result (ToolCalls)
//	initialize, client at MaxSessions        429, -32000 (-31000 on 2026-07-28), Retry-After (stateful)
//	initialize, all at MaxTotalSessions      503, -32000 (-31000 on 2026-07-28), Retry-After (stateful)
//	Wrap's own checks                        as Wrap answers
//
// The front (package front) does every check down to the message's: it
// reads the body once, bounded by the SDK's MaxRequestBodyBytes (a negative
// one by wire.MaxMessageBytes), checks it as one JSON-RPC message with the
// rule the stdio transport applies too, and puts the request's id back as
// sent into every answer, or refuses an id it cannot echo byte for byte
// with -32600 and id null. The limits read that checked message
// (front.Checked); the SDK reads the body last. Every JSON-RPC body it
// writes has Content-Type: application/json. The front, the limits and the
// sessions' bookkeeping are adapter.HTTP.Handler's.
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
	b := adapter.Backend{SDK: unknownMethods(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &so)), MaxBytes: so.MaxRequestBodyBytes}
	if b.MaxBytes == 0 {
		b.MaxBytes = mcp.DefaultMaxRequestBodyBytes
	}
	if !so.Stateless {
		b.Sessions = o.Sessions(so.SessionTimeout) // a negative one: the SDK's "never", the table's too
		b.End = func(_ context.Context, ids []string) { endSessions(s, ids) }
	}
	return o.Handler(b)
}

// endSessions closes the sessions the table let go (idle); the SDK then
// frees what they hold.
func endSessions(s *mcp.Server, ids []string) {
	end := make(map[string]bool, len(ids))
	for _, id := range ids {
		end[id] = true
	}
	for ss := range s.Sessions() {
		if end[ss.ID()] {
			ss.Close()
		}
	}
}

// standardMethods are the requests the go-sdk's server serves whatever
// the program adds (its serverMethodInfos).
var standardMethods = map[string]bool{
	"completion/complete": true, "server/discover": true, "initialize": true, "ping": true,
	"prompts/list": true, "prompts/get": true, "tools/list": true, "tools/call": true,
	"resources/list": true, "resources/templates/list": true, "resources/read": true,
	"logging/setLevel": true, "resources/subscribe": true, "subscriptions/listen": true,
	"resources/unsubscribe": true,
}

// unknownMethods has sdk answer a request for a method the server does
// not serve with -32601 (HTTP 404, as errkind.MethodNotFound travels), on
// every protocol revision, as the SDK answers it over stdio: the go-sdk's
// HTTP handler does so only from revision 2026-07-28 on, and before it
// answers 400 in plain text, which the front would make a -32600. A
// request is taken as one for an unknown method when its method is not
// one of the SDK's standard ones and the SDK refused it before serving it
// (a plain-text 400); a method the program added (AddReceivingCustomMethod)
// is served as the SDK serves it.
func unknownMethods(sdk http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m := front.Checked(r)
		if m == nil || m.Type != wire.RequestMessage || standardMethods[m.Method] {
			sdk.ServeHTTP(w, r)
			return
		}
		u := &unknownWriter{ResponseWriter: w}
		sdk.ServeHTTP(u, r)
		if u.refused {
			wire.WriteRPCError(w, errkind.MethodNotFound.HTTPStatus(), m.ID,
				&wire.RPCError{Code: errkind.MethodNotFound, Message: "method not found: " + strconv.Quote(m.Method)})
		}
	})
}

// unknownWriter passes an answer on, unless it is a plain-text 400: the
// SDK's refusal of a request before it serves it, which it drops.
type unknownWriter struct {
	http.ResponseWriter
	refused bool
}

func (u *unknownWriter) WriteHeader(code int) {
	if code == http.StatusBadRequest && strings.HasPrefix(u.Header().Get("Content-Type"), "text/plain") {
		u.refused = true
		u.Header().Del("Content-Type")
		u.Header().Del("X-Content-Type-Options")
		return
	}
	u.ResponseWriter.WriteHeader(code)
}

func (u *unknownWriter) Write(p []byte) (int, error) {
	if u.refused {
		return len(p), nil
	}
	return u.ResponseWriter.Write(p)
}

// Unwrap lets http.ResponseController reach the writer below (to flush a
// stream).
func (u *unknownWriter) Unwrap() http.ResponseWriter { return u.ResponseWriter }

// Flush flushes the writer below, when it can.
func (u *unknownWriter) Flush() {
	if f, ok := u.ResponseWriter.(http.Flusher); ok && !u.refused {
		f.Flush()
	}
}

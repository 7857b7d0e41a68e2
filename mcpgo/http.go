package mcpgo

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/adapter/session"
	"github.com/mcperr/mcperr/errkind"
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
	// Validator, the one Validate returned for the server, answers the
	// tools/call refusals mcp-go would otherwise answer itself (an unknown
	// tool, a hint-dialect -32602) before mcp-go reads the message.
	Validator *Validator

	// HTTP holds what every adapter's HTTP options share: Path, the Host
	// and Origin allowlist, MaxSessions and MaxTotalSessions, the Limiter
	// with its Key, Count and Refuse, Gate, Wrap and Public (see
	// adapter.HTTP). Wrap's handler
	// sees the messages the Validator passed.
	adapter.HTTP

	// Streamable are further options of the SDK's Streamable HTTP server,
	// after the ones HTTPHandler sets: the endpoint path, stateless, and
	// no localhost protection (the allowlist does that job). Sessions are
	// Stateful's job: its session manager comes after these, and a
	// server.WithStateful here, without Stateful, keeps an idle session
	// for ever.
	Streamable []server.StreamableHTTPOption

	// Stateful keeps a session per initialize, as server.WithStateful
	// does, and ends it when the client sends DELETE or when no request has
	// named it for SessionTimeout. A client (Key) holds at most MaxSessions
	// (100) and all clients at most MaxTotalSessions (10,000): an
	// initialize past either is refused, and no session ends for it. Each
	// initialize takes a token of the Limiter whatever Count says
	// (adapter.Limit.Sessions).
	Stateful bool

	// SessionTimeout is how long a session of a Stateful server may stay
	// idle; zero means ten minutes (session.IdleTimeout), a negative value
	// never ends an idle session.
	SessionTimeout time.Duration

	// MaxBytes bounds a request body; 0 means 4 MiB, and a negative value
	// wire.MaxMessageBytes, the most the message check accepts.
	MaxBytes int64
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
//	client over its limit                    429, -32000 (-31000 on 2026-07-28; Messages) or a rate_limited result (ToolCalls)
//	initialize, client at MaxSessions        429, -32000 (-31000 on 2026-07-28), Retry-After (Stateful)
//	initialize, all at MaxTotalSessions      503, -32000 (-31000 on 2026-07-28), Retry-After (Stateful)
//	tools/call the Validator refuses         200, the dialect's answer
//	Wrap's own checks                        as Wrap answers
//
// The front (package front) does every check down to the message's: it
// reads the body once, bounded by MaxBytes, checks it as one JSON-RPC
// message with the rule the stdio transport applies too, and puts the
// request's id back as sent into every answer, or refuses an id it cannot
// echo byte for byte with -32600 and id null. The limits and the Validator
// read that checked message (front.Checked); mcp-go reads the body last.
// Every JSON-RPC body it writes has Content-Type: application/json. The
// front, the limits and the sessions' bookkeeping are adapter.HTTP.Handler's.
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
	b := adapter.Backend{MaxBytes: o.MaxBytes}
	if b.MaxBytes == 0 {
		b.MaxBytes = 4 << 20
	}
	if o.Validator != nil {
		b.Screen = o.Validator.screenHTTP
	}
	if o.Stateful {
		b.Sessions = o.Sessions(o.SessionTimeout)
		opts = append(opts, server.WithSessionIdManager(sessions{b.Sessions}))
	}
	sdk := server.NewStreamableHTTPServer(s, opts...)
	b.SDK = sdk
	if o.Stateful {
		b.End = func(ctx context.Context, ids []string) { endSessions(ctx, sdk, path, ids) }
	}
	return o.Handler(b)
}

// screenHTTP answers a tools/call the Validator refuses, with HTTP 200 as
// mcp-go answers its own refusals, and marks the context of a call it
// passes as checked.
func (v *Validator) screenHTTP(w http.ResponseWriter, r *http.Request, m *wire.Message) *http.Request {
	if m.Type != wire.RequestMessage || m.Method != string(mcp.MethodToolsCall) {
		return r
	}
	if resp, refused := v.screenCall(r.Context(), m.ID, m.Params); refused {
		if e, ok := resp.(mcp.JSONRPCError); ok { // the hint dialect: HTTP 200, as mcp-go answers its own
			wire.WriteRPCError(w, http.StatusOK, m.ID, &wire.RPCError{Code: errkind.RPCCode(e.Error.Code), Message: e.Error.Message, Data: e.Error.Data})
			return nil
		}
		writeJSON(w, resp)
		return nil
	}
	return r.WithContext(context.WithValue(r.Context(), checkedKey{}, true))
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

// endSessions ends sessions the table let go (idle) as a client's DELETE
// to path does, so that mcp-go (sdk) frees all
// it holds for them.
func endSessions(ctx context.Context, sdk http.Handler, path string, ids []string) {
	for _, id := range ids {
		r, err := http.NewRequestWithContext(context.WithoutCancel(ctx), http.MethodDelete, path, nil)
		if err != nil {
			return
		}
		r.Header.Set("Mcp-Session-Id", id)
		sdk.ServeHTTP(discard{http.Header{}}, r)
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

// Generate starts a session, recorded with the empty key (counted in the
// total beside the place the handler holds for it, until the handler
// records its client once mcp-go has answered the initialize).
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

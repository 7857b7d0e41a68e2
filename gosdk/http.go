package gosdk

import (
	"context"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/adapter/session"
)

// Count says which messages take a token from a client's bucket: the
// Count of adapter.Limit.
type Count = adapter.Count

const (
	// ToolCalls counts tools/call requests only: the handshake,
	// notifications, tools/list and pings pass free. A refused call is
	// answered with HTTP 200 and a tool result of kind rate_limited whose
	// retryAfterSeconds is the wait, so the agent reads it; the response
	// carries Retry-After and the rate-limit headers too. It is the
	// default.
	ToolCalls = adapter.ToolCalls

	// Messages counts every POST to the endpoint, the handshake included.
	// A refused message is answered with HTTP 429, Retry-After, the
	// rate-limit headers and a JSON-RPC error body, code -32000 (-31000
	// from revision 2026-07-28 on: errkind.RPCCode.On), whose data is the
	// rate_limited kind object.
	Messages = adapter.Messages
)

// HTTPOptions configures HTTPHandler. The zero value serves stateless MCP
// at /mcp to loopback Host names, without limits.
type HTTPOptions struct {
	// HTTP holds what every adapter's HTTP options share: Path, the Host
	// and Origin allowlist, MaxSessions, the Limiter with its Key, Count
	// and Refuse, Gate, Wrap and Public (see adapter.HTTP).
	adapter.HTTP

	// Streamable configures the SDK's Streamable HTTP handler; nil means
	// stateless with JSON responses. Its DisableLocalhostProtection is set,
	// since the allowlist does that job. A stateful handler (Stateless
	// false) keeps a session per initialize: a client's DELETE ends it,
	// SessionTimeout zero means ten minutes (session.IdleTimeout; the SDK's
	// zero would keep an idle session for ever; a negative one still does),
	// a client (Key) holds at most MaxSessions, and each initialize takes a
	// token of the Limiter whatever Count says (adapter.Limit.Sessions).
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
	b := adapter.Backend{SDK: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &so), MaxBytes: so.MaxRequestBodyBytes}
	if b.MaxBytes == 0 {
		b.MaxBytes = mcp.DefaultMaxRequestBodyBytes
	}
	if !so.Stateless {
		b.Sessions = o.Sessions(so.SessionTimeout) // a negative one: the SDK's "never", the table's too
		b.End = func(_ context.Context, ids []string) { endSessions(s, ids) }
	}
	return o.Handler(b)
}

// endSessions closes the sessions the table let go (idle, or over a
// client's bound); the SDK then frees what they hold.
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

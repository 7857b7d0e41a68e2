package adapter

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/ratelimit"
	"github.com/mcperr/mcperr/ratelimit/header"
	"github.com/mcperr/mcperr/wire"
)

// Unit is what a limit counts: which messages take a token from a client's
// bucket (the Count of a Limit or of HTTP).
type Unit int

const (
	// ToolCalls counts tools/call requests only: the handshake,
	// notifications, tools/list and pings pass free. A refused call is
	// answered with HTTP 200 and a tool result of kind rate_limited whose
	// retryAfterSeconds is the wait, so the agent reads it; the response
	// carries Retry-After and the rate-limit headers too. It is the
	// default.
	ToolCalls Unit = iota

	// Messages counts every POST to the endpoint, the handshake included.
	// A refused message is answered with HTTP 429, Retry-After, the
	// rate-limit headers and a JSON-RPC error body, code -32000 (-31000
	// from revision 2026-07-28 on: errkind.RPCCode.On), whose data is the
	// rate_limited kind object.
	Messages
)

// A Limit limits each client of an MCP endpoint behind a front.Front: it takes a
// token from the client's bucket for each message that costs one, and
// answers a message refused for want of one with the wait. The zero value
// (no Limiter) limits nothing.
type Limit struct {
	// Limiter holds the buckets; nil limits nothing.
	Limiter *ratelimit.Limiter

	// Key names the client's bucket; nil means SourceKey (the source
	// address, IPv6 by its /64 prefix). An empty key is not limited.
	Key func(*http.Request) string

	// Count says what takes a token.
	Count Unit

	// Sessions says the endpoint keeps a session for each initialize (a
	// stateful server). An initialize then takes a token whatever Count
	// says, and a refused one is answered as Messages describes, so a
	// client opens sessions no faster than its limit allows. (The adapters
	// also end a session left idle, and bound those one client, and all
	// clients, hold: see HTTP.MaxSessions.)
	Sessions bool

	// Refuse, if set, writes a refusal in the server's own envelope, in
	// place of the answers Count describes; the decision's headers
	// (Retry-After and the rate-limit fields) are already set.
	Refuse func(w http.ResponseWriter, r *http.Request, d ratelimit.Decision)

	// OnFailure, if set, hears every refusal Admit writes, Stage Limited,
	// after writing it (see Failure).
	OnFailure func(ctx context.Context, f Failure)
}

// Admit takes the token m costs from the bucket of r's client and reports
// whether m may go on. When it may not, Admit has written the refusal: the
// decision's headers, then Refuse's answer or the one Count describes. A
// refused tools/call of protocol revision 2026-07-28 or later (its
// params' _meta says so) is answered with "resultType":"complete", as that
// revision requires.
func (l *Limit) Admit(w http.ResponseWriter, r *http.Request, m *wire.Message) bool {
	if l == nil || l.Limiter == nil || m == nil {
		return true
	}
	opens := l.Sessions && m.Method == "initialize"
	if l.Count == ToolCalls && m.Method != "tools/call" && !opens {
		return true
	}
	key := l.Key
	if key == nil {
		key = SourceKey
	}
	k := key(r)
	if k == "" {
		return true
	}
	d := l.Limiter.Allow(k)
	if d.OK {
		return true
	}
	d.SetHeaders(w.Header())
	e := &envelope.Error{Kind: errkind.RateLimited, RetryAfter: d.RetryAfter,
		RateLimit: &header.Limits{Limit: d.Limit, Remaining: d.Remaining, Reset: d.Reset, HasLimit: true, HasRemaining: true, HasReset: true}}
	if l.OnFailure != nil {
		// The refusal as the agent reads it: the kind object either answer
		// carries (Refuse's own envelope is the server's to report).
		defer func() {
			obj, _ := e.Object().MarshalJSON()
			f := Failure{Stage: Limited, Method: m.Method, Reading: errkind.Read(errkind.Outcome{IsError: true, Text: string(obj)})}
			if m.Method == "tools/call" {
				f.Tool, _, _ = m.ToolCall()
			}
			if l.Refuse == nil && (l.Count != ToolCalls || opens) {
				f.HTTPStatus = http.StatusTooManyRequests
			}
			l.OnFailure(r.Context(), f)
		}()
	}
	if l.Refuse != nil {
		l.Refuse(w, r, d)
		return false
	}
	if l.Count == ToolCalls && !opens {
		writeResult(w, m.ID, wire.ErrorResult(e), Revision(m.Params))
		return false
	}
	wait := *e.Object().RetryAfterSeconds // the wait the data carries; a rate_limited object always has one
	wire.WriteRPCError(w, http.StatusTooManyRequests, m.ID, &wire.RPCError{Code: errkind.ImplementationDefined.On(httpRevision(r, m)),
		Message: "Rate limited: retry after " + strconv.FormatInt(wait, 10) + " seconds.", Data: e})
	return false
}

// writeResult writes the JSON-RPC response carrying a tool result; for a
// request of protocol revision 2026-07-28 or later the result says
// "resultType":"complete", as that revision requires (ResultType).
// The id is written as it was sent, as the front writes its own answers: encoding/json would
// escape a <, > or & in it, and the answer would no longer carry the
// request's id.
func writeResult(w http.ResponseWriter, id json.RawMessage, res *wire.ToolResult, version string) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	res.ResultType = ResultType(version)
	r, _ := json.Marshal(res) // a ToolResult of text blocks: it marshals
	b := make([]byte, 0, len(`{"jsonrpc":"2.0","id":,"result":}`)+len(id)+len(r)+1)
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"result":`...)
	b = append(append(b, r...), "}\n"...)
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	w.Write(b)
}

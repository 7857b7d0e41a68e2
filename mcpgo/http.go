package mcpgo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"

	"github.com/mark3labs/mcp-go/server"
	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/front"
	"github.com/mcperr/mcperr/ratelimit"
	"github.com/mcperr/mcperr/ratelimit/header"
	"github.com/mcperr/mcperr/wire"
)

// Count says which messages take a token from a client's bucket.
type Count int

const (
	// ToolCalls counts tools/call requests only: the handshake,
	// notifications, tools/list and pings pass free. A refused call is
	// answered with HTTP 200 and a tool result of kind rate_limited whose
	// retryAfterSeconds is the wait, so the agent reads it; the response
	// carries Retry-After and the rate-limit headers too. It is the
	// default.
	ToolCalls Count = iota

	// Messages counts every POST to the endpoint, the handshake included.
	// A refused message is answered with HTTP 429, Retry-After, the
	// rate-limit headers and a JSON-RPC error body, code -32000, whose data
	// is the rate_limited kind object.
	Messages
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
	// no localhost protection (the allowlist does that job).
	Streamable []server.StreamableHTTPOption

	// MaxBytes bounds a request body; 0 means 4 MiB.
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
	Refuse func(w http.ResponseWriter, r *http.Request, d ratelimit.Decision)

	// Gate, if set, runs the server's own checks that need only the
	// request's headers, such as an API key: it sees each request that
	// passed the front's checks, before its body is read and before the
	// limits, and passes it to next or answers it.
	Gate func(next http.Handler) http.Handler
}

// HTTPHandler serves s over Streamable HTTP with the SDK's own server,
// behind a front that answers every refusal at the transport with the status
// and JSON-RPC body a client expects, in this order:
//
//	Host or Origin not on the allowlist      403
//	path other than Path                     404, -32601
//	method other than POST                   405, -32600, Allow: POST
//	Content-Type other than application/json 415, -32600
//	Gate's own checks                        as Gate answers
//	body larger than MaxBytes                413, -32600
//	body not JSON                            400, -32700
//	body not a JSON-RPC message              400, -32600
//	client over its limit                    429, -32000 (Messages) or a rate_limited result (ToolCalls)
//	tools/call the Validator refuses         200, the dialect's answer
//
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
	if maxBody == 0 {
		maxBody = 4 << 20
	}
	h := &httpHandler{
		sdk:       server.NewStreamableHTTPServer(s, opts...),
		validator: o.Validator,
		limiter:   o.Limiter,
		key:       o.Key,
		count:     o.Count,
		maxBody:   maxBody,
	}
	if h.key == nil {
		h.key = ratelimit.SourceIP
	}
	h.refuse = o.Refuse
	if o.Gate != nil {
		return withFront(o.Gate(h), o)
	}
	return withFront(h, o)
}

// withFront puts the transport checks of Host, Origin, path, method and
// Content-Type before h.
func withFront(h http.Handler, o *HTTPOptions) http.Handler {
	return &front.Front{Handler: h, Path: o.Path, AllowedHosts: o.AllowedHosts, AllowedOrigins: o.AllowedOrigins}
}

// writeRPCError writes a JSON-RPC error response with the status given, or
// the code's own status when it is 0.
func writeRPCError(w http.ResponseWriter, status int, id json.RawMessage, code errkind.Code, msg string, data any) {
	wire.WriteRPCError(w, status, id, &wire.RPCError{Code: code, Message: msg, Data: data})
}

type httpHandler struct {
	sdk       http.Handler
	validator *Validator
	limiter   *ratelimit.Limiter
	key       func(*http.Request) string
	count     Count
	maxBody   int64
	refuse    func(http.ResponseWriter, *http.Request, ratelimit.Decision)
}

// message is what the front reads of a JSON-RPC message.
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  struct {
		Meta struct {
			Version string `json:"io.modelcontextprotocol/protocolVersion"`
		} `json:"_meta"`
	} `json:"params"`
}

func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(w, r, h.maxBody)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			writeRPCError(w, http.StatusRequestEntityTooLarge, nil, errkind.InvalidRequest,
				"Invalid Request: the body is larger than "+strconv.FormatInt(h.maxBody, 10)+" bytes.", nil)
			return
		}
		writeRPCError(w, http.StatusBadRequest, nil, errkind.InvalidRequest, "Invalid Request: the body could not be read.", nil)
		return
	}
	msgs, rerr := parse(body)
	if rerr != nil {
		writeRPCError(w, 0, nil, rerr.Code, rerr.Message, nil)
		return
	}
	if h.limiter != nil && !h.admit(w, r, msgs) {
		return
	}
	if h.validator != nil && len(msgs) == 1 && msgs[0].Method == "tools/call" {
		if resp, refused := h.validator.screen(body); refused {
			writeJSON(w, resp)
			return
		}
		r = r.WithContext(context.WithValue(r.Context(), checkedKey{}, true))
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	h.sdk.ServeHTTP(w, r)
}

// readBody reads the whole body, refusing one over max bytes.
func readBody(w http.ResponseWriter, r *http.Request, max int64) ([]byte, error) {
	if max > 0 && r.ContentLength > max {
		return nil, &http.MaxBytesError{Limit: max}
	}
	rd := r.Body
	if max > 0 {
		rd = http.MaxBytesReader(w, r.Body, max)
	}
	return io.ReadAll(rd)
}

// parse reads the body as one JSON-RPC message or a batch of them.
func parse(body []byte) ([]message, *wire.RPCError) {
	body = bytes.TrimLeft(body, " \t\r\n")
	if !json.Valid(body) {
		return nil, &wire.RPCError{Code: errkind.ParseError, Message: "Parse error: the body is not JSON."}
	}
	var msgs []message
	if len(body) > 0 && body[0] == '[' {
		if err := json.Unmarshal(body, &msgs); err != nil || len(msgs) == 0 {
			return nil, &wire.RPCError{Code: errkind.InvalidRequest, Message: "Invalid Request: the body is not a JSON-RPC message."}
		}
	} else {
		var m message
		if err := json.Unmarshal(body, &m); err != nil {
			return nil, &wire.RPCError{Code: errkind.InvalidRequest, Message: "Invalid Request: the body is not a JSON-RPC message."}
		}
		msgs = []message{m}
	}
	for _, m := range msgs {
		if m.JSONRPC != "2.0" {
			return nil, &wire.RPCError{Code: errkind.InvalidRequest, Message: `Invalid Request: "jsonrpc" must be "2.0".`}
		}
	}
	return msgs, nil
}

// admit takes the tokens the body's messages cost, and writes the refusal
// when the client has too few.
func (h *httpHandler) admit(w http.ResponseWriter, r *http.Request, msgs []message) bool {
	key := h.key(r)
	if key == "" {
		return true
	}
	calls := 0
	for _, m := range msgs {
		if m.Method == "tools/call" {
			calls++
		}
	}
	cost := 1
	if h.count == ToolCalls {
		cost = calls
	}
	for range cost {
		d := h.limiter.Allow(key)
		if d.OK {
			continue
		}
		d.SetHeaders(w.Header())
		if h.refuse != nil {
			h.refuse(w, r, d)
			return false
		}
		e := &envelope.Error{Kind: errkind.RateLimited, RetryAfter: d.RetryAfter,
			RateLimit: &header.Limits{Limit: d.Limit, Remaining: d.Remaining, Reset: d.Reset, HasLimit: true, HasRemaining: true, HasReset: true}}
		if h.count == ToolCalls && len(msgs) == 1 {
			writeResult(w, msgs[0].ID, wire.ErrorResult(e), msgs[0].Params.Meta.Version >= "2026-07-28")
			return false
		}
		var id json.RawMessage
		if len(msgs) == 1 {
			id = msgs[0].ID
		}
		writeRPCError(w, http.StatusTooManyRequests, id, errkind.ImplementationDefined,
			"Rate limited: retry after "+strconv.FormatInt(secondsUp(d.RetryAfter.Seconds()), 10)+" seconds.", e)
		return false
	}
	return true
}

// writeResult writes the JSON-RPC response carrying a tool result; for a
// request of protocol revision 2026-07-28 or later the result says
// "resultType":"complete", as that revision requires.
func writeResult(w http.ResponseWriter, id json.RawMessage, res *wire.ToolResult, modern bool) {
	if len(id) == 0 || !json.Valid(id) {
		id = json.RawMessage("null")
	}
	var result any = res
	if modern {
		result = struct {
			*wire.ToolResult
			ResultType string `json:"resultType"`
		}{res, "complete"}
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  any             `json:"result"`
	}{"2.0", id, result})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)+1))
	w.WriteHeader(http.StatusOK)
	w.Write(append(b, '\n'))
}

// writeJSON writes a JSON-RPC response with HTTP 200.
func writeJSON(w http.ResponseWriter, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // "<=8 items" as the text says it, as the go-sdk writes it
	err := enc.Encode(v)
	b := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	if err != nil {
		writeRPCError(w, http.StatusInternalServerError, nil, errkind.InternalError, "Internal error: the answer could not be encoded.", nil)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)+1))
	w.WriteHeader(http.StatusOK)
	w.Write(append(b, '\n'))
}

func secondsUp(s float64) int64 {
	n := int64(s)
	if float64(n) < s {
		n++
	}
	if n < 1 {
		n = 1
	}
	return n
}

package mcpserver

import (
	"fmt"
	"net/http"

	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/wire"
)

// The codes of the news server's tool errors and HTTP refusals. A tool error
// travels as an isError result holding the JSON object of [ToolError]; over
// REST the same object is the body of a 4xx or 5xx. Agents switch on these
// strings; they are errkind kinds of the server's own taxonomy (see
// [Taxonomy]).
const (
	// Suspended: the key's subscription was canceled or its payment failed.
	// The caller authenticated fine; they cannot spend until the account is
	// settled. Not retryable.
	Suspended errkind.Kind = "suspended"
	// InsufficientCredits: the key stops at its monthly allocation and this
	// call's worst case costs more than the credits left. Retry after
	// retry_after_secs (which may be days), make a cheaper call, or upgrade.
	InsufficientCredits errkind.Kind = "insufficient_credits"
	// CreditRateLimited: this minute's credits are spent. Retry the same call
	// after retry_after_secs, usually a second or two.
	//
	// Litmus test against MessageRateLimited: a credit limit is a tool error
	// on a call that was priced; a message limit is an HTTP 429 on a message
	// that was never read.
	CreditRateLimited errkind.Kind = "credit_rate_limited"
	// CreditBudgetExceeded: the call's worst case costs more than its own
	// max_credits argument. Not retryable: raise max_credits or narrow the
	// call (estimate: true shows the breakdown).
	CreditBudgetExceeded errkind.Kind = "credit_budget_exceeded"
	// UpstreamUnavailable: no index shard covering the request answered. It
	// is not an empty result. Retry with backoff, or narrow the time range.
	UpstreamUnavailable errkind.Kind = "upstream_unavailable"
	// NotFound: the index does not hold the article or story, or the account
	// has no such watch. A statement of absence, safe to cache.
	NotFound errkind.Kind = "not_found"
	// WatchLimit: the account already keeps as many watches as its plan
	// allows. Delete one with delete_watch, or change plan.
	WatchLimit errkind.Kind = "watch_limit"
	// Unsupported: a watch tool on a server with no watch store (the local
	// stdio server). Make the call on the hosted endpoint.
	Unsupported errkind.Kind = "unsupported"

	// Unauthorized is the code of the HTTP 401 for a missing or invalid key.
	// No session can open; fix the key.
	Unauthorized errkind.Kind = "unauthorized"
	// MessageRateLimited is the code of the HTTP 429 for a key whose messages
	// this minute are spent. Every HTTP message counts, the MCP handshake
	// included. Wait Retry-After and send the same message again.
	MessageRateLimited errkind.Kind = "message_rate_limited"
	// UnknownParameter, UnknownSignal and InvalidParameter are the
	// error.data.code of a JSON-RPC -32602 (REST: a 400): the call never ran
	// and cost nothing; fix the argument the message names.
	UnknownParameter errkind.Kind = "unknown_parameter"
	UnknownSignal    errkind.Kind = "unknown_signal"
	InvalidParameter errkind.Kind = "invalid_parameter"
	// UnknownTool names the JSON-RPC -32601 of a tools/call for a tool the
	// server does not have (it travels without data). Fix the call.
	UnknownTool errkind.Kind = "unknown_tool"
	// Partial is not an error: it names a result with partial: true, which
	// some shards did not answer. Use what came back, but an absence in it
	// is not evidence; the rest may come back later.
	Partial errkind.Kind = "partial"
	// UnknownRoute is the code of a REST 404 for a path the API does not
	// serve, and MethodNotAllowed of a 405 (with Allow).
	UnknownRoute     errkind.Kind = "unknown_route"
	MethodNotAllowed errkind.Kind = "method_not_allowed"
	// Forbidden is the code of a REST 403: the key may not use an admin route.
	Forbidden errkind.Kind = "forbidden"
	// Internal is the code of a 500: the server failed.
	Internal errkind.Kind = "internal"
)

// Taxonomy returns the news server's taxonomy: each code above is its own
// kind, with the contract's retry guidance as advice. A client reading the REST
// API classifies a response with it by code, or by status when the body
// carried none. Each call returns a fresh copy.
func Taxonomy() *errkind.Taxonomy {
	t := &errkind.Taxonomy{Advice: map[errkind.Kind]errkind.Advice{}, Fallback: Internal}
	// The -32601 of an unknown tool carries no data.code; its message names it.
	t.Rules = append(t.Rules, errkind.Rule{Text: "Unknown tool '", Kind: UnknownTool})
	for _, c := range catalogue {
		t.Rules = append(t.Rules, errkind.Rule{Code: string(c.kind), Kind: c.kind})
		t.Advice[c.kind] = c.advice
	}
	t.Rules = append(t.Rules,
		errkind.Rule{Status: 401, Kind: Unauthorized},
		errkind.Rule{Status: 402, Kind: InsufficientCredits},
		errkind.Rule{Status: 404, Kind: NotFound},
		errkind.Rule{Status: 429, Kind: MessageRateLimited},
		errkind.Rule{Status: 503, Kind: UpstreamUnavailable},
		errkind.Rule{StatusMin: 400, StatusMax: 499, Kind: InvalidParameter},
	)
	return t
}

type entry struct {
	kind   errkind.Kind
	title  string // the "error" member: a short phrase
	status int    // the REST status
	advice errkind.Advice
}

var catalogue = []entry{
	{Suspended, "account suspended", http.StatusPaymentRequired, errkind.Advice{Move: errkind.Stop, Note: "not until the account is settled"}},
	{InsufficientCredits, "insufficient credits", http.StatusPaymentRequired, errkind.Advice{Move: errkind.WaitThenRetry, Retryable: true, Note: "after retry_after_secs, which may be days; a cheaper call may still fit, or upgrade"}},
	{CreditRateLimited, "credit rate limited", http.StatusTooManyRequests, errkind.Advice{Move: errkind.WaitThenRetry, Retryable: true, Note: "yes, after retry_after_secs, usually a second or two"}},
	{CreditBudgetExceeded, "credit budget exceeded", http.StatusPaymentRequired, errkind.Advice{Move: errkind.FixArgument, Note: "no; raise max_credits or narrow the call; estimate: true shows the breakdown"}},
	{UpstreamUnavailable, "upstream unavailable", http.StatusServiceUnavailable, errkind.Advice{Move: errkind.WaitThenRetry, Retryable: true, Note: "yes, with backoff; narrow the time range"}},
	{NotFound, "not found", http.StatusNotFound, errkind.Advice{Move: errkind.TryAnotherID, Note: "no; a statement of absence, safe to cache"}},
	{WatchLimit, "watch limit reached", http.StatusConflict, errkind.Advice{Move: errkind.Stop, Note: "no; delete one with delete_watch, or change plan"}},
	{Unsupported, "unsupported", http.StatusNotImplemented, errkind.Advice{Move: errkind.Stop, Note: "no; make the call on the hosted endpoint"}},
	{Unauthorized, "unauthorized", http.StatusUnauthorized, errkind.Advice{Move: errkind.Stop, Note: "no session can open; send Authorization: Bearer <key> with a valid key"}},
	{MessageRateLimited, "too many messages", http.StatusTooManyRequests, errkind.Advice{Move: errkind.WaitThenRetry, Retryable: true, Note: "wait Retry-After, then send the same message again"}},
	{UnknownParameter, "unknown parameter", http.StatusBadRequest, errkind.Advice{Move: errkind.FixArgument, Note: "fix the call; it never ran and cost nothing"}},
	{UnknownSignal, "unknown signal", http.StatusBadRequest, errkind.Advice{Move: errkind.FixArgument, Note: "fix the call; it never ran and cost nothing"}},
	{InvalidParameter, "invalid parameter", http.StatusBadRequest, errkind.Advice{Move: errkind.FixArgument, Note: "fix the call; it never ran and cost nothing"}},
	{UnknownTool, "unknown tool", http.StatusNotFound, errkind.Advice{Move: errkind.FixArgument, Note: "fix the call: call a tool tools/list names"}},
	{Partial, "partial result", http.StatusOK, errkind.Advice{Move: errkind.WaitThenRetry, Retryable: true, Note: "use what came back, but an absence in it is not evidence; retry later for the rest"}},
	{UnknownRoute, "unknown route", http.StatusNotFound, errkind.Advice{Move: errkind.FixArgument, Note: "no such endpoint; see the REST routes"}},
	{MethodNotAllowed, "method not allowed", http.StatusMethodNotAllowed, errkind.Advice{Move: errkind.FixArgument, Note: "use a method the Allow header lists"}},
	{Forbidden, "forbidden", http.StatusForbidden, errkind.Advice{Move: errkind.Stop, Note: "this key may not use the route"}},
	{Internal, "internal error", http.StatusInternalServerError, errkind.Advice{Move: errkind.Report, Note: "report it"}},
}

func lookup(k errkind.Kind) entry {
	for _, e := range catalogue {
		if e.kind == k {
			return e
		}
	}
	return catalogue[len(catalogue)-1]
}

// Credits is a call's price: the fewest and the most credits it can cost.
type Credits struct {
	Min int64 `json:"min"`
	Max int64 `json:"max"`
}

// ToolError is the JSON object a tool error's text block holds, and the body
// of every REST 4xx and 5xx:
//
//	{"error":"insufficient credits","code":"insufficient_credits","detail":"...",
//	 "retry_after_secs":394200,"credits":{"min":3,"max":3},
//	 "credits_limit":1000,"credits_used":1000,"credits_remaining":0}
//
// Members other than error, code and detail appear where they mean
// something for the code. errors.As finds it.
type ToolError struct {
	Title            string       `json:"error"`
	Code             errkind.Kind `json:"code"`
	Detail           string       `json:"detail"`
	RetryAfterSecs   int64        `json:"retry_after_secs,omitempty"`
	Credits          *Credits     `json:"credits,omitempty"`
	MaxCredits       *int64       `json:"max_credits,omitempty"`
	CreditsLimit     *int64       `json:"credits_limit,omitempty"`
	CreditsUsed      *int64       `json:"credits_used,omitempty"`
	CreditsRemaining *int64       `json:"credits_remaining,omitempty"`
	WatchesUsed      *int         `json:"watches_used,omitempty"`
	WatchesLimit     *int         `json:"watches_limit,omitempty"`
}

// Error returns "code: detail".
func (e *ToolError) Error() string { return string(e.Code) + ": " + e.Detail }

// Status returns the HTTP status the error travels with over REST.
func (e *ToolError) Status() int { return lookup(e.Code).status }

// ToolResult renders the error as the news server's tool error, its JSON
// object as the one text block; the gosdk adapter sends it in place of a
// kind object.
func (e *ToolError) ToolResult() *wire.ToolResult { return wire.JSONError(e) }

func newError(k errkind.Kind, format string, args ...any) *ToolError {
	return &ToolError{Title: lookup(k).title, Code: k, Detail: fmt.Sprintf(format, args...)}
}

// ArgError is a call refused before it ran because of its arguments: a
// JSON-RPC -32602 whose error.data.code is Code, and over REST a 400 with
// the same code and message. It costs no credits.
type ArgError struct {
	Code    errkind.Kind // UnknownParameter, UnknownSignal or InvalidParameter
	Message string       // "Unknown parameter 'langauge'. Did you mean 'language'?"
}

// Error returns the message, as the client reads it.
func (e *ArgError) Error() string { return e.Message }

func ptr[T any](v T) *T { return &v }

package errkind

import "strings"

// Rule maps an upstream (code, status) pair to a Kind. Every field that is
// set must match; a zero field matches anything, so a Rule with only Kind set
// matches every response.
type Rule struct {
	Code       string // the upstream's code, exactly ("invalid_request")
	CodeSuffix string // a suffix of the upstream's code ("_not_found")
	Status     int    // the HTTP status, exactly (404)
	StatusMin  int    // the lowest status matched (400)
	StatusMax  int    // the highest status matched (499)
	Kind       Kind   // the kind a matching response is
}

// Match reports whether the rule matches a response with this code and
// status.
func (r Rule) Match(code string, status int) bool {
	switch {
	case r.Code != "" && code != r.Code:
		return false
	case r.CodeSuffix != "" && !strings.HasSuffix(code, r.CodeSuffix):
		return false
	case r.Status != 0 && status != r.Status:
		return false
	case r.StatusMin != 0 && status < r.StatusMin:
		return false
	case r.StatusMax != 0 && status > r.StatusMax:
		return false
	}
	return true
}

// A Taxonomy maps upstream failures to kinds and kinds to advice. It is data:
// Rules is an ordered list and the first rule that matches wins, so a server
// puts its code rules before its status rules and a code the taxonomy does
// not know falls through to the status.
//
// The zero value and a nil *Taxonomy classify and advise as [Standard] does.
// A Taxonomy is safe for concurrent use as long as nobody modifies it.
type Taxonomy struct {
	Rules    []Rule          // in order; nil (with no Fallback) means Standard's rules
	Advice   map[Kind]Advice // a kind missing here is advised as Standard advises it
	Fallback Kind            // the kind when no rule matches; "" means ServerError
}

// Classify returns the kind of an upstream failure with the given code (""
// when the upstream sent none) and HTTP status: the Kind of the first rule
// that matches, else the Fallback.
func (t *Taxonomy) Classify(code string, status int) Kind {
	rules := standardRules
	fallback := ServerError
	if t != nil && (t.Rules != nil || t.Fallback != "") {
		rules = t.Rules
		if t.Fallback != "" {
			fallback = t.Fallback
		}
	}
	for _, r := range rules {
		if r.Match(code, status) {
			return r.Kind
		}
	}
	return fallback
}

// Advise returns the advice for a kind: the taxonomy's own entry, else the
// standard entry for the nine standard kinds, else Report with no retry.
func (t *Taxonomy) Advise(k Kind) Advice {
	if t != nil {
		if a, ok := t.Advice[k]; ok {
			return a
		}
	}
	if a, ok := standardAdvice(k); ok {
		return a
	}
	return Advice{Move: Report, Note: "report it; the server did not say how to recover"}
}

// Standard returns the standard taxonomy: the nine kinds, their rules in the
// order of its table (code rules before status rules) and their advice. Each
// call returns a fresh copy that the caller may extend, for example by
// prepending rules for its own codes.
//
//	code                 status      kind
//	*_not_found          any         not_found
//	invalid_request      any         invalid_arguments
//	invalid_cursor       any         invalid_arguments
//	internal_error       any         server_error
//	unauthenticated      any         authentication_failed
//	forbidden_role       any         wrong_role
//	too_many_paths       any         too_many_values_requested
//	rate_limited         any         rate_limited
//	any                  401         authentication_failed
//	any                  403         wrong_role
//	any                  404         not_found
//	any                  429         rate_limited
//	any                  400-499     invalid_arguments
//	any                  500-599+    server_error
//	(no match)                       server_error
func Standard() *Taxonomy {
	t := &Taxonomy{
		Rules:    append([]Rule(nil), standardRules...),
		Advice:   make(map[Kind]Advice, 9),
		Fallback: ServerError,
	}
	for _, k := range Kinds() {
		t.Advice[k], _ = standardAdvice(k)
	}
	return t
}

// standardRules is read only; Standard hands out copies.
var standardRules = []Rule{
	{CodeSuffix: "_not_found", Kind: NotFound},
	{Code: "invalid_request", Kind: InvalidArguments},
	{Code: "invalid_cursor", Kind: InvalidArguments},
	{Code: "internal_error", Kind: ServerError},
	{Code: "unauthenticated", Kind: AuthenticationFailed},
	{Code: "forbidden_role", Kind: WrongRole},
	{Code: "too_many_paths", Kind: TooManyValuesRequested},
	{Code: "rate_limited", Kind: RateLimited},
	{Status: 401, Kind: AuthenticationFailed},
	{Status: 403, Kind: WrongRole},
	{Status: 404, Kind: NotFound},
	{Status: 429, Kind: RateLimited},
	{StatusMin: 400, StatusMax: 499, Kind: InvalidArguments},
	{StatusMin: 500, Kind: ServerError},
}

// standardAdvice is the table's "next move" column.
func standardAdvice(k Kind) (Advice, bool) {
	switch k {
	case AuthenticationFailed:
		return Advice{Move: Stop, Note: "stop; nothing a call can change. Fix the credential and restart the process"}, true
	case WrongRole:
		return Advice{Move: Stop, Note: "stop"}, true
	case NotFound:
		return Advice{Move: TryAnotherID, Note: "try another id, or accept that it is not there"}, true
	case InvalidArguments:
		return Advice{Move: FixArgument, Note: "fix the argument the message names"}, true
	case TooManyValuesRequested:
		return Advice{Move: FixArgument, Note: "ask for fewer paths"}, true
	case RateLimited:
		return Advice{Move: WaitThenRetry, Retryable: true, Note: "wait retryAfterSeconds, then retry"}, true
	case ServerError:
		return Advice{Move: Report, Note: "report it; different arguments will not help"}, true
	case MalformedResponse:
		return Advice{Move: Report, Note: "report it; not argument-fixable"}, true
	case NetworkError:
		return Advice{Move: RetrySafe, Retryable: true, Note: "safe to retry; every call here is a GET"}, true
	}
	return Advice{}, false
}

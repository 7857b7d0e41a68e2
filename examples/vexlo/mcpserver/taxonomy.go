package mcpserver

import (
	"errors"

	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/wire"
)

// The two kinds the Vexlo error contract adds to the standard taxonomy. The
// other seven of its nine kinds are errkind's own.
const (
	// WrongRole is a 403 forbidden_role: the token is valid but its role may
	// not make the call. The agent stops; no call changes a role. Startup
	// refuses any token whose role is not read, so a tool call meets it only
	// if a token's role changes while the server runs.
	WrongRole errkind.Kind = "wrong_role"

	// TooManyValuesRequested is a 422 too_many_paths: the call asked for
	// more values than one request may carry. It is an InvalidArguments
	// whose fix is always to ask for fewer; the argument schema caps the
	// paths first, so a tool call meets it only if the API's cap falls
	// below the schema's.
	TooManyValuesRequested errkind.Kind = "too_many_values_requested"
)

// Taxonomy returns the Vexlo taxonomy: the Vexlo API's codes and statuses,
// ahead of the standard rules, mapped to the nine kinds of the Vexlo error
// contract, each with its advice and the members of its kind object. Each
// call returns a fresh copy.
//
//	kind                       fields besides kind          raised by
//	authentication_failed      message                      401 unauthenticated
//	wrong_role                 message                      403 forbidden_role
//	not_found                  code, message, details       any *_not_found code, or any other 404
//	invalid_arguments          code, message, details       invalid_request, invalid_cursor, any other 4xx
//	too_many_values_requested  message                      422 too_many_paths
//	rate_limited               retryAfterSeconds, limit...  429 rate_limited
//	server_error               code, httpStatus, message    internal_error, or any status of 500 and above
//	malformed_response         httpStatus, message          a body neither the envelope nor the expected shape
//	network_error              message                      the request threw
func Taxonomy() *errkind.Taxonomy {
	t := errkind.Standard().With(
		errkind.Rule{Code: "*_not_found", Kind: errkind.NotFound},
		errkind.Rule{Code: "invalid_request", Kind: errkind.InvalidArguments},
		errkind.Rule{Code: "invalid_cursor", Kind: errkind.InvalidArguments},
		errkind.Rule{Code: "internal_error", Kind: errkind.ServerError},
		errkind.Rule{Code: "unauthenticated", Kind: errkind.AuthenticationFailed},
		errkind.Rule{Code: "forbidden_role", Kind: WrongRole},
		errkind.Rule{Code: "too_many_paths", Kind: TooManyValuesRequested},
		errkind.Rule{Code: "rate_limited", Kind: errkind.RateLimited},
		errkind.Rule{Status: 401, Kind: errkind.AuthenticationFailed},
		errkind.Rule{Status: 403, Kind: WrongRole},
		errkind.Rule{Status: 404, Kind: errkind.NotFound},
		errkind.Rule{Status: 429, Kind: errkind.RateLimited},
		errkind.Rule{StatusMin: 400, StatusMax: 499, Kind: errkind.InvalidArguments},
		errkind.Rule{StatusMin: 500, Kind: errkind.ServerError},
	)
	message := []string{"message"}
	t.Advice[errkind.AuthenticationFailed] = errkind.Advice{Move: errkind.Stop, Note: "stop; nothing a call can change. Fix the credential and restart the process", Fields: message}
	t.Advice[WrongRole] = errkind.Advice{Move: errkind.Stop, Note: "stop", Fields: message}
	t.Advice[TooManyValuesRequested] = errkind.Advice{Move: errkind.FixArgument, Note: "ask for fewer paths", Fields: message}
	t.Advice[errkind.NetworkError] = errkind.Advice{Move: errkind.RetrySafe, Retryable: true, Note: "safe to retry; every call here is a GET", Fields: message}
	return t
}

// errorResult renders err as the kind object of its kind, in the layout
// the Vexlo taxonomy declares for it: wrong_role and
// too_many_values_requested carry only their message, and every other kind
// the members of errkind's standard layout.
func (s *Server) errorResult(err error) *wire.ToolResult {
	var e *envelope.Error
	if !errors.As(err, &e) {
		return wire.ErrorResult(err)
	}
	o := e.Object()
	return wire.TextError(string(o.AppendJSON(nil, s.tax.Advise(o.Kind).Fields)))
}

// shape returns err as the gosdk adapter renders it: the result
// errorResult writes, with err itself kept for the SDK's middleware and
// logs (a gosdk.Renderer).
func (s *Server) shape(err error) error {
	return &shaped{err: err, res: s.errorResult(err)}
}

// shaped is an error with the tool result it renders as.
type shaped struct {
	err error
	res *wire.ToolResult
}

func (e *shaped) Error() string                { return e.err.Error() }
func (e *shaped) Unwrap() error                { return e.err }
func (e *shaped) ToolResult() *wire.ToolResult { return e.res }

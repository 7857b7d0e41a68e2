package adapter

import (
	"context"
	"log/slog"
	"strings"

	"github.com/mcperr/mcperr/errkind"
)

// A Failure is one failed answer a server sent, read as the agent reads it
// (errkind.Read of the answer), with what the server was doing: the value an
// adapter hands its OnFailure hook for every refusal of the protocol, of a
// limit and of arguments, every call to a tool the server does not have, and
// every tool call that failed (a handler's error, an upstream's failure), so
// that one hook sees them all.
//
// A Failure is a slog.LogValuer: slog.Any("failure", f) logs its stage,
// method, tool, kind, move, code, JSON-RPC code, wait, the names of the
// arguments at fault and whether it is expected, and the kind object's
// message, which the agent got too; never an argument's value. Log is a hook that does that.
type Failure struct {
	// Stage is where the answer was decided.
	Stage Stage
	// Method is the JSON-RPC method; "" when an HTTP request was refused
	// before its message was read.
	Method string
	// Tool is the tool a tools/call named.
	Tool string
	// Reading is the answer as errkind.Read reads it: Kind, Move, Wait,
	// Code, Message, Object, RPCCode.
	Reading errkind.Reading
	// HTTPStatus is the status of the HTTP answer that carried it, when
	// the adapter wrote one (0 over stdio, and for a tool result the SDK
	// writes).
	HTTPStatus int
	// Err is the Go error a tool handler returned, when one did; errors.As
	// finds an *envelope.Error in it.
	Err error
}

// A Stage is where a failed answer was decided.
type Stage string

const (
	// Protocol is the transport's refusal of a request or a message: the
	// HTTP front (method, media type, size, a message that is no JSON-RPC
	// request) or a stdio line.
	Protocol Stage = "protocol"
	// Limited is a per-client limit's refusal (Limit).
	Limited Stage = "limit"
	// Arguments is the validation's refusal of a tool call's arguments.
	Arguments Stage = "arguments"
	// UnknownToolCall is the answer to a call to a tool the server does not
	// have.
	UnknownToolCall Stage = "unknown_tool"
	// Handler is a tool call whose handler ran and failed: its own error
	// or an upstream's failure, sent as an isError result.
	Handler Stage = "handler"
)

// Expected reports whether a failure of kind k is one a working server meets
// in the normal course of serving agents, so that an alert on it is noise: the
// caller's arguments (invalid_arguments), an id that does not exist
// (not_found), a state the caller must resolve (conflict), access the caller
// lacks (permission_denied) and a rate limit (rate_limited). Every other kind
// is unexpected: the server's own credentials refused
// (authentication_failed), an upstream that is down or broken (unavailable,
// server_error, malformed_response, network_error), a panic, and a failure
// in no shape errkind knows. Alert on those.
func Expected(k errkind.Kind) bool {
	switch k {
	case errkind.InvalidArguments, errkind.NotFound, errkind.Conflict, errkind.PermissionDenied, errkind.RateLimited:
		return true
	}
	return false
}

// LogValue is f as a log group: stage, method, tool, kind, move, code,
// rpc_code, wait, args (the names of the arguments at fault, never their
// values), expected, http_status and message, each when set, and error, the
// handler's Go error.
func (f Failure) LogValue() slog.Value {
	r := f.Reading
	a := make([]slog.Attr, 0, 12)
	a = append(a, slog.String("stage", string(f.Stage)))
	if f.Method != "" {
		a = append(a, slog.String("method", f.Method))
	}
	if f.Tool != "" {
		a = append(a, slog.String("tool", f.Tool))
	}
	if r.Kind != "" {
		a = append(a, slog.String("kind", string(r.Kind)))
	}
	if r.Move != "" {
		a = append(a, slog.String("move", string(r.Move)))
	}
	if r.Code != "" {
		a = append(a, slog.String("code", r.Code))
	}
	if r.RPCCode != 0 {
		a = append(a, slog.Int("rpc_code", int(r.RPCCode)))
	}
	if r.HasWait {
		a = append(a, slog.Duration("wait", r.Wait))
	}
	if len(r.Args) > 0 {
		a = append(a, slog.String("args", strings.Join(r.Args, ",")))
	}
	a = append(a, slog.Bool("expected", Expected(r.Kind)))
	if f.HTTPStatus != 0 {
		a = append(a, slog.Int("http_status", f.HTTPStatus))
	}
	if r.Message != "" {
		a = append(a, slog.String("message", r.Message))
	}
	if f.Err != nil {
		a = append(a, slog.String("error", f.Err.Error()))
	}
	return slog.GroupValue(a...)
}

// Log returns an OnFailure hook that logs every failure to l (nil means
// slog.Default()) as one record, "mcp failure", with the Failure as the
// group "failure": at Info for an expected kind (Expected), at Error for
// the rest, so that a log alert can watch the Error records alone.
func Log(l *slog.Logger) func(ctx context.Context, f Failure) {
	return func(ctx context.Context, f Failure) {
		lg := l
		if lg == nil {
			lg = slog.Default()
		}
		level := slog.LevelError
		if Expected(f.Reading.Kind) {
			level = slog.LevelInfo
		}
		lg.LogAttrs(ctx, level, "mcp failure", slog.Any("failure", f))
	}
}

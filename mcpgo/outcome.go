package mcpgo

import (
	"context"
	"errors"
	"strings"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcperr/mcperr/errkind"
)

// rpcErrors are the errors mcp-go's client turns a JSON-RPC error into,
// by code: the sentinel, wrapped with the error's message when that differs
// from the sentinel's own text.
var rpcErrors = [...]struct {
	err  error
	code int
}{
	{mcp.ErrParseError, mcp.PARSE_ERROR},
	{mcp.ErrInvalidRequest, mcp.INVALID_REQUEST},
	{mcp.ErrMethodNotFound, mcp.METHOD_NOT_FOUND},
	{mcp.ErrInvalidParams, mcp.INVALID_PARAMS},
	{mcp.ErrInternalError, mcp.INTERNAL_ERROR},
	{mcp.ErrRequestInterrupted, mcp.REQUEST_INTERRUPTED},
	{mcp.ErrResourceNotFound, mcp.RESOURCE_NOT_FOUND},
}

// Outcome is what a tool call through mcp-go's client returned, as errkind
// reads it, so a client classifies a call in one line:
//
//	r := errkind.Read(mcpgo.Outcome(c.CallTool(ctx, req)))
//
// A result is its isError and its text blocks joined by "\n". mcp-go's
// client keeps of a JSON-RPC error only what its error value says: the code
// for the codes it has an error for (mcp.ErrInvalidParams and the like, and
// the header, capability, version and elicitation errors) and the message;
// the data, and the code of any other error, are gone, so such an error is
// its text as the message of a JSON-RPC error of code 0. An error of the
// transport (such as an HTTP status whose body is not JSON-RPC) or of the
// call's context is its text as a failed result's, which errkind reads for
// the status it names.
func Outcome(res *mcp.CallToolResult, err error) errkind.Outcome {
	if err != nil {
		return outcomeOf(err)
	}
	if res == nil {
		return errkind.Outcome{}
	}
	if len(res.Content) == 1 { // one text block, as mcperr's refusals and errors send: no copy
		if tc, ok := mcp.AsTextContent(res.Content[0]); ok {
			return errkind.Outcome{IsError: res.IsError, Text: tc.Text}
		}
	}
	var b strings.Builder
	n := 0
	for _, c := range res.Content {
		if tc, ok := mcp.AsTextContent(c); ok {
			if n > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(tc.Text)
			n++
		}
	}
	return errkind.Outcome{IsError: res.IsError, Text: b.String()}
}

func outcomeOf(err error) errkind.Outcome {
	var te *transport.Error
	if errors.As(err, &te) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return errkind.Outcome{IsError: true, Text: err.Error()}
	}
	for _, s := range rpcErrors {
		if !errors.Is(err, s.err) {
			continue
		}
		msg := err.Error()
		for e := err; e != nil; e = errors.Unwrap(e) {
			if errors.Unwrap(e) == s.err {
				// "<sentinel>: <message>"
				msg = strings.TrimPrefix(e.Error(), s.err.Error()+": ")
				break
			}
		}
		return errkind.Outcome{RPCCode: errkind.RPCCode(s.code), Message: msg}
	}
	switch {
	case errors.As(err, new(mcp.HeaderMismatchError)):
		return errkind.Outcome{RPCCode: mcp.HEADER_MISMATCH, Message: err.Error()}
	case errors.As(err, new(mcp.MissingRequiredClientCapabilityError)):
		return errkind.Outcome{RPCCode: mcp.MISSING_REQUIRED_CLIENT_CAPABILITY, Message: err.Error()}
	case errors.As(err, new(mcp.UnsupportedProtocolVersionError)):
		return errkind.Outcome{RPCCode: mcp.UNSUPPORTED_PROTOCOL_VERSION, Message: err.Error()}
	case errors.As(err, new(mcp.URLElicitationRequiredError)):
		return errkind.Outcome{RPCCode: mcp.URL_ELICITATION_REQUIRED, Message: err.Error()}
	}
	return errkind.Outcome{Message: err.Error()}
}

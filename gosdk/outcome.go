package gosdk

import (
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/errkind"
)

// rejectedCode is the code of the go-sdk's own error for a request its
// client transport refused (an HTTP 429, 500, 502, 503 or 504, whose body it
// does not read): the error names the status only in its text.
const rejectedCode = -32005

// Outcome is what a tool call through the go-sdk's client returned, as
// errkind reads it, so a client classifies a call in one line:
//
//	r := errkind.Read(gosdk.Outcome(session.CallTool(ctx, params)))
//
// A result is its isError and its text blocks joined by "\n". An error that
// carries the server's JSON-RPC error (a *jsonrpc.Error, code 0 included:
// the go-sdk's code for a handler's Go error) is that error's code, message
// and data. Any other error, such as a request the transport refused, is
// its text as a failed result's, which errkind reads for the status it
// names.
func Outcome(res *mcp.CallToolResult, err error) errkind.Outcome {
	if err != nil {
		if we := wireError(err); we != nil && (we.Code != 0 || we.Message != "" || len(we.Data) > 0) {
			return errkind.Outcome{RPCCode: errkind.RPCCode(we.Code), Message: we.Message, Data: we.Data}
		}
		return errkind.Outcome{IsError: true, Text: err.Error()}
	}
	if res == nil {
		return errkind.Outcome{}
	}
	var b strings.Builder
	n := 0
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			if n > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(tc.Text)
			n++
		}
	}
	return errkind.Outcome{IsError: res.IsError, Text: b.String()}
}

// wireError finds the server's JSON-RPC error in err's tree, as errors.As
// does, passing over the go-sdk's own rejection.
func wireError(err error) *jsonrpc.Error {
	for err != nil {
		if we, ok := err.(*jsonrpc.Error); ok && we.Code != rejectedCode {
			return we
		}
		switch u := err.(type) {
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				if we := wireError(e); we != nil {
					return we
				}
			}
			return nil
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		default:
			return nil
		}
	}
	return nil
}

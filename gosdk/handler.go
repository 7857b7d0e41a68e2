package gosdk

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/wire"
)

// Handle adapts fn, a tool handler that returns a value or an error, to the
// SDK's typed handler, for mcp.AddTool:
//
//	mcp.AddTool(server, &mcp.Tool{Name: "get_trace"}, gosdk.Handle(getTrace))
//
// The SDK derives the input and output schemas from In and Out and decodes
// the arguments into In, as it does for any typed tool. What fn returns:
//
//   - a value: the SDK's success, Out's JSON as structuredContent and the
//     same JSON as one text block;
//   - an error: isError and one text block holding the JSON kind object of
//     the upstream failure envelope.ErrorOf finds for err (an
//     *envelope.Error in its chain, a typed client error, a request that
//     got no answer, or what an envelope.Transport under the API client
//     kept of the call's upstream answers, fn's ctx being the call's), or
//     for an error that holds none, server_error with err's text as the
//     message. No structuredContent is
//     sent, so the zero Out never reaches the client. The result's GetError
//     (what the SDK's middleware and OnError see) is an error whose Error is
//     the kind object and whose Unwrap is err;
//   - a *wire.RPCError or *jsonrpc.Error in err's chain: that JSON-RPC
//     error, with its code, message and data, in place of a result;
//   - a Renderer in err's chain: the first text block of its result (the
//     SDK's typed path sends the error's text alone, without _meta).
//
// A Long (at most one) is for a call that takes long: while fn runs,
// Handle sends notifications/progress every Long.Interval to a client whose
// request carried a progressToken, and past Long.Deadline it cancels fn's
// context and answers the unavailable kind object with Long.Wait (see
// adapter.RunLong).
func Handle[In, Out any](fn func(ctx context.Context, req *mcp.CallToolRequest, in In) (Out, error), long ...Long) mcp.ToolHandlerFor[In, Out] {
	var l Long
	if len(long) > 0 {
		l = long[0]
	}
	return func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
		ctx, find := envelope.Track(adapter.Enter(ctx))
		out, err := adapter.RunLong(ctx, l, progress(req), func(ctx context.Context) (Out, error) { return fn(ctx, req, in) })
		if err == nil {
			return nil, out, nil
		}
		var zero Out
		if pe := protocolError(err); pe != nil {
			return nil, zero, pe
		}
		// The SDK builds the result of a returned error itself, from the
		// error's text and without structuredContent: the text is the
		// kind object.
		return nil, zero, &toolError{err: err, text: wire.ErrorResult(find(err)).Content[0].Text}
	}
}

// Raw adapts fn to the SDK's raw handler, for Server.AddTool, whose handler
// receives the arguments undecoded (req.Params.Arguments):
//
//	server.AddTool(&mcp.Tool{Name: "get_trace", InputSchema: schema}, gosdk.Raw(getTrace))
//
// What fn returns:
//
//   - a value: its JSON as structuredContent and as one text block, encoded
//     once (wire.Success). A *mcp.CallToolResult or *wire.ToolResult is
//     sent as it is;
//   - an error: isError and one text block holding the JSON kind object, as
//     Handle renders it. The result's GetError is err itself;
//   - a *wire.RPCError or *jsonrpc.Error in err's chain: that JSON-RPC
//     error;
//   - a Renderer in err's chain: its result, _meta included, with GetError
//     err.
func Raw(fn func(ctx context.Context, req *mcp.CallToolRequest) (any, error)) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		ctx, find := envelope.Track(adapter.Enter(ctx))
		v, err := fn(ctx, req)
		if err == nil {
			switch v := v.(type) {
			case *mcp.CallToolResult:
				return v, nil
			case *wire.ToolResult:
				return Result(v), nil
			}
			r, err := wire.Success(v)
			if err == nil {
				return Result(r), nil
			}
			res := Result(wire.ErrorResult(err))
			res.SetError(err)
			return res, nil
		}
		return failed(err, find)
	}
}

// failed answers a handler's error err as Raw and AddTool answer it: the
// JSON-RPC error it carries, or isError with the kind object of the upstream
// failure find finds for it (or a Renderer's result), GetError err.
func failed(err error, find func(error) error) (*mcp.CallToolResult, error) {
	if pe := protocolError(err); pe != nil {
		return nil, pe
	}
	res := Result(wire.ErrorResult(find(err)))
	res.SetError(err) // keeps the kind object: Content is already set
	return res, nil
}

// A Renderer is an error that renders itself as a tool result: for a server
// whose tool errors have a shape of their own, such as prose for the agent or
// the server's own JSON error object (wire.TextError, wire.JSONError).
// When a handler's error holds one, Handle and Raw send its result in place of
// the kind object (wire.ErrorResult), and still keep the error for OnError and
// middleware.
type Renderer = wire.Renderer

// protocolError returns the JSON-RPC error err carries, if any.
func protocolError(err error) *jsonrpc.Error {
	var se *wire.RPCError
	if errors.As(err, &se) {
		return rpcError(se)
	}
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		return we
	}
	return nil
}

// toolError is a typed handler's error as the SDK records it: its text is
// the kind object the agent reads, and it unwraps to the handler's error.
type toolError struct {
	err  error
	text string
}

func (e *toolError) Error() string { return e.text }
func (e *toolError) Unwrap() error { return e.err }

// cause returns the handler's own error from a result's GetError.
func cause(err error) error {
	if te, ok := err.(*toolError); ok {
		return te.err
	}
	return err
}

package mcpgo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"reflect"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/wire"
)

// Handle adapts fn, a tool handler that returns a value or an error, to the
// SDK's handler, for server.AddTool. It decodes the arguments, as the client
// sent them, into In (the Validator has checked them already):
//
//	s.AddTool(mcp.NewTool("get_trace", mcp.WithInputSchema[TraceIn]()), mcpgo.Handle(getTrace))
//
// What fn returns:
//
//   - a value: its JSON as structuredContent and as one text block,
//     whatever its shape, as the go-sdk sends a typed tool's output
//     (gosdk.Handle): an object, encoded once, and also an array, a
//     string, a number or null (a nil slice), encoded twice; a nil pointer
//     is sent as the zero value it points to, and a nil map as {}. A
//     structuredContent other than an object is for clients on a protocol
//     revision that allows it (2025-06-18 requires an object);
//   - an error: isError and one text block holding the JSON kind object of
//     the upstream failure envelope.ErrorOf finds for err (an
//     *envelope.Error in its chain, a typed client error, a request that
//     got no answer, or what an envelope.Transport under the API client
//     kept of the call's upstream answers, fn's ctx being the call's), or
//     for an error that holds none, server_error with err's text as the
//     message, and no structuredContent
//     (the zero Out never reaches the client). mcp-go's results carry no Go
//     error, so err goes to the context instead: Options.OnError and any
//     middleware added after Validate read it with ToolError;
//   - a Renderer in err's chain: its result in place of the kind object.
//
// A Long (at most one) is for a call that takes long: while fn runs,
// Handle sends notifications/progress every Long.Interval to a client whose
// request carried a progressToken, and past Long.Deadline it cancels fn's
// context and answers the unavailable kind object with Long.Wait (see
// adapter.RunLong).
func Handle[In, Out any](fn func(ctx context.Context, req mcp.CallToolRequest, in In) (Out, error), long ...Long) server.ToolHandlerFunc {
	var l Long
	if len(long) > 0 {
		l = long[0]
	}
	zero := nilOutput[Out]()
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in In
		if a := args(req); len(a) > 0 && string(a) != "null" {
			if err := json.Unmarshal(a, &in); err != nil {
				return fail(ctx, errors.New("decoding arguments the schema accepted: "+err.Error()), nil), nil
			}
		}
		ctx, find := envelope.Track(adapter.Enter(ctx))
		out, err := adapter.RunLong(ctx, l, progress(ctx, req), func(ctx context.Context) (Out, error) { return fn(ctx, req, in) })
		if err != nil {
			return fail(ctx, err, find), nil
		}
		if zero != nil {
			return output(ctx, zero(out)), nil
		}
		return output(ctx, out), nil
	}
}

// nilOutput returns, for an Out that is a pointer or a map, the function
// that replaces a nil Out by what the go-sdk sends for it: the zero value
// of the pointed-to type, or an empty object. It returns nil for every
// other Out.
func nilOutput[Out any]() func(Out) any {
	t := reflect.TypeFor[Out]()
	switch t.Kind() {
	case reflect.Pointer:
		elem := reflect.Zero(t.Elem()).Interface()
		return func(out Out) any {
			if reflect.ValueOf(&out).Elem().IsNil() {
				return elem
			}
			return out
		}
	case reflect.Map:
		return func(out Out) any {
			if reflect.ValueOf(&out).Elem().IsNil() {
				return struct{}{}
			}
			return out
		}
	}
	return nil
}

// output is Handle's result for v, sent as the go-sdk sends a typed tool's
// output: v's JSON as structuredContent and as one text block, whatever its
// shape. An object is wire.Success's result; an array, a string, a number,
// a boolean or null (which wire.Success refuses: MCP's 2025-06-18 revision
// requires an object) has the same two members, as the go-sdk writes them
// for a protocol revision that allows any JSON value.
func output(ctx context.Context, v any) *mcp.CallToolResult {
	r, err := wire.Success(v)
	if err == nil {
		return Result(r)
	}
	b, encErr := encodeJSON(v)
	if encErr != nil || len(b) > 0 && b[0] == '{' {
		return fail(ctx, err, nil)
	}
	return Result(&wire.ToolResult{Content: []wire.Content{{Type: "text", Text: string(b)}}, StructuredContent: b})
}

// encodeJSON is v's JSON without HTML escaping, as wire writes results.
func encodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// Raw adapts fn to the SDK's handler for a tool that reads its arguments
// from req itself. A value is rendered as Handle renders it, and a
// *mcp.CallToolResult or *wire.ToolResult is sent as it is; an error as
// Handle renders it.
func Raw(fn func(ctx context.Context, req mcp.CallToolRequest) (any, error)) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		ctx, find := envelope.Track(adapter.Enter(ctx))
		v, err := fn(ctx, req)
		if err != nil {
			return fail(ctx, err, find), nil
		}
		switch v := v.(type) {
		case *mcp.CallToolResult:
			return v, nil
		case *wire.ToolResult:
			return Result(v), nil
		}
		return success(ctx, v), nil
	}
}

func success(ctx context.Context, v any) *mcp.CallToolResult {
	r, err := wire.Success(v)
	if err != nil {
		return fail(ctx, err, nil)
	}
	return Result(r)
}

// fail records err for ToolError and renders the failure find says it
// stands for (envelope.Track's find; nil renders err itself).
func fail(ctx context.Context, err error, find func(error) error) *mcp.CallToolResult {
	if s, ok := ctx.Value(errKey{}).(*errSlot); ok {
		s.err = err
	}
	if find != nil {
		err = find(err)
	}
	return Result(wire.ErrorResult(err))
}

// callContext is the context of one call, holding the slot for its
// handler's error: one allocation for both.
type callContext struct {
	context.Context
	slot errSlot
}

func (c *callContext) Value(key any) any {
	if key == (errKey{}) {
		return &c.slot
	}
	return c.Context.Value(key)
}

// A Renderer is an error that renders itself as a tool result: for a server
// whose tool errors have a shape of their own, such as prose for the agent or
// the server's own JSON error object (wire.TextError, wire.JSONError).
// When a handler's error holds one, Handle and Raw send its result in place of
// the kind object (wire.ErrorResult), and still keep the error for OnError and
// middleware.
type Renderer = wire.Renderer

type errKey struct{}

// errSlot holds the error of one call's handler.
type errSlot struct{ err error }

// ToolError returns the error the handler of the call in ctx returned, once
// the handler has run: the Go error behind an isError result, for a
// middleware added after Validate. It is nil when the handler succeeded or
// did not come from Handle or Raw.
func ToolError(ctx context.Context) error {
	if s, ok := ctx.Value(errKey{}).(*errSlot); ok {
		return s.err
	}
	return nil
}

package gosdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/schemaerr"
)

// Options configures Validate. The zero value (or nil) is the TypeScript
// dialect with schemaerr's default bounds.
type Options struct {
	// Validation holds what every adapter's validation options share:
	// Dialect, Bounds, Patterns, Schemas, Cache and OnFailure (see
	// adapter.Validation).
	Validation

	// Unknown, if set, answers a call to a tool the server does not have,
	// in place of the dialect's answer. tools lists the server's tool
	// names. Return a result, or an error the SDK sends as the JSON-RPC
	// error (a *jsonrpc.Error keeps its code, message and data).
	Unknown func(ctx context.Context, name string, tools []string) (*mcp.CallToolResult, error)

	// OnError, if set, is called once for every tool call whose result
	// carries a Go error (set by a handler from Handle or Raw, or by any
	// handler with CallToolResult.SetError), after the tool ran: the hook
	// for logs and metrics. err is the handler's own error, so errors.As
	// finds an *envelope.Error in it. Argument refusals are not errors of
	// a tool and do not reach it.
	OnError func(ctx context.Context, req *mcp.CallToolRequest, err error)
}

// Validate returns the receiving middleware that checks every tools/call's
// arguments against the called tool's own InputSchema, with schemaerr, before
// the tool's handler runs (and so before the SDK's own validation of a typed
// tool added with mcp.AddTool), and answers a call to a tool the server does
// not have. Install it once, after the tools:
//
//	server.AddReceivingMiddleware(gosdk.Validate(nil))
//
// Each tool's schema is compiled once, the first time the tool is called,
// and compiled again only when the tool is replaced. The middleware learns
// the server's tools by asking the handler it wraps for tools/list (a
// middleware added before it sees that request), again whenever a call names
// a tool it does not know, and from every tools/list a client sends.
//
// A schema that does not compile is the server's bug, not the caller's: the
// call is answered with JSON-RPC -32603 naming the tool. Requests other than
// tools/call pass through unchanged.
func Validate(opts *Options) mcp.Middleware {
	v := &validator{}
	if opts != nil {
		v.opts = *opts
	}
	v.schemas = adapter.NewSet[*mcp.Tool](&v.opts.Validation)
	return v.middleware
}

// validator holds the compiled schemas of the tools the server has.
type validator struct {
	opts    Options
	schemas *schemaerr.Set[*mcp.Tool] // a tool replaced is a new *mcp.Tool
	tools   atomic.Pointer[toolSet]
	mu      sync.Mutex // serialises refreshes
}

// toolSet is a snapshot of the server's tools. It is replaced, never
// changed, so a call reads it without a lock.
type toolSet struct {
	byName map[string]*mcp.Tool
	names  []string
}

func (v *validator) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "tools/call":
			if r, ok := req.(*mcp.CallToolRequest); ok && r.Params != nil {
				return v.call(ctx, next, r)
			}
		case "tools/list":
			res, err := next(ctx, method, req)
			if l, ok := res.(*mcp.ListToolsResult); ok && err == nil && l.NextCursor == "" {
				if r, ok := req.(*mcp.ListToolsRequest); ok && (r.Params == nil || r.Params.Cursor == "") {
					v.learn(l.Tools)
				}
			}
			return res, err
		}
		return next(ctx, method, req)
	}
}

// call validates one tools/call and runs it.
func (v *validator) call(ctx context.Context, next mcp.MethodHandler, req *mcp.CallToolRequest) (mcp.Result, error) {
	name := req.Params.Name
	t := v.lookup(ctx, next, req, name)
	if t == nil {
		return v.report(ctx, adapter.UnknownToolCall, name, nil)(v.unknown(ctx, req.Session, name))
	}
	s, err := v.schemas.Schema(name, t, func() ([]byte, error) { return inputSchema(t) })
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("tool %s: its input schema does not compile: %v", name, err)}
	}
	args := req.Params.Arguments
	if issues := s.Validate(args); issues != nil {
		return v.report(ctx, adapter.Arguments, name, nil)(refuse(req.Session, v.opts.Dialect.Refuse(name, issues)))
	}
	// A tool of AddTool does not check the arguments again; the handler is
	// entered (adapter.Enter: telemetry starts the call's span there).
	res, err := next(adapter.Enter(markValidated(ctx, req.Params)), "tools/call", req)
	if err != nil {
		var we *jsonrpc.Error
		if errors.As(err, &we) && we.Code == jsonrpc.CodeInvalidParams {
			// The SDK's answer for a tool it does not have: the tool was
			// removed since the snapshot was taken.
			if tools, lerr := list(ctx, next, req.Session); lerr == nil && v.learn(tools).byName[name] == nil {
				return v.report(ctx, adapter.UnknownToolCall, name, nil)(v.unknown(ctx, req.Session, name))
			}
		}
		return res, err
	}
	if r, ok := res.(*mcp.CallToolResult); ok && r != nil {
		if herr := r.GetError(); herr != nil && v.opts.OnError != nil {
			v.opts.OnError(ctx, req, cause(herr))
		}
		if r.IsError && v.opts.OnFailure != nil {
			var herr error
			if e := r.GetError(); e != nil {
				herr = cause(e)
			}
			v.report(ctx, adapter.Handler, name, herr)(res, nil)
		}
	}
	return res, nil
}

// report returns a func that hands the answer (res, err) of a call to tool
// to OnFailure as a Failure of stage, and returns it unchanged.
func (v *validator) report(ctx context.Context, stage adapter.Stage, tool string, herr error) func(mcp.Result, error) (mcp.Result, error) {
	return func(res mcp.Result, err error) (mcp.Result, error) {
		if v.opts.OnFailure != nil {
			r, _ := res.(*mcp.CallToolResult)
			v.opts.Report(ctx, stage, tool, Outcome(r, err), herr)
		}
		return res, err
	}
}

// lookup returns the named tool, listing the server's tools when the
// snapshot does not have it.
func (v *validator) lookup(ctx context.Context, next mcp.MethodHandler, req *mcp.CallToolRequest, name string) *mcp.Tool {
	if set := v.tools.Load(); set != nil {
		if t := set.byName[name]; t != nil {
			return t
		}
	}
	tools, err := list(ctx, next, req.Session)
	if err != nil {
		return nil
	}
	set := v.learn(tools)
	return set.byName[name]
}

// list asks the wrapped handler for every page of tools/list.
func list(ctx context.Context, next mcp.MethodHandler, ss *mcp.ServerSession) ([]*mcp.Tool, error) {
	var tools []*mcp.Tool
	cursor := ""
	for range 1000 {
		res, err := next(ctx, "tools/list", &mcp.ListToolsRequest{Session: ss, Params: &mcp.ListToolsParams{Cursor: cursor}})
		if err != nil {
			return nil, err
		}
		l, ok := res.(*mcp.ListToolsResult)
		if !ok {
			return nil, errors.New("tools/list answered no ListToolsResult")
		}
		tools = append(tools, l.Tools...)
		if l.NextCursor == "" {
			break
		}
		cursor = l.NextCursor
	}
	return tools, nil
}

// learn makes tools the snapshot, keeping the compiled schema of every tool
// that is the same *mcp.Tool as before and dropping those of tools gone.
func (v *validator) learn(tools []*mcp.Tool) *toolSet {
	v.mu.Lock()
	defer v.mu.Unlock()
	set := &toolSet{byName: make(map[string]*mcp.Tool, len(tools)), names: make([]string, 0, len(tools))}
	for _, t := range tools {
		if t == nil {
			continue
		}
		set.byName[t.Name] = t
		set.names = append(set.names, t.Name)
	}
	slices.Sort(set.names)
	v.tools.Store(set)
	v.schemas.Retain(func(name string) bool { return set.byName[name] != nil })
	return set
}

// inputSchema is t's InputSchema as JSON.
func inputSchema(t *mcp.Tool) ([]byte, error) {
	switch s := t.InputSchema.(type) {
	case json.RawMessage:
		return s, nil
	case []byte:
		return s, nil
	}
	return json.Marshal(t.InputSchema)
}

// unknown answers a call to a tool the server does not have.
func (v *validator) unknown(ctx context.Context, ss *mcp.ServerSession, name string) (mcp.Result, error) {
	var names []string
	if set := v.tools.Load(); set != nil {
		names = set.names
	}
	if v.opts.Unknown != nil {
		res, err := v.opts.Unknown(ctx, name, names)
		if err != nil {
			return nil, err
		}
		return complete(ss, res), nil
	}
	return refuse(ss, v.opts.Dialect.RefuseTool(name, names))
}

// refuse answers with r, the dialect's refusal: its JSON-RPC error, or its
// text as an isError tool result.
func refuse(ss *mcp.ServerSession, r schemaerr.Refusal) (mcp.Result, error) {
	if r.Error != nil {
		return nil, rpcError(r.Error)
	}
	return complete(ss, textResult(r.Text)), nil
}

// Validation is what the validation options of every adapter share
// (adapter.Validation), embedded in Options.
type Validation = adapter.Validation

// Dialect is how refused arguments and unknown tools are answered
// (schemaerr.Dialect, whose doc says how each dialect answers).
type Dialect = schemaerr.Dialect

// The dialects: TypeScript (the default), TypeScriptV2 and Hint.
const (
	TypeScript   = schemaerr.TypeScript
	TypeScriptV2 = schemaerr.TypeScriptV2
	Hint         = schemaerr.Hint
)

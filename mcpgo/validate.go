package mcpgo

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/schemaerr"
	"github.com/mcperr/mcperr/wire"
)

// Options configures Validate. The zero value (or nil) is the TypeScript
// dialect with schemaerr's default bounds.
type Options struct {
	// Validation holds what every adapter's validation options share:
	// Dialect, Bounds, Patterns, Schemas, Cache and OnFailure (see
	// adapter.Validation). A call to a tool the server does not have
	// reaches OnFailure where the Validator answers it: through
	// HTTPHandler, ServeStdio or HandleMessage.
	Validation

	// OnError, if set, is called once for every tool call whose handler
	// (from Handle or Raw) returned an error, after the tool ran: the hook
	// for logs and metrics. err is the handler's own error, so errors.As
	// finds an *envelope.Error in it.
	OnError func(ctx context.Context, req mcp.CallToolRequest, err error)
}

// A Validator checks tool calls' arguments against the tools' own input
// schemas. Create it with Validate; it is safe for concurrent use.
type Validator struct {
	srv     *server.MCPServer
	opts    Options
	schemas *schemaerr.Set[fingerprint]
}

// fingerprint tells a tool's schema from the one a replaced tool had,
// without encoding it: the same backing array or map means the same schema.
type fingerprint struct {
	raw      *byte
	rawLen   int
	props    uintptr
	required int
	typ      string
}

// Validate installs argument validation on every tool of s, typed tools
// included, as a tool handler middleware (s.Use): it runs before the
// handler and every middleware added after it, and checks the arguments,
// as the client sent them, against the schema the tool publishes (compiled
// once, and again when the tool is replaced). Tools of a session
// (server.SessionWithTools) are not checked. Do not also enable
// server.WithInputSchemaValidation: mcp-go runs it before any middleware,
// with its own wording.
//
// mcp-go answers a call to an unknown tool itself, before any middleware,
// and sends every handler error as -32603; so the unknown-tool answer and the
// hint dialect's -32602 need the message before mcp-go reads it: HTTPHandler
// and ServeStdio do that when given the Validator, and so does HandleMessage
// for a transport of your own. Where none sees the message (mcp-go's own
// server.ServeStdio), an unknown tool gets mcp-go's own -32602, and a hint-dialect
// refusal arrives as an isError tool result whose text is the JSON-RPC error
// object, {"code":-32602,"message":...,"data":{"code":...}}.
func Validate(s *server.MCPServer, opts *Options) *Validator {
	v := &Validator{srv: s}
	if opts != nil {
		v.opts = *opts
	}
	v.schemas = adapter.NewSet[fingerprint](&v.opts.Validation)
	s.Use(v.middleware)
	return v
}

// checkedKey marks a context whose call HandleMessage has already checked.
type checkedKey struct{}

func (v *Validator) middleware(next server.ToolHandlerFunc) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if ctx.Value(checkedKey{}) == nil {
			if t := v.srv.GetTool(req.Params.Name); t != nil {
				if res, rpc := v.check(t.Tool, args(req)); res != nil {
					v.report(ctx, adapter.Arguments, req.Params.Name, res, rpc, nil)
					return res, nil
				} else if rpc != nil {
					v.report(ctx, adapter.Arguments, req.Params.Name, nil, rpc, nil)
					return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{mcp.TextContent{Type: "text", Text: string(rpcBody(rpc))}}}, nil
				}
			}
		}
		c := &callContext{Context: adapter.Enter(ctx)} // the handler is entered: telemetry's span starts
		res, err := next(c, req)
		if c.slot.err != nil && v.opts.OnError != nil {
			v.opts.OnError(c, req, c.slot.err)
		}
		if res != nil && res.IsError {
			v.report(c, adapter.Handler, req.Params.Name, res, nil, c.slot.err)
		}
		return res, err
	}
}

// report hands OnFailure the refusal or failed result of a call to tool: an
// isError result res, or the JSON-RPC error rpc.
func (v *Validator) report(ctx context.Context, stage adapter.Stage, tool string, res *mcp.CallToolResult, rpc *wire.RPCError, herr error) {
	if v.opts.OnFailure == nil {
		return
	}
	var o errkind.Outcome
	if rpc != nil {
		o = errkind.Outcome{RPCCode: rpc.Code, Message: rpc.Message}
		if rpc.Data != nil {
			o.Data, _ = json.Marshal(rpc.Data)
		}
	} else {
		o = Outcome(res, nil)
	}
	v.opts.Report(ctx, stage, tool, o, herr)
}

// args returns the arguments as the client sent them.
func args(req mcp.CallToolRequest) json.RawMessage {
	if len(req.Params.RawArguments) > 0 {
		return req.Params.RawArguments
	}
	if req.Params.Arguments == nil {
		return nil
	}
	b, err := json.Marshal(req.Params.Arguments)
	if err != nil {
		return nil
	}
	return b
}

// check validates args against t's schema and returns the refusal: a tool
// result in the TypeScript dialect, a JSON-RPC error in the hint dialect, or
// neither when the arguments are valid.
func (v *Validator) check(t mcp.Tool, args json.RawMessage) (*mcp.CallToolResult, *wire.RPCError) {
	s, err := v.compiled(t)
	if err != nil {
		return Result(wire.ErrorResult(fmt.Errorf("tool %s: its input schema does not compile: %w", t.Name, err))), nil
	}
	issues := s.Validate(args)
	if issues == nil {
		return nil, nil
	}
	return refusal(v.opts.Dialect.Refuse(t.Name, issues))
}

// unknown is the refusal of a call to a tool the server does not have.
func (v *Validator) unknown(name string) (*mcp.CallToolResult, *wire.RPCError) {
	return refusal(v.opts.Dialect.RefuseTool(name, slices.Sorted(maps.Keys(v.srv.ListTools()))))
}

// refusal is r, the dialect's refusal, as check and unknown return it: its
// JSON-RPC error, or its text as an isError tool result.
func refusal(r schemaerr.Refusal) (*mcp.CallToolResult, *wire.RPCError) {
	if r.Error != nil {
		return nil, r.Error
	}
	return textResult(r.Text), nil
}

func fingerprintOf(t mcp.Tool) fingerprint {
	fp := fingerprint{rawLen: len(t.RawInputSchema), required: len(t.InputSchema.Required), typ: t.InputSchema.Type}
	if len(t.RawInputSchema) > 0 {
		fp.raw = &t.RawInputSchema[0]
	}
	if t.InputSchema.Properties != nil {
		fp.props = reflect.ValueOf(t.InputSchema.Properties).Pointer()
	}
	return fp
}

// compiled returns t's compiled schema, compiling it the first time and
// again when the tool was replaced.
func (v *Validator) compiled(t mcp.Tool) (*schemaerr.Schema, error) {
	return v.schemas.Schema(t.Name, fingerprintOf(t), func() ([]byte, error) {
		if len(t.RawInputSchema) > 0 {
			return t.RawInputSchema, nil
		}
		return json.Marshal(t.InputSchema)
	})
}

// HandleMessage handles one JSON-RPC message as s.HandleMessage does, after
// answering what mcp-go would answer otherwise: a tools/call naming a tool
// the server does not have, and arguments the tool's schema refuses, in the
// Validator's dialect (the hint dialect's refusal as a real JSON-RPC -32602
// error with data.code). A transport of your own calls it in place of the
// server's HandleMessage.
func (v *Validator) HandleMessage(ctx context.Context, message json.RawMessage) mcp.JSONRPCMessage {
	if resp, ok := v.screen(ctx, message); ok {
		return resp
	}
	return v.srv.HandleMessage(context.WithValue(ctx, checkedKey{}, true), message)
}

// call is what screen reads of a message.
type call struct {
	JSONRPC string        `json:"jsonrpc"`
	ID      mcp.RequestId `json:"id"`
	Method  string        `json:"method"`
	Params  callParams    `json:"params"`
}

// callParams is what screen reads of a tools/call's params.
type callParams struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Meta      struct {
		Version string `json:"io.modelcontextprotocol/protocolVersion"`
	} `json:"_meta"`
}

// screen answers a tools/call the Validator refuses; ok is false for every
// other message, and for a call that passes.
func (v *Validator) screen(ctx context.Context, message json.RawMessage) (resp mcp.JSONRPCMessage, ok bool) {
	var c call
	if json.Unmarshal(message, &c) != nil || c.Method != string(mcp.MethodToolsCall) || c.ID.IsNil() || c.JSONRPC != mcp.JSONRPC_VERSION {
		return nil, false // not a tools/call mcp-go would read as one: mcp-go answers it
	}
	return v.answer(c.ID, &c.Params, v.refusal(ctx, &c.Params))
}

// screenCall is screen for m, a tools/call request a transport has checked
// (wire.CheckMessage). Params of a name and arguments alone are read
// without decoding (wire.Message.ToolCall), and the id is decoded only for
// a refusal: a call that passes costs the validation and one scan.
func (v *Validator) screenCall(ctx context.Context, m *wire.Message) (resp mcp.JSONRPCMessage, ok bool) {
	var p callParams
	if name, args, plain := m.ToolCall(); plain {
		p.Name, p.Arguments = name, args
	} else if len(m.Params) > 0 && json.Unmarshal(m.Params, &p) != nil {
		return nil, false // mcp-go answers what it cannot read as a call
	}
	r := v.refusal(ctx, &p)
	if r.res == nil && r.rpc == nil {
		return nil, false
	}
	var id mcp.RequestId
	json.Unmarshal(m.ID, &id) // a checked id is a string or an integer: it decodes
	return v.answer(id, &p, r)
}

// refused is the Validator's refusal of a call: an isError result res, or
// a JSON-RPC error rpc; neither for a call that passes.
type refused struct {
	res *mcp.CallToolResult
	rpc *wire.RPCError
}

// refusal returns the refusal of the call p, reported to OnFailure.
func (v *Validator) refusal(ctx context.Context, p *callParams) refused {
	var r refused
	stage := adapter.Arguments
	if t := v.srv.GetTool(p.Name); t == nil {
		r.res, r.rpc = v.unknown(p.Name)
		stage = adapter.UnknownToolCall
	} else {
		r.res, r.rpc = v.check(t.Tool, p.Arguments)
	}
	if r.res != nil || r.rpc != nil {
		v.report(ctx, stage, p.Name, r.res, r.rpc, nil)
	}
	return r
}

// answer is the answer with id to the call p that r refuses; ok is false
// when r is no refusal.
func (v *Validator) answer(id mcp.RequestId, p *callParams, r refused) (resp mcp.JSONRPCMessage, ok bool) {
	switch {
	case r.rpc != nil:
		return mcp.JSONRPCError{JSONRPC: mcp.JSONRPC_VERSION, ID: id,
			Error: mcp.JSONRPCErrorDetails{Code: int(r.rpc.Code), Message: r.rpc.Message, Data: r.rpc.Data}}, true
	case r.res != nil:
		if p.Meta.Version >= mcp.ProtocolVersion20260728 {
			r.res.ResultType = mcp.ResultTypeComplete // as mcp-go marks the results it sends on that revision
		}
		return mcp.JSONRPCResponse{JSONRPC: mcp.JSONRPC_VERSION, ID: id, Result: r.res}, true
	}
	return nil, false
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

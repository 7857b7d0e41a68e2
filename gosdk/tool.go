package gosdk

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	segjson "github.com/segmentio/encoding/json"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/schemaerr"
	"github.com/mcperr/mcperr/wire"
)

// AddTool adds a typed tool to s, as mcp.AddTool(s, t, Handle(fn, long...))
// does, but through the SDK's raw tool API (Server.AddTool), so that a call's
// arguments are validated once, by Validate's schemaerr, and decoded once,
// into In:
//
//	gosdk.AddTool(s, &mcp.Tool{Name: "get_trace"}, getTrace)
//	s.AddReceivingMiddleware(gosdk.Validate(nil))
//
// mcp.AddTool validates every call's arguments a second time (with
// jsonschema-go, after Validate), through a map, re-encodes them and decodes
// them into In, with a fresh 32 KiB buffer for each decode; on a call whose
// handler returns at once that is most of the call's cost.
//
// The tool is published as mcp.AddTool publishes it: a nil InputSchema is
// inferred from In (jsonschema-go, as the SDK infers it), a nil OutputSchema
// from Out unless Out is any. fn and long are Handle's: a value is sent as
// structuredContent and one text block of the same JSON, an error as the
// kind object (a *wire.RPCError or *jsonrpc.Error as that JSON-RPC error, a
// Renderer as its result), and the result's GetError is fn's error.
//
// Validation: a call that Validate checked (Validate installed on s, the
// call's params as Validate saw them, against the tool's input schema or
// the one Options.Schemas gives it) is not checked again. Without Validate,
// AddTool checks the arguments itself, with schemaerr against the tool's
// input schema, and refuses them with the TypeScript SDK's text (Validate's
// default dialect) as an isError result: no call reaches fn with arguments
// its schema refuses, whether Validate is installed or not.
//
// Where the answers differ from mcp.AddTool's (TestAddToolMatchesSDK runs
// both on the same calls):
//
//   - refused arguments get schemaerr's TypeScript text, where mcp.AddTool
//     answers jsonschema-go's ("validating \"arguments\": ..."), when
//     Validate is not installed (with Validate, neither path sees them);
//   - an integer beyond 2^53 for an integer property is refused (schemaerr
//     refuses it as the TypeScript SDK does), where mcp.AddTool without
//     Validate rounds it through a float64 (9007199254740993 becomes
//     9007199254740992); one a schema lets through (a property without a
//     type) reaches In as sent, where mcp.AddTool rounds it; a
//     json.RawMessage or json.Number field of In gets the bytes as sent,
//     where mcp.AddTool gets them re-encoded (keys sorted, 1.0 as 1);
//   - null arguments are read as absent ones, defaults applied, where
//     mcp.AddTool (go-sdk v1.8.0) panics on a schema with a default;
//   - structuredContent and the text are Out's JSON as encoding/json writes
//     it, fields in Out's order and <, > and & as themselves, where
//     mcp.AddTool re-encodes it through a map (keys sorted, numbers through
//     a float64, HTML escaped); the same JSON value but an integer beyond
//     2^53;
//   - Out is checked against the output schema only when t declares one
//     (then as mcp.AddTool checks it, with jsonschema-go, and a failure is
//     the same JSON-RPC error): the schema inferred from Out is what Out's
//     JSON is, unless Out has a MarshalJSON of its own that writes another
//     shape, which mcp.AddTool refuses and AddTool sends;
//   - a Renderer's result is sent whole, _meta included, as Raw sends it,
//     where Handle through mcp.AddTool sends its text alone.
//
// What stays as mcp.AddTool does it: 1.0 (or 1e2) for an integer field is
// accepted as 1 (100); unknown properties the schema allows are ignored;
// names match case-sensitively; absent arguments decode as In's zero value;
// the defaults of the input schema (a "default" of an optional
// property) are applied before decoding, with jsonschema-go as the SDK
// applies them, and those of a declared output schema to Out's JSON; a
// decode error is an isError result with the SDK's decoder's text; a nil
// *T Out is sent as T's zero value.
//
// AddTool panics, as mcp.AddTool does, when a schema cannot be inferred or
// resolved.
func AddTool[In, Out any](s *mcp.Server, t *mcp.Tool, fn func(ctx context.Context, req *mcp.CallToolRequest, in In) (Out, error), long ...Long) {
	tt, h, err := typedTool(t, fn, long)
	if err != nil {
		panic(fmt.Sprintf("gosdk.AddTool: tool %q: %v", t.Name, err))
	}
	s.AddTool(tt, h)
}

// typed is a tool of AddTool: what a call needs, prepared when the tool is
// added.
type typed[In, Out any] struct {
	name string
	fn   func(context.Context, *mcp.CallToolRequest, In) (Out, error)
	long Long

	input    *schema              // the published input schema
	defaults *jsonschema.Resolved // set when the input schema has defaults
	output   *jsonschema.Resolved // set when t declares an output schema
	object   bool                 // the inferred output schema is an object's
	elemZero any                  // T's zero value for a nil *T Out, when inferred

	check struct { // schemaerr's schema, for a call Validate did not check
		once   sync.Once
		schema *schemaerr.Schema
		err    error
	}
}

// schema is an input schema as JSON, and whether it holds a default.
type schema struct {
	bytes    []byte
	defaults bool
}

// inferred holds the schemas inferred from Go types, by reflect.Type: a
// server built per request infers each type's schema once.
var inferred sync.Map

type inference struct {
	schema *jsonschema.Schema
	json   *schema
	err    error
}

// infer returns the schema jsonschema-go infers for rt, as the SDK infers
// it.
func infer(rt reflect.Type) *inference {
	if v, ok := inferred.Load(rt); ok {
		return v.(*inference)
	}
	inf := &inference{}
	inf.schema, inf.err = jsonschema.ForType(rt, &jsonschema.ForOptions{})
	if inf.err == nil && inf.schema == nil {
		inf.err = fmt.Errorf("schema is nil for type %v", rt)
	}
	if inf.err == nil {
		inf.json, inf.err = schemaJSON(inf.schema)
	}
	v, _ := inferred.LoadOrStore(rt, inf)
	return v.(*inference)
}

// schemaJSON is s, a schema of any of the forms a Tool holds, as JSON.
func schemaJSON(s any) (*schema, error) {
	var b []byte
	switch s := s.(type) {
	case json.RawMessage:
		b = s
	case []byte:
		b = s
	default:
		var err error
		if b, err = json.Marshal(s); err != nil {
			return nil, err
		}
	}
	return &schema{bytes: b, defaults: hasKey(b, "default")}, nil
}

// hasKey reports whether the JSON value b has an object member named key
// at any depth.
func hasKey(b []byte, key string) bool {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return true // the schema's own check reports it; assume the worst
	}
	var walk func(v any) bool
	walk = func(v any) bool {
		switch v := v.(type) {
		case map[string]any:
			if _, ok := v[key]; ok {
				return true
			}
			for _, e := range v {
				if walk(e) {
					return true
				}
			}
		case []any:
			for _, e := range v {
				if walk(e) {
					return true
				}
			}
		}
		return false
	}
	return walk(v)
}

// resolve resolves s, a schema of any form a Tool holds, as the SDK does.
func resolve(s any) (*jsonschema.Resolved, error) {
	js, ok := s.(*jsonschema.Schema)
	if !ok {
		b, err := schemaJSON(s)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b.bytes, &js); err != nil {
			return nil, err
		}
	}
	if js == nil {
		return nil, fmt.Errorf("schema is nil")
	}
	return js.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
}

// typedTool returns the tool to publish for t and its raw handler.
func typedTool[In, Out any](t *mcp.Tool, fn func(context.Context, *mcp.CallToolRequest, In) (Out, error), long []Long) (*mcp.Tool, mcp.ToolHandler, error) {
	tt := *t
	tool := &typed[In, Out]{name: t.Name, fn: fn}
	if len(long) > 0 {
		tool.long = long[0]
	}

	in := reflect.TypeFor[In]()
	switch {
	case tt.InputSchema == nil && in == reflect.TypeFor[any]():
		tt.InputSchema = &jsonschema.Schema{Type: "object"}
		tool.input = &schema{bytes: []byte(`{"type":"object"}`)}
	case tt.InputSchema == nil:
		if in.Kind() == reflect.Pointer {
			in = in.Elem()
		}
		inf := infer(in)
		if inf.err != nil {
			return nil, nil, fmt.Errorf("input schema: %w", inf.err)
		}
		tt.InputSchema, tool.input = inf.schema, inf.json
	default:
		var err error
		if tool.input, err = schemaJSON(tt.InputSchema); err != nil {
			return nil, nil, fmt.Errorf("input schema: %w", err)
		}
	}
	if tool.input.defaults {
		var err error
		if tool.defaults, err = resolve(tt.InputSchema); err != nil {
			return nil, nil, fmt.Errorf("input schema: %w", err)
		}
	}

	out := reflect.TypeFor[Out]()
	switch {
	case tt.OutputSchema != nil:
		var err error
		if tool.output, err = resolve(tt.OutputSchema); err != nil {
			return nil, nil, fmt.Errorf("output schema: %w", err)
		}
	case out != reflect.TypeFor[any]():
		if out.Kind() == reflect.Pointer {
			out = out.Elem()
			tool.elemZero = reflect.Zero(out).Interface()
		}
		inf := infer(out)
		if inf.err != nil {
			return nil, nil, fmt.Errorf("output schema: %w", inf.err)
		}
		tt.OutputSchema, tool.object = inf.schema, inf.schema.Type == "object"
	}
	return &tt, tool.handle, nil
}

// validated is the key of the context value by which Validate tells the
// tool's handler which call's params it checked.
type validated struct{}

// markValidated returns ctx marked as carrying a call whose params p
// Validate checked.
func markValidated(ctx context.Context, p *mcp.CallToolParamsRaw) context.Context {
	return context.WithValue(ctx, validated{}, p)
}

// handle is the tool's raw handler.
func (t *typed[In, Out]) handle(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var args json.RawMessage
	if req.Params != nil {
		args = req.Params.Arguments
	}
	if p, _ := ctx.Value(validated{}).(*mcp.CallToolParamsRaw); p == nil || p != req.Params {
		if res := t.refuse(args); res != nil {
			return res, nil
		}
	}
	var in In
	if err := t.decode(args, &in); err != nil {
		res := &mcp.CallToolResult{}
		res.SetError(err) // as mcp.AddTool answers it
		return res, nil
	}
	ctx, find := envelope.Track(adapter.Enter(ctx))
	out, err := adapter.RunLong(ctx, t.long, progress(req), func(ctx context.Context) (Out, error) { return t.fn(ctx, req, in) })
	if err != nil {
		return failed(err, find)
	}
	return t.result(out)
}

// refuse checks args against the input schema with schemaerr, for a call
// Validate did not check, and returns the TypeScript SDK's refusal, or nil.
func (t *typed[In, Out]) refuse(args json.RawMessage) *mcp.CallToolResult {
	c := &t.check
	c.once.Do(func() { c.schema, c.err = schemaerr.Compile(t.input.bytes, nil) })
	if c.err != nil {
		res := &mcp.CallToolResult{}
		res.SetError(fmt.Errorf("tool %s: its input schema does not compile: %w", t.name, c.err))
		return res
	}
	issues := c.schema.Validate(args)
	if issues == nil {
		return nil
	}
	return textResult(TypeScript.Refuse(t.name, issues).Text)
}

// decode decodes args into in as mcp.AddTool does, in one pass of the SDK's
// decoder (segmentio/encoding/json, names matched case-sensitively) over
// the bytes as sent. Only when that fails (1.0 for an integer, or a value
// In cannot hold) is args decoded the SDK's way, through a map re-encoded,
// and the SDK's error is the answer.
func (t *typed[In, Out]) decode(args json.RawMessage, in *In) error {
	if t.defaults != nil {
		var err error
		if args, err = applyDefaults(args, t.defaults); err != nil {
			return err
		}
	}
	if len(args) == 0 {
		return nil
	}
	if parse(args, in) == nil {
		return nil
	}
	var v any
	if err := parse(args, &v); err != nil {
		return err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	var zero In
	*in = zero
	return parse(b, in)
}

// parse decodes data into v as the go-sdk's internal/json.Unmarshal does,
// without its fresh 32 KiB buffer.
func parse(data []byte, v any) error {
	rest, err := segjson.Parse(data, v, segjson.DontMatchCaseInsensitiveStructFields)
	if err != nil {
		return err
	}
	for _, c := range rest {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return fmt.Errorf("json: invalid character %q after top-level value", c)
		}
	}
	return nil
}

// applyDefaults returns args with the schema's defaults applied, as the
// go-sdk's applySchema applies them (decoded into a map, re-encoded).
func applyDefaults(args json.RawMessage, r *jsonschema.Resolved) (json.RawMessage, error) {
	v := make(map[string]any)
	if len(args) > 0 {
		if err := parse(args, &v); err != nil {
			return nil, fmt.Errorf("unmarshaling arguments: %w", err)
		}
	}
	if v == nil {
		// null arguments, read as absent ones (the go-sdk v1.8.0 panics
		// here: ApplyDefaults assigns to the nil map)
		v = make(map[string]any)
	}
	var u any = v
	if err := r.ApplyDefaults(&u); err != nil {
		return nil, fmt.Errorf("applying schema defaults:\n%w", err)
	}
	return json.Marshal(u)
}

// result is fn's value as the tool's result: structuredContent and one text
// block of the same JSON.
func (t *typed[In, Out]) result(out Out) (*mcp.CallToolResult, error) {
	var v any = out
	if t.elemZero != nil {
		var z Out
		if any(out) == any(z) { // Out is a pointer type: nil is T's zero value
			v = t.elemZero
		}
	}
	if v == nil {
		return &mcp.CallToolResult{}, nil // Out is any: no structured content
	}
	r, err := wire.Success(v)
	if err != nil {
		// A value that is not an object (SEP-2106), or one that does not
		// encode: mcp.AddTool's rule.
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("marshaling output: %w", err)
		}
		if t.object && string(b) == "null" {
			b = []byte("{}") // as the SDK sends a nil map of an object schema
		}
		r = &wire.ToolResult{Content: []wire.Content{{Type: "text", Text: string(b)}}, StructuredContent: b}
	}
	if t.output != nil {
		b, err := applyOutput(r.StructuredContent, t.output)
		if err != nil {
			return nil, fmt.Errorf("validating tool output: %w", err)
		}
		r = &wire.ToolResult{Content: []wire.Content{{Type: "text", Text: string(b)}}, StructuredContent: b}
	}
	return Result(r), nil
}

// applyOutput validates data, Out's JSON, against a declared output schema
// and applies its defaults, as the go-sdk's applySchema does for output.
func applyOutput(data json.RawMessage, r *jsonschema.Resolved) (json.RawMessage, error) {
	var v any
	if err := parse(data, &v); err != nil {
		return nil, fmt.Errorf("unmarshaling output: %w", err)
	}
	applied := false
	if _, ok := v.(map[string]any); ok {
		if err := r.ApplyDefaults(&v); err != nil {
			return nil, fmt.Errorf("applying schema defaults:\n%w", err)
		}
		applied = true
	} else if v == nil && r.Schema().Type == "object" {
		v = make(map[string]any)
		if err := r.ApplyDefaults(&v); err != nil {
			return nil, fmt.Errorf("applying schema defaults:\n%w", err)
		}
		applied = true
	}
	if err := r.Validate(&v); err != nil {
		return nil, err
	}
	if !applied {
		return data, nil
	}
	return json.Marshal(v)
}

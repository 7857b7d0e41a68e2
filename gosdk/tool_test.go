package gosdk_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/gosdk"
)

// EchoIn is the differential test's arguments: each field a way the
// arguments can reach In.
type EchoIn struct {
	ID    string   `json:"id"`
	Limit int      `json:"limit,omitempty"`
	Big   int64    `json:"big,omitempty"`
	Score float64  `json:"score,omitempty"`
	Tags  []string `json:"tags,omitempty"`
	Deep  *struct {
		N int `json:"n"`
	} `json:"deep,omitempty"`
}

// EchoOut is the differential test's result: the arguments as decoded, and
// fields out of alphabetical order.
type EchoOut struct {
	Z    string `json:"z"`
	Echo EchoIn `json:"echo"`
	A    int    `json:"a"`
}

// echo answers the arguments it got; id "fail" fails as an upstream 404
// does, id "rpc" with a JSON-RPC error.
func echo(_ context.Context, _ *mcp.CallToolRequest, in EchoIn) (EchoOut, error) {
	switch in.ID {
	case "fail":
		return EchoOut{}, &envelope.Error{Kind: errkind.NotFound, Code: "no_echo", Message: "no echo"}
	case "rpc":
		return EchoOut{}, &jsonrpc.Error{Code: 42, Message: "rpc"}
	}
	return EchoOut{Z: "<&>", Echo: in, A: in.Limit}, nil
}

// DefaultsIn is the arguments of a tool whose schema is the server's own,
// with a default.
type DefaultsIn struct {
	ID    string          `json:"id"`
	Limit int             `json:"limit"`
	Big   int64           `json:"big,omitempty"`
	Raw   json.RawMessage `json:"raw,omitempty"`
}

type DefaultsOut struct {
	Limit int             `json:"limit"`
	Note  string          `json:"note,omitempty"`
	Big   int64           `json:"big,omitempty"`
	Raw   json.RawMessage `json:"raw,omitempty"`
}

const defaultsSchema = `{"type":"object","properties":{"id":{"type":"string"},"limit":{"type":"integer","default":10}},"required":["id"]}`

// The output schema declares a default for note, which Out leaves out
// when empty, and a minimum that limit 0 breaks.
const defaultsOutput = `{"type":"object","properties":{"limit":{"type":"integer","minimum":1},"note":{"type":"string","default":"n"}},"required":["limit"]}`

func defaults(_ context.Context, _ *mcp.CallToolRequest, in DefaultsIn) (DefaultsOut, error) {
	return DefaultsOut{Limit: in.Limit, Big: in.Big, Raw: in.Raw}, nil
}

// LooseOut is the result of a tool whose input schema lets any value of
// big and raw through, and whose output schema is inferred.
type LooseOut struct {
	Big int64  `json:"big,omitempty"`
	Raw string `json:"raw,omitempty"`
}

// optionalSchema has a default and no required property: null arguments
// pass the check.
const optionalSchema = `{"type":"object","properties":{"limit":{"type":"integer","default":10}}}`

func optional(_ context.Context, _ *mcp.CallToolRequest, in DefaultsIn) (DefaultsOut, error) {
	return DefaultsOut{Limit: in.Limit}, nil
}

const looseSchema = `{"type":"object","properties":{"id":{"type":"string"}}}`

func loose(_ context.Context, _ *mcp.CallToolRequest, in DefaultsIn) (LooseOut, error) {
	return LooseOut{Big: in.Big, Raw: string(in.Raw)}, nil
}

// PtrOut is a result returned as a pointer, nil included.
type PtrOut struct {
	N int `json:"n"`
}

func ptr(_ context.Context, _ *mcp.CallToolRequest, in DefaultsIn) (*PtrOut, error) {
	if in.ID == "nil" {
		return nil, nil
	}
	return &PtrOut{N: len(in.ID)}, nil
}

// diffServer is the same five tools on one server, added with mcp.AddTool
// and Handle (sdk) or with AddTool, with or without Validate; it returns the
// server's receiving chain and a session of a client connected to it.
func diffServer(t *testing.T, sdk, validate bool) (mcp.MethodHandler, *mcp.ServerSession) {
	s := mcp.NewServer(&mcp.Implementation{Name: "diff", Version: "1"}, nil)
	dt := func() *mcp.Tool {
		return &mcp.Tool{Name: "defaults", InputSchema: json.RawMessage(defaultsSchema), OutputSchema: json.RawMessage(defaultsOutput)}
	}
	if sdk {
		mcp.AddTool(s, &mcp.Tool{Name: "echo"}, gosdk.Handle(echo))
		mcp.AddTool(s, dt(), gosdk.Handle(defaults))
		mcp.AddTool(s, &mcp.Tool{Name: "ptr"}, gosdk.Handle(ptr))
		mcp.AddTool(s, &mcp.Tool{Name: "loose", InputSchema: json.RawMessage(looseSchema)}, gosdk.Handle(loose))
		mcp.AddTool(s, &mcp.Tool{Name: "optional", InputSchema: json.RawMessage(optionalSchema)}, gosdk.Handle(optional))
	} else {
		gosdk.AddTool(s, &mcp.Tool{Name: "echo"}, echo)
		gosdk.AddTool(s, dt(), defaults)
		gosdk.AddTool(s, &mcp.Tool{Name: "ptr"}, ptr)
		gosdk.AddTool(s, &mcp.Tool{Name: "loose", InputSchema: json.RawMessage(looseSchema)}, loose)
		gosdk.AddTool(s, &mcp.Tool{Name: "optional", InputSchema: json.RawMessage(optionalSchema)}, optional)
	}
	if validate {
		s.AddReceivingMiddleware(gosdk.Validate(nil))
	}
	var h mcp.MethodHandler
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler { h = next; return next })
	_, done := connect(s)
	t.Cleanup(done)
	for ss := range s.Sessions() { // the one session connect made
		return h, ss
	}
	t.Fatal("no session")
	return nil, nil
}

// answer is one call's answer on the wire, canonical: the result or the
// JSON-RPC error as JSON with object keys sorted, numbers as written, and a
// text block that is JSON written the same way.
func answer(t *testing.T, h mcp.MethodHandler, ss *mcp.ServerSession, tool, args string) string {
	t.Helper()
	p := &mcp.CallToolParamsRaw{Name: tool}
	if args != "" {
		p.Arguments = json.RawMessage(args)
	}
	var res mcp.Result
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("panic: %v", r)
			}
		}()
		res, err = h(context.Background(), "tools/call", &mcp.CallToolRequest{Session: ss, Params: p})
	}()
	if err != nil {
		var we *jsonrpc.Error
		if errors.As(err, &we) {
			return "rpc error " + canonical(t, we)
		}
		return "error " + err.Error()
	}
	return canonical(t, res)
}

// canonical is v's JSON with object keys sorted, numbers as written, and
// each "text" that holds JSON replaced by its canonical form.
func canonical(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var x any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&x); err != nil {
		t.Fatal(err)
	}
	var walk func(any) any
	walk = func(v any) any {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				if s, ok := e.(string); ok && k == "text" && json.Valid([]byte(s)) {
					var y any
					d := json.NewDecoder(strings.NewReader(s))
					d.UseNumber()
					d.Decode(&y)
					v[k] = walk(y)
					continue
				}
				v[k] = walk(e)
			}
		case []any:
			for i, e := range v {
				v[i] = walk(e)
			}
		}
		return v
	}
	out, _ := json.Marshal(walk(x))
	return string(out)
}

// TestAddToolMatchesSDK runs the same tools added with AddTool and with
// mcp.AddTool and Handle on the same calls, with Validate and without, and
// requires the same answers but where AddTool's doc says they differ; those
// rows give both answers.
func TestAddToolMatchesSDK(t *testing.T) {
	tests := []struct {
		name, tool, args string
		// Where AddTool differs by design: its answer, and the start of the
		// SDK's.
		ours, sdk string
		// withoutValidate: the row differs only without Validate (with it,
		// Validate answers both).
		withoutValidate bool
	}{
		{name: "valid", tool: "echo", args: `{"id":"a","limit":3,"tags":["x","y"],"score":2.5,"deep":{"n":4}}`},
		{name: "1.0 for an integer is 1", tool: "echo", args: `{"id":"a","limit":1.0}`},
		{name: "1e2 for an integer is 100", tool: "echo", args: `{"id":"a","limit":1e2}`},
		{name: "a fraction for an integer is refused", tool: "echo", args: `{"id":"a","limit":1.5}`, withoutValidate: true,
			ours: `{"content":[{"text":"MCP error -32602: Input validation error: Invalid arguments for tool echo: Invalid input: expected int, received number at limit","type":"text"}],"isError":true,"resultType":"complete"}`,
			sdk:  `{"content":[{"text":"validating \"arguments\": validating root: validating /properties/limit: type: 1.5 has type \"number\", want \"integer\"","type":"text"}],"isError":true,"resultType":"complete"}`},
		{name: "an integer beyond 2^53 is refused by the inferred schema", tool: "echo", args: `{"id":"a","big":9007199254740993}`, withoutValidate: true,
			ours: `{"content":[{"text":"MCP error -32602: Input validation error: Invalid arguments for tool echo: Too big: expected int to be \u003c=9007199254740991 at big","type":"text"}],"isError":true,"resultType":"complete"}`,
			sdk:  `{"content":[{"text":{"a":0,"echo":{"big":9007199254740992,"id":"a"}`},
		{name: "an unknown property is refused by the inferred schema", tool: "echo", args: `{"id":"a","extra":1}`, withoutValidate: true,
			ours: `{"content":[{"text":"MCP error -32602: Input validation error: Invalid arguments for tool echo: Unrecognized key: \"extra\"","type":"text"}],"isError":true,"resultType":"complete"}`,
			sdk:  `{"content":[{"text":"validating \"arguments\": validating root: unexpected additional properties [\"extra\"]","type":"text"}],"isError":true,"resultType":"complete"}`},
		{name: "a name in another case is unknown to the inferred schema", tool: "echo", args: `{"ID":"a","id":"b"}`, withoutValidate: true,
			ours: `{"content":[{"text":"MCP error -32602: Input validation error: Invalid arguments for tool echo: Unrecognized key: \"ID\"","type":"text"}],"isError":true,"resultType":"complete"}`,
			sdk:  `{"content":[{"text":"validating \"arguments\": validating root: unexpected additional properties [\"ID\"]","type":"text"}],"isError":true,"resultType":"complete"}`},
		{name: "a missing required property is refused", tool: "echo", args: `{"limit":2}`, withoutValidate: true,
			ours: `{"content":[{"text":"MCP error -32602: Input validation error: Invalid arguments for tool echo: Invalid input: expected string, received undefined at id","type":"text"}],"isError":true,"resultType":"complete"}`,
			sdk:  `{"content":[{"text":"validating \"arguments\": validating root: required: missing properties: [\"id\"]","type":"text"}],"isError":true,"resultType":"complete"}`},
		{name: "absent arguments are refused", tool: "echo", args: ``, withoutValidate: true,
			ours: `{"content":[{"text":"MCP error -32602: Input validation error: Invalid arguments for tool echo: Invalid input: expected string, received undefined at id","type":"text"}],"isError":true,"resultType":"complete"}`,
			sdk:  `{"content":[{"text":"validating \"arguments\": validating root: required: missing properties: [\"id\"]","type":"text"}],"isError":true,"resultType":"complete"}`},
		{name: "null arguments are refused", tool: "echo", args: `null`, withoutValidate: true,
			ours: `{"content":[{"text":"MCP error -32602: Input validation error: Invalid arguments for tool echo: Invalid input: expected string, received undefined at id","type":"text"}],"isError":true,"resultType":"complete"}`,
			sdk:  `{"content":[{"text":"validating \"arguments\": validating root: required: missing properties: [\"id\"]","type":"text"}],"isError":true,"resultType":"complete"}`},
		{name: "text the SDK escapes", tool: "echo", args: `{"id":"<&>\u2028"}`},
		{name: "an upstream failure is the kind object", tool: "echo", args: `{"id":"fail"}`},
		{name: "a JSON-RPC error", tool: "echo", args: `{"id":"rpc"}`},
		{name: "the input schema's default is applied", tool: "defaults", args: `{"id":"a"}`},
		{name: "a name in another case is not the property", tool: "defaults", args: `{"id":"a","Limit":5}`},
		{name: "a name in another case is not the property, without defaults", tool: "loose", args: `{"id":"a","Big":5}`},
		{name: "an unknown property the schema allows is ignored", tool: "defaults", args: `{"id":"a","other":[1,2]}`},
		{name: "an integer beyond 2^53 the schema allows stays exact", tool: "loose", args: `{"id":"a","big":9007199254740993}`,
			ours: `{"content":[{"text":{"big":9007199254740993},"type":"text"}],"resultType":"complete","structuredContent":{"big":9007199254740993}}`,
			sdk:  `{"content":[{"text":{"big":9007199254740992},"type":"text"}],"resultType":"complete","structuredContent":{"big":9007199254740992}}`},
		{name: "a raw field gets the bytes as sent", tool: "loose", args: `{"id":"a","raw":{"b":1.0,"a":"<"}}`,
			ours: `{"content":[{"text":{"raw":"{\"b\":1.0,\"a\":\"\u003c\"}"},"type":"text"}],"resultType":"complete","structuredContent":{"raw":"{\"b\":1.0,\"a\":\"\u003c\"}"}}`,
			sdk:  `{"content":[{"text":{"raw":"{\"a\":\"\\u003c\",\"b\":1}"},"type":"text"}],"resultType":"complete","structuredContent":{"raw":"{\"a\":\"\\u003c\",\"b\":1}"}}`},
		{name: "the declared output schema's default rounds through a map", tool: "defaults", args: `{"id":"a","limit":2,"big":9007199254740993}`},
		{name: "a value the declared output schema refuses", tool: "defaults", args: `{"id":"a","limit":0}`},
		{name: "null arguments", tool: "defaults", args: `null`, withoutValidate: true,
			ours: `{"content":[{"text":"MCP error -32602: Input validation error: Invalid arguments for tool defaults: Invalid input: expected string, received undefined at id","type":"text"}],"isError":true,"resultType":"complete"}`,
			sdk:  `error panic: assignment to entry in nil map`},
		{name: "a value In cannot hold is the SDK decoder's error", tool: "loose", args: `{"id":"a","big":"x"}`},
		{name: "null arguments get the defaults", tool: "optional", args: `null`,
			ours: `{"content":[{"text":{"limit":10},"type":"text"}],"resultType":"complete","structuredContent":{"limit":10}}`,
			sdk:  `error panic: assignment to entry in nil map`},
		{name: "absent arguments get the defaults", tool: "optional", args: ``},
		{name: "a value In cannot hold", tool: "defaults", args: `{"id":"a","limit":"x"}`, withoutValidate: true,
			ours: `{"content":[{"text":"MCP error -32602: Input validation error: Invalid arguments for tool defaults: Invalid input: expected number, received string at limit","type":"text"}],"isError":true,"resultType":"complete"}`,
			sdk:  `{"content":[{"text":"validating \"arguments\": validating root: validating /properties/limit: type: x has type \"string\", want \"integer\"","type":"text"}],"isError":true,"resultType":"complete"}`},
		{name: "a pointer result", tool: "ptr", args: `{"id":"abc","limit":1}`},
		{name: "a nil pointer result is the zero value", tool: "ptr", args: `{"id":"nil","limit":1}`},
	}
	for _, validate := range []bool{true, false} {
		sdk, sdkSession := diffServer(t, true, validate)
		ours, ourSession := diffServer(t, false, validate)
		for _, tt := range tests {
			name := tt.name
			if !validate {
				name += " without Validate"
			}
			t.Run(name, func(t *testing.T) {
				got, want := answer(t, ours, ourSession, tt.tool, tt.args), answer(t, sdk, sdkSession, tt.tool, tt.args)
				if tt.ours == "" || validate && tt.withoutValidate {
					if diff := cmp.Diff(want, got); diff != "" {
						t.Errorf("%s %s: AddTool answers otherwise than mcp.AddTool (-sdk +AddTool):\n%s", tt.tool, tt.args, diff)
					}
					return
				}
				if got != tt.ours {
					t.Errorf("%s %s: AddTool answers\n%s\nwant\n%s", tt.tool, tt.args, got, tt.ours)
				}
				if !strings.HasPrefix(want, tt.sdk) {
					t.Errorf("%s %s: mcp.AddTool answers\n%s\nwant\n%s", tt.tool, tt.args, want, tt.sdk)
				}
			})
		}
	}
}

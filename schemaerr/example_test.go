package schemaerr_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/mcperr/mcperr/schemaerr"
	"github.com/mcperr/mcperr/wire"
)

// getValues is a tool's input schema as the TypeScript SDK publishes it for
// {path: z.array(z.string()).max(8), limit: z.number().int().min(1).max(100).optional()}.
const getValues = `{
	"$schema": "http://json-schema.org/draft-07/schema#",
	"type": "object",
	"properties": {
		"path": {"type": "array", "items": {"type": "string"}, "maxItems": 8},
		"limit": {"type": "integer", "minimum": 1, "maximum": 100}
	},
	"required": ["path"]
}`

// A server compiles each tool's schema once, then validates every call's arguments and sends the
// text agents know from the TypeScript SDK.
func Example() {
	s, err := schemaerr.Compile([]byte(getValues), nil)
	if err != nil {
		panic(err)
	}
	args := json.RawMessage(`{"limit":101,"path":["1","2","3","4","5","6","7","8","9"]}`)
	fmt.Println(schemaerr.TypeScript.Refuse("vexlo_get_values", s.Validate(args)).Text)
	// Output:
	// MCP error -32602: Input validation error: Invalid arguments for tool vexlo_get_values: Too big: expected array to have <=8 items at path
	// Too big: expected number to be <=100 at limit
}

// Issues carry zod's code, the path as values, and the message without the path.
func ExampleSchema_Validate() {
	s, _ := schemaerr.Compile([]byte(getValues), nil)
	for _, is := range s.Validate(json.RawMessage(`{"path":["a","b",3],"limit":1.5}`)) {
		fmt.Printf("%v %s: %s\n", is.Path, is.Code, is.Message)
	}
	fmt.Println(s.Validate(json.RawMessage(`{"path":[]}`)) == nil)
	// Output:
	// [path 2] invalid_type: Invalid input: expected string, received number
	// [limit] invalid_type: Invalid input: expected int, received number
	// true
}

// A rejected call is a tool result, not a JSON-RPC error.
func ExampleSchema_Reject() {
	s, _ := schemaerr.Compile([]byte(getValues), nil)
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	enc.Encode(s.Reject("vexlo_get_values", nil))
	// Output:
	// {"content":[{"type":"text","text":"MCP error -32602: Input validation error: Invalid arguments for tool vexlo_get_values: Invalid input: expected array, received undefined at path"}],"isError":true}
}

// The TypeScript SDK 2.x words the same refusal on one line, each issue's path first; the hint
// dialect's is a JSON-RPC error.
func ExampleDialect_Refuse() {
	s, _ := schemaerr.Compile([]byte(getValues), nil)
	issues := s.Validate(json.RawMessage(`{"limit":101,"path":["a","b",3]}`))
	fmt.Println(schemaerr.TypeScriptV2.Refuse("vexlo_get_values", issues).Text)
	e, _ := json.Marshal(schemaerr.Hint.Refuse("vexlo_get_values", issues).Error)
	fmt.Println(string(e))
	// Output:
	// Input validation error: Invalid arguments for tool vexlo_get_values: path.2: Invalid input: expected string, received number, limit: Too big: expected number to be <=100
	// {"code":-32602,"message":"Invalid value for 'path[2]': must be a string. Invalid value for 'limit': must be between 1 and 100.","data":{"code":"invalid_parameter"}}
}

// Each dialect answers a call to a tool the server does not have in its own way: the
// TypeScript SDK's text as a tool result (1.x), or a JSON-RPC error (the hint dialect, with a
// did-you-mean from the server's tools, and 2.x).
func ExampleDialect_RefuseTool() {
	known := []string{"get_trace", "list_traces"}
	for _, d := range []schemaerr.Dialect{schemaerr.TypeScript, schemaerr.Hint, schemaerr.TypeScriptV2} {
		r := d.RefuseTool("get_trac", known)
		if r.Error != nil {
			b, _ := json.Marshal(r.Error)
			fmt.Printf("error: %s\n", b)
			continue
		}
		b, _ := json.Marshal(wire.TextError(r.Text))
		fmt.Printf("result: %s\n", b)
	}
	// Output:
	// result: {"content":[{"type":"text","text":"MCP error -32602: Tool get_trac not found"}],"isError":true}
	// error: {"code":-32602,"message":"Unknown tool 'get_trac'. Did you mean 'get_trace'?","data":{"code":"unknown_tool"}}
	// error: {"code":-32602,"message":"Tool get_trac not found"}
}

// The hint dialect answers with a JSON-RPC error whose data.code a client can switch on, and a
// did-you-mean for a misspelt argument.
func ExampleSchema_Check() {
	s, _ := schemaerr.Compile([]byte(`{
		"type": "object",
		"properties": {
			"query": {"type": "string"},
			"language": {"type": "string", "enum": ["en", "de"]},
			"limit": {"type": "integer", "minimum": 1, "maximum": 50}
		},
		"additionalProperties": false
	}`), nil)
	for _, args := range []string{
		`{"query":"go","langauge":"en"}`,
		`{"query":"go","limit":500}`,
		`{"query":"go","language":"fr"}`,
	} {
		e, _ := json.Marshal(s.Check(json.RawMessage(args)))
		fmt.Println(string(e))
	}
	// Output:
	// {"code":-32602,"message":"Unknown parameter 'langauge'. Did you mean 'language'?","data":{"code":"unknown_parameter"}}
	// {"code":-32602,"message":"Invalid value for 'limit': must be between 1 and 50.","data":{"code":"invalid_parameter"}}
	// {"code":-32602,"message":"Invalid value for 'language': must be one of 'en', 'de'.","data":{"code":"invalid_parameter"}}
}

// A server's own checks run after the schema accepted the arguments and answer with their own
// codes, such as unknown_signal for a signal name that is not published.
func ExampleSchema_Check_checks() {
	s, _ := schemaerr.Compile([]byte(`{"type":"object","properties":{"signal":{"type":"string"}},"required":["signal"]}`), nil)
	published := []string{"cpu_usage", "memory_usage"}
	knownSignal := func(args json.RawMessage) error {
		var a struct{ Signal string }
		json.Unmarshal(args, &a)
		for _, p := range published {
			if p == a.Signal {
				return nil
			}
		}
		return schemaerr.Unknown("unknown_signal", "signal", a.Signal, published)
	}
	e, _ := json.Marshal(s.Check(json.RawMessage(`{"signal":"cpu_usge"}`), knownSignal))
	fmt.Println(string(e))
	fmt.Println(s.Check(json.RawMessage(`{"signal":"cpu_usage"}`), knownSignal) == nil)
	// Output:
	// {"code":-32602,"message":"Unknown signal 'cpu_usge'. Did you mean 'cpu_usage'?","data":{"code":"unknown_signal"}}
	// true
}

func ExampleSuggest() {
	fmt.Println(schemaerr.Suggest("langauge", []string{"query", "language"}))
	fmt.Println(schemaerr.Suggest("xyz", []string{"query", "language"}))
	// Output:
	// language true
	//  false
}

// Patterns are ECMAScript regular expressions; what Go's RE2 cannot run fails at compile time,
// naming the module whose engine runs it (see Options.Patterns). A pattern that needs the u flag is
// printed with it, as JavaScript prints the RegExp.
func ExampleCompile_pattern() {
	_, err := schemaerr.Compile([]byte(`{"type":"object","properties":{"id":{"type":"string","pattern":"^(?!tmp)[a-z]+$"}}}`), nil)
	fmt.Println(err)
	s, _ := schemaerr.Compile([]byte(`{"type":"object","properties":{"id":{"type":"string","pattern":"^\\p{Script=Greek}+$"}}}`), nil)
	fmt.Println(schemaerr.TypeScript.Refuse("t", s.Validate(json.RawMessage(`{"id":"abc"}`))).Text)
	// Output:
	// schemaerr: pattern "^(?!tmp)[a-z]+$": lookahead (?= and (?! is not supported by Go's RE2 engine; to run it, import github.com/mcperr/mcperr/ecmaregexp and compile with schemaerr.Options{Patterns: ecmaregexp.Engine{}}
	// MCP error -32602: Input validation error: Invalid arguments for tool t: Invalid string: must match pattern /^\p{Script=Greek}+$/u at id
}

// Arguments over a limit are refused before validation, in the SDK's words for its
// maxToolInputElements option.
func ExampleBounds() {
	s, _ := schemaerr.Compile([]byte(getValues), &schemaerr.Options{Bounds: schemaerr.Bounds{MaxElements: 5}})
	fmt.Println(schemaerr.TypeScript.Refuse("vexlo_get_values", s.Validate(json.RawMessage(`{"path":["a","b","c","d","e"]}`))).Text)
	s, _ = schemaerr.Compile([]byte(getValues), nil) // the defaults: MaxDepth 64, no MaxElements, as in the SDK
	deep := strings.Repeat(`{"a":`, 65) + `1` + strings.Repeat(`}`, 65)
	fmt.Println(schemaerr.TypeScript.Refuse("vexlo_get_values", s.Validate(json.RawMessage(deep))).Text)
	// Output:
	// MCP error -32602: Invalid arguments for tool vexlo_get_values: arguments contain more than the maximum of 5 elements
	// MCP error -32602: Invalid arguments for tool vexlo_get_values: arguments nest deeper than the maximum of 64 levels
}

// passwordRule stands in for the engine of github.com/mcperr/mcperr/ecmaregexp, which a program
// passes instead (schemaerr.Options{Patterns: ecmaregexp.Engine{}}); it knows one pattern with
// lookahead, so that the example stays inside this module.
type passwordRule struct{}

func (passwordRule) Compile(pattern string, unicode bool) (schemaerr.Matcher, error) {
	if pattern != `^(?=.*[A-Z])(?=.*\d).{8,}$` {
		return nil, fmt.Errorf("stand-in engine: %q unknown", pattern)
	}
	return passwordMatcher{}, nil
}

type passwordMatcher struct{}

func (passwordMatcher) MatchString(s string) bool {
	return strings.ContainsAny(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") && strings.ContainsAny(s, "0123456789") && len(s) >= 8
}

// A pattern RE2 cannot run compiles when Compile is given an ECMAScript engine.
func ExampleOptions() {
	schema := []byte(`{"type":"object","properties":{"password":{"type":"string","pattern":"^(?=.*[A-Z])(?=.*\\d).{8,}$"}}}`)
	_, err := schemaerr.Compile(schema, nil)
	var pe *schemaerr.PatternError
	fmt.Println(errors.As(err, &pe))
	s, err := schemaerr.Compile(schema, &schemaerr.Options{Patterns: passwordRule{}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(schemaerr.TypeScript.Refuse("signup", s.Validate(json.RawMessage(`{"password":"password1"}`))).Text)
	// Output:
	// true
	// MCP error -32602: Input validation error: Invalid arguments for tool signup: Invalid string: must match pattern /^(?=.*[A-Z])(?=.*\d).{8,}$/ at password
}

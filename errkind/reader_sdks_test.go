package errkind_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcperr/mcperr/errkind"
)

// zod3 is the message of the JSON-RPC -32602 error with which the
// TypeScript SDK before 1.3x (here 1.10.2 with zod 3.25.76) refused
// arguments: zod 3's issues as a JSON array.
const zod3 = "MCP error -32602: Invalid arguments for tool search: [\n  {\n    \"code\": \"invalid_type\",\n    \"expected\": \"string\",\n    \"received\": \"number\",\n    \"path\": [\n      \"query\"\n    ],\n    \"message\": \"Expected string, received number\"\n  },\n  {\n    \"code\": \"invalid_type\",\n    \"expected\": \"string\",\n    \"received\": \"number\",\n    \"path\": [\n      \"tags\",\n      1\n    ],\n    \"message\": \"Expected string, received number\"\n  },\n  {\n    \"code\": \"too_big\",\n    \"maximum\": 168,\n    \"type\": \"number\",\n    \"inclusive\": true,\n    \"exact\": false,\n    \"message\": \"Number must be less than or equal to 168\",\n    \"path\": [\n      \"filter\",\n      \"hours\"\n    ]\n  },\n  {\n    \"code\": \"unrecognized_keys\",\n    \"keys\": [\n      \"x\"\n    ],\n    \"path\": [\n      \"filter\"\n    ],\n    \"message\": \"Unrecognized key(s) in object: 'x'\"\n  }\n]"

var zod3Issues = []errkind.Issue{
	{Message: "Expected string, received number", Path: "query"},
	{Message: "Expected string, received number", Path: "tags[1]"},
	{Message: "Number must be less than or equal to 168", Path: "filter.hours"},
	{Message: "Unrecognized key(s) in object: 'x'", Path: "filter", Keys: []string{"x"}},
}

// rateLimitedBody is mcperr's refusal of a client over its limit: HTTP 429
// with this JSON-RPC body.
const rateLimitedBody = `{"jsonrpc":"2.0","id":0,"error":{"code":-32000,"message":"Rate limited: retry after 5 seconds.","data":{"kind":"rate_limited","retryAfterSeconds":5}}}`

// TestReadSDKs reads the answers other MCP implementations give, each text
// as the SDK or client wrote it: the TypeScript SDK 2.x's, its zod 3 era's,
// the go-sdk's and mcp-go's validation and unknown-tool answers, a Go
// handler's error that the go-sdk sends with code 0, mcperr's own per-client
// refusal, and the clients' texts for an HTTP error.
func TestReadSDKs(t *testing.T) {
	rate := errkind.Reading{Form: errkind.FormRPCError, Kind: errkind.RateLimited, Move: errkind.WaitThenRetry, Wait: 5 * time.Second, HasWait: true,
		Message: "Rate limited: retry after 5 seconds.", RPCCode: errkind.ImplementationDefined}
	transportRate := rate
	transportRate.Form = errkind.FormTransport
	tests := []struct {
		name string
		in   errkind.Outcome
		want errkind.Reading
	}{
		// The TypeScript SDK 2.x (@modelcontextprotocol/server 2.4.0).
		{"2.x validation", errkind.Outcome{IsError: true, Text: "Input validation error: Invalid arguments for tool vexlo_search: query: Too small: expected string to have >=3 characters, limit: Invalid input: expected int, received number, order: Invalid option: expected one of \"asc\"|\"desc\""},
			errkind.Reading{Form: errkind.FormInvalidArguments, Kind: errkind.InvalidArguments, Move: errkind.FixArgument, Tool: "vexlo_search",
				Issues: []errkind.Issue{
					{Message: "Too small: expected string to have >=3 characters", Path: "query"},
					{Message: "Invalid input: expected int, received number", Path: "limit"},
					{Message: `Invalid option: expected one of "asc"|"desc"`, Path: "order"},
				}, Args: []string{"query", "limit", "order"}}},
		{"2.x validation, nested and indexed paths", errkind.Outcome{IsError: true, Text: "Input validation error: Invalid arguments for tool vexlo_search: tags.0: Too small: expected string to have >=2 characters, tags.2: Invalid input: expected string, received number, filter.window.hours: Too big: expected number to be <=168"},
			errkind.Reading{Form: errkind.FormInvalidArguments, Kind: errkind.InvalidArguments, Move: errkind.FixArgument, Tool: "vexlo_search",
				Issues: []errkind.Issue{
					{Message: "Too small: expected string to have >=2 characters", Path: "tags[0]"},
					{Message: "Invalid input: expected string, received number", Path: "tags[2]"},
					{Message: "Too big: expected number to be <=168", Path: "filter.window.hours"},
				}, Args: []string{"tags[0]", "tags[2]", "filter.window.hours"}}},
		{"2.x validation, unknown keys at the root", errkind.Outcome{IsError: true, Text: "Input validation error: Invalid arguments for tool vexlo_strict: name: Invalid input: expected string, received undefined, Unrecognized key: \"foo\""},
			errkind.Reading{Form: errkind.FormInvalidArguments, Kind: errkind.InvalidArguments, Move: errkind.FixArgument, Tool: "vexlo_strict",
				Issues: []errkind.Issue{
					{Message: "Invalid input: expected string, received undefined", Path: "name"},
					{Message: `Unrecognized key: "foo"`, Keys: []string{"foo"}},
				}, Args: []string{"name", "foo"}}},
		{"2.x size refusal", errkind.Outcome{IsError: true, Text: "Invalid arguments for tool d_lengths: arguments contain more than the maximum of 5 elements"},
			errkind.Reading{Form: errkind.FormInvalidArguments, Kind: errkind.InvalidArguments, Move: errkind.FixArgument, Tool: "d_lengths",
				Issues: []errkind.Issue{{Message: "arguments contain more than the maximum of 5 elements"}}}},
		{"2.x unknown tool", errkind.Outcome{RPCCode: errkind.InvalidParams, Message: "Tool vexlo_does_not_exist not found"},
			errkind.Reading{Form: errkind.FormRPCError, Kind: errkind.InvalidArguments, Move: errkind.FixArgument, Message: "Tool vexlo_does_not_exist not found",
				RPCCode: errkind.InvalidParams, Tool: "vexlo_does_not_exist"}},

		// The TypeScript SDK 1.10.2 with zod 3: a JSON-RPC error, and the
		// text its client makes of it.
		{"zod 3 issues, JSON-RPC error", errkind.Outcome{RPCCode: errkind.InvalidParams, Message: zod3},
			errkind.Reading{Form: errkind.FormRPCError, Kind: errkind.InvalidArguments, Move: errkind.FixArgument, Message: zod3, RPCCode: errkind.InvalidParams,
				Tool: "search", Issues: zod3Issues, Args: []string{"query", "tags[1]", "filter.hours", "filter.x"}}},
		{"zod 3 issues, the TypeScript client's text", errkind.Outcome{IsError: true, Text: "MCP error -32602: " + zod3},
			errkind.Reading{Form: errkind.FormInvalidArguments, Kind: errkind.InvalidArguments, Move: errkind.FixArgument, RPCCode: errkind.InvalidParams,
				Tool: "search", Issues: zod3Issues, Args: []string{"query", "tags[1]", "filter.hours", "filter.x"}}},
		{"1.x unknown tool, the TypeScript client's text", errkind.Outcome{IsError: true, Text: "MCP error -32602: MCP error -32602: Tool nope not found"},
			errkind.Reading{Form: errkind.FormUnknownTool, Kind: errkind.InvalidArguments, Move: errkind.FixArgument, RPCCode: errkind.InvalidParams, Tool: "nope"}},

		// The go-sdk v1.8.0, server side.
		{"go-sdk validation, wrong type", errkind.Outcome{IsError: true, Text: `validating "arguments": validating root: validating /properties/query: type: 1 has type "integer", want "string"`},
			errkind.Reading{Form: errkind.FormInvalidArguments, Kind: errkind.InvalidArguments, Move: errkind.FixArgument,
				Issues: []errkind.Issue{{Message: `type: 1 has type "integer", want "string"`, Path: "query"}}, Args: []string{"query"}}},
		{"go-sdk validation, missing property", errkind.Outcome{IsError: true, Text: `validating "arguments": validating root: required: missing properties: ["query"]`},
			errkind.Reading{Form: errkind.FormInvalidArguments, Kind: errkind.InvalidArguments, Move: errkind.FixArgument,
				Issues: []errkind.Issue{{Message: `required: missing properties: ["query"]`, Keys: []string{"query"}}}, Args: []string{"query"}}},
		{"go-sdk validation, nested missing property", errkind.Outcome{IsError: true, Text: `validating "arguments": validating root: validating /properties/filter: validating /properties/filter/properties/window: required: missing properties: ["hours"]`},
			errkind.Reading{Form: errkind.FormInvalidArguments, Kind: errkind.InvalidArguments, Move: errkind.FixArgument,
				Issues: []errkind.Issue{{Message: `required: missing properties: ["hours"]`, Path: "filter.window", Keys: []string{"hours"}}}, Args: []string{"filter.window.hours"}}},
		{"go-sdk validation, additional property", errkind.Outcome{IsError: true, Text: `validating "arguments": validating root: unexpected additional properties ["extra"]`},
			errkind.Reading{Form: errkind.FormInvalidArguments, Kind: errkind.InvalidArguments, Move: errkind.FixArgument,
				Issues: []errkind.Issue{{Message: `unexpected additional properties ["extra"]`, Keys: []string{"extra"}}}, Args: []string{"extra"}}},
		{"go-sdk unknown tool", errkind.Outcome{RPCCode: errkind.InvalidParams, Message: `unknown tool "nope"`},
			errkind.Reading{Form: errkind.FormRPCError, Kind: errkind.InvalidArguments, Move: errkind.FixArgument, Message: `unknown tool "nope"`, RPCCode: errkind.InvalidParams, Tool: "nope"}},
		{"go-sdk unknown tool, as the TypeScript client's McpError", errkind.Outcome{RPCCode: errkind.InvalidParams, Message: `MCP error -32602: unknown tool "nope"`},
			errkind.Reading{Form: errkind.FormRPCError, Kind: errkind.InvalidArguments, Move: errkind.FixArgument, Message: `MCP error -32602: unknown tool "nope"`, RPCCode: errkind.InvalidParams, Tool: "nope"}},
		{"go-sdk's code 0, as the TypeScript client's McpError", errkind.Outcome{Message: "MCP error 0: sync failed"},
			errkind.Reading{Form: errkind.FormRPCError, Kind: errkind.ServerError, Move: errkind.Report, Message: "MCP error 0: sync failed"}},
		{"go-sdk: a raw handler's Go error is code 0", errkind.Outcome{Message: "raw handler failed"},
			errkind.Reading{Form: errkind.FormRPCError, Kind: errkind.ServerError, Move: errkind.Report, Message: "raw handler failed"}},
		{"go-sdk client, HTTP 429 refused by its transport", errkind.Outcome{IsError: true, Text: `calling "tools/call": rejected by transport: sending "tools/call": Too Many Requests`},
			errkind.Reading{Form: errkind.FormTransport, Kind: errkind.RateLimited, Move: errkind.WaitThenRetry}},
		{"go-sdk client, HTTP 503 refused by its transport", errkind.Outcome{IsError: true, Text: `calling "tools/call": rejected by transport: sending "tools/call": Service Unavailable`},
			errkind.Reading{Form: errkind.FormTransport, Kind: errkind.Unavailable, Move: errkind.WaitThenRetry}},

		// mcp-go v1.2.1.
		{"mcp-go validation", errkind.Outcome{IsError: true, Text: "input schema validation failed: /filter/hours: &{Got:string Want:[integer]}; /limit: &{Got:9/1 Want:5/1}"},
			errkind.Reading{Form: errkind.FormInvalidArguments, Kind: errkind.InvalidArguments, Move: errkind.FixArgument,
				Issues: []errkind.Issue{{Message: "&{Got:string Want:[integer]}", Path: "filter.hours"}, {Message: "&{Got:9/1 Want:5/1}", Path: "limit"}}, Args: []string{"filter.hours", "limit"}}},
		{"mcp-go validation, missing property", errkind.Outcome{IsError: true, Text: "input schema validation failed: <root>: &{Missing:[query]}"},
			errkind.Reading{Form: errkind.FormInvalidArguments, Kind: errkind.InvalidArguments, Move: errkind.FixArgument,
				Issues: []errkind.Issue{{Message: "&{Missing:[query]}", Keys: []string{"query"}}}, Args: []string{"query"}}},
		{"mcp-go unknown tool", errkind.Outcome{RPCCode: errkind.InvalidParams, Message: "tool 'nope' not found: tool not found"},
			errkind.Reading{Form: errkind.FormRPCError, Kind: errkind.InvalidArguments, Move: errkind.FixArgument, Message: "tool 'nope' not found: tool not found", RPCCode: errkind.InvalidParams, Tool: "nope"}},
		{"mcp-go client: a JSON-RPC error whose code and data it dropped", errkind.Outcome{Message: "Rate limited: retry after 5 seconds."},
			errkind.Reading{Form: errkind.FormRPCError, Kind: errkind.RateLimited, Move: errkind.WaitThenRetry, Wait: 5 * time.Second, HasWait: true, Message: "Rate limited: retry after 5 seconds."}},
		{"mcp-go client, HTTP error without a JSON-RPC body", errkind.Outcome{IsError: true, Text: "transport error: request failed with status 502: <html>Bad Gateway</html>"},
			errkind.Reading{Form: errkind.FormTransport, Kind: errkind.Unavailable, Move: errkind.WaitThenRetry, Message: "<html>Bad Gateway</html>"}},

		// mcperr's per-client refusal, as each client hands it over.
		{"mcperr's refusal, JSON-RPC error", errkind.Outcome{RPCCode: errkind.ImplementationDefined, Message: "Rate limited: retry after 5 seconds.", Data: json.RawMessage(`{"kind":"rate_limited","retryAfterSeconds":5}`)},
			rate},
		{"mcperr's refusal, the TypeScript 1.32.2 client's StreamableHTTPError", errkind.Outcome{IsError: true, Text: "Streamable HTTP error: Error POSTing to endpoint: " + rateLimitedBody},
			transportRate},
		{"mcperr's refusal, the TypeScript 2.x client's SdkHttpError", errkind.Outcome{IsError: true, Text: "Error POSTing to endpoint: " + rateLimitedBody},
			transportRate},
		{"the TypeScript 1.10 client's HTTP error, status in the text", errkind.Outcome{IsError: true, Text: "Error POSTing to endpoint (HTTP 503): upstream down"},
			errkind.Reading{Form: errkind.FormTransport, Kind: errkind.Unavailable, Move: errkind.WaitThenRetry, Message: "upstream down"}},
		{"a TypeScript client's HTTP error with neither status nor JSON-RPC body", errkind.Outcome{IsError: true, Text: "Error POSTing to endpoint: Bad Gateway"},
			errkind.Reading{Form: errkind.FormTransport, Move: errkind.Report, Message: "Bad Gateway"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := errkind.Read(tt.in)
			if diff := cmp.Diff(tt.want, got, cmpopts.IgnoreFields(errkind.Reading{}, "Object"), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Read (-want +got):\n%s", diff)
			}
		})
	}
}

// A kind object in a JSON-RPC error's data is read as the kind object
// itself: the Object, its code and its wait.
func TestReadRPCKindObject(t *testing.T) {
	got := errkind.Read(errkind.Outcome{RPCCode: errkind.ImplementationDefined, Message: "x",
		Data: json.RawMessage(`{"kind":"rate_limited","retryAfterSeconds":7,"limit":20,"remaining":0,"resetSeconds":7}`)})
	if got.Object == nil || got.Object.Kind != errkind.RateLimited || got.Object.Limit == nil || *got.Object.Limit != 20 || got.Wait != 7*time.Second {
		t.Errorf("Read = %+v (object %+v)", got, got.Object)
	}
}

// TestReadLinear2 is TestReadLinear for the one-line issue lists of the
// TypeScript SDK 2.x, and for a line of ", " with no issue after them (a
// reader that looked for the next ": " afresh after each ", " would scan
// the rest of the line each time).
func TestReadLinear2(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("reads large inputs; the race detector's overhead is not the reader's work")
	}
	issues := func(n int) string {
		var b strings.Builder
		b.WriteString("Input validation error: Invalid arguments for tool t: ")
		for i := range n {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString("arg")
			b.WriteString(strconv.Itoa(i))
			b.WriteString(strings.Repeat("x", i%7))
			b.WriteString(": Invalid input")
		}
		return b.String()
	}
	commas := func(n int) string {
		return "Input validation error: Invalid arguments for tool t: " + strings.Repeat("a, ", n) + "b: c"
	}
	if r := checkLinear(t, issues, 10_000, 100_000); len(r.Issues) != 100_000 || len(r.Args) != len(r.Issues) {
		t.Errorf("%d issues, %d args read of 100,000 issues naming one argument each", len(r.Issues), len(r.Args))
	}
	// 800,000: the fast scan of a rescanning reader costs 0.2 s at 100,000
	// and 14 s here; the linear one 3 ms and 12 ms.
	if r := checkLinear(t, commas, 10_000, 800_000); len(r.Issues) != 2 {
		t.Errorf("%d issues read of one line of \"a, \" and one issue, want 2", len(r.Issues))
	}
}

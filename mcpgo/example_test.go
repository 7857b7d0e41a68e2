package mcpgo_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/front"
	"github.com/mcperr/mcperr/mcpgo"
	"github.com/mcperr/mcperr/ratelimit"
	"github.com/mcperr/mcperr/wire"
)

// The server of the package doc, line for line, with the upstream's URL
// taken from a test server.

type TraceIn struct {
	ID string `json:"id" jsonschema_description:"the trace id"`
}

type Trace struct {
	ID    string `json:"id"`
	Spans int    `json:"spans"`
}

var upstream = &envelope.Reader{} // mcperr: error or data by the body's shape

var api = "https://api.example" // the upstream; fakeAPI replaces it

func getTrace(ctx context.Context, _ mcp.CallToolRequest, in TraceIn) (t Trace, err error) {
	req, err := http.NewRequestWithContext(ctx, "GET", api+"/v1/traces/"+url.PathEscape(in.ID), nil)
	if err != nil {
		return t, err
	}
	return t, upstream.Do(req, &t) // mcperr
}

func newServer() (*server.MCPServer, *mcpgo.Validator) {
	s := server.NewMCPServer("traces", "1.0.0")
	s.AddTool(mcp.NewTool("get_trace", mcp.WithDescription("Get a trace"), mcp.WithInputSchema[TraceIn]()), mcpgo.Handle(getTrace)) // mcperr
	v := mcpgo.Validate(s, nil)                                                                                                     // mcperr
	return s, v
}

// fakeAPI serves /v1/traces/abc and answers every other id with the
// upstream's error envelope and a 404.
func fakeAPI() (stop func()) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		id := strings.TrimPrefix(r.URL.Path, "/v1/traces/")
		if id == "abc" {
			io.WriteString(w, `{"id":"abc","spans":3}`)
			return
		}
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprintf(w, `{"error":{"code":"trace_not_found","message":"no trace %s"}}`, id)
	}))
	old := api
	api = srv.URL
	return func() { api = old; srv.Close() }
}

// rpc posts one JSON-RPC body and prints the status and the answer.
func rpc(url, body string) {
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	send(req)
}

// send sends req and prints the status and the body of the answer.
func send(req *http.Request) {
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d %s\n", resp.StatusCode, strings.TrimSpace(string(b)))
}

func callBody(tool, args string) string {
	return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}`
}

// The complete server of the package doc: a success, an upstream 404,
// arguments the tool's schema refuses, and an unknown tool.
func Example() {
	stop := fakeAPI()
	defer stop()
	s, v := newServer()
	srv := httptest.NewServer(mcpgo.HTTPHandler(s, &mcpgo.HTTPOptions{Validator: v})) // mcperr
	defer srv.Close()

	rpc(srv.URL+"/mcp", callBody("get_trace", `{"id":"abc"}`))
	rpc(srv.URL+"/mcp", callBody("get_trace", `{"id":"zzz"}`))
	rpc(srv.URL+"/mcp", callBody("get_trace", `{"id":7}`))
	rpc(srv.URL+"/mcp", callBody("get_trac", `{}`))
	// Output:
	// 200 {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"id\":\"abc\",\"spans\":3}"}],"structuredContent":{"id":"abc","spans":3}}}
	// 200 {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"kind\":\"not_found\",\"code\":\"trace_not_found\",\"message\":\"no trace zzz\"}"}],"isError":true}}
	// 200 {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"MCP error -32602: Input validation error: Invalid arguments for tool get_trace: Invalid input: expected string, received number at id"}],"isError":true}}
	// 200 {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"MCP error -32602: Tool get_trac not found"}],"isError":true}}
}

// printMessage prints what HandleMessage answered.
func printMessage(m mcp.JSONRPCMessage) {
	b, _ := json.Marshal(m)
	fmt.Println(string(b))
}

// Validate checks arguments in the TypeScript SDK's words; HandleMessage
// answers unknown tools too, for a transport of your own.
func ExampleValidate() {
	s := server.NewMCPServer("values", "1")
	s.AddTool(mcp.NewToolWithRawSchema("get_values", "", json.RawMessage(`{"type":"object",
		"properties":{"path":{"type":"array","items":{"type":"string"},"maxItems":8},"limit":{"type":"integer","minimum":1,"maximum":100}},
		"required":["path"]}`)),
		mcpgo.Raw(func(ctx context.Context, req mcp.CallToolRequest) (any, error) { return map[string]any{}, nil }))
	v := mcpgo.Validate(s, nil)

	ctx := context.Background()
	printMessage(v.HandleMessage(ctx, json.RawMessage(callBody("get_values", `{"limit":101,"path":["a","b","c","d","e","f","g","h","i"]}`))))
	printMessage(v.HandleMessage(ctx, json.RawMessage(callBody("get_value", `{}`))))
	// Output:
	// {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"MCP error -32602: Input validation error: Invalid arguments for tool get_values: Too big: expected array to have \u003c=8 items at path\nToo big: expected number to be \u003c=100 at limit"}],"isError":true}}
	// {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"MCP error -32602: Tool get_value not found"}],"isError":true}}
}

// In the hint dialect a refusal is a JSON-RPC error -32602 with data.code,
// where the Validator sees the message first (HTTPHandler, HandleMessage).
func ExampleValidate_hint() {
	s := server.NewMCPServer("search", "1")
	s.AddTool(mcp.NewToolWithRawSchema("search", "", json.RawMessage(`{"type":"object",
		"properties":{"query":{"type":"string"},"language":{"type":"string"}},"additionalProperties":false}`)),
		mcpgo.Raw(func(ctx context.Context, req mcp.CallToolRequest) (any, error) { return map[string]any{}, nil }))
	v := mcpgo.Validate(s, &mcpgo.Options{Validation: mcpgo.Validation{Dialect: mcpgo.Hint}})

	ctx := context.Background()
	printMessage(v.HandleMessage(ctx, json.RawMessage(callBody("search", `{"query":"go","langauge":"en"}`))))
	printMessage(v.HandleMessage(ctx, json.RawMessage(callBody("serch", `{}`))))
	// Output:
	// {"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Unknown parameter 'langauge'. Did you mean 'language'?","data":{"code":"unknown_parameter"}}}
	// {"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Unknown tool 'serch'. Did you mean 'search'?","data":{"code":"unknown_tool"}}}
}

// Handle renders a handler's error as the JSON kind object, without the
// zero Out, and hands the Go error to OnError.
func ExampleHandle() {
	s := server.NewMCPServer("traces", "1")
	s.AddTool(mcp.NewTool("get_trace", mcp.WithInputSchema[TraceIn]()), mcpgo.Handle(func(ctx context.Context, _ mcp.CallToolRequest, in TraceIn) (Trace, error) {
		return Trace{}, &envelope.Error{Kind: errkind.AuthenticationFailed, Message: "token revoked"}
	}))
	v := mcpgo.Validate(s, &mcpgo.Options{
		OnError: func(ctx context.Context, req mcp.CallToolRequest, err error) {
			fmt.Printf("OnError: %s: kind %s\n", req.Params.Name, envelope.KindOf(err))
		},
	})
	printMessage(v.HandleMessage(context.Background(), json.RawMessage(callBody("get_trace", `{"id":"abc"}`))))
	// Output:
	// OnError: get_trace: kind authentication_failed
	// {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"kind\":\"authentication_failed\",\"message\":\"token revoked\"}"}],"isError":true}}
}

// Raw serves a tool whose handler reads its arguments from the request: a
// value becomes structuredContent and the same JSON as text, an error the
// kind object.
func ExampleRaw() {
	s := server.NewMCPServer("echo", "1")
	s.AddTool(mcp.NewToolWithRawSchema("echo", "", json.RawMessage(`{"type":"object"}`)),
		mcpgo.Raw(func(ctx context.Context, req mcp.CallToolRequest) (any, error) {
			if len(req.Params.RawArguments) > 20 {
				return nil, errors.New("too long to echo")
			}
			return req.Params.RawArguments, nil
		}))
	v := mcpgo.Validate(s, nil)
	ctx := context.Background()
	printMessage(v.HandleMessage(ctx, json.RawMessage(callBody("echo", `{"a":1}`))))
	printMessage(v.HandleMessage(ctx, json.RawMessage(callBody("echo", `{"a":"`+strings.Repeat("x", 30)+`"}`))))
	// Output:
	// {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"a\":1}"}],"structuredContent":{"a":1}}}
	// {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"kind\":\"server_error\",\"message\":\"too long to echo\"}"}],"isError":true}}
}

// HTTPHandler answers transport refusals with a JSON-RPC body before
// mcp-go's handler sees the request.
func ExampleHTTPHandler() {
	s, v := newServer()
	srv := httptest.NewServer(mcpgo.HTTPHandler(s, &mcpgo.HTTPOptions{Validator: v}))
	defer srv.Close()
	for _, r := range []struct{ method, path, ctype, body string }{
		{"GET", "/mcp", "", ""},
		{"POST", "/other", "application/json", "{}"},
		{"POST", "/mcp", "text/plain", "{}"},
		{"POST", "/mcp", "application/json", "{not json"},
	} {
		req, _ := http.NewRequest(r.method, srv.URL+r.path, strings.NewReader(r.body))
		if r.ctype != "" {
			req.Header.Set("Content-Type", r.ctype)
		}
		send(req)
	}
	// Output:
	// 405 {"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Method not allowed: use POST"}}
	// 404 {"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"Not found: the MCP endpoint is /mcp"}}
	// 415 {"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Unsupported Media Type: Content-Type must be application/json"}}
	// 400 {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the body is not valid JSON."}}
}

// A server's own checks: Gate sees the headers before a byte of the body
// is read (an API key), Wrap sees each checked message before mcp-go (here
// it refuses a method), and Public serves a health check.
func ExampleHTTPHandler_gate() {
	s, v := newServer()
	srv := httptest.NewServer(mcpgo.HTTPHandler(s, &mcpgo.HTTPOptions{
		Validator: v,
		HTTP: adapter.HTTP{
			Gate: func(w http.ResponseWriter, r *http.Request) bool {
				if r.Header.Get("Authorization") != "Bearer k" {
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(http.StatusUnauthorized)
					io.WriteString(w, `{"error":"no key"}`+"\n")
					return false
				}
				return true
			},
			Wrap: func(sdk http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if m := front.Checked(r); m.Method == "resources/list" {
						wire.WriteRPCError(w, http.StatusNotFound, m.ID, &wire.RPCError{Code: errkind.MethodNotFound, Message: "Method not found: resources/list"})
						return
					}
					sdk.ServeHTTP(w, r)
				})
			},
			Public: map[string]http.Handler{"/health": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.WriteString(w, "ok\n")
			})},
		},
	}))
	defer srv.Close()
	for _, r := range []struct{ method, path, key, body string }{
		{"POST", "/mcp", "", "{not json"},
		{"POST", "/mcp", "k", `{"jsonrpc":"2.0","id":"r1","method":"resources/list"}`},
		{"GET", "/health", "", ""},
	} {
		req, _ := http.NewRequest(r.method, srv.URL+r.path, strings.NewReader(r.body))
		req.Header.Set("Content-Type", "application/json")
		if r.key != "" {
			req.Header.Set("Authorization", "Bearer "+r.key)
		}
		send(req)
	}
	// Output:
	// 401 {"error":"no key"}
	// 404 {"jsonrpc":"2.0","id":"r1","error":{"code":-32601,"message":"Method not found: resources/list"}}
	// 200 ok
}

// A Limiter on HTTPHandler counts tool calls only and answers a call over
// the limit with a rate_limited result that carries the wait.
func ExampleHTTPHandler_limits() {
	stop := fakeAPI()
	defer stop()
	lim := ratelimit.NewLimiter(0.5, 1) // one call, then one every 2 seconds
	now := time.Now()
	lim.Now = func() time.Time { return now } // a stopped clock, so the output is the same on a slow machine
	s, v := newServer()
	srv := httptest.NewServer(mcpgo.HTTPHandler(s, &mcpgo.HTTPOptions{Validator: v, HTTP: adapter.HTTP{Limiter: lim}}))
	defer srv.Close()

	rpc(srv.URL+"/mcp", `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	rpc(srv.URL+"/mcp", callBody("get_trace", `{"id":"abc"}`))
	rpc(srv.URL+"/mcp", callBody("get_trace", `{"id":"abc"}`))
	// Output:
	// 200 {"jsonrpc":"2.0","id":1,"result":{}}
	// 200 {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"id\":\"abc\",\"spans\":3}"}],"structuredContent":{"id":"abc","spans":3}}}
	// 200 {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"kind\":\"rate_limited\",\"retryAfterSeconds\":2,\"limit\":1,\"remaining\":0,\"resetSeconds\":2}"}],"isError":true}}
}

// Result converts an mcperr result, such as wire.ErrorResult's, to the
// SDK's.
func ExampleResult() {
	r := mcpgo.Result(wire.ErrorResult(&envelope.Error{Kind: errkind.NotFound, Code: "trace_not_found", Message: "no trace abc"}))
	b, _ := json.Marshal(r)
	fmt.Println(string(b))
	// Output:
	// {"content":[{"type":"text","text":"{\"kind\":\"not_found\",\"code\":\"trace_not_found\",\"message\":\"no trace abc\"}"}],"isError":true}
}

// notIndexed is a tool error of a server whose error contract is prose for
// the agent: it renders itself.
type notIndexed struct{ id string }

func (e *notIndexed) Error() string { return "not indexed: " + e.id }

func (e *notIndexed) ToolResult() *wire.ToolResult {
	return wire.TextError("Not found in the index: " + e.id)
}

// A Renderer error keeps the server's own shape of tool errors, and is
// still the Go error OnError sees.
func ExampleRenderer() {
	s := server.NewMCPServer("index", "1")
	s.AddTool(mcp.NewToolWithRawSchema("lookup", "", json.RawMessage(`{"type":"object"}`)),
		mcpgo.Raw(func(ctx context.Context, req mcp.CallToolRequest) (any, error) {
			return nil, &notIndexed{"CVE-1999-0001"}
		}))
	v := mcpgo.Validate(s, &mcpgo.Options{
		OnError: func(ctx context.Context, req mcp.CallToolRequest, err error) { fmt.Println("OnError:", err) },
	})
	printMessage(v.HandleMessage(context.Background(), json.RawMessage(callBody("lookup", `{}`))))
	// Output:
	// OnError: not indexed: CVE-1999-0001
	// {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Not found in the index: CVE-1999-0001"}],"isError":true}}
}

// A client reads what a call through mcp-go's client returned in one line,
// whatever the server runs: here an mcp-go server without mcperr, with its
// own input-schema validation, a handler's Go error (-32603) and a tool it
// does not have (-32602).
func ExampleOutcome() {
	s := server.NewMCPServer("plain", "1", server.WithInputSchemaValidation())
	s.AddTool(mcp.NewTool("search", mcp.WithString("query", mcp.Required())), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if req.GetString("query", "") == "lock" {
			return nil, errors.New("the index is locked")
		}
		return mcp.NewToolResultText("found"), nil
	})
	ctx := context.Background()
	c, err := client.NewInProcessClient(s)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	ir := mcp.InitializeRequest{}
	ir.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	if _, err := c.Initialize(ctx, ir); err != nil {
		log.Fatal(err)
	}
	for _, call := range []struct {
		tool string
		args map[string]any
	}{
		{"search", map[string]any{"query": "go"}},
		{"search", map[string]any{"query": 7}},
		{"search", map[string]any{"query": "lock"}},
		{"serch", map[string]any{}},
	} {
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = call.tool, call.args
		r := errkind.Read(mcpgo.Outcome(c.CallTool(ctx, req)))
		if r.Form == errkind.FormData {
			fmt.Printf("%s: data\n", call.tool)
			continue
		}
		fmt.Printf("%s: %s %s %s tool=%q args=%q\n", call.tool, r.Form, r.Kind, r.Move, r.Tool, r.Args)
	}
	// Output:
	// search: data
	// search: invalid_arguments_text invalid_arguments fix_argument tool="" args=["query"]
	// search: jsonrpc_error server_error report tool="" args=[]
	// serch: jsonrpc_error invalid_arguments fix_argument tool="serch" args=[]
}

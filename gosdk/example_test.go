package gosdk_test

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
	"os"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/front"
	"github.com/mcperr/mcperr/gosdk"
	"github.com/mcperr/mcperr/ratelimit"
	"github.com/mcperr/mcperr/retry"
	"github.com/mcperr/mcperr/wire"
)

// The README's quick start (and the server of the package doc), line for
// line: main's ListenAndServe becomes newServer, served by httptest below,
// and fakeAPI points api at a fake upstream.

type TraceIn struct {
	ID string `json:"id" jsonschema:"the trace id"`
}

type Trace struct {
	ID    string `json:"id"`
	Spans int    `json:"spans"`
}

var api = "https://vexlo.example" // the upstream API

// upstream reads bodies by shape (never by status alone) and retries a short 429 once.
var upstream = &envelope.Reader{Client: &http.Client{Transport: &retry.Transport{}}}

func getTrace(ctx context.Context, _ *mcp.CallToolRequest, in TraceIn) (Trace, error) {
	var t Trace
	req, err := http.NewRequestWithContext(ctx, "GET", api+"/v1/traces/"+url.PathEscape(in.ID), nil)
	if err != nil {
		return t, err
	}
	req.Header.Set("Authorization", "Bearer "+os.Getenv("VEXLO_TOKEN")) // never appears in an error
	return t, upstream.Do(req, &t)                                      // a failure is an *envelope.Error: the kind object
}

func newServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "traces", Version: "1.0.0"}, nil)
	gosdk.AddTool(s, &mcp.Tool{Name: "get_trace", Description: "Get a trace"}, getTrace)
	s.AddReceivingMiddleware(gosdk.Validate(nil)) // the TypeScript SDK's rejection text, before the SDK's own check
	return s
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

// connect connects a client to s over the SDK's in-memory transport.
func connect(s *mcp.Server) (*mcp.ClientSession, func()) {
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		log.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		log.Fatal(err)
	}
	return cs, func() { cs.Close(); ss.Wait() }
}

// show prints a tool result (its text, and structuredContent when set) or
// the JSON-RPC error.
func show(res *mcp.CallToolResult, err error) {
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	for _, c := range res.Content {
		fmt.Printf("isError=%v %s\n", res.IsError, c.(*mcp.TextContent).Text)
	}
	if res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		fmt.Printf("structuredContent %s\n", b)
	}
}

// The README's quick start, which is the complete server of the package doc:
// a success, an upstream 404 and arguments the tool's schema refuses.
func Example() {
	stop := fakeAPI()
	defer stop()
	srv := httptest.NewServer(gosdk.HTTPHandler(newServer(), nil))
	defer srv.Close()

	ctx := context.Background()
	c := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp"}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()
	show(cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_trace", Arguments: map[string]any{"id": "abc"}}))
	show(cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_trace", Arguments: map[string]any{"id": "zzz"}}))
	show(cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_trace", Arguments: map[string]any{"id": 7}}))
	// Output:
	// isError=false {"id":"abc","spans":3}
	// structuredContent {"id":"abc","spans":3}
	// isError=true {"kind":"not_found","code":"trace_not_found","message":"no trace zzz"}
	// isError=true MCP error -32602: Input validation error: Invalid arguments for tool get_trace: Invalid input: expected string, received number at id
}

// Validate answers bad arguments and unknown tools as the MCP TypeScript SDK
// does, before the SDK's own validation of the typed tool.
func ExampleValidate() {
	s := mcp.NewServer(&mcp.Implementation{Name: "values", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "get_values", InputSchema: json.RawMessage(`{"type":"object",
		"properties":{"path":{"type":"array","items":{"type":"string"},"maxItems":8},"limit":{"type":"integer","minimum":1,"maximum":100}},
		"required":["path"]}`)},
		gosdk.Raw(func(ctx context.Context, req *mcp.CallToolRequest) (any, error) {
			return map[string]any{"values": []int{}}, nil
		}))
	s.AddReceivingMiddleware(gosdk.Validate(nil))
	cs, done := connect(s)
	defer done()

	ctx := context.Background()
	show(cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_values", Arguments: map[string]any{"limit": 101, "path": make([]string, 9)}}))
	show(cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_value", Arguments: map[string]any{}}))
	// Output:
	// isError=true MCP error -32602: Input validation error: Invalid arguments for tool get_values: Too big: expected array to have <=8 items at path
	// Too big: expected number to be <=100 at limit
	// isError=true MCP error -32602: Tool get_value not found
}

// In the hint dialect a refusal is a JSON-RPC error, code -32602, with a
// machine-readable data.code and a did-you-mean.
func ExampleValidate_hint() {
	s := mcp.NewServer(&mcp.Implementation{Name: "search", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "search", InputSchema: json.RawMessage(`{"type":"object",
		"properties":{"query":{"type":"string"},"language":{"type":"string"}},"additionalProperties":false}`)},
		gosdk.Raw(func(ctx context.Context, req *mcp.CallToolRequest) (any, error) { return map[string]any{}, nil }))
	s.AddReceivingMiddleware(gosdk.Validate(&gosdk.Options{Validation: gosdk.Validation{Dialect: gosdk.Hint}}))
	cs, done := connect(s)
	defer done()

	ctx := context.Background()
	for _, p := range []*mcp.CallToolParams{
		{Name: "search", Arguments: map[string]any{"query": "go", "langauge": "en"}},
		{Name: "serch", Arguments: map[string]any{}},
	} {
		_, err := cs.CallTool(ctx, p)
		var we *jsonrpc.Error
		if errors.As(err, &we) {
			fmt.Printf("%d %s %s\n", we.Code, we.Message, we.Data)
		}
	}
	// Output:
	// -32602 Unknown parameter 'langauge'. Did you mean 'language'? {"code":"unknown_parameter"}
	// -32602 Unknown tool 'serch'. Did you mean 'search'? {"code":"unknown_tool"}
}

// Handle renders a handler's error as the JSON kind object, keeps the Go
// error for OnError and for the SDK's middleware, and sends no
// structuredContent for it.
func ExampleHandle() {
	s := mcp.NewServer(&mcp.Implementation{Name: "traces", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "get_trace"}, gosdk.Handle(func(ctx context.Context, _ *mcp.CallToolRequest, in TraceIn) (Trace, error) {
		return Trace{}, &envelope.Error{Kind: errkind.AuthenticationFailed, Message: "token revoked"}
	}))
	s.AddReceivingMiddleware(gosdk.Validate(&gosdk.Options{
		OnError: func(ctx context.Context, req *mcp.CallToolRequest, err error) {
			fmt.Printf("OnError: %s: kind %s\n", req.Params.Name, envelope.KindOf(err))
		},
	}))
	cs, done := connect(s)
	defer done()
	show(cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_trace", Arguments: map[string]any{"id": "abc"}}))
	// Output:
	// OnError: get_trace: kind authentication_failed
	// isError=true {"kind":"authentication_failed","message":"token revoked"}
}

// Raw serves a tool whose handler reads the raw arguments: a value becomes
// structuredContent and the same JSON as text, an error the kind object.
func ExampleRaw() {
	s := mcp.NewServer(&mcp.Implementation{Name: "echo", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "echo", InputSchema: json.RawMessage(`{"type":"object"}`)},
		gosdk.Raw(func(ctx context.Context, req *mcp.CallToolRequest) (any, error) {
			if len(req.Params.Arguments) > 20 {
				return nil, errors.New("too long to echo")
			}
			return req.Params.Arguments, nil
		}))
	s.AddReceivingMiddleware(gosdk.Validate(nil))
	cs, done := connect(s)
	defer done()
	ctx := context.Background()
	show(cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"a": 1}}))
	show(cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"a": strings.Repeat("x", 30)}}))
	// Output:
	// isError=false {"a":1}
	// structuredContent {"a":1}
	// isError=true {"kind":"server_error","message":"too long to echo"}
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

// HTTPHandler answers transport refusals with a JSON-RPC body before the
// SDK's handler sees the request.
func ExampleHTTPHandler() {
	srv := httptest.NewServer(gosdk.HTTPHandler(newServer(), nil))
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
// is read (an API key), Wrap sees each checked message before the SDK (here
// it refuses a method), and Public serves a health check.
func ExampleHTTPHandler_gate() {
	srv := httptest.NewServer(gosdk.HTTPHandler(newServer(), &gosdk.HTTPOptions{
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

// A Limiter on HTTPHandler counts tool calls only (the handshake and
// tools/list pass free) and answers a call over the limit with a
// rate_limited result that carries the wait.
func ExampleHTTPHandler_limits() {
	stop := fakeAPI()
	defer stop()
	lim := ratelimit.NewLimiter(0.5, 1) // one call, then one every 2 seconds
	now := time.Now()
	lim.Now = func() time.Time { return now } // a stopped clock, so the output is the same on a slow machine
	srv := httptest.NewServer(gosdk.HTTPHandler(newServer(), &gosdk.HTTPOptions{HTTP: adapter.HTTP{Limiter: lim}}))
	defer srv.Close()

	ctx := context.Background()
	c := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp"}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()
	if _, err := cs.ListTools(ctx, nil); err != nil {
		log.Fatal(err)
	}
	for range 2 {
		show(cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_trace", Arguments: map[string]any{"id": "abc"}}))
	}
	// Output:
	// isError=false {"id":"abc","spans":3}
	// structuredContent {"id":"abc","spans":3}
	// isError=true {"kind":"rate_limited","retryAfterSeconds":2,"limit":1,"remaining":0,"resetSeconds":2}
}

// Result converts an mcperr result, such as wire.ErrorResult's, to the
// SDK's.
func ExampleResult() {
	r := gosdk.Result(wire.ErrorResult(&envelope.Error{Kind: errkind.NotFound, Code: "trace_not_found", Message: "no trace abc"}))
	b, _ := json.Marshal(r)
	fmt.Println(string(b))
	// Output:
	// {"content":[{"type":"text","text":"{\"kind\":\"not_found\",\"code\":\"trace_not_found\",\"message\":\"no trace abc\"}"}],"isError":true}
}

// notIndexed is a tool error of a server whose error contract is prose for
// the agent, with _meta: it renders itself.
type notIndexed struct{ id string }

func (e *notIndexed) Error() string { return "not indexed: " + e.id }

func (e *notIndexed) ToolResult() *wire.ToolResult {
	r := wire.TextError("Not found in the index: " + e.id)
	r.Meta = map[string]any{"example/plan": "community"}
	return r
}

// A Renderer error keeps the server's own shape of tool errors, and is
// still the Go error OnError and the SDK's middleware see.
func ExampleRenderer() {
	s := mcp.NewServer(&mcp.Implementation{Name: "index", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "lookup", InputSchema: json.RawMessage(`{"type":"object"}`)},
		gosdk.Raw(func(ctx context.Context, req *mcp.CallToolRequest) (any, error) {
			return nil, &notIndexed{"CVE-1999-0001"}
		}))
	s.AddReceivingMiddleware(gosdk.Validate(&gosdk.Options{
		OnError: func(ctx context.Context, req *mcp.CallToolRequest, err error) { fmt.Println("OnError:", err) },
	}))
	cs, done := connect(s)
	defer done()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "lookup"})
	show(res, err)
	fmt.Println("_meta example/plan:", res.Meta["example/plan"])
	// Output:
	// OnError: not indexed: CVE-1999-0001
	// isError=true Not found in the index: CVE-1999-0001
	// _meta example/plan: community
}

// A client reads what a call returned in one line, whatever the server
// runs: here a go-sdk server without mcperr, whose typed tool refuses an
// argument with the SDK's own text, whose raw tool's Go error travels as a
// JSON-RPC error of code 0, and which answers a tool it does not have with
// -32602.
func ExampleOutcome() {
	type SearchIn struct {
		Query string `json:"query"`
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "plain", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "search"}, func(ctx context.Context, _ *mcp.CallToolRequest, in SearchIn) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "found"}}}, nil, nil
	})
	s.AddTool(&mcp.Tool{Name: "sync", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, errors.New("the index is locked")
	})
	cs, done := connect(s)
	defer done()

	ctx := context.Background()
	for _, p := range []*mcp.CallToolParams{
		{Name: "search", Arguments: map[string]any{"query": "go"}},
		{Name: "search", Arguments: map[string]any{"query": 7}},
		{Name: "sync", Arguments: map[string]any{}},
		{Name: "serch", Arguments: map[string]any{}},
	} {
		r := errkind.Read(gosdk.Outcome(cs.CallTool(ctx, p)))
		if r.Form == errkind.FormData {
			fmt.Printf("%s: data\n", p.Name)
			continue
		}
		fmt.Printf("%s: %s %s %s tool=%q args=%q\n", p.Name, r.Form, r.Kind, r.Move, r.Tool, r.Args)
	}
	// Output:
	// search: data
	// search: invalid_arguments_text invalid_arguments fix_argument tool="" args=["query"]
	// sync: jsonrpc_error server_error report tool="" args=[]
	// serch: jsonrpc_error invalid_arguments fix_argument tool="serch" args=[]
}

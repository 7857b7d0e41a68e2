package gosdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/adapter/adaptertest"
	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/gosdk"
	"github.com/mcperr/mcperr/ratelimit"
	"github.com/mcperr/mcperr/schemaerr"
	"github.com/mcperr/mcperr/wire"
)

// FailIn picks the error the fail tool returns.
type FailIn struct {
	What string `json:"what" jsonschema:"which error"`
}

// FailOut has fields, so a leaked zero value would show as
// {"id":"","status":""}.
type FailOut struct {
	ID     string `json:"id"`
	Status string `json:"status"`
}

// failWith is the fail tool's handler: each What is one kind of error.
func failWith(ctx context.Context, _ *mcp.CallToolRequest, in FailIn) (FailOut, error) {
	switch in.What {
	case "envelope":
		return FailOut{}, &envelope.Error{Kind: errkind.NotFound, Code: "thing_not_found", Message: "no thing"}
	case "wrapped":
		return FailOut{}, adaptertest.Wrapped("listing: ", &envelope.Error{Kind: errkind.RateLimited, RetryAfter: 3 * time.Second})
	case "foreign":
		return FailOut{}, errors.New("disk on fire")
	case "hint":
		return FailOut{}, schemaerr.Invalid("unknown_signal", "Unknown signal 'cpu'.")
	}
	return FailOut{ID: "1", Status: "ok"}, nil
}

// recorder is a middleware that records the Go error of every tool result
// it sees.
type recorder struct {
	mu   sync.Mutex
	errs []error
}

func (r *recorder) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if tr, ok := res.(*mcp.CallToolResult); ok && tr != nil {
			r.mu.Lock()
			r.errs = append(r.errs, tr.GetError())
			r.mu.Unlock()
		}
		return res, err
	}
}

// testServer has a raw tool of each captured schema and the typed fail
// tool; inner is added before Validate, outer after it.
func testServer(opts *gosdk.Options, inner, outer mcp.Middleware) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	ok := gosdk.Raw(func(ctx context.Context, req *mcp.CallToolRequest) (any, error) {
		return map[string]any{"ok": true}, nil
	})
	s.AddTool(&mcp.Tool{Name: "get_values", InputSchema: json.RawMessage(adaptertest.ValuesSchema)}, ok)
	s.AddTool(&mcp.Tool{Name: "search", InputSchema: json.RawMessage(adaptertest.SearchSchema)}, ok)
	mcp.AddTool(s, &mcp.Tool{Name: "fail"}, gosdk.Handle(failWith))
	if inner != nil {
		s.AddReceivingMiddleware(inner)
	}
	s.AddReceivingMiddleware(gosdk.Validate(opts))
	if outer != nil {
		s.AddReceivingMiddleware(outer)
	}
	return s
}

func session(t *testing.T, s *mcp.Server) *mcp.ClientSession {
	t.Helper()
	cs, done := connect(s)
	t.Cleanup(done)
	return cs
}

func text(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("want one content block, got %d", len(res.Content))
	}
	return res.Content[0].(*mcp.TextContent).Text
}

// TestTypeScriptDialect: every refusal is the isError result whose text is
// schemaerr's TypeScript-SDK text, byte for byte, bad input included, and the
// session goes on serving after each.
func TestTypeScriptDialect(t *testing.T) {
	cs := session(t, testServer(nil, nil, nil))
	schemas := map[string]*schemaerr.Schema{"get_values": adaptertest.MustCompile(t, adaptertest.ValuesSchema), "search": adaptertest.MustCompile(t, adaptertest.SearchSchema)}
	huge := `{"path":["` + strings.Repeat("a", 2<<20) + `"]}`
	for _, tc := range []struct {
		name, tool, args string
		want             string // "" means schemaerr's text for the args
	}{
		{"over maximum", "get_values", `{"path":["a"],"limit":101}`, "MCP error -32602: Input validation error: Invalid arguments for tool get_values: Too big: expected number to be <=100 at limit"},
		{"two issues in schema order", "get_values", `{"limit":101,"path":["a","b","c","d","e","f","g","h","i"]}`,
			"MCP error -32602: Input validation error: Invalid arguments for tool get_values: Too big: expected array to have <=8 items at path\nToo big: expected number to be <=100 at limit"},
		{"missing", "get_values", `{}`, "MCP error -32602: Input validation error: Invalid arguments for tool get_values: Invalid input: expected array, received undefined at path"},
		{"unknown keys in input order", "search", `{"query":"hello","foo":1,"bar":2}`, `MCP error -32602: Input validation error: Invalid arguments for tool search: Unrecognized keys: "foo", "bar"`},
		{"enum", "search", `{"query":"hello","order":"up"}`, `MCP error -32602: Input validation error: Invalid arguments for tool search: Invalid option: expected one of "asc"|"desc" at order`},
		{"typed tool, before the SDK's validation", "fail", `{"what":5}`, "MCP error -32602: Input validation error: Invalid arguments for tool fail: Invalid input: expected string, received number at what"},
		{"unknown tool", "get_value", `{}`, "MCP error -32602: Tool get_value not found"},
		{"arguments an array", "get_values", `[1]`, ""},
		{"arguments a string", "get_values", `"x"`, ""},
		{"arguments a number", "get_values", `5`, ""},
		{"arguments null", "get_values", `null`, ""},
		{"arguments huge", "get_values", huge, ""},
		{"arguments nested 100 deep", "get_values", adaptertest.Deep(100), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := tc.want
			if want == "" {
				want = schemaerr.TypeScript.Refuse(tc.tool, schemas[tc.tool].Validate(json.RawMessage(tc.args))).Text
			}
			refused(t, cs, tc.tool, tc.args, want)
			// The session is still there.
			if res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_values", Arguments: map[string]any{"path": []string{"a"}}}); err != nil || res.IsError {
				t.Fatalf("after the refusal, a valid call: %v, %+v", err, res)
			}
		})
	}
}

// refused calls tool with args and requires the refusal: an isError result
// without structuredContent whose one text block is want.
func refused(t *testing.T, cs *mcp.ClientSession, tool, args, want string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || res.StructuredContent != nil {
		t.Errorf("isError %v, structuredContent %v: want an error without structuredContent", res.IsError, res.StructuredContent)
	}
	if d := cmp.Diff(want, text(t, res)); d != "" {
		t.Errorf("text (-want +got)\n%s", d)
	}
}

// TestTypeScriptV2Dialect: a refusal of arguments is the isError result whose
// text is the TypeScript SDK 2.x's (schemaerr.TypeScriptV2), byte for byte; a tool
// the server does not have is a JSON-RPC error -32602 "Tool <t> not found",
// as the 2.x SDK answers it.
func TestTypeScriptV2Dialect(t *testing.T) {
	cs := session(t, testServer(&gosdk.Options{Validation: gosdk.Validation{Dialect: gosdk.TypeScriptV2}}, nil, nil))
	schemas := map[string]*schemaerr.Schema{"get_values": adaptertest.MustCompile(t, adaptertest.ValuesSchema)}
	for _, tc := range []struct {
		name, tool, args string
		want             string // "" means schemaerr.TypeScriptV2's refusal of the args
	}{
		{"over maximum", "get_values", `{"path":["a"],"limit":101}`, "Input validation error: Invalid arguments for tool get_values: limit: Too big: expected number to be <=100"},
		{"two issues on one line", "get_values", `{"limit":101,"path":["a","b",3]}`,
			"Input validation error: Invalid arguments for tool get_values: path.2: Invalid input: expected string, received number, limit: Too big: expected number to be <=100"},
		{"typed tool, before the SDK's validation", "fail", `{"what":5}`, "Input validation error: Invalid arguments for tool fail: what: Invalid input: expected string, received number"},
		{"arguments an array", "get_values", `[1]`, ""},
		{"arguments nested 100 deep", "get_values", adaptertest.Deep(100), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := tc.want
			if want == "" {
				want = schemaerr.TypeScriptV2.Refuse(tc.tool, schemas[tc.tool].Validate(json.RawMessage(tc.args))).Text
			}
			refused(t, cs, tc.tool, tc.args, want)
		})
	}
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_value", Arguments: map[string]any{}})
	var we *jsonrpc.Error
	if !errors.As(err, &we) {
		t.Fatalf("unknown tool: want a JSON-RPC error, got %v", err)
	}
	if d := cmp.Diff(jsonrpc.Error{Code: -32602, Message: "Tool get_value not found"}, *we); d != "" {
		t.Errorf("unknown tool (-want +got)\n%s", d)
	}
}

// TestHintDialect: a refusal is a JSON-RPC error -32602 with data.code,
// whatever the arguments, and the session survives.
func TestHintDialect(t *testing.T) {
	cs := session(t, testServer(&gosdk.Options{Validation: gosdk.Validation{Dialect: gosdk.Hint}}, nil, nil))
	schemas := map[string]*schemaerr.Schema{"get_values": adaptertest.MustCompile(t, adaptertest.ValuesSchema), "search": adaptertest.MustCompile(t, adaptertest.SearchSchema)}
	for _, tc := range []struct {
		name, tool, args string
		want             jsonrpc.Error // the zero value means schemaerr's hint for the args
	}{
		{"misspelt parameter", "search", `{"query":"hello","langauge":"en"}`,
			jsonrpc.Error{Code: -32602, Message: "Unknown parameter 'langauge'. Did you mean 'language'?", Data: json.RawMessage(`{"code":"unknown_parameter"}`)}},
		{"out of range", "get_values", `{"path":["a"],"limit":0}`,
			jsonrpc.Error{Code: -32602, Message: "Invalid value for 'limit': must be between 1 and 100.", Data: json.RawMessage(`{"code":"invalid_parameter"}`)}},
		{"missing", "search", `{}`,
			jsonrpc.Error{Code: -32602, Message: "Missing required parameter 'query'.", Data: json.RawMessage(`{"code":"invalid_parameter"}`)}},
		{"unknown tool", "serch", `{}`,
			jsonrpc.Error{Code: -32602, Message: "Unknown tool 'serch'. Did you mean 'search'?", Data: json.RawMessage(`{"code":"unknown_tool"}`)}},
		{"arguments an array", "search", `[]`, jsonrpc.Error{}},
		{"arguments a string", "search", `"x"`, jsonrpc.Error{}},
		{"arguments null", "search", `null`, jsonrpc.Error{}},
		{"arguments huge", "get_values", `{"path":["` + strings.Repeat("a", 2<<20) + `"]}`, jsonrpc.Error{}},
		{"arguments nested 100 deep", "get_values", adaptertest.Deep(100), jsonrpc.Error{}},
		{"a handler's own hint", "fail", `{"what":"hint"}`,
			jsonrpc.Error{Code: -32602, Message: "Unknown signal 'cpu'.", Data: json.RawMessage(`{"code":"unknown_signal"}`)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.want.Code == 0 {
				h := schemaerr.Hint.Refuse(tc.tool, schemas[tc.tool].Validate(json.RawMessage(tc.args))).Error
				if h == nil {
					t.Fatal("schemaerr.Hint.Refuse gave no *wire.RPCError")
				}
				data, _ := json.Marshal(h.Data)
				tc.want = jsonrpc.Error{Code: int64(h.Code), Message: h.Message, Data: data}
			}
			_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tc.tool, Arguments: json.RawMessage(tc.args)})
			var we *jsonrpc.Error
			if !errors.As(err, &we) {
				t.Fatalf("want a JSON-RPC error, got %v", err)
			}
			if d := cmp.Diff(tc.want, *we); d != "" {
				t.Errorf("(-want +got)\n%s", d)
			}
			if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"query": "hello"}}); err != nil {
				t.Fatalf("after the refusal, a valid call: %v", err)
			}
		})
	}
}

// TestHandlerErrors: a handler's error is the kind object, with no
// structuredContent; the Go error reaches OnError and the SDK's middleware
// on both sides of Validate.
func TestHandlerErrors(t *testing.T) {
	var (
		mu      sync.Mutex
		onError []error
	)
	inner, outer := &recorder{}, &recorder{}
	opts := &gosdk.Options{OnError: func(ctx context.Context, req *mcp.CallToolRequest, err error) {
		mu.Lock()
		onError = append(onError, err)
		mu.Unlock()
	}}
	cs := session(t, testServer(opts, inner.middleware, outer.middleware))
	for _, tc := range []struct {
		what     string
		want     string
		wantKind errkind.Kind
	}{
		{"envelope", `{"kind":"not_found","code":"thing_not_found","message":"no thing"}`, errkind.NotFound},
		{"wrapped", `{"kind":"rate_limited","retryAfterSeconds":3}`, errkind.RateLimited},
		{"foreign", `{"kind":"server_error","message":"disk on fire"}`, errkind.ServerError},
	} {
		t.Run(tc.what, func(t *testing.T) {
			mu.Lock()
			onError = nil
			mu.Unlock()
			inner.errs, outer.errs = nil, nil
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "fail", Arguments: map[string]any{"what": tc.what}})
			if err != nil {
				t.Fatal(err)
			}
			if !res.IsError || res.StructuredContent != nil {
				t.Errorf("isError %v, structuredContent %v: want an error without the zero Out", res.IsError, res.StructuredContent)
			}
			if d := cmp.Diff(tc.want, text(t, res)); d != "" {
				t.Errorf("text (-want +got)\n%s", d)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(onError) != 1 {
				t.Fatalf("OnError called %d times, want 1", len(onError))
			}
			if got := envelope.KindOf(onError[0]); got != tc.wantKind {
				t.Errorf("OnError's error has kind %q, want %q", got, tc.wantKind)
			}
			for side, r := range map[string]*recorder{"inner": inner, "outer": outer} {
				if len(r.errs) != 1 || r.errs[0] == nil {
					t.Fatalf("%s middleware saw %v, want the handler's error", side, r.errs)
				}
				if got := envelope.KindOf(r.errs[0]); got != tc.wantKind {
					t.Errorf("%s middleware's error has kind %q, want %q", side, got, tc.wantKind)
				}
			}
		})
	}
	t.Run("success and refusals do not reach OnError", func(t *testing.T) {
		mu.Lock()
		onError = nil
		mu.Unlock()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "fail", Arguments: map[string]any{"what": "nothing"}})
		if err != nil || res.IsError {
			t.Fatalf("%v %+v", err, res)
		}
		if d := cmp.Diff(`{"id":"1","status":"ok"}`, text(t, res)); d != "" {
			t.Error(d)
		}
		cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "fail", Arguments: map[string]any{"what": 1}})
		mu.Lock()
		defer mu.Unlock()
		if len(onError) != 0 {
			t.Errorf("OnError called with %v", onError)
		}
	})
}

// TestToolsChange: a tool added after the first call is validated with its
// own schema, and a removed one is answered as unknown in the dialect.
func TestToolsChange(t *testing.T) {
	s := testServer(nil, nil, nil)
	cs := session(t, s)
	ctx := context.Background()
	call := func(name, args string) string {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
		if err != nil {
			t.Fatal(err)
		}
		return text(t, res)
	}
	call("get_values", `{"path":[]}`)
	s.AddTool(&mcp.Tool{Name: "late", InputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`)},
		gosdk.Raw(func(ctx context.Context, req *mcp.CallToolRequest) (any, error) { return map[string]any{}, nil }))
	if got, want := call("late", `{"n":"x"}`), "MCP error -32602: Input validation error: Invalid arguments for tool late: Invalid input: expected number, received string at n"; got != want {
		t.Errorf("added tool: got %q, want %q", got, want)
	}
	s.RemoveTools("late")
	if got, want := call("late", `{"n":1}`), "MCP error -32602: Tool late not found"; got != want {
		t.Errorf("removed tool: got %q, want %q", got, want)
	}
}

// post sends one raw JSON-RPC body to the handler and returns the status,
// the Retry-After header and the body.
func post(t *testing.T, url, body string) (int, string, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Retry-After"), string(b)
}

const (
	initialize = adaptertest.Initialize
	listTools  = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
)

func callBody(id int, args string) string {
	b := `{"jsonrpc":"2.0","id":` + string(rune('0'+id)) + `,"method":"tools/call","params":{"name":"get_values"`
	if args != "" {
		b += `,"arguments":` + args
	}
	return b + `}}`
}

// TestHTTP: over real HTTP, the refusals of the front, the TypeScript text
// for absent and odd arguments, and the two ways of counting.
func TestHTTP(t *testing.T) {
	stopped := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	newLimiter := func() *ratelimit.Limiter {
		l := ratelimit.NewLimiter(0.5, 1)
		l.Now = func() time.Time { return stopped }
		return l
	}
	noPath := `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"MCP error -32602: Input validation error: Invalid arguments for tool get_values: Invalid input: expected array, received undefined at path"}],"isError":true}}`
	type step struct {
		body       string
		status     int
		retryAfter string
		want       string // the body with its trailing newline trimmed; "" skips the check
	}
	for _, tc := range []struct {
		name  string
		opts  *gosdk.HTTPOptions
		steps []step
	}{
		{"arguments absent, null, not an object", nil, []step{
			{callBody(3, ""), 200, "", strings.Replace(noPath, "%s", "3", 1)},
			{callBody(4, "null"), 200, "", strings.Replace(noPath, "%s", "4", 1)},
			{callBody(5, `"x"`), 200, "", `{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"MCP error -32602: Input validation error: Invalid arguments for tool get_values: Invalid input: expected object, received string"}],"isError":true}}`},
		}},
		{"not JSON-RPC", nil, []step{ // the front's answers: a readable id is echoed, others are null
			{`{"id":1,"method":"ping"}`, 400, "", `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: \"jsonrpc\" must be \"2.0\"."}}`},
			{`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, 400, "", `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: the id must be a string or an integer of at most 2^53 in magnitude."}}`},
			{`[1,`, 400, "", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the body is not valid JSON."}}`},
			{`[` + initialize + `]`, 400, "", `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: batch requests are not supported; send one JSON-RPC request per POST."}}`},
		}},
		{"tool calls counted", &gosdk.HTTPOptions{HTTP: adapter.HTTP{Limiter: newLimiter()}}, []step{
			{initialize, 200, "", ""},
			{listTools, 200, "", ""},
			{callBody(3, `{"path":[]}`), 200, "", ""},
			{listTools, 200, "", ""},
			{callBody(4, `{"path":[]}`), 200, "2", `{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"{\"kind\":\"rate_limited\",\"retryAfterSeconds\":2,\"limit\":1,\"remaining\":0,\"resetSeconds\":2}"}],"isError":true}}`},
		}},
		{"every message counted", &gosdk.HTTPOptions{HTTP: adapter.HTTP{Limiter: newLimiter(), Count: gosdk.Messages}}, []step{
			{initialize, 200, "", ""},
			{listTools, 429, "2", `{"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":"Rate limited: retry after 2 seconds.","data":{"kind":"rate_limited","retryAfterSeconds":2,"limit":1,"remaining":0,"resetSeconds":2}}}`},
		}},
		{"an empty key is not limited", &gosdk.HTTPOptions{HTTP: adapter.HTTP{Limiter: newLimiter(), Count: gosdk.Messages, Key: func(*http.Request) string { return "" }}}, []step{
			{initialize, 200, "", ""},
			{listTools, 200, "", ""},
			{listTools, 200, "", ""},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(gosdk.HTTPHandler(testServer(nil, nil, nil), tc.opts))
			defer srv.Close()
			for i, st := range tc.steps {
				status, ra, body := post(t, srv.URL+"/mcp", st.body)
				if status != st.status || ra != st.retryAfter {
					t.Errorf("step %d: status %d, Retry-After %q; want %d, %q (%s)", i, status, ra, st.status, st.retryAfter, body)
				}
				if st.want != "" {
					if d := cmp.Diff(st.want, strings.TrimSpace(body)); d != "" {
						t.Errorf("step %d: body (-want +got)\n%s", i, d)
					}
				}
			}
		})
	}
}

// TestHTTPBodyBound: a body over the SDK's bound is a 413 with a JSON-RPC
// body, before a byte of it reaches the SDK.
func TestHTTPBodyBound(t *testing.T) {
	srv := httptest.NewServer(gosdk.HTTPHandler(testServer(nil, nil, nil), &gosdk.HTTPOptions{Streamable: &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true, MaxRequestBodyBytes: 100}}))
	defer srv.Close()
	status, _, body := post(t, srv.URL+"/mcp", callBody(1, `{"path":["`+strings.Repeat("a", 200)+`"]}`))
	want := `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: the body is larger than 100 bytes."}}`
	if status != 413 || strings.TrimSpace(body) != want {
		t.Errorf("got %d %s, want 413 %s", status, body, want)
	}
}

// TestHTTPBodyBoundDefaults: the SDK's MaxRequestBodyBytes bounds the body:
// zero means the SDK's default, and a negative one (the SDK's "no bound")
// the most the message check accepts, wire.MaxMessageBytes. A body that
// says it is larger is refused before a byte of it is read.
func TestHTTPBodyBoundDefaults(t *testing.T) {
	for _, tc := range []struct {
		name     string
		maxBytes int64
		bound    int64
	}{
		{"zero is the SDK's default", 0, mcp.DefaultMaxRequestBodyBytes},
		{"negative is the message check's bound", -1, wire.MaxMessageBytes},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := gosdk.HTTPHandler(testServer(nil, nil, nil), &gosdk.HTTPOptions{Streamable: &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true, MaxRequestBodyBytes: tc.maxBytes}})
			for _, length := range []int64{tc.bound, tc.bound + 1} {
				r := httptest.NewRequest("POST", "http://localhost/mcp", strings.NewReader(initialize))
				r.Header.Set("Content-Type", "application/json")
				r.ContentLength = length // what the client says; the body is shorter
				w := httptest.NewRecorder()
				h.ServeHTTP(w, r)
				want := fmt.Sprintf(`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: the body is larger than %d bytes."}}`, tc.bound)
				if over := length > tc.bound; over != (w.Code == 413) || over && strings.TrimSpace(w.Body.String()) != want {
					t.Errorf("Content-Length %d: got %d %s, want a refusal %v: 413 %s", length, w.Code, w.Body, over, want)
				}
			}
		})
	}
}

// TestConcurrentCalls: calls from many goroutines share the compiled
// schemas (run under -race).
func TestConcurrentCalls(t *testing.T) {
	cs := session(t, testServer(nil, nil, nil))
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for range 20 {
				args := `{"path":["a"],"limit":101}`
				if i%2 == 0 {
					args = `{"path":["a"]}`
				}
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_values", Arguments: json.RawMessage(args)})
				if err != nil || res.IsError != (i%2 == 1) {
					t.Errorf("%v %+v", err, res)
					return
				}
			}
		})
	}
	wg.Wait()
}

// FuzzHTTPBody: no body makes the handler panic, and every answer is JSON
// with a status a client expects.
func FuzzHTTPBody(f *testing.F) {
	for _, s := range []string{initialize, listTools, callBody(1, `{"path":[]}`), callBody(2, `[`), `[]`, `[{"jsonrpc":"2.0"}]`, `null`, `{"jsonrpc":"2.0","id":{},"method":"tools/call"}`} {
		f.Add(s)
	}
	lim := ratelimit.NewLimiter(1, 2)
	h := gosdk.HTTPHandler(testServer(nil, nil, nil), &gosdk.HTTPOptions{HTTP: adapter.HTTP{Limiter: lim}})
	f.Fuzz(func(t *testing.T, body string) {
		req := httptest.NewRequest("POST", "http://localhost/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		switch w.Code {
		case 200, 202, 400, 404, 413, 429:
		default:
			t.Errorf("status %d for %q: %s", w.Code, body, w.Body)
		}
	})
}

// TestRenderer: an error that renders itself keeps its own shape (with
// _meta on the raw path) and stays the Go error the middleware sees.
func TestRenderer(t *testing.T) {
	rec := &recorder{}
	s := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "raw", InputSchema: json.RawMessage(`{"type":"object"}`)},
		gosdk.Raw(func(ctx context.Context, req *mcp.CallToolRequest) (any, error) {
			return nil, &adaptertest.Prose{Msg: "abc"}
		}))
	mcp.AddTool(s, &mcp.Tool{Name: "typed"}, gosdk.Handle(func(ctx context.Context, _ *mcp.CallToolRequest, in FailIn) (FailOut, error) {
		return FailOut{}, adaptertest.Wrapped("calling: ", &adaptertest.Prose{Msg: "xyz"})
	}))
	s.AddReceivingMiddleware(rec.middleware, gosdk.Validate(nil))
	cs := session(t, s)
	ctx := context.Background()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "raw"})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff("Not found: abc", text(t, res)); d != "" || !res.IsError || res.Meta["example/plan"] != "free" {
		t.Errorf("raw: isError %v, _meta %v, text diff %s", res.IsError, res.Meta, d)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "typed", Arguments: map[string]any{"what": "x"}})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff("Not found: xyz", text(t, res)); d != "" || !res.IsError || res.StructuredContent != nil {
		t.Errorf("typed: isError %v, structuredContent %v, text diff %s", res.IsError, res.StructuredContent, d)
	}
	for i, err := range rec.errs {
		var p *adaptertest.Prose
		if !errors.As(err, &p) {
			t.Errorf("call %d: the middleware saw %v, want the handler's *adaptertest.Prose", i, err)
		}
	}
}

// TestHTTPRefuseAndGate: Refuse writes the limit's refusal in the server's
// own envelope, with the decision's headers; Gate answers before the body is
// read and before the limits.
func TestHTTPRefuseAndGate(t *testing.T) {
	stopped := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	lim := ratelimit.NewLimiter(0.5, 1)
	lim.Now = func() time.Time { return stopped }
	srv := httptest.NewServer(gosdk.HTTPHandler(testServer(nil, nil, nil), &gosdk.HTTPOptions{
		HTTP: adapter.HTTP{
			Limiter: lim,
			Count:   gosdk.Messages,
			Refuse: func(w http.ResponseWriter, r *http.Request, d ratelimit.Decision) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusTooManyRequests)
				io.WriteString(w, `{"error":"slow down","code":"message_rate_limited"}`)
			},
			Gate: func(w http.ResponseWriter, r *http.Request) bool {
				if r.Header.Get("Authorization") != "Bearer k" {
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(http.StatusUnauthorized)
					io.WriteString(w, `{"error":"no key","code":"unauthorized"}`)
					return false
				}
				return true
			},
		}}))
	defer srv.Close()
	send := func(key, body string) (int, string, string) {
		req, _ := http.NewRequest("POST", srv.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("Retry-After"), strings.TrimSpace(string(b))
	}
	for i, st := range []struct {
		key, body  string
		status     int
		retryAfter string
		want       string
	}{
		{"", "{not json", 401, "", `{"error":"no key","code":"unauthorized"}`},
		{"", initialize, 401, "", `{"error":"no key","code":"unauthorized"}`},
		{"k", initialize, 200, "", ""},
		{"k", listTools, 429, "2", `{"error":"slow down","code":"message_rate_limited"}`},
	} {
		status, ra, body := send(st.key, st.body)
		if status != st.status || ra != st.retryAfter || (st.want != "" && body != st.want) {
			t.Errorf("request %d: got %d %q %s; want %d %q %s", i, status, ra, body, st.status, st.retryAfter, st.want)
		}
	}
}

// TestModernProtocol: on protocol revision 2026-07-28 a result the adapter
// answers itself (a refusal, a rate_limited call) says
// "resultType":"complete", as the SDK's own results do.
func TestModernProtocol(t *testing.T) {
	lim := ratelimit.NewLimiter(0.5, 1)
	stopped := time.Now()
	lim.Now = func() time.Time { return stopped }
	srv := httptest.NewServer(gosdk.HTTPHandler(testServer(nil, nil, nil), &gosdk.HTTPOptions{HTTP: adapter.HTTP{Limiter: lim}}))
	defer srv.Close()
	for i, want := range []string{"MCP error -32602: Input validation error", `rate_limited`} {
		status, b, err := adaptertest.PostModern(srv.URL, "2026-07-28")
		if err != nil {
			t.Fatal(err)
		}
		if status != 200 || !strings.Contains(b, want) || !strings.Contains(b, `"resultType":"complete"`) {
			t.Errorf("call %d: %d %s; want %q and resultType complete", i, status, b, want)
		}
	}
}

// TestHTTPWrapAndPublic: Wrap sees each checked message (front.Checked)
// after the limits and may answer it; a Public path reaches its handler
// after the Host check only, whatever its method.
func TestHTTPWrapAndPublic(t *testing.T) {
	var methods []string
	h := gosdk.HTTPHandler(testServer(nil, nil, nil), &gosdk.HTTPOptions{HTTP: adaptertest.WrapAndPublic(&methods)})
	srv := httptest.NewServer(h)
	defer srv.Close()
	if status, _, body := post(t, srv.URL+"/mcp", initialize); status != 200 || !strings.Contains(body, `"id":1,"result"`) {
		t.Errorf("initialize: %d %s", status, body)
	}
	status, _, body := post(t, srv.URL+"/mcp", listTools)
	if want := `{"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"no listing here"}}`; status != 400 || strings.TrimSpace(body) != want {
		t.Errorf("tools/list: %d %s, want 400 %s", status, body, want)
	}
	if d := cmp.Diff([]string{"initialize", "tools/list"}, methods); d != "" {
		t.Errorf("Wrap saw (-want +got)\n%s", d)
	}
	adaptertest.CheckPublic(t, h)
}

package mcpgo_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/adapter/adaptertest"
	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/mcpgo"
	"github.com/mcperr/mcperr/ratelimit"
	"github.com/mcperr/mcperr/schemaerr"
	"github.com/mcperr/mcperr/wire"
)

// FailIn picks the error the fail tool returns.
type FailIn struct {
	What string `json:"what"`
}

// FailOut has fields, so a leaked zero value would show.
type FailOut struct {
	ID     string `json:"id"`
	Status string `json:"status"`
}

func failWith(ctx context.Context, _ mcp.CallToolRequest, in FailIn) (FailOut, error) {
	switch in.What {
	case "envelope":
		return FailOut{}, &envelope.Error{Kind: errkind.NotFound, Code: "thing_not_found", Message: "no thing"}
	case "wrapped":
		return FailOut{}, adaptertest.Wrapped("listing: ", &envelope.Error{Kind: errkind.RateLimited, RetryAfter: 3 * time.Second})
	case "foreign":
		return FailOut{}, errors.New("disk on fire")
	}
	return FailOut{ID: "1", Status: "ok"}, nil
}

// testServer has a raw tool of each captured schema and the typed fail
// tool; mw is added after Validate.
func testServer(opts *mcpgo.Options, mw server.ToolHandlerMiddleware) (*server.MCPServer, *mcpgo.Validator) {
	s := server.NewMCPServer("test", "1")
	ok := mcpgo.Raw(func(ctx context.Context, req mcp.CallToolRequest) (any, error) {
		return map[string]any{"ok": true}, nil
	})
	s.AddTool(mcp.NewToolWithRawSchema("get_values", "", json.RawMessage(adaptertest.ValuesSchema)), ok)
	s.AddTool(mcp.NewToolWithRawSchema("search", "", json.RawMessage(adaptertest.SearchSchema)), ok)
	s.AddTool(mcp.NewTool("fail", mcp.WithInputSchema[FailIn]()), mcpgo.Handle(failWith))
	v := mcpgo.Validate(s, opts)
	if mw != nil {
		s.Use(mw)
	}
	return s, v
}

func body(id int, tool, args string) string {
	b := `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{"name":"` + tool + `"`
	if args != "" {
		b += `,"arguments":` + args
	}
	return b + `}}`
}

// answer is a JSON-RPC response as a client reads it.
type answer struct {
	Result *struct {
		Content []struct {
			Type, Text string
		} `json:"content"`
		StructuredContent json.RawMessage `json:"structuredContent"`
		IsError           bool            `json:"isError"`
	} `json:"result"`
	Error *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

func decode(t *testing.T, b []byte) answer {
	t.Helper()
	var a answer
	if err := json.Unmarshal(b, &a); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return a
}

// viaStdio sends the message as mcp-go's stdio transport does, to the
// server's own HandleMessage.
func viaStdio(t *testing.T, s *server.MCPServer, _ *mcpgo.Validator, msg string) answer {
	b, _ := json.Marshal(s.HandleMessage(context.Background(), json.RawMessage(msg)))
	return decode(t, b)
}

// viaValidator sends the message to the Validator's HandleMessage.
func viaValidator(t *testing.T, _ *server.MCPServer, v *mcpgo.Validator, msg string) answer {
	b, _ := json.Marshal(v.HandleMessage(context.Background(), json.RawMessage(msg)))
	return decode(t, b)
}

// viaHTTP posts the message to HTTPHandler.
func viaHTTP(t *testing.T, s *server.MCPServer, v *mcpgo.Validator, msg string) answer {
	h := mcpgo.HTTPHandler(s, &mcpgo.HTTPOptions{Validator: v})
	w := httptest.NewRecorder()
	h.ServeHTTP(w, newPost(msg))
	if w.Code != 200 {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	return decode(t, w.Body.Bytes())
}

func newPost(msg string) *http.Request {
	r := httptest.NewRequest("POST", "http://localhost/mcp", strings.NewReader(msg))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	return r
}

var transports = map[string]func(*testing.T, *server.MCPServer, *mcpgo.Validator, string) answer{
	"stdio": viaStdio, "HandleMessage": viaValidator, "HTTP": viaHTTP,
}

// TestTypeScriptDialect: on every path, argument refusals are schemaerr's
// TypeScript-SDK text byte for byte, bad input included; an unknown tool is
// the TypeScript answer where the Validator sees the message first.
func TestTypeScriptDialect(t *testing.T) {
	s, v := testServer(nil, nil)
	schemas := map[string]*schemaerr.Schema{"get_values": adaptertest.MustCompile(t, adaptertest.ValuesSchema), "search": adaptertest.MustCompile(t, adaptertest.SearchSchema)}
	huge := `{"path":["` + strings.Repeat("a", 2<<20) + `"]}`
	for _, tc := range []struct {
		name, tool, args string
		want             string // "" means schemaerr's text for the args
	}{
		{"over maximum", "get_values", `{"path":["a"],"limit":101}`, "MCP error -32602: Input validation error: Invalid arguments for tool get_values: Too big: expected number to be <=100 at limit"},
		{"unknown keys in input order", "search", `{"query":"hello","foo":1,"bar":2}`, `MCP error -32602: Input validation error: Invalid arguments for tool search: Unrecognized keys: "foo", "bar"`},
		{"typed tool", "fail", `{"what":5}`, "MCP error -32602: Input validation error: Invalid arguments for tool fail: Invalid input: expected string, received number at what"},
		{"arguments absent", "get_values", ``, ""},
		{"arguments null", "get_values", `null`, ""},
		{"arguments an array", "get_values", `[1]`, ""},
		{"arguments a string", "get_values", `"x"`, ""},
		{"arguments huge", "get_values", huge, ""},
		{"arguments nested 100 deep", "get_values", adaptertest.Deep(100), ""},
	} {
		want := tc.want
		if want == "" {
			want = schemaerr.TypeScript.Refuse(tc.tool, schemas[tc.tool].Validate(json.RawMessage(tc.args))).Text
		}
		for tname, send := range transports {
			t.Run(tc.name+"/"+tname, func(t *testing.T) {
				a := send(t, s, v, body(1, tc.tool, tc.args))
				if a.Result == nil || !a.Result.IsError || len(a.Result.Content) != 1 || a.Result.StructuredContent != nil {
					t.Fatalf("want an isError result with one block, got %+v %+v", a.Result, a.Error)
				}
				if d := cmp.Diff(want, a.Result.Content[0].Text); d != "" {
					t.Errorf("(-want +got)\n%s", d)
				}
			})
		}
	}
	for tname, send := range map[string]func(*testing.T, *server.MCPServer, *mcpgo.Validator, string) answer{"HandleMessage": viaValidator, "HTTP": viaHTTP} {
		t.Run("unknown tool/"+tname, func(t *testing.T) {
			a := send(t, s, v, body(1, "get_value", `{}`))
			if a.Result == nil || a.Result.Content[0].Text != "MCP error -32602: Tool get_value not found" {
				t.Errorf("got %+v %+v", a.Result, a.Error)
			}
		})
	}
}

// TestTypeScriptV2Dialect: a refusal of arguments is the isError result whose
// text is the TypeScript SDK 2.x's (schemaerr.TypeScriptV2), byte for byte, on every
// transport; where the Validator sees the message first, a tool the server
// does not have is a JSON-RPC error -32602 "Tool <t> not found", as the 2.x
// SDK answers it.
func TestTypeScriptV2Dialect(t *testing.T) {
	s, v := testServer(&mcpgo.Options{Validation: mcpgo.Validation{Dialect: mcpgo.TypeScriptV2}}, nil)
	for _, tc := range []struct {
		name, tool, args, want string
	}{
		{"over maximum", "get_values", `{"path":["a"],"limit":101}`, "Input validation error: Invalid arguments for tool get_values: limit: Too big: expected number to be <=100"},
		{"two issues on one line", "get_values", `{"limit":101,"path":["a","b",3]}`,
			"Input validation error: Invalid arguments for tool get_values: path.2: Invalid input: expected string, received number, limit: Too big: expected number to be <=100"},
		{"typed tool", "fail", `{"what":5}`, "Input validation error: Invalid arguments for tool fail: what: Invalid input: expected string, received number"},
	} {
		for tname, send := range transports {
			t.Run(tc.name+"/"+tname, func(t *testing.T) {
				a := send(t, s, v, body(1, tc.tool, tc.args))
				if a.Result == nil || !a.Result.IsError || len(a.Result.Content) != 1 || a.Result.StructuredContent != nil {
					t.Fatalf("want an isError result with one block, got %+v %+v", a.Result, a.Error)
				}
				if d := cmp.Diff(tc.want, a.Result.Content[0].Text); d != "" {
					t.Errorf("(-want +got)\n%s", d)
				}
			})
		}
	}
	for tname, send := range map[string]func(*testing.T, *server.MCPServer, *mcpgo.Validator, string) answer{"HandleMessage": viaValidator, "HTTP": viaHTTP} {
		t.Run("unknown tool/"+tname, func(t *testing.T) {
			a := send(t, s, v, body(1, "get_value", `{}`))
			if a.Error == nil || a.Error.Code != -32602 || a.Error.Message != "Tool get_value not found" || len(a.Error.Data) != 0 {
				t.Errorf("got %+v %+v", a.Result, a.Error)
			}
		})
	}
}

// TestHintDialect: where the Validator sees the message first, a refusal is
// a JSON-RPC -32602 with data.code; over mcp-go's own stdio path it is an
// isError result whose text is that error object.
func TestHintDialect(t *testing.T) {
	s, v := testServer(&mcpgo.Options{Validation: mcpgo.Validation{Dialect: mcpgo.Hint}}, nil)
	for _, tc := range []struct {
		name, tool, args, want string
	}{
		{"misspelt parameter", "search", `{"query":"hello","langauge":"en"}`, `{"code":-32602,"message":"Unknown parameter 'langauge'. Did you mean 'language'?","data":{"code":"unknown_parameter"}}`},
		{"out of range", "get_values", `{"path":["a"],"limit":0}`, `{"code":-32602,"message":"Invalid value for 'limit': must be between 1 and 100.","data":{"code":"invalid_parameter"}}`},
		{"arguments an array", "search", `[]`, ""},
		{"arguments nested 100 deep", "get_values", adaptertest.Deep(100), ""},
	} {
		want := tc.want
		if want == "" {
			b, _ := json.Marshal(schemaerr.Hint.Refuse(tc.tool, adaptertest.MustCompile(t, map[string]string{"search": adaptertest.SearchSchema, "get_values": adaptertest.ValuesSchema}[tc.tool]).Validate(json.RawMessage(tc.args))).Error)
			want = string(b)
		}
		for tname, send := range transports {
			t.Run(tc.name+"/"+tname, func(t *testing.T) {
				a := send(t, s, v, body(1, tc.tool, tc.args))
				var got string
				switch {
				case tname == "stdio" && a.Result != nil && a.Result.IsError:
					got = a.Result.Content[0].Text
				case tname != "stdio" && a.Error != nil:
					b, _ := json.Marshal(a.Error)
					got = string(b)
				default:
					t.Fatalf("got %+v %+v", a.Result, a.Error)
				}
				if d := cmp.Diff(want, got); d != "" {
					t.Errorf("(-want +got)\n%s", d)
				}
			})
		}
	}
	a := viaHTTP(t, s, v, body(1, "serch", `{}`))
	if a.Error == nil || a.Error.Code != -32602 || string(a.Error.Data) != `{"code":"unknown_tool"}` || a.Error.Message != "Unknown tool 'serch'. Did you mean 'search'?" {
		t.Errorf("unknown tool over HTTP: %+v", a.Error)
	}
}

// TestHandlerErrors: a handler's error is the kind object without the zero
// Out; OnError and a middleware added after Validate see the Go error.
func TestHandlerErrors(t *testing.T) {
	var onError, seen []error
	opts := &mcpgo.Options{OnError: func(ctx context.Context, req mcp.CallToolRequest, err error) { onError = append(onError, err) }}
	mw := func(next server.ToolHandlerFunc) server.ToolHandlerFunc {
		return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := next(ctx, req)
			seen = append(seen, mcpgo.ToolError(ctx))
			return res, err
		}
	}
	s, v := testServer(opts, mw)
	for _, tc := range []struct {
		what, want string
		kind       errkind.Kind
	}{
		{"envelope", `{"kind":"not_found","code":"thing_not_found","message":"no thing"}`, errkind.NotFound},
		{"wrapped", `{"kind":"rate_limited","retryAfterSeconds":3}`, errkind.RateLimited},
		{"foreign", `{"kind":"server_error","message":"disk on fire"}`, errkind.ServerError},
	} {
		t.Run(tc.what, func(t *testing.T) {
			onError, seen = nil, nil
			a := viaHTTP(t, s, v, body(1, "fail", `{"what":"`+tc.what+`"}`))
			if a.Result == nil || !a.Result.IsError || a.Result.StructuredContent != nil {
				t.Fatalf("want an isError result without structuredContent, got %+v", a.Result)
			}
			if d := cmp.Diff(tc.want, a.Result.Content[0].Text); d != "" {
				t.Errorf("(-want +got)\n%s", d)
			}
			if len(onError) != 1 || envelope.KindOf(onError[0]) != tc.kind || onError[0] == nil {
				t.Errorf("OnError got %v, want one error of kind %q", onError, tc.kind)
			}
			if len(seen) != 1 || seen[0] == nil || envelope.KindOf(seen[0]) != tc.kind {
				t.Errorf("middleware saw %v, want the handler's error", seen)
			}
		})
	}
	onError, seen = nil, nil
	a := viaHTTP(t, s, v, body(1, "fail", `{"what":"nothing"}`))
	if a.Result == nil || a.Result.IsError || string(a.Result.StructuredContent) != `{"id":"1","status":"ok"}` {
		t.Errorf("success: %+v", a.Result)
	}
	if len(onError) != 0 || len(seen) != 1 || seen[0] != nil {
		t.Errorf("success: OnError %v, middleware %v", onError, seen)
	}
}

// TestToolReplaced: a tool replaced with another schema is validated with
// the new one.
func TestToolReplaced(t *testing.T) {
	s, v := testServer(nil, nil)
	ok := mcpgo.Raw(func(ctx context.Context, req mcp.CallToolRequest) (any, error) { return map[string]any{}, nil })
	s.AddTool(mcp.NewToolWithRawSchema("t", "", json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`)), ok)
	if a := viaValidator(t, s, v, body(1, "t", `{"n":"x"}`)); a.Result == nil || !a.Result.IsError {
		t.Fatalf("first schema: %+v", a.Result)
	}
	s.AddTool(mcp.NewToolWithRawSchema("t", "", json.RawMessage(`{"type":"object","properties":{"n":{"type":"string"}}}`)), ok)
	if a := viaValidator(t, s, v, body(1, "t", `{"n":"x"}`)); a.Result == nil || a.Result.IsError {
		t.Fatalf("second schema: %+v", a.Result)
	}
}

// TestLimits: counting every message answers 429 with Retry-After and the
// JSON-RPC body; counting tool calls lets other messages through.
func TestLimits(t *testing.T) {
	stopped := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ping := `{"jsonrpc":"2.0","id":7,"method":"ping"}`
	for _, tc := range []struct {
		name  string
		count mcpgo.Unit
		msgs  []string
		last  int    // the status of the last message
		want  string // the last body
	}{
		{"messages", mcpgo.Messages, []string{ping, ping}, 429,
			`{"jsonrpc":"2.0","id":7,"error":{"code":-32000,"message":"Rate limited: retry after 2 seconds.","data":{"kind":"rate_limited","retryAfterSeconds":2,"limit":1,"remaining":0,"resetSeconds":2}}}`},
		{"tool calls", mcpgo.ToolCalls, []string{ping, ping, body(3, "get_values", `{"path":[]}`), ping}, 200,
			`{"jsonrpc":"2.0","id":7,"result":{}}`},
		{"tool call refused, its id echoed as sent", mcpgo.ToolCalls, []string{body(3, "get_values", `{"path":[]}`), strings.Replace(body(3, "get_values", `{"path":[]}`), `"id":3`, `"id":"\u0041"`, 1)}, 200,
			`{"jsonrpc":"2.0","id":"\u0041","result":{"content":[{"type":"text","text":"{\"kind\":\"rate_limited\",\"retryAfterSeconds\":2,\"limit\":1,\"remaining\":0,\"resetSeconds\":2}"}],"isError":true}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lim := ratelimit.NewLimiter(0.5, 1)
			lim.Now = func() time.Time { return stopped }
			s, v := testServer(nil, nil)
			h := mcpgo.HTTPHandler(s, &mcpgo.HTTPOptions{Validator: v, HTTP: adapter.HTTP{Limiter: lim, Count: tc.count}})
			var w *httptest.ResponseRecorder
			for _, m := range tc.msgs {
				w = httptest.NewRecorder()
				h.ServeHTTP(w, newPost(m))
			}
			if w.Code != tc.last || strings.TrimSpace(w.Body.String()) != tc.want {
				t.Errorf("got %d %s, want %d %s", w.Code, w.Body, tc.last, tc.want)
			}
			if tc.last == 429 && w.Header().Get("Retry-After") != "2" {
				t.Errorf("Retry-After %q", w.Header().Get("Retry-After"))
			}
		})
	}
}

// TestHTTPBodyBound: MaxBytes bounds the body: zero means 4 MiB, and a
// negative value the most the message check accepts, wire.MaxMessageBytes.
// A body over the bound is a 413 with a JSON-RPC body, refused before a
// byte of it is read when its Content-Length says so.
func TestHTTPBodyBound(t *testing.T) {
	s, v := testServer(nil, nil)
	ping := `{"jsonrpc":"2.0","id":7,"method":"ping"}`
	for _, tc := range []struct {
		name     string
		maxBytes int64
		bound    int64
	}{
		{"a bound of its own", int64(len(ping)), int64(len(ping))},
		{"zero is 4 MiB", 0, 4 << 20},
		{"negative is the message check's bound", -1, wire.MaxMessageBytes},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := mcpgo.HTTPHandler(s, &mcpgo.HTTPOptions{Validator: v, MaxBytes: tc.maxBytes})
			for _, length := range []int64{tc.bound, tc.bound + 1} {
				r := newPost(ping)
				r.ContentLength = length // what the client says; the body is no longer
				w := httptest.NewRecorder()
				h.ServeHTTP(w, r)
				status, want := 200, `{"jsonrpc":"2.0","id":7,"result":{}}`
				if length > tc.bound {
					status, want = 413, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: the body is larger than `+strconv.FormatInt(tc.bound, 10)+` bytes."}}`
				}
				if d := cmp.Diff(want, strings.TrimSpace(w.Body.String())); w.Code != status || d != "" {
					t.Errorf("Content-Length %d: status %d, want %d; body (-want +got)\n%s", length, w.Code, status, d)
				}
			}
		})
	}
	// a body longer than its Content-Length says is refused when it is read
	h := mcpgo.HTTPHandler(s, &mcpgo.HTTPOptions{Validator: v, MaxBytes: 10})
	r := newPost(ping)
	r.ContentLength = -1 // unknown
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if want := `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: the body is larger than 10 bytes."}}`; w.Code != 413 || strings.TrimSpace(w.Body.String()) != want {
		t.Errorf("unknown length: got %d %s, want 413 %s", w.Code, w.Body, want)
	}
}

// TestHTTPFront: the front's answers to what is not one JSON-RPC message:
// a readable id is echoed, an id that cannot be echoed byte for byte is
// null, and a batch is refused.
func TestHTTPFront(t *testing.T) {
	s, v := testServer(nil, nil)
	h := mcpgo.HTTPHandler(s, &mcpgo.HTTPOptions{Validator: v})
	for _, tc := range []struct{ msg, want string }{
		{`{"id":1,"method":"ping"}`, `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: \"jsonrpc\" must be \"2.0\"."}}`},
		{`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: the id must be a string or an integer of at most 2^53 in magnitude."}}`},
		{`[1,`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the body is not valid JSON."}}`},
		{`[{"jsonrpc":"2.0","id":7,"method":"ping"}]`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: batch requests are not supported; send one JSON-RPC request per POST."}}`},
	} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, newPost(tc.msg))
		if d := cmp.Diff(tc.want, strings.TrimSpace(w.Body.String())); w.Code != 400 || d != "" {
			t.Errorf("%s: status %d, body (-want +got)\n%s", tc.msg, w.Code, d)
		}
	}
}

// TestConcurrentCalls: calls from many goroutines share the compiled
// schemas (run under -race).
func TestConcurrentCalls(t *testing.T) {
	_, v := testServer(nil, nil)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for range 20 {
				args := `{"path":["a"],"limit":101}`
				if i%2 == 0 {
					args = `{"path":["a"]}`
				}
				b, _ := json.Marshal(v.HandleMessage(context.Background(), json.RawMessage(body(1, "get_values", args))))
				var a answer
				if err := json.Unmarshal(b, &a); err != nil || a.Result == nil || a.Result.IsError != (i%2 == 1) {
					t.Errorf("%v %s", err, b)
					return
				}
			}
		})
	}
	wg.Wait()
}

// FuzzHTTPBody: no body makes the handler panic, and every status is one a
// client expects.
func FuzzHTTPBody(f *testing.F) {
	for _, s := range []string{body(1, "get_values", `{"path":[]}`), body(2, "get_values", `[`), `[]`, `null`, `{"jsonrpc":"2.0","id":{},"method":"tools/call","params":7}`} {
		f.Add(s)
	}
	s, v := testServer(nil, nil)
	h := mcpgo.HTTPHandler(s, &mcpgo.HTTPOptions{Validator: v, HTTP: adapter.HTTP{Limiter: ratelimit.NewLimiter(1, 2)}})
	f.Fuzz(func(t *testing.T, msg string) {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, newPost(msg))
		switch w.Code {
		case 200, 202, 400, 404, 413, 429:
		default:
			t.Errorf("status %d for %q: %s", w.Code, msg, w.Body)
		}
	})
}

// TestRenderer: an error that renders itself keeps its shape, _meta
// included, and is still the error OnError sees.
func TestRenderer(t *testing.T) {
	var got []error
	s := server.NewMCPServer("test", "1")
	s.AddTool(mcp.NewToolWithRawSchema("raw", "", json.RawMessage(`{"type":"object"}`)),
		mcpgo.Raw(func(ctx context.Context, req mcp.CallToolRequest) (any, error) {
			return nil, adaptertest.Wrapped("calling: ", &adaptertest.Prose{Msg: "abc"})
		}))
	v := mcpgo.Validate(s, &mcpgo.Options{OnError: func(ctx context.Context, req mcp.CallToolRequest, err error) { got = append(got, err) }})
	b, _ := json.Marshal(v.HandleMessage(context.Background(), json.RawMessage(body(1, "raw", `{}`))))
	want := `{"jsonrpc":"2.0","id":1,"result":{"_meta":{"example/plan":"free"},"content":[{"type":"text","text":"Not found: abc"}],"isError":true}}`
	if d := cmp.Diff(want, string(b)); d != "" {
		t.Errorf("(-want +got)\n%s", d)
	}
	var p *adaptertest.Prose
	if len(got) != 1 || !errors.As(got[0], &p) {
		t.Errorf("OnError saw %v", got)
	}
}

// TestHTTPRefuseAndGate: Refuse writes the limit's refusal in the server's
// own envelope; Gate answers before the body is read and before the limits.
func TestHTTPRefuseAndGate(t *testing.T) {
	stopped := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	lim := ratelimit.NewLimiter(0.5, 1)
	lim.Now = func() time.Time { return stopped }
	s, v := testServer(nil, nil)
	h := mcpgo.HTTPHandler(s, &mcpgo.HTTPOptions{
		Validator: v, HTTP: adapter.HTTP{
			Limiter: lim,
			Count:   mcpgo.Messages,
			Refuse: func(w http.ResponseWriter, r *http.Request, d ratelimit.Decision) {
				w.Header().Set("Content-Type", "application/json") // a plain-text answer would become a JSON-RPC error
				w.WriteHeader(http.StatusTooManyRequests)
				w.Write([]byte(`{"error":"slow down"}`))
			},
			Gate: func(w http.ResponseWriter, r *http.Request) bool {
				if r.Header.Get("Authorization") != "Bearer k" {
					w.WriteHeader(http.StatusUnauthorized)
					w.Write([]byte(`{"error":"no key"}`))
					return false
				}
				return true
			},
		}})
	ping := `{"jsonrpc":"2.0","id":7,"method":"ping"}`
	for i, st := range []struct {
		key, body, want string
		status          int
	}{
		{"", "{not json", `{"error":"no key"}`, 401},
		{"k", ping, `{"jsonrpc":"2.0","id":7,"result":{}}`, 200},
		{"k", ping, `{"error":"slow down"}`, 429},
	} {
		r := newPost(st.body)
		if st.key != "" {
			r.Header.Set("Authorization", "Bearer "+st.key)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if got := strings.TrimSpace(w.Body.String()); w.Code != st.status || got != st.want {
			t.Errorf("request %d: got %d %s, want %d %s", i, w.Code, got, st.status, st.want)
		}
	}
}

// TestSchemasOverride: a tool validated with a schema other than the one it
// publishes.
func TestSchemasOverride(t *testing.T) {
	s := server.NewMCPServer("test", "1")
	s.AddTool(mcp.NewToolWithRawSchema("signals", "", json.RawMessage(`{"type":"object","properties":{"signal":{"type":"string","enum":["cpu","mem"]}},"additionalProperties":false}`)),
		mcpgo.Raw(func(ctx context.Context, req mcp.CallToolRequest) (any, error) { return map[string]any{}, nil }))
	v := mcpgo.Validate(s, &mcpgo.Options{
		Validation: mcpgo.Validation{
			Schemas: map[string]json.RawMessage{
				"signals": json.RawMessage(`{"type":"object","properties":{"signal":{"type":"string"}},"additionalProperties":false}`),
			},
		},
	})
	if a := viaValidator(t, s, v, body(1, "signals", `{"signal":"cpx"}`)); a.Result == nil || a.Result.IsError {
		t.Errorf("the validation schema has no enum: %+v", a.Result)
	}
	if a := viaValidator(t, s, v, body(1, "signals", `{"signl":"cpu"}`)); a.Result == nil || a.Result.Content[0].Text != `MCP error -32602: Input validation error: Invalid arguments for tool signals: Unrecognized key: "signl"` {
		t.Errorf("unknown key: %+v", a.Result)
	}
}

// TestModernProtocol: on protocol revision 2026-07-28 a result the
// Validator answers before mcp-go says "resultType":"complete", as mcp-go's
// own results do.
func TestModernProtocol(t *testing.T) {
	_, v := testServer(nil, nil)
	msg := `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"get_valu","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`
	b, _ := json.Marshal(v.HandleMessage(context.Background(), json.RawMessage(msg)))
	want := `{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"MCP error -32602: Tool get_valu not found"}],"isError":true,"resultType":"complete"}}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}

// TestHTTPWrapAndPublic: Wrap sees each checked message (front.Checked)
// after the limits and the Validator and may answer it; a Public path
// reaches its handler after the Host check only, whatever its method.
func TestHTTPWrapAndPublic(t *testing.T) {
	var methods []string
	s, v := testServer(nil, nil)
	h := mcpgo.HTTPHandler(s, &mcpgo.HTTPOptions{Validator: v, HTTP: adaptertest.WrapAndPublic(&methods)})
	for _, tc := range []struct{ msg, want string }{
		{`{"jsonrpc":"2.0","id":7,"method":"ping"}`, `{"jsonrpc":"2.0","id":7,"result":{}}`},
		{`{"jsonrpc":"2.0","id":8,"method":"tools/list"}`, `{"jsonrpc":"2.0","id":8,"error":{"code":-32600,"message":"no listing here"}}`},
		{body(9, "get_valu", `{}`), `{"jsonrpc":"2.0","id":9,"result":{"content":[{"type":"text","text":"MCP error -32602: Tool get_valu not found"}],"isError":true}}`},
	} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, newPost(tc.msg))
		if d := cmp.Diff(tc.want, strings.TrimSpace(w.Body.String())); d != "" {
			t.Errorf("%s: (-want +got)\n%s", tc.msg, d)
		}
	}
	if d := cmp.Diff([]string{"ping", "tools/list"}, methods); d != "" {
		t.Errorf("Wrap saw (-want +got)\n%s (the Validator answers the unknown tool first)", d)
	}
	adaptertest.CheckPublic(t, h)
}

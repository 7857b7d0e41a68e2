package reading

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	mcpclient "github.com/mark3labs/mcp-go/client"
	mcpgomcp "github.com/mark3labs/mcp-go/mcp"
	mcpgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/gosdk"
	"github.com/mcperr/mcperr/mcpgo"
	"github.com/mcperr/mcperr/ratelimit"
)

// read is what a client makes of one tool call: errkind's reading of it.
type read func(t *testing.T, tool string, args map[string]any) errkind.Reading

// goClient connects the go-sdk's client to url and reads each call through
// gosdk.Outcome.
func goClient(t *testing.T, url string) read {
	t.Helper()
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "reader", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatalf("go-sdk client: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return func(t *testing.T, tool string, args map[string]any) errkind.Reading {
		return errkind.Read(gosdk.Outcome(cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})))
	}
}

// mcpgoClient connects mcp-go's client to url and reads each call through
// mcpgo.Outcome.
func mcpgoClient(t *testing.T, url string) read {
	t.Helper()
	ctx := context.Background()
	c, err := mcpclient.NewStreamableHttpClient(url)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	ir := mcpgomcp.InitializeRequest{}
	ir.Params.ProtocolVersion = mcpgomcp.LATEST_PROTOCOL_VERSION
	if _, err := c.Initialize(ctx, ir); err != nil {
		t.Fatalf("mcp-go client: %v", err)
	}
	return func(t *testing.T, tool string, args map[string]any) errkind.Reading {
		req := mcpgomcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = tool, args
		return errkind.Read(mcpgo.Outcome(c.CallTool(ctx, req)))
	}
}

// client is one client the tests drive every server with.
type client struct {
	name    string
	connect func(*testing.T, string) read
}

// clients are both Go SDKs' clients and, with MCPERR_NODE=1, the
// TypeScript SDK's Client: 1.x from the interop suite's packages
// (examples/interop/setup.sh installs them) or MCPERR_TS1_MODULES, 2.x from
// schemaerr's 2.x harness (its TestRecapture2 installs it) or
// MCPERR_TS2_MODULES, each a node_modules folder. A TypeScript client whose
// packages are absent is left out, and the test says so.
func clients(t *testing.T) []client {
	cs := []client{{"go-sdk client", goClient}, {"mcp-go client", mcpgoClient}}
	if os.Getenv("MCPERR_NODE") != "1" {
		return cs
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Log("node is not installed: the TypeScript clients are left out")
		return cs
	}
	cache, _ := os.UserCacheDir()
	for _, ts := range []struct{ major, env, modules, pkg string }{
		{"1", "MCPERR_TS1_MODULES", filepath.Join("..", "interop", "node_modules"), "@modelcontextprotocol/sdk"},
		{"2", "MCPERR_TS2_MODULES", filepath.Join(cache, "mcperr-zod2", "node_modules"), "@modelcontextprotocol/client"},
	} {
		modules := ts.modules
		if v := os.Getenv(ts.env); v != "" {
			modules = v
		}
		if _, err := os.Stat(filepath.Join(modules, ts.pkg, "package.json")); err != nil {
			t.Logf("%s is not in %s (set %s): the TypeScript %s.x client is left out", ts.pkg, modules, ts.env, ts.major)
			continue
		}
		abs, err := filepath.Abs(modules)
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, client{"TypeScript " + ts.major + ".x client", tsClient(node, ts.major, abs)})
	}
	return cs
}

// tsClient is the connect of the TypeScript SDK's Client of the given major
// version, from the node_modules folder modules: testdata/tsclient.mjs, one
// process per connection, one line per call each way.
func tsClient(node, major, modules string) func(*testing.T, string) read {
	return func(t *testing.T, url string) read {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		cmd := exec.CommandContext(ctx, node, filepath.Join("testdata", "tsclient.mjs"), major, modules, url)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			stdin.Close()
			cmd.Wait()
			cancel()
		})
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<20)
		return func(t *testing.T, tool string, args map[string]any) errkind.Reading {
			line, err := json.Marshal(map[string]any{"tool": tool, "arguments": args})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := stdin.Write(append(line, '\n')); err != nil {
				t.Fatalf("node: %v\n%s", err, stderr.Bytes())
			}
			if !sc.Scan() {
				t.Fatalf("node answered nothing (%v)\n%s", sc.Err(), stderr.Bytes())
			}
			var out struct {
				RPC     bool            `json:"rpc"`
				Code    int             `json:"code"`
				Message string          `json:"message"`
				Data    json.RawMessage `json:"data"`
				IsError bool            `json:"isError"`
				Text    string          `json:"text"`
			}
			if err := json.Unmarshal(sc.Bytes(), &out); err != nil {
				t.Fatalf("node: %v: %s", err, sc.Bytes())
			}
			if out.RPC {
				return errkind.Read(errkind.Outcome{RPCCode: errkind.RPCCode(out.Code), Message: out.Message, Data: out.Data})
			}
			return errkind.Read(errkind.Outcome{IsError: out.IsError, Text: out.Text})
		}
	}
}

// want is what a case's reading must say.
type want struct {
	Kind errkind.Kind
	Move errkind.Move
	Tool string
	Args []string
}

type callCase struct {
	name string
	tool string
	args map[string]any
	want want
}

func (w want) of(r errkind.Reading) want {
	return want{Kind: r.Kind, Move: r.Move, Tool: r.Tool, Args: r.Args}
}

// SearchIn is the input of the plain go-sdk server's typed tool; the SDK
// derives its schema: query required, no other property.
type SearchIn struct {
	Query string `json:"query"`
	Limit int    `json:"limit,omitempty"`
}

// goPlain is a go-sdk server without mcperr: a typed tool the SDK
// validates, a typed and a raw tool whose handlers fail with Go errors.
func goPlain() http.Handler {
	s := mcp.NewServer(&mcp.Implementation{Name: "plain-go-sdk", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "search"}, func(ctx context.Context, _ *mcp.CallToolRequest, in SearchIn) (*mcp.CallToolResult, any, error) {
		if in.Query == "fail" {
			return nil, nil, errors.New("the index is locked")
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "found"}}}, nil, nil
	})
	s.AddTool(&mcp.Tool{Name: "sync", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, errors.New("sync failed")
	})
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
}

// mcpgoPlain is an mcp-go server without mcperr, with mcp-go's own
// input-schema validation, and a handler that fails with a Go error.
func mcpgoPlain() http.Handler {
	s := mcpgoserver.NewMCPServer("plain-mcp-go", "1", mcpgoserver.WithInputSchemaValidation())
	s.AddTool(mcpgomcp.NewTool("search", mcpgomcp.WithString("query", mcpgomcp.Required())), func(ctx context.Context, req mcpgomcp.CallToolRequest) (*mcpgomcp.CallToolResult, error) {
		if req.GetString("query", "") == "fail" {
			return nil, errors.New("the index is locked")
		}
		return mcpgomcp.NewToolResultText("found"), nil
	})
	return mcpgoserver.NewStreamableHTTPServer(s)
}

var (
	fixArg = func(tool string, args ...string) want {
		return want{Kind: errkind.InvalidArguments, Move: errkind.FixArgument, Tool: tool, Args: args}
	}
	serverError = want{Kind: errkind.ServerError, Move: errkind.Report}
	unknown     = want{Move: errkind.Report} // a failure text in no shape: reported
)

// TestPlainServers: both clients read the SDKs' own answers, from servers
// that do not use mcperr: refused arguments and unknown tools are
// fix_argument (with the tool and the arguments), a handler's Go error is
// reported.
func TestPlainServers(t *testing.T) {
	servers := []struct {
		name    string
		handler http.Handler
		cases   []callCase
	}{
		{"go-sdk server", goPlain(), []callCase{
			{"success", "search", map[string]any{"query": "go"}, want{}},
			{"wrong type", "search", map[string]any{"query": 7}, fixArg("", "query")},
			{"missing", "search", map[string]any{}, fixArg("", "query")},
			{"undeclared", "search", map[string]any{"query": "go", "extra": 1}, fixArg("", "extra")},
			{"typed handler's Go error, an isError text", "search", map[string]any{"query": "fail"}, unknown},
			{"raw handler's Go error, JSON-RPC code 0", "sync", map[string]any{}, serverError},
			{"unknown tool", "serch", map[string]any{}, fixArg("serch")},
		}},
		{"mcp-go server", mcpgoPlain(), []callCase{
			{"success", "search", map[string]any{"query": "go"}, want{}},
			{"wrong type", "search", map[string]any{"query": 7}, fixArg("", "query")},
			{"missing", "search", map[string]any{}, fixArg("", "query")},
			{"handler's Go error, -32603", "search", map[string]any{"query": "fail"}, serverError},
			{"unknown tool", "serch", map[string]any{}, fixArg("serch")},
		}},
	}
	cls := clients(t)
	for _, srv := range servers {
		ts := httptest.NewServer(srv.handler)
		t.Cleanup(ts.Close)
		for _, cl := range cls {
			t.Run(srv.name+"/"+cl.name, func(t *testing.T) {
				call := cl.connect(t, ts.URL)
				for _, c := range srv.cases {
					if d := cmp.Diff(c.want, c.want.of(call(t, c.tool, c.args)), cmpopts.EquateEmpty()); d != "" {
						t.Errorf("%s: %s %v (-want +got)\n%s", c.name, c.tool, c.args, d)
					}
				}
			})
		}
	}
}

// TraceIn is the input of the adapters' tool.
type TraceIn struct {
	ID string `json:"id"`
}

// getTrace fails as an upstream would, by the id it is given.
func getTrace(id string) (map[string]any, error) {
	switch id {
	case "gone":
		return nil, &envelope.Error{Kind: errkind.NotFound, Code: "trace_not_found", Message: "no trace gone"}
	case "busy":
		return nil, &envelope.Error{Kind: errkind.Unavailable, Message: "the trace store is busy", RetryAfter: 3 * time.Second}
	case "revoked":
		return nil, &envelope.Error{Kind: errkind.AuthenticationFailed, Message: "token revoked"}
	}
	return map[string]any{"id": id}, nil
}

// gosdkServer is mcperr's go-sdk adapter in the given dialect.
func gosdkServer(d gosdk.Dialect, ho *gosdk.HTTPOptions) http.Handler {
	s := mcp.NewServer(&mcp.Implementation{Name: "gosdk", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "get_trace"}, gosdk.Handle(func(ctx context.Context, _ *mcp.CallToolRequest, in TraceIn) (map[string]any, error) {
		return getTrace(in.ID)
	}))
	s.AddReceivingMiddleware(gosdk.Validate(&gosdk.Options{Dialect: d}))
	return gosdk.HTTPHandler(s, ho)
}

// mcpgoServer is mcperr's mcp-go adapter in the given dialect.
func mcpgoServer(d mcpgo.Dialect, ho *mcpgo.HTTPOptions) http.Handler {
	s := mcpgoserver.NewMCPServer("mcpgo", "1")
	s.AddTool(mcpgomcp.NewTool("get_trace", mcpgomcp.WithInputSchema[TraceIn]()), mcpgo.Handle(func(ctx context.Context, _ mcpgomcp.CallToolRequest, in TraceIn) (map[string]any, error) {
		return getTrace(in.ID)
	}))
	v := mcpgo.Validate(s, &mcpgo.Options{Dialect: d})
	if ho == nil {
		ho = &mcpgo.HTTPOptions{}
	}
	ho.Validator = v
	return mcpgo.HTTPHandler(s, ho)
}

// adapterCases are the failures of the adapters' server; tool is the tool
// name a dialect's refusals carry ("" for the hint dialect's, whose
// data.code says what is wrong and whose message names the argument).
func adapterCases(tool string, args ...string) []callCase {
	unknownTool := fixArg(tool)
	if tool != "" {
		unknownTool.Tool = "get_tracee"
	}
	return []callCase{
		{"success", "get_trace", map[string]any{"id": "abc"}, want{}},
		{"wrong type", "get_trace", map[string]any{"id": 7}, fixArg(tool, args...)},
		{"unknown tool", "get_tracee", map[string]any{}, unknownTool},
		{"not found upstream", "get_trace", map[string]any{"id": "gone"}, want{Kind: errkind.NotFound, Move: errkind.TryAnotherID}},
		{"unavailable upstream", "get_trace", map[string]any{"id": "busy"}, want{Kind: errkind.Unavailable, Move: errkind.WaitThenRetry}},
		{"credential refused upstream", "get_trace", map[string]any{"id": "revoked"}, want{Kind: errkind.AuthenticationFailed, Move: errkind.Stop}},
	}
}

// TestAdapters: both clients read every answer of mcperr's adapters, in
// each dialect, with the right kind and move.
func TestAdapters(t *testing.T) {
	servers := []struct {
		name    string
		handler http.Handler
		cases   []callCase
	}{
		{"gosdk, TypeScript", gosdkServer(gosdk.TypeScript, nil), adapterCases("get_trace", "id")},
		{"gosdk, TypeScript2", gosdkServer(gosdk.TypeScript2, nil), adapterCases("get_trace", "id")},
		{"gosdk, Hint", gosdkServer(gosdk.Hint, nil), adapterCases("")},
		{"mcpgo, TypeScript", mcpgoServer(mcpgo.TypeScript, nil), adapterCases("get_trace", "id")},
		{"mcpgo, TypeScript2", mcpgoServer(mcpgo.TypeScript2, nil), adapterCases("get_trace", "id")},
		{"mcpgo, Hint", mcpgoServer(mcpgo.Hint, nil), adapterCases("")},
	}
	cls := clients(t)
	for _, srv := range servers {
		ts := httptest.NewServer(srv.handler)
		t.Cleanup(ts.Close)
		for _, cl := range cls {
			t.Run(srv.name+"/"+cl.name, func(t *testing.T) {
				call := cl.connect(t, ts.URL+"/mcp")
				for _, c := range srv.cases {
					r := call(t, c.tool, c.args)
					if d := cmp.Diff(c.want, c.want.of(r), cmpopts.EquateEmpty()); d != "" {
						t.Errorf("%s: %s %v (-want +got)\n%s", c.name, c.tool, c.args, d)
					}
					if c.want.Kind == errkind.Unavailable && r.Wait != 3*time.Second {
						t.Errorf("%s: wait %v (has %v), want 3s", c.name, r.Wait, r.HasWait)
					}
				}
			})
		}
	}
}

// stopped is a limiter of burst tokens whose clock stands still, so a
// refusal's wait is the same on a slow machine.
func stopped(burst int) *ratelimit.Limiter {
	lim := ratelimit.NewLimiter(0.5, burst)
	now := time.Now()
	lim.Now = func() time.Time { return now }
	return lim
}

// TestLimits: a client over the adapters' per-client limit reads
// rate_limited and wait_then_retry: the kind object of a refused tool call
// (the default count, with its wait), and the HTTP 429 of a refused message
// (Messages), whose wait a client reads when it keeps the body or the
// message (mcp-go's keeps the message, the TypeScript client's text the
// body; the go-sdk's reads only the status).
func TestLimits(t *testing.T) {
	cls := clients(t)
	for _, count := range []struct {
		name   string
		gosdk  gosdk.Count
		mcpgo  mcpgo.Count
		burst  int
		noWait map[string]bool // the clients that cannot read the wait
	}{
		{"tool calls", gosdk.ToolCalls, mcpgo.ToolCalls, 1, nil},
		{"messages", gosdk.Messages, mcpgo.Messages, 4, map[string]bool{"go-sdk client": true}},
	} {
		for _, cl := range cls {
			for _, sdk := range []string{"gosdk", "mcpgo"} {
				t.Run(count.name+"/"+sdk+"/"+cl.name, func(t *testing.T) {
					var h http.Handler
					if sdk == "gosdk" {
						h = gosdkServer(gosdk.TypeScript, &gosdk.HTTPOptions{HTTP: adapter.HTTP{Limiter: stopped(count.burst), Count: count.gosdk}})
					} else {
						h = mcpgoServer(mcpgo.TypeScript, &mcpgo.HTTPOptions{HTTP: adapter.HTTP{Limiter: stopped(count.burst), Count: count.mcpgo}})
					}
					ts := httptest.NewServer(h)
					defer ts.Close()
					call := cl.connect(t, ts.URL+"/mcp")
					for i := range 8 {
						r := call(t, "get_trace", map[string]any{"id": "abc"})
						if r.Form == errkind.FormData {
							continue
						}
						if r.Kind != errkind.RateLimited || r.Move != errkind.WaitThenRetry {
							t.Fatalf("call %d: %s %s (%s), want rate_limited wait_then_retry", i, r.Kind, r.Move, r.Form)
						}
						if want := !count.noWait[cl.name]; r.HasWait != want || want && r.Wait != 2*time.Second {
							t.Errorf("call %d: wait %v (has %v), want a wait of 2s: %v", i, r.Wait, r.HasWait, want)
						}
						return
					}
					t.Fatalf("no call refused by a limiter of burst %d", count.burst)
				})
			}
		}
	}
}

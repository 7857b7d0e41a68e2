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
	"strings"
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
// A call with a timeout is given up by the client after it (0: none).
type read func(t *testing.T, tool string, args map[string]any, timeout time.Duration) errkind.Reading

// callCtx is the context of a call with the given timeout (0: none).
func callCtx(timeout time.Duration) (context.Context, context.CancelFunc) {
	if timeout == 0 {
		return context.WithCancel(context.Background())
	}
	return context.WithTimeout(context.Background(), timeout)
}

// goClient connects the go-sdk's client to url (over Streamable HTTP, or
// over stdio to the command a "stdio:" url names) and reads each call
// through gosdk.Outcome.
func goClient(t *testing.T, url string) read {
	t.Helper()
	ctx := context.Background()
	var tr mcp.Transport = &mcp.StreamableClientTransport{Endpoint: url}
	if cmd, ok := stdioCommand(url); ok {
		tr = &mcp.CommandTransport{Command: cmd}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "reader", Version: "1"}, nil).Connect(ctx, tr, nil)
	if err != nil {
		t.Fatalf("go-sdk client: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return func(t *testing.T, tool string, args map[string]any, timeout time.Duration) errkind.Reading {
		ctx, cancel := callCtx(timeout)
		defer cancel()
		return errkind.Read(gosdk.Outcome(cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})))
	}
}

// mcpgoClient connects mcp-go's client to url (over Streamable HTTP, or
// over stdio to the command a "stdio:" url names) and reads each call
// through mcpgo.Outcome.
func mcpgoClient(t *testing.T, url string) read {
	t.Helper()
	ctx := context.Background()
	var c *mcpclient.Client
	var err error
	if cmd, ok := stdioCommand(url); ok {
		c, err = mcpclient.NewStdioMCPClient(cmd.Path, cmd.Env, cmd.Args[1:]...)
	} else {
		c, err = mcpclient.NewStreamableHttpClient(url)
	}
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
	return func(t *testing.T, tool string, args map[string]any, timeout time.Duration) errkind.Reading {
		ctx, cancel := callCtx(timeout)
		defer cancel()
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
// TypeScript SDK's Client of each install (see tsInstalls).
func clients(t *testing.T) []client {
	cs := []client{{"go-sdk client", goClient}, {"mcp-go client", mcpgoClient}}
	for _, ts := range tsInstalls(t) {
		cs = append(cs, client{"TypeScript " + ts.major + ".x client", tsClient(ts.node, ts.major, ts.modules)})
	}
	return cs
}

// tsInstall is an install of the TypeScript SDK: its major version and its
// node_modules folder.
type tsInstall struct{ node, major, modules string }

// tsInstalls are, with MCPERR_NODE=1, the TypeScript SDK's installs: 1.x
// from the interop suite's packages (examples/interop/setup.sh installs
// them) or MCPERR_TS1_MODULES, 2.x from schemaerr's 2.x harness (its
// TestRecapture2 installs it) or MCPERR_TS2_MODULES, each a node_modules
// folder with zod. An install that is absent is left out, and the test
// says so.
func tsInstalls(t *testing.T) []tsInstall {
	if os.Getenv("MCPERR_NODE") != "1" {
		return nil
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Log("node is not installed: the TypeScript SDK is left out")
		return nil
	}
	cache, _ := os.UserCacheDir()
	var ins []tsInstall
	for _, ts := range []struct{ major, env, modules, pkg string }{
		{"1", "MCPERR_TS1_MODULES", filepath.Join("..", "interop", "node_modules"), "@modelcontextprotocol/sdk"},
		{"2", "MCPERR_TS2_MODULES", filepath.Join(cache, "mcperr-zod2", "node_modules"), "@modelcontextprotocol/client"},
	} {
		modules := ts.modules
		if v := os.Getenv(ts.env); v != "" {
			modules = v
		}
		if _, err := os.Stat(filepath.Join(modules, ts.pkg, "package.json")); err != nil {
			t.Logf("%s is not in %s (set %s): the TypeScript SDK %s.x is left out", ts.pkg, modules, ts.env, ts.major)
			continue
		}
		abs, err := filepath.Abs(modules)
		if err != nil {
			t.Fatal(err)
		}
		ins = append(ins, tsInstall{node, ts.major, abs})
	}
	return ins
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
		return func(t *testing.T, tool string, args map[string]any, timeout time.Duration) errkind.Reading {
			line, err := json.Marshal(map[string]any{"tool": tool, "arguments": args, "timeout": timeout.Milliseconds()})
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
	name    string
	tool    string
	args    map[string]any
	want    want
	timeout time.Duration // the client gives the call up after it
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
// validates, a typed and a raw tool whose handlers fail with Go errors, one
// that says its upstream refused it, and a slow one.
func goPlain() *mcp.Server {
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
	mcp.AddTool(s, &mcp.Tool{Name: "quota"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		return nil, nil, errors.New(upstream429)
	})
	mcp.AddTool(s, &mcp.Tool{Name: "slow"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		slow(ctx)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, nil
	})
	return s
}

// upstream429 is what a plain server's handler says when its upstream
// refused it: prose carrying the status and the upstream's body.
const upstream429 = `upstream returned 429: {"error":"rate limited","retry_after":7}`

// slow waits until the call is cancelled, or 5 seconds.
func slow(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
	}
}

// goPlainHTTP is goPlain on Streamable HTTP.
func goPlainHTTP() http.Handler {
	s := goPlain()
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
}

// mcpgoPlain is an mcp-go server without mcperr, with mcp-go's own
// input-schema validation, a handler that fails with a Go error, one that
// checks its argument with mcp-go's RequireString, one that says its
// upstream refused it, and a slow one.
func mcpgoPlain() *mcpgoserver.MCPServer {
	s := mcpgoserver.NewMCPServer("plain-mcp-go", "1", mcpgoserver.WithInputSchemaValidation())
	s.AddTool(mcpgomcp.NewTool("search", mcpgomcp.WithString("query", mcpgomcp.Required())), func(ctx context.Context, req mcpgomcp.CallToolRequest) (*mcpgomcp.CallToolResult, error) {
		if req.GetString("query", "") == "fail" {
			return nil, errors.New("the index is locked")
		}
		return mcpgomcp.NewToolResultText("found"), nil
	})
	s.AddTool(mcpgomcp.NewTool("get", mcpgomcp.WithString("id")), func(ctx context.Context, req mcpgomcp.CallToolRequest) (*mcpgomcp.CallToolResult, error) {
		id, err := req.RequireString("id")
		if err != nil {
			return mcpgomcp.NewToolResultError(err.Error()), nil
		}
		return mcpgomcp.NewToolResultText(id), nil
	})
	s.AddTool(mcpgomcp.NewTool("quota"), func(ctx context.Context, req mcpgomcp.CallToolRequest) (*mcpgomcp.CallToolResult, error) {
		return nil, errors.New(upstream429)
	})
	s.AddTool(mcpgomcp.NewTool("slow"), func(ctx context.Context, req mcpgomcp.CallToolRequest) (*mcpgomcp.CallToolResult, error) {
		slow(ctx)
		return mcpgomcp.NewToolResultText("done"), nil
	})
	return s
}

var (
	fixArg = func(tool string, args ...string) want {
		return want{Kind: errkind.InvalidArguments, Move: errkind.FixArgument, Tool: tool, Args: args}
	}
	serverError = want{Kind: errkind.ServerError, Move: errkind.Report}
	unknown     = want{Move: errkind.Report} // a failure text in no shape: reported
	// rateLimited is a handler's prose carrying its upstream's 429.
	rateLimited = want{Kind: errkind.RateLimited, Move: errkind.WaitThenRetry}
	// timedOut is the client's own timeout: no answer came back.
	timedOut = want{Kind: errkind.NetworkError, Move: errkind.RetrySafe}
)

// TestPlainServers: every client reads the SDKs' own answers, from servers
// that do not use mcperr, over Streamable HTTP and over stdio: refused
// arguments and unknown tools are fix_argument (with the tool and the
// arguments, mcp-go's RequireString text included), a handler's Go error
// is reported, a handler's prose carrying its upstream's 429 is
// rate_limited, and the client's own timeout is network_error.
func TestPlainServers(t *testing.T) {
	goCases := []callCase{
		{name: "success", tool: "search", args: map[string]any{"query": "go"}},
		{name: "wrong type", tool: "search", args: map[string]any{"query": 7}, want: fixArg("", "query")},
		{name: "missing", tool: "search", args: map[string]any{}, want: fixArg("", "query")},
		{name: "undeclared", tool: "search", args: map[string]any{"query": "go", "extra": 1}, want: fixArg("", "extra")},
		{name: "typed handler's Go error, an isError text", tool: "search", args: map[string]any{"query": "fail"}, want: unknown},
		{name: "raw handler's Go error, JSON-RPC code 0", tool: "sync", args: map[string]any{}, want: serverError},
		{name: "unknown tool", tool: "serch", args: map[string]any{}, want: fixArg("serch")},
		{name: "prose carrying a 429", tool: "quota", args: map[string]any{}, want: rateLimited},
		{name: "the client's own timeout", tool: "slow", args: map[string]any{}, want: timedOut, timeout: 300 * time.Millisecond},
	}
	mcpgoCases := []callCase{
		{name: "success", tool: "search", args: map[string]any{"query": "go"}},
		{name: "wrong type", tool: "search", args: map[string]any{"query": 7}, want: fixArg("", "query")},
		{name: "missing", tool: "search", args: map[string]any{}, want: fixArg("", "query")},
		{name: "handler's Go error, -32603", tool: "search", args: map[string]any{"query": "fail"}, want: serverError},
		{name: "unknown tool", tool: "serch", args: map[string]any{}, want: fixArg("serch")},
		{name: "RequireString's required argument", tool: "get", args: map[string]any{}, want: fixArg("", "id")},
		{name: "prose carrying a 429, -32603", tool: "quota", args: map[string]any{}, want: rateLimited},
		{name: "the client's own timeout", tool: "slow", args: map[string]any{}, want: timedOut, timeout: 300 * time.Millisecond},
	}
	goHTTP := httptest.NewServer(goPlainHTTP())
	t.Cleanup(goHTTP.Close)
	mcpgoHTTP := httptest.NewServer(mcpgoserver.NewStreamableHTTPServer(mcpgoPlain()))
	t.Cleanup(mcpgoHTTP.Close)
	servers := []struct {
		name  string
		url   string
		cases []callCase
	}{
		{"go-sdk server over HTTP", goHTTP.URL, goCases},
		{"go-sdk server over stdio", selfStdio("go-sdk"), goCases},
		{"mcp-go server over HTTP", mcpgoHTTP.URL, mcpgoCases},
		{"mcp-go server over stdio", selfStdio("mcp-go"), mcpgoCases},
	}
	cls := clients(t)
	for _, srv := range servers {
		for _, cl := range cls {
			t.Run(srv.name+"/"+cl.name, func(t *testing.T) {
				call := cl.connect(t, srv.url)
				for _, c := range srv.cases {
					if d := cmp.Diff(c.want, c.want.of(call(t, c.tool, c.args, c.timeout)), cmpopts.EquateEmpty()); d != "" {
						t.Errorf("%s: %s %v (-want +got)\n%s", c.name, c.tool, c.args, d)
					}
				}
			})
		}
	}
}

// TestTypeScriptServers: with MCPERR_NODE=1, every client reads the
// answers of a plain server on the TypeScript SDK 1.x and 2.x
// (testdata/tsserver.mjs), over Streamable HTTP and over stdio: zod's
// refusals name the tool and the argument, an unknown tool is
// fix_argument, a handler's prose carrying its upstream's 429 is
// rate_limited, the client's own timeout is network_error.
func TestTypeScriptServers(t *testing.T) {
	ins := tsInstalls(t)
	if len(ins) == 0 {
		t.Skip("no TypeScript SDK (MCPERR_NODE=1 and its packages): the TypeScript servers are left out")
	}
	cases := []callCase{
		{name: "success", tool: "search", args: map[string]any{"query": "go mcp"}},
		{name: "wrong type", tool: "search", args: map[string]any{"query": 7}, want: fixArg("search", "query")},
		{name: "missing", tool: "search", args: map[string]any{}, want: fixArg("search", "query")},
		{name: "too short", tool: "search", args: map[string]any{"query": "go"}, want: fixArg("search", "query")},
		{name: "unknown tool", tool: "serch", args: map[string]any{}, want: fixArg("serch")},
		{name: "prose carrying a 429", tool: "quota", args: map[string]any{}, want: rateLimited},
		{name: "the client's own timeout", tool: "slow", args: map[string]any{}, want: timedOut, timeout: 300 * time.Millisecond},
	}
	cls := clients(t)
	for _, srv := range ins {
		script := filepath.Join("testdata", "tsserver.mjs")
		for _, mode := range []string{"http", "stdio"} {
			url := stdioURL(exec.Command(srv.node, script, srv.major, srv.modules, "stdio"))
			if mode == "http" {
				url = tsHTTP(t, exec.Command(srv.node, script, srv.major, srv.modules, "http"))
			}
			for _, cl := range cls {
				t.Run("TypeScript "+srv.major+".x server over "+mode+"/"+cl.name, func(t *testing.T) {
					call := cl.connect(t, url)
					for _, c := range cases {
						if d := cmp.Diff(c.want, c.want.of(call(t, c.tool, c.args, c.timeout)), cmpopts.EquateEmpty()); d != "" {
							t.Errorf("%s: %s %v (-want +got)\n%s", c.name, c.tool, c.args, d)
						}
					}
				})
			}
		}
	}
}

// tsHTTP starts a TypeScript server on HTTP and returns the URL it prints
// first; the server ends with the test.
func tsHTTP(t *testing.T, cmd *exec.Cmd) string {
	t.Helper()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("the TypeScript server printed no URL (%v)\n%s", err, stderr.Bytes())
	}
	return strings.TrimSpace(line)
}

// serveEnv names the plain server this test binary serves on stdio when it
// is started as one (see TestMain).
const serveEnv = "MCPERR_READING_SERVE"

// stdioURL is the target of a client that starts cmd and speaks to it
// over stdio: "stdio:" and the command as JSON.
func stdioURL(cmd *exec.Cmd) string {
	js, err := json.Marshal(map[string]any{"command": cmd.Path, "args": cmd.Args[1:], "env": cmd.Env})
	if err != nil {
		panic(err)
	}
	return "stdio:" + string(js)
}

// selfStdio is the stdio target of this test binary serving the plain
// server name (see TestMain).
func selfStdio(name string) string {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), serveEnv+"="+name)
	return stdioURL(cmd)
}

// stdioCommand is the command of a stdioURL.
func stdioCommand(url string) (*exec.Cmd, bool) {
	js, ok := strings.CutPrefix(url, "stdio:")
	if !ok {
		return nil, false
	}
	var c struct {
		Command string   `json:"command"`
		Args    []string `json:"args"`
		Env     []string `json:"env"`
	}
	if err := json.Unmarshal([]byte(js), &c); err != nil {
		panic(err)
	}
	cmd := exec.Command(c.Command, c.Args...)
	cmd.Env = c.Env
	return cmd, true
}

// TestMain serves a plain server on stdio when serveEnv names one, so that
// the clients can drive it as a separate process; otherwise it runs the
// tests.
func TestMain(m *testing.M) {
	switch os.Getenv(serveEnv) {
	case "":
		os.Exit(m.Run())
	case "go-sdk":
		if err := goPlain().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			os.Exit(1)
		}
	case "mcp-go":
		if err := mcpgoserver.ServeStdio(mcpgoPlain()); err != nil {
			os.Exit(1)
		}
	}
	os.Exit(0)
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
	s.AddReceivingMiddleware(gosdk.Validate(&gosdk.Options{Validation: gosdk.Validation{Dialect: d}}))
	return gosdk.HTTPHandler(s, ho)
}

// mcpgoServer is mcperr's mcp-go adapter in the given dialect.
func mcpgoServer(d mcpgo.Dialect, ho *mcpgo.HTTPOptions) http.Handler {
	s := mcpgoserver.NewMCPServer("mcpgo", "1")
	s.AddTool(mcpgomcp.NewTool("get_trace", mcpgomcp.WithInputSchema[TraceIn]()), mcpgo.Handle(func(ctx context.Context, _ mcpgomcp.CallToolRequest, in TraceIn) (map[string]any, error) {
		return getTrace(in.ID)
	}))
	v := mcpgo.Validate(s, &mcpgo.Options{Validation: mcpgo.Validation{Dialect: d}})
	if ho == nil {
		ho = &mcpgo.HTTPOptions{}
	}
	ho.Validator = v
	return mcpgo.HTTPHandler(s, ho)
}

// adapterCases are the failures of the adapters' server; tool is the tool
// name a dialect's refusals of arguments carry ("" for the hint dialect's,
// whose data.code says what is wrong and whose message names the
// argument), args the arguments they name.
func adapterCases(tool string, args ...string) []callCase {
	unknownTool := fixArg("get_tracee")
	return []callCase{
		{name: "success", tool: "get_trace", args: map[string]any{"id": "abc"}},
		{name: "wrong type", tool: "get_trace", args: map[string]any{"id": 7}, want: fixArg(tool, args...)},
		{name: "unknown tool", tool: "get_tracee", args: map[string]any{}, want: unknownTool},
		{name: "not found upstream", tool: "get_trace", args: map[string]any{"id": "gone"}, want: want{Kind: errkind.NotFound, Move: errkind.TryAnotherID}},
		{name: "unavailable upstream", tool: "get_trace", args: map[string]any{"id": "busy"}, want: want{Kind: errkind.Unavailable, Move: errkind.WaitThenRetry}},
		{name: "credential refused upstream", tool: "get_trace", args: map[string]any{"id": "revoked"}, want: want{Kind: errkind.AuthenticationFailed, Move: errkind.Stop}},
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
		{"gosdk, TypeScriptV2", gosdkServer(gosdk.TypeScriptV2, nil), adapterCases("get_trace", "id")},
		{"gosdk, Hint", gosdkServer(gosdk.Hint, nil), adapterCases("", "id")},
		{"mcpgo, TypeScript", mcpgoServer(mcpgo.TypeScript, nil), adapterCases("get_trace", "id")},
		{"mcpgo, TypeScriptV2", mcpgoServer(mcpgo.TypeScriptV2, nil), adapterCases("get_trace", "id")},
		{"mcpgo, Hint", mcpgoServer(mcpgo.Hint, nil), adapterCases("", "id")},
	}
	cls := clients(t)
	for _, srv := range servers {
		ts := httptest.NewServer(srv.handler)
		t.Cleanup(ts.Close)
		for _, cl := range cls {
			t.Run(srv.name+"/"+cl.name, func(t *testing.T) {
				call := cl.connect(t, ts.URL+"/mcp")
				for _, c := range srv.cases {
					r := call(t, c.tool, c.args, c.timeout)
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
		gosdk  gosdk.Unit
		mcpgo  mcpgo.Unit
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
						r := call(t, "get_trace", map[string]any{"id": "abc"}, 0)
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

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The hostile servers of issue 31 (item 8): each bounds the audit in time or
// memory, and the audit says what it met.

// forkerServer is the go-sdk server, which first forks a child into a
// session of its own that keeps the server's stdout and stderr open for 40
// seconds; its pid goes to $MCPERR_AUDIT_PIDFILE.
func forkerServer() error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	child := exec.Command(exe)
	child.Env = append(os.Environ(), "MCPERR_AUDIT_SERVER=sleeper")
	child.Stdout, child.Stderr = os.Stdout, os.Stderr
	child.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := child.Start(); err != nil {
		return err
	}
	if f := os.Getenv("MCPERR_AUDIT_PIDFILE"); f != "" {
		fh, err := os.OpenFile(f, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o600)
		if err == nil {
			fmt.Fprintln(fh, child.Process.Pid)
			fh.Close()
		}
	}
	return goSDKServer().Run(context.Background(), &mcp.StdioTransport{})
}

// A server whose forked child keeps stdout open does not hold the audit
// for the child's lifetime (40 s a session): the process's pipes are
// given WaitDelay after it exits. Fails without WaitDelay: each session's
// close waits for the child.
func TestHostileForkedChild(t *testing.T) {
	if testing.Short() {
		t.Skip("starts servers whose children live 40 s")
	}
	pids := t.TempDir() + "/pids"
	t.Cleanup(func() {
		b, _ := os.ReadFile(pids)
		for _, f := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	argv := []string{"env", "MCPERR_AUDIT_PIDFILE=" + pids}
	argv = append(argv, testServer(t, "forker")...)
	start := time.Now()
	code, _, stderr := audit(t, append([]string{"-json", "-timeout", "3s", "-tools", "lookup", "--"}, argv...)...)
	if code != 0 {
		t.Fatalf("exit status %d: %s", code, stderr)
	}
	// The audit opens 6 sessions. Without WaitDelay each close waits 2 s
	// for the process, kills it and gives up on it 5 s later: 42 s at
	// least, whatever the machine. With it, a close takes about 2 s, and
	// the rest is work a loaded machine slows: 16 s alone, 23 s under
	// -race, 35 s under -race beside other tests (the bound was 35 s).
	if d := time.Since(start); d > 41*time.Second {
		t.Errorf("the audit took %s: a child holding stdout held it", d.Round(time.Second))
	}
}

// cursorLoopServer answers tools/list with 50 tools a page and always a
// new nextCursor: a listing that never ends.
//
// With oldShape, it lists one tool instead, and answers a call whose
// arguments its schema refuses in the old shape {"toolResult":{...}}, not a
// CallToolResult.
func cursorLoopServer(in io.Reader, out io.Writer, oldShape bool) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	w := bufio.NewWriter(out)
	for sc.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Cursor          string `json:"cursor"`
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"params"`
		}
		if json.Unmarshal(sc.Bytes(), &req) != nil || req.ID == nil {
			continue
		}
		var result any
		switch m := req.Method; {
		case m == "initialize":
			result = map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{"tools": map[string]any{}}, "serverInfo": map[string]any{"name": "cursor-loop", "version": "1"}}
		case m == "tools/list" && oldShape:
			result = map[string]any{"tools": []any{map[string]any{"name": "get", "inputSchema": map[string]any{"type": "object", "properties": map[string]any{"q": map[string]any{"type": "string"}}, "required": []string{"q"}}}}}
		case m == "tools/call" && oldShape:
			var call struct {
				Params struct {
					Arguments map[string]any `json:"arguments"`
				} `json:"params"`
			}
			json.Unmarshal(sc.Bytes(), &call)
			if _, ok := call.Params.Arguments["q"].(string); ok {
				result = map[string]any{"content": []any{map[string]any{"type": "text", "text": "ok"}}}
			} else {
				result = map[string]any{"toolResult": map[string]any{"ok": true}}
			}
		case m == "tools/list":
			page, _ := strconv.Atoi(strings.TrimPrefix(req.Params.Cursor, "p"))
			var tools []any
			for i := range 50 {
				tools = append(tools, map[string]any{"name": fmt.Sprintf("t%d_%d", page, i), "description": strings.Repeat("x", 1000), "inputSchema": map[string]any{"type": "object"}})
			}
			result = map[string]any{"tools": tools, "nextCursor": fmt.Sprintf("p%d", page+1)}
		case m == "ping":
			result = map[string]any{}
		default:
			b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32601, "message": "Method not found"}})
			w.Write(append(b, '\n'))
			w.Flush()
			continue
		}
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
		w.Write(append(b, '\n'))
		w.Flush()
	}
	return sc.Err()
}

// A nextCursor loop is listed to a bound (pages, tools), and the report
// says so. Fails on a listing bounded only at 1,000 pages: the audit gave
// up with exit status 2 after 50,000 tools.
func TestHostileCursorLoop(t *testing.T) {
	r := auditJSON(t, append([]string{"--"}, testServer(t, "cursorloop")...)...)
	if r.Tools != maxTools {
		t.Errorf("%d tools listed, want the bound %d", r.Tools, maxTools)
	}
	if !slices.ContainsFunc(r.Findings, func(f string) bool { return strings.Contains(f, "tools/list") }) {
		t.Errorf("findings %q do not say where the listing stopped", r.Findings)
	}
}

// hugeBody is the size of the body the hostile HTTP server sends.
const hugeBody = 3 << 30

// A 3 GiB answer is read to a bound, and the check says what it met; the
// server writes no more than the client reads. Fails on a body read whole
// (6.7 GiB of memory, the server writing all 3 GiB).
func TestHostileHugeBody(t *testing.T) {
	var written atomic.Int64
	sdk := goSDKHandler()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 10<<20))
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(body, &req) == nil && req.Method == "tools/call" {
			w.Header().Set("Content-Type", "application/json")
			n, _ := fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"`, req.ID)
			written.Add(int64(n))
			chunk := []byte(strings.Repeat("a", 1<<20))
			for written.Load() < hugeBody {
				n, err := w.Write(chunk)
				written.Add(int64(n))
				if err != nil {
					return
				}
			}
			return
		}
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		sdk.ServeHTTP(w, r)
	})
	r := auditJSON(t, "-tools", "echo", "-timeout", "10s", listen(t, h))
	if n := written.Load(); n > 512<<20 {
		t.Errorf("the server wrote %d MiB: the audit read on past its bound", n>>20)
	}
	if !slices.ContainsFunc(r.Findings, func(f string) bool { return strings.Contains(f, "larger than") }) {
		t.Errorf("findings %q do not say a body was too large", r.Findings)
	}
}

// Probe generation is linear in a schema's properties: 8,000 required
// properties take about a second of CPU (half of it compiling the schema),
// not minutes; the bound allows for a busy machine. Fails on generation
// that copies the arguments for every mistake of every property (74 s).
func TestHostileManyProperties(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	var req []string
	for i := range 8000 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"p%d":{"type":"string","maxLength":8}`, i)
		req = append(req, strconv.Quote(fmt.Sprintf("p%d", i)))
	}
	b.WriteString(`},"required":[` + strings.Join(req, ",") + `]}`)
	done := make(chan error, 1)
	var n int
	start := time.Now()
	go func() {
		p, err := argProbes("t", []byte(b.String()))
		if err == nil {
			n = len(p.probes)
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second * raceSlowdown):
		t.Fatal("argProbes ran past 30s on 8,000 properties")
	}
	if d := time.Since(start); d > 15*time.Second*raceSlowdown {
		t.Errorf("argProbes took %s on 8,000 properties, want under %s", d, 15*time.Second*raceSlowdown)
	}
	if n == 0 || n > maxProbes {
		t.Errorf("%d probes, want 1 to %d", n, maxProbes)
	}
}

// fetcherServer is a go-sdk server whose tools call an upstream through
// the proxy its environment names: search answers a failure as its author
// would, an isError result with the Go error's text (which names the key it
// was given); vague answers "search failed" whatever happened; slow's
// client has no timeout.
func fetcherServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "fetcher", Version: "1.0.0"}, nil)
	type in struct {
		Q string `json:"q"`
	}
	tool := func(name string, c *http.Client, vague bool) {
		mcp.AddTool(s, &mcp.Tool{Name: name, Description: "Search upstream"},
			func(ctx context.Context, _ *mcp.CallToolRequest, args in) (*mcp.CallToolResult, any, error) {
				fail := func(text string) (*mcp.CallToolResult, any, error) {
					if vague {
						text = "search failed"
					}
					return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
				}
				resp, err := c.Get("http://upstream.example/search?q=" + args.Q + "&key=" + os.Getenv("FETCHER_API_KEY"))
				if err != nil {
					return fail(err.Error())
				}
				defer resp.Body.Close()
				if resp.StatusCode >= 300 {
					return fail(fmt.Sprintf(`{"kind":"unavailable","message":"upstream answered %d"}`, resp.StatusCode))
				}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
			})
	}
	tool("search", &http.Client{Timeout: 2 * time.Second}, false)
	tool("slow", &http.Client{}, false)
	tool("vague", &http.Client{Timeout: 2 * time.Second}, true)
	return s
}

// With -faults, each tool runs once per fault of its upstream (refused,
// reset, timed out) through the audit's proxy; a failure the agent cannot
// read, and an answer that echoes a secret of the server's environment, are
// found.
func TestFaults(t *testing.T) {
	t.Setenv("FETCHER_API_KEY", "sk-test-audit-0123456789")
	r := auditJSON(t, append([]string{"-faults", "-timeout", "5s", "--"}, testServer(t, "fetcher")...)...)
	faults := checksOf(r, func(c check) bool { return c.group == groupFaults || strings.HasPrefix(c.Probe, "upstream ") })
	var got []string
	for _, c := range faults {
		got = append(got, fmt.Sprintf("%s %s ok=%v", c.Tool, c.Probe, c.OK))
	}
	want := []string{
		"search upstream refused ok=true", "search upstream reset ok=true", "search upstream timed out ok=true",
		"slow upstream refused ok=true", "slow upstream reset ok=true", "slow upstream timed out ok=false",
		"vague upstream refused ok=false", "vague upstream reset ok=false", "vague upstream timed out ok=false",
	}
	if !slices.Equal(got, want) {
		t.Errorf("fault checks %q, want %q", got, want)
	}
	if !slices.ContainsFunc(r.Findings, func(f string) bool { return strings.Contains(f, "FETCHER_API_KEY") }) {
		t.Errorf("findings %q do not say the key was echoed", r.Findings)
	}
	for _, f := range r.Findings {
		if strings.Contains(f, "sk-test-audit") {
			t.Errorf("a finding writes the secret: %s", f)
		}
	}
}

// A result that is not a CallToolResult ({"toolResult":{...}}, no content)
// is its own verdict and finding, read from the server's own bytes.
func TestMalformedResult(t *testing.T) {
	r := auditJSON(t, append([]string{"--"}, testServer(t, "oldshape")...)...)
	got := checksOf(r, func(c check) bool { return c.Tool == "get" })
	if len(got) == 0 {
		t.Fatal("no checks of get")
	}
	for _, c := range got {
		if c.Verdict != verdictMalformed || c.OK || !strings.Contains(c.Raw, "toolResult") {
			t.Errorf("%s: verdict %q, raw %q; want malformed_result from the server's bytes", c.Probe, c.Verdict, c.Raw)
		}
	}
	if !slices.ContainsFunc(r.Findings, func(f string) bool { return strings.Contains(f, "not a valid CallToolResult") }) {
		t.Errorf("findings %q do not name the malformed results", r.Findings)
	}
}

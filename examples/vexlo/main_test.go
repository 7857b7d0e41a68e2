package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/examples/internal/proc"
	"github.com/mcperr/mcperr/examples/vexlo/demoapi"
)

var update = flag.Bool("update", false, "rewrite the golden transcripts in testdata")

// binary is the vexlo command, built once by TestMain.
var binary string

func TestMain(m *testing.M) { proc.Main(m, ".", "vexlo", &binary) }

const (
	initialize06 = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"probe","version":"0"}}}`
	initialize11 = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"probe","version":"0"}}}`
	initialized  = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	seedTrace    = demoapi.SampleTraceID
	// secret is the token of the upstreams these tests start; it must
	// appear in no output.
	secret = "vxl_test_secret_never_printed"
)

// call is a tools/call line.
func call(id int, tool, args string) string {
	if args == "" {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q}}`, id, tool)
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, tool, args)
}

// upstream serves h and counts its requests.
type upstream struct {
	*httptest.Server
	hits atomic.Int64
}

func serve(t *testing.T, h http.Handler) *upstream {
	t.Helper()
	u := &upstream{}
	u.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u.hits.Add(1)
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(u.Close)
	return u
}

// demo serves a demo API whose read token is secret.
func demo(t *testing.T) (*demoapi.API, *upstream) {
	t.Helper()
	frozen := time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)
	api := demoapi.New(func() time.Time { return frozen })
	api.AddTokenSecret(secret, demoapi.RoleRead, "web", "billing")
	return api, serve(t, api)
}

// result is one run of the binary.
type result struct {
	stdout, stderr string
	code           int
}

// run runs the binary with env and stdin lines, to completion.
func runBin(t *testing.T, env []string, stdin []string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Env = append(os.Environ()[:0:0], env...)
	cmd.Stdin = strings.NewReader(strings.Join(stdin, "\n") + "\n")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := result{stdout: out.String(), stderr: errb.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running vexlo: %v", err)
	}
	if strings.Contains(r.stdout+r.stderr, secret) {
		t.Errorf("the token appears in the output:\nstdout: %s\nstderr: %s", r.stdout, r.stderr)
	}
	if strings.Contains(r.stderr, "panic") || strings.Contains(r.stderr, "goroutine ") {
		t.Errorf("vexlo crashed: %s", r.stderr)
	}
	return r
}

func env(u *upstream, more ...string) []string {
	return append([]string{"VEXLO_URL=" + u.URL, "VEXLO_TOKEN=" + secret}, more...)
}

// byID parses output lines and returns them sorted by id (answers to
// concurrent calls may come in any order), as raw lines.
func byID(t *testing.T, stdout string) []string {
	t.Helper()
	lines := strings.Split(strings.TrimRight(stdout, "\n"), "\n")
	key := func(l string) string {
		var m struct {
			ID json.RawMessage `json:"id"`
		}
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("output line is not JSON: %q", l)
		}
		return fmt.Sprintf("%8s", m.ID)
	}
	slices.SortStableFunc(lines, func(a, b string) int { return strings.Compare(key(a), key(b)) })
	return lines
}

// golden compares got with testdata/name.golden, or rewrites it.
func golden(t *testing.T, name string, lines []string) {
	t.Helper()
	proc.Golden(t, filepath.Join("testdata", name+".golden"), strings.Join(lines, "\n")+"\n", *update)
}

// TestSeedTranscript replays seed 000's printf transcript over real pipes.
func TestSeedTranscript(t *testing.T) {
	_, u := demo(t)
	r := runBin(t, env(u), []string{initialize06, initialized,
		call(2, "vexlo_get_values", `{"traceId":"0f1a2b3c4d5e6f708192a3b4c5d6e7f8","path":["","AA","AB","AC","AD","AE","AF","AG","AH"]}`)})
	lines := byID(t, r.stdout)
	// The seed's two lines, compared as JSON: member order is the SDK's.
	seed := []string{
		`{"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"vexlo-mcp","version":"0.1.0"}},"jsonrpc":"2.0","id":1}`,
		`{"result":{"content":[{"type":"text","text":"MCP error -32602: Input validation error: Invalid arguments for tool vexlo_get_values: Too big: expected array to have <=8 items at path"}],"isError":true},"jsonrpc":"2.0","id":2}`,
	}
	if len(lines) != len(seed) {
		t.Fatalf("got %d lines, want %d:\n%s", len(lines), len(seed), r.stdout)
	}
	for i := range seed {
		var want, got any
		json.Unmarshal([]byte(seed[i]), &want)
		json.Unmarshal([]byte(lines[i]), &got)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("line %d (-want +got):\n%s", i+1, diff)
		}
	}
	if !strings.Contains(r.stdout, "Too big: expected array to have <=8 items at path") {
		t.Errorf("the rejection is not written as the seed writes it:\n%s", r.stdout)
	}
	if r.code != 0 || r.stderr != "" || u.hits.Load() != 1 { // the startup check only
		t.Errorf("exit %d, stderr %q, upstream hits %d", r.code, r.stderr, u.hits.Load())
	}
	golden(t, "seed", lines)
}

// TestTranscripts are golden transcripts of every failure the demo API can
// produce through the binary, and the schema endings of seed 000's table.
func TestTranscripts(t *testing.T) {
	ids := `"` + strings.Repeat(seedTrace+`","`, 100) + seedTrace + `"`
	tests := []struct {
		name  string
		calls []string
		setup func(*demoapi.API)
	}{
		{"schema", []string{
			call(2, "vexlo_search_traces", `{"limit":101}`),
			call(3, "vexlo_check_trace_status", `{"traceIds":[`+ids+`]}`),
			call(4, "vexlo_find_related_traces", `{"traceId":"`+seedTrace+`","windowHours":169}`),
			call(5, "vexlo_get_function_examples", `{"service":"checkout","name":"handleCheckout","limit":6}`),
			call(6, "vexlo_search_traces", `{"teams":["web"]}`),
			call(7, "vexlo_check_trace_status", `{"traceIds":["`+seedTrace+`"],"team":"web"}`),
			call(8, "vexlo_get_function", `{"service":"checkout","name":"handleCheckout","environment":"prod"}`),
			call(9, "vexlo_get_function", `{"service":"checkout","name":"handleCheckout","environment":{"named":["prod"],"unset":true}}`),
			call(10, "vexlo_nope", `{}`),
		}, nil},
		{"kinds", []string{
			call(2, "vexlo_get_trace", `{"traceId":"deadbeefdeadbeefdeadbeefdeadbeef"}`),
			call(3, "vexlo_get_trace", `{"traceId":"0f1a2b3c4d5e6f"}`),
			call(4, "vexlo_get_values", `{"traceId":"`+seedTrace+`","path":["!!not-base32!!"]}`),
			call(5, "vexlo_get_values", `{"traceId":"`+seedTrace+`","path":["AA","AE"]}`),
			call(6, "vexlo_get_trace", `{"traceId":"`+demoapi.BrokenTraceID+`"}`),
			call(7, "vexlo_search_traces", `{"cursor":"zzz"}`),
			call(8, "vexlo_get_function", `{"service":"checkout","name":"nope"}`),
			call(9, "vexlo_check_health", ``),
		}, func(a *demoapi.API) { a.SetDiskPressure(true) }},
		{"tools", []string{
			`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
			call(3, "vexlo_get_trace", `{"traceId":"`+seedTrace+`"}`),
			call(4, "vexlo_check_coverage", ``),
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api, u := demo(t)
			if tt.setup != nil {
				tt.setup(api)
			}
			r := runBin(t, env(u), append([]string{initialize11, initialized}, tt.calls...))
			if r.code != 0 || r.stderr != "" {
				t.Errorf("exit %d, stderr %q", r.code, r.stderr)
			}
			golden(t, tt.name, byID(t, r.stdout))
		})
	}
}

func TestStartupFailures(t *testing.T) {
	api, u := demo(t)
	write := api.AddToken(demoapi.RoleWrite, "web")
	revoked := api.AddToken(demoapi.RoleRead, "web")
	api.Revoke(revoked.ID)
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	refused := "http://" + ln.Addr().String()
	ln.Close()
	tests := []struct {
		name   string
		env    []string
		code   int
		stderr string // exactly, or a prefix ending in ": "
	}{
		{"write role", []string{"VEXLO_URL=" + u.URL, "VEXLO_TOKEN=" + write.Secret}, 1,
			"vexlo-mcp: token role \"write\" is not allowed; use a read token\n"},
		{"401 unknown", []string{"VEXLO_URL=" + u.URL, "VEXLO_TOKEN=" + secret + "x"}, 1,
			"vexlo-mcp: token rejected by the Vexlo API: unknown token\n"},
		{"401 revoked", []string{"VEXLO_URL=" + u.URL, "VEXLO_TOKEN=" + revoked.Secret}, 1,
			"vexlo-mcp: token rejected by the Vexlo API: token revoked\n"},
		{"unreachable", []string{"VEXLO_URL=" + refused, "VEXLO_TOKEN=" + secret}, 1,
			"vexlo-mcp: cannot reach the Vexlo API at " + refused + ": "},
		{"no URL", []string{"VEXLO_TOKEN=" + secret}, 2, "vexlo-mcp: VEXLO_URL is not set (or run with -demo)\n"},
		{"bad timeout", []string{"VEXLO_URL=" + u.URL, "VEXLO_TIMEOUT=soon"}, 2,
			"vexlo-mcp: VEXLO_TIMEOUT \"soon\" is not a positive Go duration such as 10s\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			begin := time.Now()
			r := runBin(t, tt.env, []string{initialize11, initialized, call(2, "vexlo_list_services", "")})
			if r.code != tt.code || r.stdout != "" {
				t.Errorf("exit %d, stdout %q; want exit %d and nothing", r.code, r.stdout, tt.code)
			}
			if strings.Count(r.stderr, "\n") != 1 || !strings.HasPrefix(r.stderr, tt.stderr) ||
				!strings.HasSuffix(tt.stderr, ": ") && r.stderr != tt.stderr {
				t.Errorf("stderr %q, want %q", r.stderr, tt.stderr)
			}
			if d := time.Since(begin); d > 15*time.Second { // "at once": well before the 30 s deadline
				t.Errorf("took %v to refuse", d)
			}
		})
	}
}

// session is a running binary driven one line at a time.
type session struct{ *proc.Session }

func startSession(t *testing.T, env []string, args ...string) *session {
	t.Helper()
	s := &session{}
	// Registered before proc.Start, so it runs once the process has exited.
	t.Cleanup(func() {
		if s.Session == nil {
			return // Start failed
		}
		if strings.Contains(s.Stdout()+s.Stderr(), secret) {
			t.Errorf("the token appears in the output")
		}
		if o := s.Others(); len(o) > 0 {
			t.Errorf("lines that answer no request: %q", o)
		}
	})
	cmd := exec.Command(binary, args...)
	cmd.Env = env
	s.Session = proc.Start(t, cmd)
	s.ExitTimeout = 10 * time.Second
	return s
}

// send writes a line and, for a request, returns the answer's text.
func (s *session) send(line string) string {
	got := s.Send(line)
	var m struct {
		Result struct {
			Content []struct{ Text string }
		}
	}
	json.Unmarshal([]byte(got), &m)
	if len(m.Result.Content) == 1 {
		return m.Result.Content[0].Text
	}
	return got
}

func TestRevokedMidSession(t *testing.T) {
	api, u := demo(t)
	s := startSession(t, env(u))
	s.send(initialize11)
	s.send(initialized)
	if got := s.send(call(2, "vexlo_list_tags", "")); got != `{"tags":["beta","eu","mobile"]}` {
		t.Fatalf("before revocation: %s", got)
	}
	api.Revoke(secret)
	got := s.send(call(3, "vexlo_list_tags", ""))
	if diff := cmp.Diff(`{"kind":"authentication_failed","message":"token revoked"}`, got); diff != "" {
		t.Errorf("after revocation (-want +got):\n%s", diff)
	}
}

func TestNoAuthMode(t *testing.T) {
	api, u := demo(t)
	api.NoAuth = true
	s := startSession(t, []string{"VEXLO_URL=" + u.URL})
	s.send(initialize11)
	s.send(initialized)
	if n := u.hits.Load(); n != 0 {
		t.Errorf("no-auth startup called the API %d times", n)
	}
	for i := range 2*demoapi.DefaultReadLimit + 5 {
		if got := s.send(call(2+i, "vexlo_list_tags", "")); !strings.HasPrefix(got, `{"tags":`) {
			t.Fatalf("call %d: %s", i+1, got)
		}
	}

	// No-auth against an API that is not there: the server starts, and each
	// call is a network_error.
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	refused := "http://" + ln.Addr().String()
	ln.Close()
	r := runBin(t, []string{"VEXLO_URL=" + refused}, []string{initialize11, initialized, call(2, "vexlo_list_tags", "")})
	lines := byID(t, r.stdout)
	if r.code != 0 || len(lines) != 2 || !strings.Contains(lines[1], `{\"kind\":\"network_error\",\"message\":\"`) {
		t.Errorf("exit %d, stdout %s", r.code, r.stdout)
	}
}

func TestRetryOnceReal(t *testing.T) {
	var n atomic.Int64
	u := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/tokens/self" {
			fmt.Fprint(w, `{"id":"tok_1","role":"read","teams":["web"]}`)
			return
		}
		if n.Add(1) == 1 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(429)
			fmt.Fprint(w, `{"error":{"code":"rate_limited","message":"slow down"}}`)
			return
		}
		fmt.Fprint(w, `{"tags":["beta"]}`)
	}))
	begin := time.Now()
	r := runBin(t, env(u), []string{initialize11, initialized, call(2, "vexlo_list_tags", "")})
	if !strings.Contains(r.stdout, `"text":"{\"tags\":[\"beta\"]}"`) {
		t.Errorf("stdout %s", r.stdout)
	}
	if d := time.Since(begin); n.Load() != 2 || d < time.Second {
		t.Errorf("tags saw %d requests in %v; want 2, after a 1 s wait", n.Load(), d)
	}
}

// TestBadUpstream: an upstream that hangs, sends 50 MiB, closes mid-body,
// or is not JSON. The server answers each call and keeps running.
func TestBadUpstream(t *testing.T) {
	u := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/tokens/self":
			fmt.Fprint(w, `{"id":"tok_1","role":"read","teams":["web"]}`)
		case "/v1/tags": // 50 MiB
			chunk := bytes.Repeat([]byte("x"), 1<<20)
			fmt.Fprint(w, `{"tags":["`)
			for range 50 {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
			fmt.Fprint(w, `"]}`)
		case "/v1/services": // closes mid-body
			w.Header().Set("Content-Length", "100")
			fmt.Fprint(w, `{"services":[`)
			w.(http.Flusher).Flush()
			c, _, _ := w.(http.Hijacker).Hijack()
			c.Close()
		case "/v1/coverage": // hangs
			<-r.Context().Done()
		default:
			fmt.Fprint(w, `<html>`+secret+`</html>`)
		}
	}))
	// The hanging upstream runs on a timeout of 2 s, the others on one of
	// 15 s: a 2 s timeout also bounds reading the 50 MiB body up to the
	// Reader's 10 MiB, which on a loaded machine under -race took longer
	// (its answer was "could not read the response body: context deadline
	// exceeded").
	r := runBin(t, env(u, "VEXLO_TIMEOUT=15s"), []string{initialize11, initialized,
		call(2, "vexlo_list_tags", ""), call(3, "vexlo_list_services", ""), call(5, "vexlo_check_health", "")})
	hung := runBin(t, env(u, "VEXLO_TIMEOUT=2s"), []string{initialize11, initialized, call(4, "vexlo_check_coverage", "")})
	lines, hungLines := byID(t, r.stdout), byID(t, hung.stdout)
	if len(lines) != 4 || r.code != 0 || len(hungLines) != 2 || hung.code != 0 {
		t.Fatalf("exit %d, %d lines:\n%s\nthe hanging upstream's run: exit %d, %d lines:\n%s", r.code, len(lines), r.stdout, hung.code, len(hungLines), hung.stdout)
	}
	lines = []string{lines[0], lines[1], lines[2], hungLines[1], lines[3]} // by id, 1 to 5
	want := []string{
		`{\"kind\":\"malformed_response\",\"httpStatus\":200,\"message\":\"response body is larger than`,
		`{\"kind\":\"malformed_response\",\"httpStatus\":200,\"message\":\"could not read the response body (status 200): unexpected EOF\"}`,
		`{\"kind\":\"network_error\",\"message\":\"`,
		`{\"kind\":\"malformed_response\",\"httpStatus\":200,\"message\":\"response body is not valid JSON (status 200)\"}`,
	}
	for i, w := range want {
		if !strings.Contains(lines[i+1], w) {
			t.Errorf("call %d: %s\nwant it to contain %s", i+2, lines[i+1], w)
		}
	}
	if !strings.Contains(lines[3], "deadline exceeded") {
		t.Errorf("hanging upstream: %s", lines[3])
	}
}

// TestGarbageStdin: lines that are not JSON are answered with a parse
// error; the session goes on.
func TestGarbageStdin(t *testing.T) {
	_, u := demo(t)
	r := runBin(t, env(u), []string{"\x00\xff garbage {", initialize11, "}}}}", initialized, "",
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":`, call(3, "vexlo_list_tags", ""), `[1,2`, `"just a string"`})
	lines := byID(t, r.stdout)
	parse := `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`
	if r.code != 0 {
		t.Errorf("exit %d", r.code)
	}
	var got []string
	for _, l := range lines {
		switch {
		case l == parse:
			got = append(got, "parse error")
		case strings.Contains(l, `"id":1,`):
			got = append(got, "initialize")
		case strings.Contains(l, `{\"tags\":`):
			got = append(got, "tags")
		default:
			got = append(got, l)
		}
	}
	slices.Sort(got)
	want := []string{"initialize", "parse error", "parse error", "parse error", "parse error", "tags"}
	// "just a string" is JSON but not a message: the SDK answers or drops it.
	got = slices.DeleteFunc(got, func(s string) bool { return strings.Contains(s, `"error"`) && !strings.Contains(s, "-32700") })
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answers (-want +got):\n%s\nstdout:\n%s", diff, r.stdout)
	}
}

// TestClosedStdout: the client closed its end; the server exits without
// crashing.
func TestClosedStdout(t *testing.T) {
	_, u := demo(t)
	cmd := exec.Command(binary)
	cmd.Env = env(u)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	proc.ClosedStdout(t, cmd, initialize11, initialized, call(2, "vexlo_list_tags", ""))
	if s := stderr.String(); strings.Contains(s, "panic") || strings.Contains(s, secret) {
		t.Errorf("stderr %q", s)
	}
}

// TestSDKClient drives the binary with the go-sdk's own client over its
// real stdio.
func TestSDKClient(t *testing.T) {
	_, u := demo(t)
	cmd := exec.Command(binary)
	cmd.Env = env(u)
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil)
	ctx := context.Background()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if v := cs.InitializeResult().ProtocolVersion; v != "2025-11-25" {
		t.Errorf("negotiated %q", v)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "vexlo_get_trace", Arguments: map[string]any{"traceId": "deadbeefdeadbeefdeadbeefdeadbeef"}})
	if err != nil {
		t.Fatal(err)
	}
	got := res.Content[0].(*mcp.TextContent).Text
	want := `{"kind":"not_found","code":"trace_not_found","message":"no trace with id deadbeefdeadbeefdeadbeefdeadbeef","details":{"trace_id":"deadbeefdeadbeefdeadbeefdeadbeef"}}`
	if diff := cmp.Diff(want, got); diff != "" || !res.IsError {
		t.Errorf("isError %v (-want +got):\n%s", res.IsError, diff)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "vexlo_list_services"})
	if err != nil || res.IsError || res.StructuredContent == nil {
		t.Errorf("list_services: %v %+v", err, res)
	}
}

// TestDemoAddr runs only the embedded API and reads its URL and token.
func TestDemoAddr(t *testing.T) {
	cmd := exec.Command(binary, "-demo-addr", "127.0.0.1:0")
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() }()
	sc := bufio.NewScanner(out)
	vars := map[string]string{}
	for len(vars) < 3 && sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), "=")
		vars[k] = v
	}
	req, _ := http.NewRequest("GET", vars["VEXLO_URL"]+"/v1/tokens/self", nil)
	req.Header.Set("Authorization", "Bearer "+vars["VEXLO_TOKEN"])
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var self struct{ Role string }
	json.NewDecoder(resp.Body).Decode(&self)
	if resp.StatusCode != 200 || self.Role != "read" {
		t.Errorf("tokens/self: %d %+v", resp.StatusCode, self)
	}
}

// TestDemoFlag runs the server against its own embedded API.
func TestDemoFlag(t *testing.T) {
	r := runBin(t, nil, []string{initialize06, initialized, call(2, "vexlo_list_tags", "")}, "-demo")
	if r.code != 0 || !strings.Contains(r.stdout, `{\"tags\":[\"beta\",\"eu\",\"mobile\"]}`) {
		t.Errorf("exit %d, stdout %s, stderr %s", r.code, r.stdout, r.stderr)
	}
}

// hostileLines are the lines issue 13 found to end a stdio session: valid
// JSON the go-sdk's decoder refuses.
var hostileLines = map[string]string{
	"params nested 1,001 deep":               `{"jsonrpc":"2.0","method":"notifications/progress","params":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}`,
	"tools/call arguments nested past 1,000": `{"jsonrpc":"2.0","id":99,"method":"tools/call","params":{"name":"vexlo_list_tags","arguments":{"a":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}}}`,
	"id 1e400":                               `{"jsonrpc":"2.0","id":1e400,"method":"ping"}`,
}

// TestHostileLines: a line beyond what the SDK accepts, piped after ten
// tools/call, is answered with a JSON-RPC error; the ten answers in flight
// and a call after it are all answered, and the process exits 0 (issue 13:
// 4 of 10 were answered and vexlo exited 1 with nothing on stderr).
func TestHostileLines(t *testing.T) {
	for name, bad := range hostileLines {
		t.Run(name, func(t *testing.T) {
			_, u := demo(t) // a bucket of its own
			in := []string{initialize11, initialized}
			want := []string{"1"}
			for id := 10; id < 20; id++ {
				in = append(in, call(id, "vexlo_list_tags", ""))
				want = append(want, strconv.Itoa(id))
			}
			in = append(in, bad, call(20, "vexlo_list_tags", ""))
			want = append(want, "20", "error")
			r := runBin(t, env(u), in)
			var got []string
			for _, l := range strings.Split(strings.TrimRight(r.stdout, "\n"), "\n") {
				var m struct {
					ID    json.RawMessage `json:"id"`
					Error *struct {
						Code int `json:"code"`
					} `json:"error"`
				}
				json.Unmarshal([]byte(l), &m)
				switch {
				case m.Error != nil && m.Error.Code == -32600:
					got = append(got, "error")
				case m.Error != nil:
					got = append(got, "failed: "+l)
				default:
					got = append(got, string(m.ID))
				}
			}
			slices.Sort(want)
			slices.Sort(got)
			if diff := cmp.Diff(want, got); diff != "" || r.code != 0 || r.stderr != "" {
				t.Errorf("exit %d, stderr %q; answers (-want +got):\n%s", r.code, r.stderr, diff)
			}
		})
	}
}

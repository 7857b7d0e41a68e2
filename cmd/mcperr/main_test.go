package main

import (
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
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestMain(m *testing.M) {
	if name := os.Getenv("MCPERR_AUDIT_SERVER"); name != "" {
		serveTestServer(name)
	}
	os.Exit(m.Run())
}

// testServer is the command that runs one of servers_test.go's servers over stdio.
func testServer(t *testing.T, name string) []string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return []string{"env", "MCPERR_AUDIT_SERVER=" + name, exe}
}

var (
	buildOnce sync.Once
	buildDir  string
	buildErr  error
)

// example builds an example server of the repository (vexlo, news,
// vulnetix) once per test run and returns its path.
func example(t *testing.T, name string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the example servers")
	}
	examples, err := filepath.Abs("../../examples")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(examples, "go.mod")); err != nil {
		t.Skip("the repository's examples are not here")
	}
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "mcperr-audit-examples")
		if buildErr != nil {
			return
		}
		cmd := exec.Command("go", "build", "-o", buildDir+"/", "./vexlo", "./news", "./vulnetix")
		cmd.Dir = examples
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = &buildError{err, out}
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return filepath.Join(buildDir, name)
}

type buildError struct {
	err error
	out []byte
}

func (e *buildError) Error() string { return e.err.Error() + ": " + string(e.out) }

// audit runs the command with args and returns its exit status, stdout and stderr.
func audit(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	code := run(ctx, append([]string{"audit"}, args...), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// auditJSON runs the command with -json and decodes the report.
func auditJSON(t *testing.T, args ...string) *report {
	t.Helper()
	code, out, errOut := audit(t, append([]string{"-json", "-timeout", "20s"}, args...)...)
	if code != 0 {
		t.Fatalf("exit status %d; stderr:\n%s", code, errOut)
	}
	var r report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("-json output does not parse: %v\n%s", err, out)
	}
	return &r
}

// listen starts h on a loopback port and returns its /mcp URL.
func listen(t *testing.T, h http.Handler) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

// freeAddr returns a loopback address nobody listens on yet.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// startHTTP runs an example's HTTP server and waits until it answers.
func startHTTP(t *testing.T, argv ...string) {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
}

// waitListening waits until addr accepts connections.
func waitListening(t *testing.T, addr string) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return
		}
	}
	t.Fatalf("nothing listens on %s", addr)
}

// checkFields checks the report's shape: every check carries the fields the
// JSON output promises, and each why is one line.
func checkFields(t *testing.T, r *report) {
	t.Helper()
	answers := map[string]bool{answerToolError: true, answerRPCError: true, answerSuccess: true, answerNone: true, answerSessionEnded: true, answerHTTPError: true}
	for _, c := range r.Checks {
		if !answers[c.Answer] {
			t.Errorf("%s %s: answer %q is not one of the six", c.Tool, c.Probe, c.Answer)
		}
		if c.Why == "" || strings.ContainsAny(c.Why, "\r\n") {
			t.Errorf("%s %s: why %q is not one line", c.Tool, c.Probe, c.Why)
		}
		if c.Probe == "" {
			t.Errorf("a check without a probe: %+v", c)
		}
	}
}

func failing(r *report) []string {
	var out []string
	for _, c := range r.Checks {
		if !c.OK {
			out = append(out, c.Tool+" "+c.Probe+": "+c.Answer+": "+c.Why)
		}
	}
	return out
}

// Vexlo runs on mcperr: every check is ok and the grade is A, within the
// time an audit of ten tools may take.
func TestVexloGradesA(t *testing.T) {
	r := auditJSON(t, "--", example(t, "vexlo"), "-demo")
	checkFields(t, r)
	if r.Grade != "A" || r.Score != 100 {
		t.Errorf("grade %s (%d), want A (100)", r.Grade, r.Score)
	}
	if f := failing(r); len(f) > 0 {
		t.Errorf("checks not ok:\n%s", strings.Join(f, "\n"))
	}
	if r.Tools < 10 || len(r.Checks) < 50 {
		t.Errorf("%d tools, %d checks: the audit did not reach them all", r.Tools, len(r.Checks))
	}
	if r.Seconds >= 10 {
		t.Errorf("the audit of %d tools took %.1fs, want under 10s", r.Tools, r.Seconds)
	}
	if r.Protocol == "" || r.Transport != "stdio" {
		t.Errorf("protocol %q over %q", r.Protocol, r.Transport)
	}
	// The table for people, without the time it took.
	r.Seconds = 0
	var table bytes.Buffer
	writeTable(&table, r)
	golden(t, "vexlo.txt", table.String())
}

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s (-want +got):\n%s", path, diff)
	}
}

// checksOf returns the checks of one probe name ("line not JSON") or of one tool.
func checksOf(r *report, f func(c check) bool) []check {
	var out []check
	for _, c := range r.Checks {
		if f(c) {
			out = append(out, c)
		}
	}
	return out
}

func probe(name string) func(c check) bool { return func(c check) bool { return c.Probe == name } }

// A go-sdk server without mcperr grades lower, and its checks say why: the
// session ends on a line that is not JSON, a raw tool acts on arguments its
// schema forbids, and the SDK's own validation text, which errkind reads as
// invalid_arguments naming the field, is not the TypeScript SDK's text
// agents know, so it loses those points.
func TestGoSDKWithoutMCPErr(t *testing.T) {
	r := auditJSON(t, append([]string{"--"}, testServer(t, "gosdk")...)...)
	checkFields(t, r)
	if r.Grade == "A" || r.Score >= 90 {
		t.Errorf("grade %s (%d), want lower than A", r.Grade, r.Score)
	}
	for _, c := range checksOf(r, probe("line not JSON")) {
		if c.Answer != answerSessionEnded || c.OK {
			t.Errorf("line not JSON: %s, ok %v; want session_ended, not ok", c.Answer, c.OK)
		}
	}
	echo := checksOf(r, func(c check) bool { return c.Tool == "echo" })
	if len(echo) == 0 {
		t.Fatal("no checks of the raw tool echo")
	}
	for _, c := range echo {
		if c.Answer != answerSuccess || c.OK || c.NamesField || !strings.Contains(c.Why, "forbids") {
			t.Errorf("echo %s: %+v; want a forbidden call that succeeded, not ok", c.Probe, c)
		}
	}
	for _, c := range checksOf(r, func(c check) bool { return c.Tool == "lookup" }) {
		if c.Answer != answerToolError || c.KnownText || c.Kind != "invalid_arguments" || c.Points >= 100 {
			t.Errorf("lookup %s: %+v; want an isError result in the go-sdk's own words, read as invalid_arguments, short of full points", c.Probe, c)
		}
	}
	if !slices.ContainsFunc(r.Findings, func(f string) bool { return strings.Contains(f, "session ended") }) {
		t.Errorf("findings %q do not say the session ended", r.Findings)
	}
}

// The same server over the go-sdk's own Streamable HTTP handler: its
// refusals are plain text, without a JSON-RPC body.
func TestGoSDKWithoutMCPErrHTTP(t *testing.T) {
	r := auditJSON(t, listen(t, goSDKHandler()))
	checkFields(t, r)
	if r.Grade == "A" || r.Transport != "streamable-http" {
		t.Errorf("grade %s over %s, want lower than A over streamable-http", r.Grade, r.Transport)
	}
	for _, name := range []string{"wrong Content-Type", "body not JSON"} {
		for _, c := range checksOf(r, probe(name)) {
			if c.Answer != answerHTTPError || c.OK || c.Status < 400 || !strings.Contains(c.Why, "without a JSON-RPC body") {
				t.Errorf("%s: %+v; want an HTTP refusal without a JSON-RPC body, not ok", name, c)
			}
		}
	}
}

// An mcp-go server without mcperr validates nothing: its handlers act on
// arguments the schema forbids.
func TestMCPGoWithoutMCPErr(t *testing.T) {
	for _, tr := range []struct {
		name string
		args func() []string
	}{
		{"stdio", func() []string { return append([]string{"--"}, testServer(t, "mcpgo")...) }},
		{"http", func() []string { return []string{listen(t, mcpGoHandler())} }},
	} {
		t.Run(tr.name, func(t *testing.T) {
			r := auditJSON(t, tr.args()...)
			checkFields(t, r)
			if r.Grade != "F" {
				t.Errorf("grade %s (%d), want F", r.Grade, r.Score)
			}
			order := checksOf(r, func(c check) bool { return c.Tool == "order" })
			if len(order) == 0 {
				t.Fatal("no checks of order")
			}
			for _, c := range order {
				if c.Answer != answerSuccess || c.OK {
					t.Errorf("order %s: %+v; want a forbidden call that succeeded", c.Probe, c)
				}
			}
		})
	}
}

// The news example answers refused arguments in the hint dialect its
// contract asks for: a JSON-RPC -32602 error naming the parameter, which
// errkind reads as fix_argument but many clients keep from the model. Over
// stdio and hosted, every protocol probe is ok.
func TestNews(t *testing.T) {
	news := example(t, "news")
	keys := filepath.Join(t.TempDir(), "keys.json")
	if err := os.WriteFile(keys, []byte(`[{"key":"audit","plan":"pro","monthly_credits":100000,"messages_per_minute":100000,"credits_per_minute":100000,"watch_cap":10}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	addr := freeAddr(t)
	startHTTP(t, news, "-http", addr, "-keys", keys)
	waitListening(t, addr)
	for name, args := range map[string][]string{
		"stdio":  {"--", news},
		"hosted": {"-H", "Authorization: Bearer audit", "http://" + addr + "/mcp"},
	} {
		t.Run(name, func(t *testing.T) {
			r := auditJSON(t, args...)
			checkFields(t, r)
			for _, c := range r.Checks {
				switch {
				case c.group == groupProtocol && !c.OK:
					t.Errorf("%s: not ok: %s", c.Probe, c.Why)
				case c.group == groupArguments && (c.Answer != answerRPCError || !c.NamesField || c.Move != "fix_argument" || c.OK):
					t.Errorf("%s %s: %+v; want a -32602 naming the field, read as fix_argument", c.Tool, c.Probe, c)
				}
			}
		})
	}
}

// A call refused by a rate limit is made once more after the wait it names,
// and graded on the second answer.
func TestRateLimitedCallRetried(t *testing.T) {
	start := time.Now()
	r := auditJSON(t, append([]string{"-tools", "get"}, append([]string{"--"}, testServer(t, "limited")...)...)...)
	got := checksOf(r, func(c check) bool { return c.Tool == "get" })
	if len(got) == 0 {
		t.Fatal("no checks of get")
	}
	for _, c := range got {
		if c.Kind != "invalid_arguments" {
			t.Errorf("%s: read as %s/%s; want the answer after the wait", c.Probe, c.Kind, c.Move)
		}
	}
	if d := time.Since(start); d < time.Second {
		t.Errorf("the audit took %s: it did not wait the second the limit named", d)
	}
}

// Vulnetix over Streamable HTTP grades A with every check ok.
func TestVulnetix(t *testing.T) {
	addr := freeAddr(t)
	startHTTP(t, example(t, "vulnetix"), "-demo", "-addr", addr)
	waitListening(t, addr)
	r := auditJSON(t, "-H", "Authorization: Bearer vdb-demo-pro", "http://"+addr+"/mcp")
	checkFields(t, r)
	if r.Grade != "A" {
		t.Errorf("grade %s (%d), want A", r.Grade, r.Score)
	}
	if f := failing(r); len(f) > 0 {
		t.Errorf("checks not ok:\n%s", strings.Join(f, "\n"))
	}
	if n := len(checksOf(r, probe("oversized body"))); n != 1 {
		t.Errorf("%d oversized-body probes, want 1: the HTTP probes did not run", n)
	}
}

// -json is one object with the fields a CI job reads.
func TestJSONFields(t *testing.T) {
	code, out, _ := audit(t, "-json", "-tools", "echo", "--", testServer(t, "gosdk")[0], testServer(t, "gosdk")[1], testServer(t, "gosdk")[2])
	if code != 0 {
		t.Fatalf("exit status %d", code)
	}
	var top map[string]any
	if err := json.Unmarshal([]byte(out), &top); err != nil {
		t.Fatal(err)
	}
	if g, ok := top["grade"].(string); !ok || !slices.Contains(grades, g) {
		t.Errorf("grade %v", top["grade"])
	}
	if s, ok := top["score"].(float64); !ok || s < 0 || s > 100 || s != float64(int(s)) {
		t.Errorf("score %v", top["score"])
	}
	checks, _ := top["checks"].([]any)
	if len(checks) == 0 {
		t.Fatal("no checks")
	}
	want := map[string]string{"tool": "string", "probe": "string", "answer": "string", "kind": "string", "move": "string", "namesField": "bool", "ok": "bool", "why": "string"}
	for _, c := range checks {
		m := c.(map[string]any)
		for k, typ := range want {
			v, ok := m[k]
			if !ok {
				t.Errorf("check %v has no %q", m["probe"], k)
				continue
			}
			if got := fmt.Sprintf("%T", v); (typ == "bool") != (got == "bool") {
				t.Errorf("check %v: %q is %s, want %s", m["probe"], k, got, typ)
			}
		}
	}
	// -tools keeps only the tools named.
	for _, c := range checks {
		if tool := c.(map[string]any)["tool"]; tool != "" && tool != "echo" {
			t.Errorf("-tools echo audited %v", tool)
		}
	}
}

// The exit status: 0, 1 when the grade is below -min, 2 for a usage error or
// a server that cannot be reached.
func TestExitStatus(t *testing.T) {
	gosdk := append([]string{"--"}, testServer(t, "gosdk")...)
	tests := []struct {
		name string
		args []string
		want int
		msg  string // in stderr
	}{
		{"no target", nil, 2, "usage"},
		{"bad -min", append([]string{"-min", "E"}, gosdk...), 2, "-min"},
		{"a command without --", []string{"vexlo"}, 2, "after --"},
		{"a URL that is not http", []string{"ftp://example.com/mcp"}, 2, "after --"},
		{"-H with a command", append([]string{"-H", "A: b"}, gosdk...), 2, "-H"},
		{"a command that does not exist", []string{"--", filepath.Join(t.TempDir(), "no-such-server")}, 2, "mcperr:"},
		{"a command that exits", []string{"--", "sh", "-c", "echo broken >&2; exit 3"}, 2, "broken"},
		{"nothing listens", []string{"http://" + freeAddr(t) + "/mcp"}, 2, "mcperr:"},
		{"a tool it does not have", append([]string{"-tools", "nope"}, gosdk...), 2, "nope"},
		{"-min F", append([]string{"-min", "F"}, gosdk...), 0, ""},
		{"-min A", append([]string{"-min", "A"}, gosdk...), 1, "below -min A"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := audit(t, append([]string{"-timeout", "10s"}, tt.args...)...)
			if code != tt.want {
				t.Errorf("exit status %d, want %d; stderr:\n%s", code, tt.want, stderr)
			}
			if !strings.Contains(stderr, tt.msg) {
				t.Errorf("stderr does not say %q:\n%s", tt.msg, stderr)
			}
		})
	}
}

// The help says to audit a test instance.
func TestHelpWarns(t *testing.T) {
	code, _, stderr := audit(t, "-h")
	if code != 0 || !strings.Contains(stderr, "audit a test instance") {
		t.Errorf("exit status %d, help:\n%s", code, stderr)
	}
}

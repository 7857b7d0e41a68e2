package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/examples/internal/proc"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// binary is the news command, built once by TestMain.
var binary string

func TestMain(m *testing.M) { proc.Main(m, ".", "news", &binary) }

// command runs the server binary with args.
func command(args ...string) *exec.Cmd { return exec.Command(binary, args...) }

// start runs the binary on stdio with args.
func start(t *testing.T, args ...string) *proc.Session {
	t.Helper()
	return proc.Start(t, command(args...))
}

func call(id int, tool, args string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, tool, args)
}

func handshake(s *proc.Session) {
	s.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`)
	s.Send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	proc.Golden(t, filepath.Join("testdata", name), got, *update)
}

// TestStdio drives the local server through every row of the seed's tables
// that applies to a server with no key: the protocol errors, the tool errors
// a call can meet without an account, and the success shape.
func TestStdio(t *testing.T) {
	s := start(t)
	handshake(s)
	lines := []string{
		call(1, "search_storys", `{"query":"wind"}`),
		call(2, "search_stories", `{"query":"wind","langauge":"en"}`),
		call(3, "search_stories", `{"query":"wind","colour":"red"}`),
		call(4, "search_stories", `{"query":"wind","signals":["sentimnt"]}`),
		call(5, "search_stories", `{"query":"wind","limit":1000000}`),
		call(6, "search_stories", `{"query":"wind","limit":"5"}`),
		call(7, "search_stories", `{"query":"wind","from":"01/09/2026"}`),
		call(8, "search_stories", `{"query":"wind","language":"english"}`),
		"{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{\"name\":\"search_stories\",\"arguments\":{\"query\":\"w\xff\xfeind\"}}}",
		call(10, "search_stories", `{"query":"wind","estimate":true,"limit":30,"signals":["entities"]}`),
		call(11, "search_stories", `{"query":"wind","max_credits":1}`),
		call(12, "search_stories", `{"query":"offshore wind","limit":2,"signals":["sentiment","entities"]}`),
		call(13, "search_stories", `{"query":"offshore wind","limit":1,"from":"1999-12-31T23:59:59Z"}`),
		call(14, "get_article", `{"id":"a-00042"}`),
		call(15, "get_article", `{"id":"a-99999"}`),
		call(16, "get_story", `{"id":"s-0007"}`),
		call(17, "find_related", `{"id":"a-00042","limit":3}`),
		call(18, "create_watch", `{"query":"wind"}`),
		call(19, "get_watch", `{"id":"w-1"}`),
		call(20, "delete_watch", `{"id":"w-1"}`),
		call(21, "watch_events", `{"id":"w-1"}`),
	}
	for _, l := range lines {
		s.Send(l)
	}
	golden(t, "stdio.golden", s.Transcript())
}

// TestStdioTools checks the published tools: every inputSchema refuses
// undeclared arguments, every tool declares an outputSchema.
func TestStdioTools(t *testing.T) {
	s := start(t)
	handshake(s)
	resp := s.Send(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	var r struct {
		Result struct {
			Tools []struct {
				Name         string
				InputSchema  map[string]any
				OutputSchema map[string]any
			}
		}
	}
	if err := json.Unmarshal([]byte(resp), &r); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range r.Result.Tools {
		names = append(names, tl.Name)
		if tl.InputSchema["additionalProperties"] != false {
			t.Errorf("%s: inputSchema additionalProperties = %v", tl.Name, tl.InputSchema["additionalProperties"])
		}
		if tl.OutputSchema["type"] != "object" {
			t.Errorf("%s: outputSchema = %v", tl.Name, tl.OutputSchema)
		}
	}
	want := []string{"create_watch", "delete_watch", "find_related", "get_article", "get_story", "get_watch", "search_stories", "watch_events"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
}

// TestStdioFailShards: -fail-shards makes searches partial, or
// upstream_unavailable when no shard covering the request answers.
func TestStdioFailShards(t *testing.T) {
	s := start(t, "-fail-shards", "2")
	handshake(s)
	part := s.Send(call(1, "search_stories", `{"query":"harvest","limit":1}`))
	if !strings.Contains(part, `\"partial\":true`) || !strings.Contains(part, `\"total_relation\":\"gte\"`) {
		t.Errorf("with 2 failing shards: %s", part)
	}
	none := s.Send(call(2, "search_stories", `{"query":"harvest","from":"2026-10-20T00:00:00Z"}`))
	if !strings.Contains(none, `\"code\":\"upstream_unavailable\"`) || !strings.Contains(none, `"isError":true`) {
		t.Errorf("range on failing shards only: %s", none)
	}
	all := start(t, "-fail-shards", "6")
	handshake(all)
	if got := all.Send(call(1, "search_stories", `{"query":"harvest"}`)); !strings.Contains(got, `\"code\":\"upstream_unavailable\"`) {
		t.Errorf("every shard failing: %s", got)
	}
}

// TestPipedStdin pipes a whole session into the built binary and closes
// its stdin right after the last line, as `printf '...' | news` does: every
// request is answered all the same (the SDK's own StdioTransport drops the
// answers still in flight when its input ends), and the process exits 0.
func TestPipedStdin(t *testing.T) {
	lines := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"printf","version":"0"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		call(3, "search_stories", `{"query":"offshore wind","limit":2,"signals":["sentiment","entities"]}`),
		call(4, "get_article", `{"id":"a-00042"}`),
		call(5, "get_story", `{"id":"s-0007"}`),
		call(6, "find_related", `{"id":"a-00042","limit":3}`),
		call(7, "get_article", `{"id":"a-99999"}`),
		call(8, "search_stories", `{"query":"wind","limit":"5"}`),
		call(9, "create_watch", `{"query":"wind"}`),
	}
	stdout, stderr, err := piped(lines)
	if err != nil {
		t.Fatalf("news: %v\nstderr: %s", err, stderr)
	}
	var ids []string
	for _, l := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n") {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal([]byte(l), &m); err != nil || (m.Result == nil) == (m.Error == nil) {
			t.Errorf("not an answer (a result or an error): %.200s", l)
		}
		ids = append(ids, string(m.ID))
	}
	slices.Sort(ids)
	want := []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("the ids answered (-want +got):\n%s\nstdout:\n%s", diff, stdout)
	}
	if stderr != "" {
		t.Errorf("stderr: %s", stderr)
	}
}

// piped runs the binary with lines piped into its stdin, each ended by a
// newline, and the stdin closed after the last, as `printf '...' | news`
// does; it kills the process after 20 s.
func piped(lines []string) (stdout, stderr string, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary)
	cmd.Stdin = strings.NewReader(strings.Join(lines, "\n") + "\n")
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.String(), errOut.String(), err
}

func TestFlags(t *testing.T) {
	for _, args := range [][]string{{"-nope"}, {"-keys", "/does/not/exist"}, {"extra"}} {
		out, err := command(args...).CombinedOutput()
		if err == nil {
			t.Errorf("%v: exit 0, want failure (%s)", args, out)
		}
	}
}

// A -redis that cannot serve is a startup error naming the flag, never a
// crash later, and never repeats a password.
func TestRedisFlag(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-http", "127.0.0.1:0", "-redis", "http://user:s3cret@127.0.0.1:6379/0"}, `news: -redis: redisstore: connect: scheme "http": want redis:// or rediss://`},
		{[]string{"-http", "127.0.0.1:0", "-redis", "redis://127.0.0.1:6379/zero"}, `news: -redis: redisstore: connect: database "zero" is not a number`},
		{[]string{"-http", "127.0.0.1:0", "-redis", "redis://127.0.0.1:1/0"}, "news: -redis: redisstore: connect: dial tcp 127.0.0.1:1"},
		{[]string{"-redis", "redis://127.0.0.1:6379/0"}, "news: -redis: only the hosted server (-http) keeps limits"},
	} {
		out, err := command(tt.args...).CombinedOutput()
		if err == nil || !strings.HasPrefix(string(out), tt.want) || strings.Contains(string(out), "s3cret") {
			t.Errorf("%v: %v, %q; want a failure starting %q", tt.args, err, out, tt.want)
		}
	}
}

// TestHosted runs the binary hosted, with a keys file, and talks to it
// over HTTP: the file's key works, the demo keys do not.
func TestHosted(t *testing.T) {
	keys := filepath.Join(t.TempDir(), "keys.json")
	if err := os.WriteFile(keys, []byte(`[{"key":"team-a","plan":"team","monthly_credits":10,"stops_at_allocation":true,"messages_per_minute":5,"credits_per_minute":20,"watch_cap":1}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := command("-http", "127.0.0.1:0", "-keys", keys, "-fail-shards", "1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("the server did not exit cleanly on SIGINT: %v", err)
			}
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			t.Error("the server did not stop on SIGINT")
		}
	})
	line, err := bufio.NewReader(stderr).ReadString('\n')
	go func() { io.Copy(io.Discard, stderr); done <- cmd.Wait() }()
	if err != nil {
		t.Fatalf("reading the server's first line: %v", err)
	}
	_, rest, _ := strings.Cut(line, "http://")
	base, _, _ := strings.Cut(rest, "/mcp")
	get := func(key, path string) (int, string) {
		req, _ := http.NewRequest("GET", "http://"+base+path, nil)
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := get("team-a", "/v1/search?query=harvest&limit=1"); code != 200 || !strings.Contains(body, `"partial":true`) || !strings.Contains(body, `"credits_charged":2`) {
		t.Errorf("team-a search: %d %s", code, body)
	}
	if code, body := get("demo-pro", "/v1/search?query=harvest"); code != 401 || !strings.Contains(body, `"code":"unauthorized"`) {
		t.Errorf("a demo key with a keys file: %d %s", code, body)
	}
}

// TestHostileLines: each line issue 13 found to end a stdio session (valid
// JSON the go-sdk's decoder refuses), piped after ten tools/call, is
// answered with a JSON-RPC error; the ten answers and a call after it are
// all written, and the process exits 0.
func TestHostileLines(t *testing.T) {
	deep := strings.Repeat("[", 1001) + strings.Repeat("]", 1001)
	hostile := map[string]string{
		"params nested 1,001 deep":               `{"jsonrpc":"2.0","method":"notifications/progress","params":` + deep + `}`,
		"tools/call arguments nested past 1,000": call(99, "get_article", `{"id":`+deep+`}`),
		"id 1e400":                               `{"jsonrpc":"2.0","id":1e400,"method":"ping"}`,
	}
	for name, bad := range hostile {
		t.Run(name, func(t *testing.T) {
			lines := []string{
				`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"printf","version":"0"}}}`,
				`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
			}
			want := []string{"1"}
			for id := 10; id < 20; id++ {
				lines = append(lines, call(id, "get_article", `{"id":"a-00042"}`))
				want = append(want, strconv.Itoa(id))
			}
			lines = append(lines, bad, call(20, "get_article", `{"id":"a-00042"}`))
			want = append(want, "20", "error -32600")
			stdout, stderr, err := piped(lines)
			var got []string
			for _, l := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n") {
				var m struct {
					ID    json.RawMessage `json:"id"`
					Error *struct {
						Code int `json:"code"`
					} `json:"error"`
				}
				json.Unmarshal([]byte(l), &m)
				if m.Error != nil {
					got = append(got, fmt.Sprintf("error %d", m.Error.Code))
				} else {
					got = append(got, string(m.ID))
				}
			}
			slices.Sort(want)
			slices.Sort(got)
			if diff := cmp.Diff(want, got); diff != "" || err != nil || stderr != "" {
				t.Errorf("exit: %v, stderr %q; answers (-want +got):\n%s", err, stderr, diff)
			}
		})
	}
}

// TestClosedStdout: the client closed its end of stdout; the server's writes
// fail, and it exits by itself instead of being killed by SIGPIPE.
func TestClosedStdout(t *testing.T) {
	proc.ClosedStdout(t, command(),
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		call(2, "get_article", `{"id":"a-00042"}`),
	)
}

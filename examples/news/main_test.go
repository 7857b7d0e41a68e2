package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// binary is the program the tests run: this test binary, re-executed with
// NEWS_TEST_MAIN=1 so that it runs main's code (run) on the real process's
// stdin and stdout, as the built command does.
var binary string

func TestMain(m *testing.M) {
	if os.Getenv("NEWS_TEST_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	flag.Parse()
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = exe
	os.Exit(m.Run())
}

// command runs the server binary with args.
func command(args ...string) *exec.Cmd {
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), "NEWS_TEST_MAIN=1")
	return cmd
}

// session is the binary running on stdio.
type session struct {
	t     *testing.T
	cmd   *exec.Cmd
	in    io.WriteCloser
	out   *bufio.Reader
	trans strings.Builder
}

func start(t *testing.T, args ...string) *session {
	t.Helper()
	cmd := command(args...)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &session{t: t, cmd: cmd, in: in, out: bufio.NewReader(out)}
	t.Cleanup(func() {
		in.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Error("the server did not exit when stdin closed")
		}
	})
	return s
}

// send writes one raw JSON-RPC line and, for a request, returns the
// response line with its id.
func (s *session) send(line string) string {
	s.t.Helper()
	s.trans.WriteString("> " + line + "\n")
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		s.t.Fatal(err)
	}
	var msg struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal([]byte(line), &msg); err != nil || msg.ID == nil {
		return "" // a notification, or a line that is not JSON
	}
	for {
		resp, err := s.out.ReadString('\n')
		if err != nil {
			s.t.Fatalf("reading the response to %s: %v", line, err)
		}
		resp = strings.TrimRight(resp, "\n")
		s.trans.WriteString("< " + resp + "\n")
		var r struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal([]byte(resp), &r) == nil && bytes.Equal(r.ID, msg.ID) {
			return resp
		}
	}
}

func call(id int, tool, args string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, tool, args)
}

func (s *session) handshake() {
	s.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`)
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s differs (-want +got):\n%s", path, diff)
	}
}

// TestStdio drives the local server through every row of the seed's tables
// that applies to a server with no key: the protocol errors, the tool errors
// a call can meet without an account, and the success shape.
func TestStdio(t *testing.T) {
	s := start(t)
	s.handshake()
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
		s.send(l)
	}
	golden(t, "stdio.golden", s.trans.String())
}

// TestStdioTools checks the published tools: every inputSchema refuses
// undeclared arguments, every tool declares an outputSchema.
func TestStdioTools(t *testing.T) {
	s := start(t)
	s.handshake()
	resp := s.send(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
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
	s.handshake()
	part := s.send(call(1, "search_stories", `{"query":"harvest","limit":1}`))
	if !strings.Contains(part, `\"partial\":true`) || !strings.Contains(part, `\"total_relation\":\"gte\"`) {
		t.Errorf("with 2 failing shards: %s", part)
	}
	none := s.send(call(2, "search_stories", `{"query":"harvest","from":"2026-10-20T00:00:00Z"}`))
	if !strings.Contains(none, `\"code\":\"upstream_unavailable\"`) || !strings.Contains(none, `"isError":true`) {
		t.Errorf("range on failing shards only: %s", none)
	}
	all := start(t, "-fail-shards", "6")
	all.handshake()
	if got := all.send(call(1, "search_stories", `{"query":"harvest"}`)); !strings.Contains(got, `\"code\":\"upstream_unavailable\"`) {
		t.Errorf("every shard failing: %s", got)
	}
}

func TestFlags(t *testing.T) {
	for _, args := range [][]string{{"-nope"}, {"-keys", "/does/not/exist"}, {"extra"}} {
		out, err := command(args...).CombinedOutput()
		if err == nil {
			t.Errorf("%v: exit 0, want failure (%s)", args, out)
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

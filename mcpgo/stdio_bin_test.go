package mcpgo_test

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var updateStdio = flag.Bool("update-stdio", false, "rewrite the stdio transcripts under testdata/")

// The lines of the stdio tests: a handshake, good calls, and the five lines
// that end a session on an SDK's own stdio transport.
const (
	stdioInit        = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`
	stdioInitialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	stdioTrace       = "0f1a2b3c4d5e6f708192a3b4c5d6e7f8"
	lineNotJSON      = `this is not JSON`
	lineIDExponent   = `{"jsonrpc":"2.0","id":1e400,"method":"tools/call","params":{"name":"vexlo_get_trace","arguments":{"traceId":"` + stdioTrace + `"}}}`
	lineIDFraction   = `{"jsonrpc":"2.0","id":1.5,"method":"tools/call","params":{"name":"vexlo_get_trace","arguments":{"traceId":"` + stdioTrace + `"}}}`
	lineIDHTML       = `{"jsonrpc":"2.0","id":"<&>","method":"tools/call","params":{"name":"vexlo_get_trace","arguments":{"traceId":"` + stdioTrace + `"}}}`
	lineUnknownTool  = `{"jsonrpc":"2.0","id":"u","method":"tools/call","params":{"name":"vexlo_no_<such>_tool","arguments":{}}}`
	lineOverLimit    = `{"jsonrpc":"2.0","id":"r","method":"tools/call","params":{"name":"vexlo_search_traces","arguments":{"limit":101}}}`
	lineMissingTrace = `{"jsonrpc":"2.0","id":"m","method":"tools/call","params":{"name":"vexlo_get_trace","arguments":{}}}`
)

// lineDeep is a request whose params nest 1,001 levels deep.
var lineDeep = `{"jsonrpc":"2.0","id":77,"method":"tools/call","params":{"name":"vexlo_search_traces","arguments":{"x":` +
	strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}}}`

// hostileLines are the five lines, by name.
var hostileLines = []struct{ name, line string }{
	{"nested 1,001 deep", lineDeep},
	{"id 1e400", lineIDExponent},
	{"id 1.5", lineIDFraction},
	{"not JSON", lineNotJSON},
	{"id <&>", lineIDHTML},
}

func goodTraceCall(id int) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"vexlo_get_trace","arguments":{"traceId":"%s"}}}`, id, stdioTrace)
}

// fakeVexloAPI serves the two routes of the doc server's tools, as the Vexlo
// API answers them; the trace "slow" answers after 300 ms.
func fakeVexloAPI(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/v1/traces/" + stdioTrace, "/v1/traces/slow":
			if strings.HasSuffix(r.URL.Path, "slow") {
				time.Sleep(300 * time.Millisecond)
			}
			io.WriteString(w, `{"trace_id":"`+stdioTrace+`","service":"checkout","function":"handleCheckout","status":"ok","tags":["<b>&</b>"],"started_at":"2026-11-29T12:00:00Z","duration_ms":40}`)
		case "/v1/traces":
			io.WriteString(w, `{"traces":[]}`)
		default:
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"error":{"code":"trace_not_found","message":"no trace with that id"}}`)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// buildDocServer builds internal/docserver, the server of the package doc
// served through ServeStdio, into a temporary folder.
func buildDocServer(t *testing.T) string {
	t.Helper()
	return buildCommand(t, "./internal/docserver")
}

// buildCommand builds the command pkg into a temporary folder; it skips t
// under -short.
func buildCommand(t *testing.T, pkg string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a binary")
	}
	bin := filepath.Join(t.TempDir(), filepath.Base(pkg))
	out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// stdioProc is a server process driven over pipes.
type stdioProc struct {
	t     *testing.T
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
}

func startStdioProc(t *testing.T, bin, upstream string, args ...string) *stdioProc {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "VEXLO_URL="+upstream)
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
	p := &stdioProc{t: t, cmd: cmd, in: in, lines: make(chan string, 64)}
	go func() {
		defer close(p.lines)
		r := bufio.NewReaderSize(out, 1<<20)
		for {
			line, err := r.ReadString('\n')
			if len(line) > 0 {
				p.lines <- strings.TrimSuffix(line, "\n")
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	return p
}

func (p *stdioProc) send(line string) {
	p.t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		p.t.Fatalf("writing %.40s: %v", line, err)
	}
}

// next returns the next line the server writes; "" once its output ended.
func (p *stdioProc) next() string {
	p.t.Helper()
	select {
	case l := <-p.lines:
		return l
	case <-time.After(10 * time.Second):
		p.t.Fatal("no answer within 10 s")
		return ""
	}
}

// lockstep sends each line and reads its one answer before the next, and
// returns the transcript: "> sent" and "< answer" lines.
func (p *stdioProc) lockstep(lines ...string) string {
	p.t.Helper()
	var b strings.Builder
	for _, l := range lines {
		p.send(l)
		fmt.Fprintf(&b, "> %.200s\n", l)
		if strings.HasPrefix(l, `{"jsonrpc":"2.0","method"`) {
			continue // a notification: no answer
		}
		fmt.Fprintf(&b, "< %s\n", p.next())
	}
	return b.String()
}

// stdioGolden compares got with testdata/name, or writes it with -update-stdio.
func stdioGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *updateStdio {
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
		t.Errorf("transcript differs from %s (-want +got):\n%s", path, diff)
	}
}

// TestServeStdioBinary drives the server of the package doc, built and
// served through ServeStdio, over pipes: each of the five lines that end a
// session on an SDK's own transport is answered with a JSON-RPC error
// between good calls, and every good call is answered; ids come back byte
// for byte, <, > and & as themselves; an unknown tool and refused
// arguments are answered in the chosen dialect; and the answers in flight
// when the input ends are written before the process exits.
func TestServeStdioBinary(t *testing.T) {
	bin := buildDocServer(t)
	upstream := fakeVexloAPI(t)

	t.Run("each hostile line between good calls", func(t *testing.T) {
		p := startStdioProc(t, bin, upstream)
		seq := []string{stdioInit, stdioInitialized, goodTraceCall(10)}
		for i, h := range hostileLines {
			seq = append(seq, h.line, goodTraceCall(11+i))
		}
		stdioGolden(t, "stdio-hostile.golden", p.lockstep(seq...))
	})

	for _, d := range []struct{ name, flag string }{{"typescript", ""}, {"hint", "-hint"}} {
		t.Run(d.name+" dialect", func(t *testing.T) {
			var args []string
			if d.flag != "" {
				args = append(args, d.flag)
			}
			p := startStdioProc(t, bin, upstream, args...)
			stdioGolden(t, "stdio-"+d.name+".golden", p.lockstep(stdioInit, stdioInitialized, lineUnknownTool, lineOverLimit, lineMissingTrace, goodTraceCall(2)))
		})
	}

	t.Run("answers in flight at the end of the input", func(t *testing.T) {
		p := startStdioProc(t, bin, upstream)
		var ids []string
		input := stdioInit + "\n" + stdioInitialized + "\n"
		for i := range 8 {
			id := fmt.Sprint(100 + i)
			ids = append(ids, id)
			input += `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"vexlo_get_trace","arguments":{"traceId":"slow"}}}` + "\n"
		}
		for _, h := range hostileLines {
			input += h.line + "\n"
		}
		p.send(strings.TrimSuffix(input, "\n"))
		p.in.Close()
		var got []string
		for l := p.next(); l != ""; l = p.next() {
			if strings.Contains(l, `"slow"`) || strings.Contains(l, `"structuredContent"`) {
				got = append(got, l[len(`{"jsonrpc":"2.0","id":`):strings.Index(l, `,"result"`)])
			}
		}
		want := append(ids, `"<&>"`)
		slices.Sort(got)
		slices.Sort(want)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("ids of the successes written before exit (-want +got):\n%s", diff)
		}
		if err := p.cmd.Wait(); err != nil {
			t.Errorf("the server ended with %v, want a clean exit at the end of its input", err)
		}
	})
}

// TestSDKServeStdioAnswersItself records why ServeStdio exists: the same
// server on mcp-go's own server.ServeStdio answers a call to an unknown
// tool itself, in its own words, before any of mcperr runs, and sends a
// hint-dialect refusal as an isError result; and the ids 1.5 and "<&>" do
// not come back as sent.
func TestSDKServeStdioAnswersItself(t *testing.T) {
	bin := buildDocServer(t)
	p := startStdioProc(t, bin, fakeVexloAPI(t), "-sdk", "-hint")
	stdioGolden(t, "stdio-mcpgo-sdk.golden", p.lockstep(stdioInit, stdioInitialized, lineUnknownTool, lineOverLimit, lineIDFraction, lineIDHTML))
}

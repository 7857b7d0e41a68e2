package proc

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestMain makes this test binary, run with PROC_TEST_ECHO=1, a stand-in
// server: for each input line it writes a notification, then the line
// itself, and at the end of its input "bye". A write that fails ends it
// (exit status 0); with PROC_TEST_SIGPIPE=default a write to a closed
// stdout kills it by SIGPIPE instead, as it does any Go program.
func TestMain(m *testing.M) {
	if os.Getenv("PROC_TEST_ECHO") == "1" {
		if os.Getenv("PROC_TEST_SIGPIPE") != "default" {
			signal.Ignore(syscall.SIGPIPE)
		}
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			if _, err := fmt.Println(`{"jsonrpc":"2.0","method":"notifications/message"}`); err != nil {
				os.Exit(0)
			}
			fmt.Println(sc.Text())
		}
		fmt.Println("bye")
		fmt.Fprintln(os.Stderr, "echo done")
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func echo(t *testing.T) *exec.Cmd {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), "PROC_TEST_ECHO=1")
	return cmd
}

func TestSession(t *testing.T) {
	var s *Session
	t.Cleanup(func() { // runs after the process has exited
		if got := s.Stdout(); !strings.HasSuffix(got, "bye\n") {
			t.Errorf("Stdout after exit = %q, want it to end with bye", got)
		}
		if got := s.Stderr(); got != "echo done\n" {
			t.Errorf("Stderr = %q", got)
		}
	})
	s = Start(t, echo(t))
	note := `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	req := `{"jsonrpc":"2.0","id":"a","method":"ping"}`
	if got := s.Send(note); got != "" {
		t.Errorf("Send(notification) = %q", got)
	}
	if got := s.Send(req); got != req {
		t.Errorf("Send(request) = %q, want the echo", got)
	}
	n := `{"jsonrpc":"2.0","method":"notifications/message"}`
	if diff := cmp.Diff([]string{n, note, n}, s.Others()); diff != "" {
		t.Errorf("Others (-want +got):\n%s", diff)
	}
	want := "> " + note + "\n> " + req + "\n< " + n + "\n< " + note + "\n< " + n + "\n< " + req + "\n"
	if diff := cmp.Diff(want, s.Transcript()); diff != "" {
		t.Errorf("Transcript (-want +got):\n%s", diff)
	}
}

func TestRequestID(t *testing.T) {
	tests := []struct{ line, want string }{
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, "1"},
		{`{"jsonrpc":"2.0","id":"x","result":{}}`, `"x"`},
		{`{"jsonrpc":"2.0","id":null,"error":{}}`, ""},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, ""},
		{`garbage`, ""},
		{`[1]`, ""},
	}
	for _, tt := range tests {
		if got := string(requestID(tt.line)); got != tt.want {
			t.Errorf("requestID(%s) = %q, want %q", tt.line, got, tt.want)
		}
	}
}

// recorder is a testing.TB whose cleanups and errors the test runs and
// reads itself.
type recorder struct {
	testing.TB
	cleanups []func()
	errors   []string
}

func (r *recorder) Helper()          {}
func (r *recorder) Cleanup(f func()) { r.cleanups = append(r.cleanups, f) }
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Logf(string, ...any) {}
func (r *recorder) Failed() bool        { return len(r.errors) > 0 }

// TestExitTimeout: a process that ignores its closed input is killed, and
// the test that started it fails.
func TestExitTimeout(t *testing.T) {
	r := &recorder{TB: t}
	s := Start(r, exec.Command("sleep", "30"))
	s.ExitTimeout = 50 * time.Millisecond
	begin := time.Now()
	for _, f := range r.cleanups {
		f()
	}
	if len(r.errors) != 1 || !strings.Contains(r.errors[0], "sleep did not exit within 50ms") {
		t.Errorf("errors %q", r.errors)
	}
	if d := time.Since(begin); d > 5*time.Second {
		t.Errorf("the cleanup took %v", d)
	}
}

// TestClosedStdout: a process whose writes to a closed stdout fail, and
// that then exits, passes; one that SIGPIPE kills fails the test.
func TestClosedStdout(t *testing.T) {
	tests := []struct {
		sigpipe string
		errors  []string
	}{
		{"ignored", nil},
		{"default", []string{"did not exit by itself: signal: broken pipe"}},
	}
	for _, tt := range tests {
		t.Run(tt.sigpipe, func(t *testing.T) {
			r := &recorder{TB: t}
			cmd := echo(t)
			cmd.Env = append(cmd.Env, "PROC_TEST_SIGPIPE="+tt.sigpipe)
			ClosedStdout(r, cmd, `{"jsonrpc":"2.0","method":"ping"}`)
			var got []string
			for _, e := range r.errors {
				_, after, _ := strings.Cut(e, " ")
				got = append(got, after)
			}
			if diff := cmp.Diff(tt.errors, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

func TestGolden(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "x.golden")
	Golden(t, path, "one\n", true)
	b, err := os.ReadFile(path)
	if err != nil || string(b) != "one\n" {
		t.Fatalf("after update: %q, %v", b, err)
	}
	Golden(t, path, "one\n", false) // the same: passes
}

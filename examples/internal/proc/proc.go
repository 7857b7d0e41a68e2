// Package proc is the test harness the example servers' tests share: build
// a command once (in TestMain), run it over real pipes one JSON-RPC line at
// a time with a deadline on every read, and compare output with golden
// files.
//
// It is ordinary (non-test) code so that the test packages of vexlo, news
// and vulnetix can import it; nothing outside tests should.
//
// A test package builds its command once,
//
//	var binary string
//
//	func TestMain(m *testing.M) { proc.Main(m, ".", "vexlo", &binary) }
//
// and each test drives it with Start and Session.Send.
package proc

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// Build runs go build on the package pkg (a path such as "." or
// "./news") into a new temporary directory, as the command name, with the
// race detector when the tests themselves run under it (RaceEnabled). It
// returns the binary's path and a function that removes the directory.
func Build(pkg, name string) (bin string, cleanup func(), err error) {
	dir, err := os.MkdirTemp("", name+"-test")
	if err != nil {
		return "", nil, err
	}
	bin = filepath.Join(dir, name)
	args := []string{"build", "-o", bin}
	if RaceEnabled {
		args = append(args, "-race")
	}
	if out, err := exec.Command("go", append(args, pkg)...).CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return "", nil, fmt.Errorf("building %s: %v\n%s", name, err, out)
	}
	return bin, func() { os.RemoveAll(dir) }, nil
}

// Main is a TestMain that builds the command once: it parses the command
// line's flags, builds pkg as name (see Build) and stores the binary's path
// in *bin, runs the tests, removes the binary, and exits with the tests'
// status. A failed build exits 1 with the compiler's output on stderr.
func Main(m *testing.M, pkg, name string, bin *string) {
	flag.Parse()
	path, cleanup, err := Build(pkg, name)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	*bin = path
	code := m.Run()
	cleanup()
	os.Exit(code)
}

// DefaultReadTimeout is how long Session.Send waits for each line of output
// on a Session whose ReadTimeout is zero.
const DefaultReadTimeout = 10 * time.Second

// DefaultExitTimeout is how long a Session's cleanup waits for the process
// to exit once its input is closed, on a Session whose ExitTimeout is zero.
const DefaultExitTimeout = 5 * time.Second

// Session is a process started by Start: its stdin and stdout are pipes the
// test speaks JSON-RPC over, one message a line; its stderr is kept.
type Session struct {
	// ReadTimeout bounds the wait for each line read; zero means
	// DefaultReadTimeout.
	ReadTimeout time.Duration
	// ExitTimeout bounds the wait, at the end of the test, for the process
	// to exit after its input closed; zero means DefaultExitTimeout. Past
	// it the process is killed and the test fails.
	ExitTimeout time.Duration

	t      testing.TB
	cmd    *exec.Cmd
	in     io.WriteCloser
	lines  chan string // stdout, a line at a time; closed at its end
	stderr Buffer

	mu     sync.Mutex
	trans  strings.Builder // "> " lines written, "< " lines read
	stdout strings.Builder // every line read
	others []string        // lines read that answered no request sent
}

// Start starts cmd with its stdin and stdout as pipes and its stderr kept
// (Session.Stderr). When the test ends, the input is closed, the rest of
// the output is read, and the process must exit by itself within
// ExitTimeout; if the test failed, its stderr is logged. Cleanups the test
// registered before Start run after the process has exited.
func Start(t testing.TB, cmd *exec.Cmd) *Session {
	t.Helper()
	s := &Session{t: t, cmd: cmd, lines: make(chan string, 64)}
	cmd.Stderr = &s.stderr
	var err error
	if s.in, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(s.lines)
		r := bufio.NewReader(out)
		for {
			line, err := r.ReadString('\n')
			if line != "" {
				s.lines <- strings.TrimRight(line, "\n")
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		s.in.Close()
		done := make(chan error, 1)
		go func() {
			for line := range s.lines { // let the process finish writing
				s.mu.Lock()
				s.stdout.WriteString(line + "\n")
				s.mu.Unlock()
			}
			done <- cmd.Wait()
		}()
		wait := s.ExitTimeout
		if wait <= 0 {
			wait = DefaultExitTimeout
		}
		select {
		case <-done:
		case <-time.After(wait):
			cmd.Process.Kill()
			<-done
			t.Errorf("%s did not exit within %v of its input closing", filepath.Base(cmd.Path), wait)
		}
		if t.Failed() && s.stderr.String() != "" {
			t.Logf("stderr of %s:\n%s", filepath.Base(cmd.Path), s.stderr.String())
		}
	})
	return s
}

// ClosedStdoutWait is how long ClosedStdout waits, with the input still
// open, for a process whose stdout was closed to end by itself.
const ClosedStdoutWait = 10 * time.Second

// ClosedStdout starts cmd with its stdout a pipe closed at once, as a
// client that hung up leaves it, writes lines to its input, each with a
// newline, and waits for the process to end: for ClosedStdoutWait with its
// input open (its failed writes should end it), then for DefaultExitTimeout
// more after closing its input. A process still running then is killed and
// the test fails; a process that ended by a signal (such as SIGPIPE) rather
// than exiting fails the test too. cmd's Stderr is left as the caller set
// it.
func ClosedStdout(t testing.TB, cmd *exec.Cmd, lines ...string) {
	t.Helper()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	out.Close()
	for _, l := range lines {
		io.WriteString(in, l+"\n") // fails once the process has gone: what it does then is the test
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	name := filepath.Base(cmd.Path)
	select {
	case <-done:
	case <-time.After(ClosedStdoutWait):
		in.Close()
		select {
		case <-done:
		case <-time.After(DefaultExitTimeout):
			cmd.Process.Kill()
			<-done
			t.Fatalf("%s hung with a closed stdout", name)
		}
	}
	in.Close()
	if !cmd.ProcessState.Exited() {
		t.Errorf("%s did not exit by itself: %v", name, cmd.ProcessState)
	}
}

// Send writes line and a newline to the process's input. When line is a
// JSON-RPC request (a JSON object with an id that is not null), it then
// reads output lines until the one with the same id and returns it; the
// lines read before it are kept in Others. It fails the test when the
// write fails, or when the output ends or stays silent for ReadTimeout
// before the answer.
func (s *Session) Send(line string) string {
	s.t.Helper()
	s.mu.Lock()
	s.trans.WriteString("> " + line + "\n")
	s.mu.Unlock()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		s.t.Fatalf("writing %s: %v", line, err)
	}
	id := requestID(line)
	if id == nil {
		return "" // a notification, or a line that is not JSON-RPC
	}
	for {
		resp := s.ReadLine()
		if bytes.Equal(requestID(resp), id) {
			return resp
		}
		s.mu.Lock()
		s.others = append(s.others, resp)
		s.mu.Unlock()
	}
}

// ReadLine returns the next line of output, without its newline. It fails
// the test when the output ends or stays silent for ReadTimeout.
func (s *Session) ReadLine() string {
	s.t.Helper()
	wait := s.ReadTimeout
	if wait <= 0 {
		wait = DefaultReadTimeout
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case line, ok := <-s.lines:
		if !ok {
			s.t.Fatalf("the output ended (stderr %q)", s.stderr.String())
		}
		s.mu.Lock()
		s.trans.WriteString("< " + line + "\n")
		s.stdout.WriteString(line + "\n")
		s.mu.Unlock()
		return line
	case <-timer.C:
		s.t.Fatalf("no output for %v (stderr %q)", wait, s.stderr.String())
		return ""
	}
}

// Transcript is every line written ("> " and the line) and read ("< " and
// the line) so far, in order.
func (s *Session) Transcript() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.trans.String()
}

// Stdout is every line read from the output so far; once the process has
// exited (in a cleanup registered before Start), all its output.
func (s *Session) Stdout() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stdout.String()
}

// Others are the lines Send read that were not the answer it waited for:
// notifications, answers to no request, stray output.
func (s *Session) Others() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.others...)
}

// Stderr is what the process has written to its stderr so far.
func (s *Session) Stderr() string { return s.stderr.String() }

// requestID is the id of a JSON-RPC message, or nil when it has none, a
// null one, or is not a JSON object.
func requestID(line string) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal([]byte(line), &m) != nil || string(m.ID) == "null" {
		return nil
	}
	return m.ID
}

// Buffer is a bytes.Buffer safe for concurrent use: a process's stderr
// read while the process writes to it, or a logger's output. The zero
// value is an empty buffer ready to use.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p to the buffer.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

// String returns what the buffer holds.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// Golden compares got with the file at path. With update set (a test
// package's -update flag) it writes got to path instead, creating its
// directory.
func Golden(t testing.TB, path, got string, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
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

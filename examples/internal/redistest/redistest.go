// Package redistest gives the example servers' tests a real Redis: the
// one .ci/redis.sh starts (MCPERR_REDIS_URL), or one of their own, a
// redis-server process they may stop and restart.
//
// Without MCPERR_REDIS_URL the tests that need Redis skip, except under
// CI=true, where they fail: CI must show them on a real server.
package redistest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcperr/mcperr/redisstore"
)

// URL returns the URL of the shared test server, or skips the test.
func URL(t testing.TB) string {
	t.Helper()
	u := os.Getenv("MCPERR_REDIS_URL")
	if u == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("MCPERR_REDIS_URL is not set: CI must run the Redis tests against a real server (see .ci/redis.sh)")
		}
		t.Skip("MCPERR_REDIS_URL is not set: no Redis server to test against (see .ci/redis.sh)")
	}
	return u
}

// Prefix returns a key prefix no other test uses.
func Prefix(t testing.TB) string {
	var b [6]byte
	rand.Read(b[:])
	return "test:" + t.Name() + ":" + hex.EncodeToString(b[:]) + ":"
}

// Store returns a store on url under prefix, closed when the test ends.
// A nil logger discards the store's log; a zero timeout is 5 seconds,
// generous for a busy machine, where the tests check counts, not speed.
func Store(t testing.TB, url, prefix string, logger *log.Logger, timeout time.Duration) *redisstore.Store {
	t.Helper()
	if logger == nil {
		logger = log.New(discard{}, "", 0)
	}
	if timeout == 0 {
		timeout = 5 * time.Second
	}
	s, err := redisstore.New(context.Background(), url, redisstore.Options{Prefix: prefix, ErrorLog: logger, Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// Server is a redis-server process of a test's own, on a loopback port,
// without persistence.
type Server struct {
	Port int
	bin  string
	dir  string
	cmd  *exec.Cmd
}

// StartServer starts a redis-server of the test's own (the binary
// MCPERR_REDIS_SERVER names, or redis-server on PATH), stopped when the
// test ends. It skips as URL does when there is none.
func StartServer(t testing.TB) *Server {
	t.Helper()
	bin := os.Getenv("MCPERR_REDIS_SERVER")
	if bin == "" {
		bin, _ = exec.LookPath("redis-server")
	}
	if bin == "" {
		URL(t) // skips, or fails under CI
		t.Skip("no redis-server binary to start")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	s := &Server{Port: port, bin: bin, dir: t.TempDir()}
	s.Start(t)
	t.Cleanup(s.Stop)
	return s
}

// URL returns the server's URL, database 0.
func (s *Server) URL() string { return fmt.Sprintf("redis://127.0.0.1:%d/0", s.Port) }

// Start starts the server (again) and waits until it accepts connections.
func (s *Server) Start(t testing.TB) {
	t.Helper()
	s.cmd = exec.Command(s.bin, "--save", "", "--appendonly", "no", "--port", strconv.Itoa(s.Port),
		"--bind", "127.0.0.1", "--dir", s.dir, "--logfile", filepath.Join(s.dir, "redis.log"))
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for range 100 {
		c, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(s.Port)), 100*time.Millisecond)
		if err == nil {
			c.Write([]byte("PING\r\n"))
			buf := make([]byte, 16)
			c.SetReadDeadline(time.Now().Add(time.Second))
			n, _ := c.Read(buf)
			c.Close()
			if strings.HasPrefix(string(buf[:n]), "+PONG") {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("redis-server did not start on port %d", s.Port)
}

// Pause stops the server without closing its connections (SIGSTOP), as a
// server that hangs: calls get no answer until Resume.
func (s *Server) Pause() { s.cmd.Process.Signal(syscall.SIGSTOP) }

// Resume lets a paused server go on (SIGCONT).
func (s *Server) Resume() { s.cmd.Process.Signal(syscall.SIGCONT) }

// Stop kills the server and waits for it to exit.
func (s *Server) Stop() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	s.cmd.Process.Signal(syscall.SIGCONT)
	s.cmd.Process.Kill()
	s.cmd.Wait()
	s.cmd = nil
}

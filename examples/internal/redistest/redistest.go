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
	"errors"
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

	"github.com/mcperr/mcperr/ratelimit"
	"github.com/mcperr/mcperr/redisstore"
)

// URL returns the URL of the shared test server, or skips the test.
func URL(t testing.TB) string {
	t.Helper()
	return fromEnv(t, "MCPERR_REDIS_URL", "the Redis tests against a real server", "no Redis server", ".ci/redis.sh")
}

// ClusterURL returns the URL of the shared test cluster, or skips the test.
func ClusterURL(t testing.TB) string {
	t.Helper()
	return fromEnv(t, "MCPERR_REDIS_CLUSTER_URL", "the cluster tests against a real Redis Cluster", "no Redis Cluster", ".ci/cluster.sh")
}

// fromEnv returns the URL the variable name holds. When it is not set it
// skips the test, saying there is none to test against and which script
// starts one; under CI=true it fails the test, saying CI must run tests.
func fromEnv(t testing.TB, name, tests, none, script string) string {
	t.Helper()
	u := os.Getenv(name)
	if u == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set: CI must run %s (see %s)", name, tests, script)
		}
		t.Skipf("%s is not set: %s to test against (see %s)", name, none, script)
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
	args []string // more arguments of redis-server
	cmd  *exec.Cmd
}

// StartServer starts a redis-server of the test's own (the binary
// MCPERR_REDIS_SERVER names, or redis-server on PATH), stopped when the
// test ends. It skips as URL does when there is none.
func StartServer(t testing.TB) *Server {
	t.Helper()
	bin := binary("MCPERR_REDIS_SERVER", "redis-server")
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

// binary returns the path the environment variable env names, or name's
// on PATH, or "".
func binary(env, name string) string {
	if b := os.Getenv(env); b != "" {
		return b
	}
	b, _ := exec.LookPath(name)
	return b
}

// Cluster is a Redis Cluster of a test's own: three primaries without
// replicas, redis-server processes on loopback ports, without persistence
// of data (each keeps its cluster configuration, so a primary restarted
// takes its slots back).
type Cluster struct {
	Primaries []*Server
}

// StartCluster starts a cluster of 3 primaries of the test's own (the
// binaries MCPERR_REDIS_SERVER and MCPERR_REDIS_CLI name, or redis-server
// and redis-cli on PATH), stopped when the test ends, and waits until it
// serves every slot. It skips as ClusterURL does without a shared cluster:
// the tests on a cluster run where .ci/cluster.sh ran.
func StartCluster(t testing.TB) *Cluster {
	t.Helper()
	ClusterURL(t) // skips, or fails under CI
	server, cli := binary("MCPERR_REDIS_SERVER", "redis-server"), binary("MCPERR_REDIS_CLI", "redis-cli")
	if server == "" || cli == "" {
		t.Fatal("MCPERR_REDIS_CLUSTER_URL is set but redis-server or redis-cli is missing")
	}
	c := &Cluster{}
	create := []string{"--cluster", "create"}
	for range 3 {
		port := clusterPort(t)
		dir := t.TempDir()
		s := &Server{Port: port, bin: server, dir: dir, args: []string{
			"--cluster-enabled", "yes", "--cluster-config-file", filepath.Join(dir, "nodes.conf"),
			"--cluster-node-timeout", "1000",
		}}
		s.Start(t)
		t.Cleanup(s.Stop)
		c.Primaries = append(c.Primaries, s)
		create = append(create, fmt.Sprintf("127.0.0.1:%d", port))
	}
	create = append(create, "--cluster-replicas", "0", "--cluster-yes")
	if out, err := exec.Command(cli, create...).CombinedOutput(); err != nil {
		t.Fatalf("redis-cli --cluster create: %v\n%s", err, out)
	}
	c.WaitOK(t)
	return c
}

// clusterPort returns a free loopback port whose cluster bus port (the
// port plus 10000) is free too.
func clusterPort(t testing.TB) int {
	t.Helper()
	for range 100 {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := ln.Addr().(*net.TCPAddr).Port
		ln.Close()
		if port+10000 > 65535 {
			continue
		}
		bus, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port+10000))
		if err != nil {
			continue
		}
		bus.Close()
		return port
	}
	t.Fatal("no free pair of ports for a cluster node")
	return 0
}

// URL returns the cluster's URL: its first primary, the others as addr
// parameters.
func (c *Cluster) URL() string {
	u := c.Primaries[0].URL()
	for i, s := range c.Primaries[1:] {
		sep := "&"
		if i == 0 {
			sep = "?"
		}
		u += fmt.Sprintf("%saddr=127.0.0.1:%d", sep, s.Port)
	}
	return u
}

// WaitOK waits until every primary says the cluster is ok (every slot
// served), for at most 20 seconds.
func (c *Cluster) WaitOK(t testing.TB) {
	t.Helper()
	c.wait(t, "ok", c.Primaries)
}

// WaitDown waits until every primary but down says the cluster is down
// (CLUSTERDOWN: the slots of down are not served), for at most 20 seconds.
func (c *Cluster) WaitDown(t testing.TB, down *Server) {
	t.Helper()
	var up []*Server
	for _, s := range c.Primaries {
		if s != down {
			up = append(up, s)
		}
	}
	c.wait(t, "fail", up)
}

// wait waits until each of servers reports cluster_state:state.
func (c *Cluster) wait(t testing.TB, state string, servers []*Server) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		ok := true
		for _, s := range servers {
			if !strings.Contains(s.command("CLUSTER", "INFO"), "cluster_state:"+state) {
				ok = false
				break
			}
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the cluster is not %s within 20s", state)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// PrimaryOf returns the primary that serves the slot of hash tag tag.
func (c *Cluster) PrimaryOf(t testing.TB, tag string) *Server {
	t.Helper()
	reply := c.Primaries[0].command("CLUSTER", "KEYSLOT", tag)
	slot, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(reply, ":")))
	if err != nil {
		t.Fatalf("CLUSTER KEYSLOT: %q", reply)
	}
	for _, s := range c.Primaries {
		for _, line := range strings.Split(s.command("CLUSTER", "NODES"), "\n") {
			f := strings.Fields(line)
			if len(f) < 9 || !strings.Contains(f[2], "myself") {
				continue
			}
			for _, r := range f[8:] {
				lo, hi, _ := strings.Cut(r, "-")
				a, errA := strconv.Atoi(lo)
				b, errB := strconv.Atoi(hi)
				if hi == "" {
					b, errB = a, errA
				}
				if errA == nil && errB == nil && a <= slot && slot <= b {
					return s
				}
			}
		}
	}
	t.Fatalf("no primary serves slot %d", slot)
	return nil
}

// command sends one command to the server and returns its raw reply, or
// "" when it does not answer within a second.
func (s *Server) command(args ...string) string {
	c, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(s.Port)), time.Second)
	if err != nil {
		return ""
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(time.Second))
	req := fmt.Sprintf("*%d\r\n", len(args))
	for _, a := range args {
		req += fmt.Sprintf("$%d\r\n%s\r\n", len(a), a)
	}
	if _, err := c.Write([]byte(req)); err != nil {
		return ""
	}
	buf := make([]byte, 4096)
	n, _ := c.Read(buf)
	return string(buf[:n])
}

// URL returns the server's URL, database 0.
func (s *Server) URL() string { return fmt.Sprintf("redis://127.0.0.1:%d/0", s.Port) }

// Start starts the server (again) and waits until it accepts connections.
func (s *Server) Start(t testing.TB) {
	t.Helper()
	args := append([]string{"--save", "", "--appendonly", "no", "--port", strconv.Itoa(s.Port),
		"--bind", "127.0.0.1", "--dir", s.dir, "--logfile", filepath.Join(s.dir, "redis.log")}, s.args...)
	s.cmd = exec.Command(s.bin, args...)
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

// ErrDown is the error each call of Down returns.
var ErrDown = errors.New("store down")

// Down is a ratelimit.Store that never answers, as a store whose Redis is
// down: each call fails with ErrDown. A test's store embeds it to answer
// one call its own way.
type Down struct{}

// Take fails with ErrDown.
func (Down) Take(context.Context, string, time.Time, ratelimit.Bucket) (ratelimit.Decision, error) {
	return ratelimit.Decision{}, ErrDown
}

// Add fails with ErrDown.
func (Down) Add(context.Context, string, int64, time.Time, time.Time) (ratelimit.Counter, error) {
	return ratelimit.Counter{}, ErrDown
}

// Spend fails with ErrDown.
func (Down) Spend(context.Context, []ratelimit.Quota, int64, time.Time) ([]ratelimit.Level, error) {
	return nil, ErrDown
}

//go:build unix

package redisstore

import (
	"context"
	"fmt"
	"net"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/ratelimit"
)

// ownCluster starts a Redis Cluster of the test's own, three primaries without replicas (the
// binaries .ci/cluster.sh names in MCPERR_REDIS_SERVER and MCPERR_REDIS_CLI), so that stopping
// one of them disturbs no other test; it skips as clusterURL does where no cluster runs. It
// returns the cluster's URL and the primaries' processes by address, all killed when the test
// ends.
func ownCluster(t *testing.T) (string, map[string]*os.Process) {
	t.Helper()
	clusterURL(t) // skips, or fails under CI
	server, cli := os.Getenv("MCPERR_REDIS_SERVER"), os.Getenv("MCPERR_REDIS_CLI")
	if server == "" || cli == "" {
		t.Fatal("MCPERR_REDIS_CLUSTER_URL is set but MCPERR_REDIS_SERVER or MCPERR_REDIS_CLI is not (see .ci/cluster.sh)")
	}
	procs := map[string]*os.Process{}
	var addrs []string
	for range 3 {
		port := freeClusterPort(t)
		dir := t.TempDir()
		cmd := osexec.Command(server, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
			"--cluster-enabled", "yes", "--cluster-config-file", filepath.Join(dir, "nodes.conf"), "--cluster-node-timeout", "5000",
			"--dir", dir)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			cmd.Process.Signal(syscall.SIGCONT)
			cmd.Process.Kill()
			cmd.Wait()
		})
		addr := fmt.Sprintf("127.0.0.1:%d", port)
		procs[addr] = cmd.Process
		addrs = append(addrs, addr)
	}
	for _, a := range addrs {
		for i := 0; osexec.Command(cli, "-u", "redis://"+a, "ping").Run() != nil; i++ {
			if i == 100 {
				t.Fatalf("redis-server at %s does not answer", a)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	create := append(append([]string{"--cluster", "create"}, addrs...), "--cluster-replicas", "0", "--cluster-yes")
	if out, err := osexec.Command(cli, create...).CombinedOutput(); err != nil {
		t.Fatalf("redis-cli --cluster create: %v\n%s", err, out)
	}
	for _, a := range addrs {
		for i := 0; ; i++ {
			out, _ := osexec.Command(cli, "-u", "redis://"+a, "cluster", "info").Output()
			if strings.Contains(string(out), "cluster_state:ok") {
				break
			}
			if i == 200 {
				t.Fatalf("the cluster is not ok at %s: %s", a, out)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	return "redis://" + addrs[0] + "/0?addr=" + addrs[1] + "&addr=" + addrs[2], procs
}

// freeClusterPort returns a free loopback port whose cluster bus port (the port plus 10000)
// is free too.
func freeClusterPort(t *testing.T) int {
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
		if bus, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port+10000)); err == nil {
			bus.Close()
			return port
		}
	}
	t.Fatal("no free pair of ports for a cluster node")
	return 0
}

// owners maps each hash slot of the cluster to the address of the primary
// that serves it, as CLUSTER SLOTS tells.
func owners(t *testing.T, s *Store) map[int64]string {
	t.Helper()
	ranges, err := s.client.Do(context.Background(), s.client.B().ClusterSlots().Build()).ToArray()
	if err != nil {
		t.Fatal(err)
	}
	own := map[int64]string{}
	for _, r := range ranges {
		f, err := r.ToArray()
		if err != nil || len(f) < 3 {
			t.Fatalf("CLUSTER SLOTS entry %v: %v", r, err)
		}
		from, _ := f[0].AsInt64()
		to, _ := f[1].AsInt64()
		node, _ := f[2].ToArray()
		host, _ := node[0].ToString()
		port, _ := node[1].AsInt64()
		for slot := from; slot <= to; slot++ {
			own[slot] = fmt.Sprintf("%s:%d", host, port)
		}
	}
	return own
}

// A hung primary of a Redis Cluster affects only the keys it owns: with one
// of three primaries stopped (SIGSTOP, for less than the cluster's node
// timeout, so the others still serve their slots), the calls for its keys
// fail open, and the keys on the two others stay exactly limited, whatever
// the calls to the hung one in between. The cluster is the test's own.
func TestClusterHungPrimaryOnlyItsKeys(t *testing.T) {
	url, procs := ownCluster(t)
	const timeout = 300 * time.Millisecond
	s, _ := newStoreAt(t, url, Options{Timeout: timeout, LogEvery: time.Hour})
	own := owners(t, s)
	slot := func(k string) int64 {
		cmd := s.client.B().Get().Key(s.key(k)).Build()
		return int64(cmd.Slot())
	}
	var victim string
	for a := range procs {
		victim = a
		break
	}
	var hungKey string
	var healthy []string
	for i := 0; hungKey == "" || len(healthy) < 12; i++ {
		k := fmt.Sprintf("{acct-%d}:minute", i)
		switch {
		case own[slot(k)] == victim:
			if hungKey == "" {
				hungKey = k
			}
		case len(healthy) < 12:
			healthy = append(healthy, k)
		}
	}
	const burst = 3
	lim := &ratelimit.Limiter{Rate: 1.0 / 3600, Burst: burst, Store: s}

	if err := procs[victim].Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	stopped := time.Now()
	cont := sync.OnceFunc(func() {
		if err := procs[victim].Signal(syscall.SIGCONT); err != nil {
			t.Error(err)
		}
	})
	t.Cleanup(cont)
	// the hung primary's key first: its call waits the timeout, then fails open
	if d := lim.AllowAt(hungKey, time.Now()); !d.OK {
		t.Errorf("the hung primary's key: %+v, want the call let through", d)
	}
	allowed := map[string]int{}
	for range burst + 2 {
		for _, k := range healthy {
			if lim.AllowAt(k, time.Now()).OK {
				allowed[k]++
			}
			lim.AllowAt(hungKey, time.Now()) // fails at once, or waits the timeout once a second
		}
	}
	took := time.Since(stopped)
	cont()
	if took > 4*time.Second {
		t.Logf("the primary was stopped for %v, near the cluster's node timeout: the cluster may have marked it failed", took)
	}
	want := map[string]int{}
	for _, k := range healthy {
		want[k] = burst
	}
	if diff := cmp.Diff(want, allowed); diff != "" {
		t.Errorf("calls let through per key on the healthy primaries, a burst of %d each (-want +got):\n%s", burst, diff)
	}
	// once the primary answers again, its keys are limited again, within hungPause
	deadline := time.Now().Add(hungPause + 5*time.Second)
	for {
		_, err := s.Take(context.Background(), hungKey, time.Now(), ratelimit.Bucket{Rate: 1.0 / 3600, Burst: burst})
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the primary's key still fails after it answers again: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

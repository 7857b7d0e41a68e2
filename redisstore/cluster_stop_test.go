//go:build unix

package redisstore

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcperr/mcperr/ratelimit"
)

// EnvClusterPids names the variable that gives the process of each primary
// of the test cluster, as 127.0.0.1:PORT=PID,...; .ci/cluster.sh sets it.
const EnvClusterPids = "MCPERR_REDIS_CLUSTER_PIDS"

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
// the calls to the hung one in between.
func TestClusterHungPrimaryOnlyItsKeys(t *testing.T) {
	url := clusterURL(t)
	pids := os.Getenv(EnvClusterPids)
	if pids == "" {
		t.Skipf("%s is not set: no primary to stop (see .ci/cluster.sh)", EnvClusterPids)
	}
	victim, pidText, _ := strings.Cut(strings.Split(pids, ",")[0], "=")
	pid, err := strconv.Atoi(pidText)
	if err != nil {
		t.Fatalf("%s=%q: %v", EnvClusterPids, pids, err)
	}
	const timeout = 300 * time.Millisecond
	s, _ := newStoreAt(t, url, Options{Timeout: timeout, LogEvery: time.Hour})
	own := owners(t, s)
	slot := func(k string) int64 {
		cmd := s.client.B().Get().Key(s.key(k)).Build()
		return int64(cmd.Slot())
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

	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	stopped := time.Now()
	cont := sync.OnceFunc(func() {
		if err := syscall.Kill(pid, syscall.SIGCONT); err != nil {
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
	if took > 1500*time.Millisecond {
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

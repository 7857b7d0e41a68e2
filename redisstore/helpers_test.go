package redisstore

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"log"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/redis/rueidis"
)

// EnvURL names the variable that gives the tests a real Redis server, as
// redis://127.0.0.1:PORT/DB; .ci/redis.sh starts one and sets it. Without
// it the tests that need a server are skipped, except under CI=true,
// where they fail.
const EnvURL = "MCPERR_REDIS_URL"

// serverURL returns the URL of the test server, or skips the test.
func serverURL(t testing.TB) string {
	t.Helper()
	return fromEnv(t, EnvURL, "the tests against a real Redis", "no Redis server", ".ci/redis.sh")
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

// syncBuffer is a bytes.Buffer safe for concurrent writes, for a log.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// newStore returns a Store on the test server under a prefix of its own,
// logging to the returned buffer, and closes it when the test ends. A zero
// Timeout is 10 seconds.
func newStore(t testing.TB, o Options) (*Store, *syncBuffer) {
	t.Helper()
	return newStoreAt(t, serverURL(t), o)
}

// newStoreAt is newStore on the server at u.
func newStoreAt(t testing.TB, u string, o Options) (*Store, *syncBuffer) {
	t.Helper()
	if o.Prefix == "" {
		o.Prefix = uniquePrefix(t)
	}
	if o.Timeout == 0 {
		// The tests check counts, not speed, on a machine that may be
		// busy (and under the race detector): a generous timeout.
		o.Timeout = 10 * time.Second
	}
	logs := &syncBuffer{}
	if o.ErrorLog == nil {
		o.ErrorLog = log.New(logs, "", 0)
	}
	s, err := New(context.Background(), u, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s, logs
}

// EnvClusterURL names the variable that gives the tests a real Redis
// Cluster, as redis://127.0.0.1:PORT/0?addr=127.0.0.1:PORT2...;
// .ci/cluster.sh starts one and sets it. Without it the cluster tests are
// skipped, except under CI=true, where they fail.
const EnvClusterURL = "MCPERR_REDIS_CLUSTER_URL"

// clusterURL returns the URL of the test cluster, or skips the test.
func clusterURL(t testing.TB) string {
	t.Helper()
	return fromEnv(t, EnvClusterURL, "the tests against a real Redis Cluster", "no Redis Cluster", ".ci/cluster.sh")
}

// uniquePrefix returns a key prefix no other test uses.
func uniquePrefix(t testing.TB) string {
	var b [6]byte
	rand.Read(b[:])
	return "test:" + t.Name() + ":" + hex.EncodeToString(b[:]) + ":"
}

// admin returns a plain client of the test server, for what the tests do
// behind the store's back.
func admin(t testing.TB) rueidis.Client {
	t.Helper()
	opt, err := ParseURL(serverURL(t))
	if err != nil {
		t.Fatal(err)
	}
	opt.DisableCache = true
	c, err := rueidis.NewClient(opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

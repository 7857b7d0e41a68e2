package mcpserver

import (
	"encoding/json"
	"flag"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcperr/mcperr/examples/internal/fakeclock"
	"github.com/mcperr/mcperr/examples/internal/proc"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// clock is an injected clock tests move by hand.
type clock = fakeclock.Clock

// newClock is a clock at s, an RFC 3339 time.
func newClock(s string) *clock {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return fakeclock.At(t)
}

// testNow is the instant of the seed's insufficient_credits example: 394200
// seconds (4 days 13.5 hours) before the month ends.
const testNow = "2026-11-26T10:30:00Z"

func newTestServer(t *testing.T) (*Server, *clock) {
	t.Helper()
	c := newClock(testNow)
	return mustNew(t, Config{Now: c.Now}), c
}

// mustNew is New, failing the test on a Config New refuses.
func mustNew(tb testing.TB, c Config) *Server {
	tb.Helper()
	s, err := New(c)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// callJSON runs a tool for the key's account (or the local account when key
// is "") and returns the outcome.
func callJSON(t *testing.T, s *Server, key, tool, args string) outcome {
	t.Helper()
	acct := s.local
	if key != "" {
		acct = s.account(key)
		if acct == nil {
			t.Fatalf("no account %q", key)
		}
	}
	tl := s.tool(tool)
	if tl == nil {
		t.Fatalf("no tool %q", tool)
	}
	out := s.call(t.Context(), acct, tl, json.RawMessage(args))
	if out.ok != nil {
		checkOutput(t, tl, out.ok)
	}
	return out
}

var (
	schemaMu sync.Mutex
	compiled = map[string]*jsonschema.Schema{}
)

// checkOutput fails the test when a payload does not match its tool's
// outputSchema.
func checkOutput(t *testing.T, tl *tool, payload any) {
	t.Helper()
	schemaMu.Lock()
	sc := compiled[tl.name]
	if sc == nil {
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(tl.output))
		if err != nil {
			t.Fatalf("%s: outputSchema is not JSON: %v", tl.name, err)
		}
		c := jsonschema.NewCompiler()
		c.AssertFormat()
		if err := c.AddResource("out.json", doc); err != nil {
			t.Fatal(err)
		}
		if sc, err = c.Compile("out.json"); err != nil {
			t.Fatalf("%s: outputSchema does not compile: %v", tl.name, err)
		}
		compiled[tl.name] = sc
	}
	schemaMu.Unlock()
	b, err := json.Marshal(payload)
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.Validate(v); err != nil {
		t.Errorf("%s: structuredContent does not match its outputSchema: %v\n%s", tl.name, err, b)
	}
}

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	proc.Golden(t, filepath.Join("testdata", name), got, *update)
}

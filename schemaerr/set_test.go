package schemaerr_test

import (
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/schemaerr"
)

// TestSet: a Set compiles a tool's schema once per version, prefers Schemas
// over the published schema, sets the limits on what it compiles, keeps a
// compile error as the answer for that version, and forgets what Retain
// drops.
func TestSet(t *testing.T) {
	const obj = `{"type":"object","properties":{"n":{"type":"integer"}}}`
	calls := map[string]int{}
	published := func(name, schema string) func() ([]byte, error) {
		return func() ([]byte, error) {
			calls[name]++
			if schema == "" {
				return nil, errors.New("no schema")
			}
			return []byte(schema), nil
		}
	}
	set := &schemaerr.Set[string]{
		Schemas: map[string]json.RawMessage{"own": json.RawMessage(`{"type":"object","properties":{"n":{"type":"string"}}}`), "empty": {}},
		Bounds:  schemaerr.Bounds{MaxDepth: 7},
	}
	deep := strings.Repeat(`{"n":`, 8) + `1` + strings.Repeat(`}`, 8)
	type step struct {
		name, version, schema string
		wantErr               bool
		wantIssues, wantCalls int
	}
	for i, s := range []step{
		{"a", "1", obj, false, 0, 1},
		{"a", "1", obj, false, 0, 1},     // the same version: compiled once
		{"a", "2", obj, false, 0, 2},     // replaced: compiled again
		{"own", "1", obj, false, 1, 0},   // Schemas wins, published is not called
		{"empty", "1", obj, false, 0, 1}, // an empty Schemas entry is not used
		{"bad", "1", "", true, 0, 1},     // published's error
		{"bad", "1", "", true, 0, 1},     // stays the answer for that version
		{"broken", "1", `{"type":7}`, true, 0, 1},
	} {
		sc, err := set.Schema(s.name, s.version, published(s.name, s.schema))
		if (err != nil) != s.wantErr {
			t.Fatalf("step %d: Schema(%s, %s) error %v; want error %v", i, s.name, s.version, err, s.wantErr)
		}
		if got := calls[s.name]; got != s.wantCalls {
			t.Errorf("step %d: published called %d times for %s; want %d", i, got, s.name, s.wantCalls)
		}
		if err != nil {
			continue
		}
		if is := sc.Validate([]byte(deep)); len(is) != 1 || is[0].Code != "too_deep" {
			t.Errorf("step %d: 8 levels gave %v; want one %s issue (the Set's MaxDepth, 7)", i, is, "too_deep")
		}
		if got := len(sc.Validate([]byte(`{"n":1}`))); got != s.wantIssues {
			t.Errorf("step %d: %d issues; want %d", i, got, s.wantIssues)
		}
	}
	set.Retain(func(name string) bool { return name != "a" })
	if _, err := set.Schema("a", "2", published("a", obj)); err != nil || calls["a"] != 3 {
		t.Errorf("after Retain dropped a: err %v, published called %d times; want compiled again (3)", err, calls["a"])
	}
}

// TestSetConcurrent: calls of several tools at once, under -race, each get
// their own tool's schema, compiled once.
func TestSetConcurrent(t *testing.T) {
	var set schemaerr.Set[int]
	var mu sync.Mutex
	compiled := map[[2]int]int{}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				tool, version := (g+i)%3, 0
				s, err := set.Schema(string(rune('a'+tool)), version, func() ([]byte, error) {
					mu.Lock()
					compiled[[2]int{tool, version}]++
					mu.Unlock()
					return []byte(`{"type":"object","maxProperties":` + string(rune('0'+tool)) + `}`), nil
				})
				if err != nil {
					t.Error(err)
					return
				}
				if got := len(s.Validate([]byte(`{"x":1}`))) == 0; got != (tool >= 1) {
					t.Errorf("tool %d: {\"x\":1} valid %v", tool, got)
				}
			}
		}()
	}
	wg.Wait()
	want := map[[2]int]int{}
	for tool := range 3 {
		want[[2]int{tool, 0}] = 1
	}
	if diff := cmp.Diff(want, compiled); diff != "" {
		t.Errorf("compiles per tool and version (-want +got):\n%s", diff)
	}
}

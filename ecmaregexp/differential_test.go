package ecmaregexp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcperr/mcperr/schemaerr"
)

// diffRun is a capture of schemaerr's differential generator (schemaerr/testdata/zod/
// differential.mjs): random zod tools as the TypeScript SDK publishes them, and its answers.
type diffRun struct {
	Tools map[string]json.RawMessage `json:"tools"`
	Cases []struct {
		Tool        string          `json:"tool"`
		Args        json.RawMessage `json:"arguments"`
		Result      string          `json:"result"`
		Text        string          `json:"text"`
		Undecidable string          `json:"undecidable"`
	} `json:"cases"`
}

// TestDifferential scores schemaerr with this engine against the SDK on the differential
// captures: schemaerr's committed ones, or the files MCPERR_DIFF_FILES globs (the dumps of
// schemaerr's TestDifferential with MCPERR_DIFF_DUMP). With the engine no tool is refused, and
// every case a JSON Schema decides must agree byte for byte. It logs the agreement rate per
// file and for the cases whose tools need the engine.
func TestDifferential(t *testing.T) {
	glob := os.Getenv("MCPERR_DIFF_FILES")
	if glob == "" {
		glob = filepath.Join("..", "schemaerr", "testdata", "differential", "seed-*.json")
	}
	files, err := filepath.Glob(glob)
	if err != nil || len(files) == 0 {
		t.Fatalf("no differential capture matches %s (%v)", glob, err)
	}
	var all, allEngine [2]int // agreed, decided
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var run diffRun
		if err := json.Unmarshal(raw, &run); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		schemas := map[string]*schemaerr.Schema{}
		needs := map[string]bool{}
		for name, sch := range run.Tools {
			if _, err := schemaerr.Compile(sch, nil); err != nil {
				needs[name] = true
			}
			s, err := schemaerr.Compile(sch, &schemaerr.Options{Patterns: Engine{}})
			if err != nil {
				t.Errorf("%s: tool %s is refused with the engine: %v", f, name, err)
				continue
			}
			schemas[name] = s
		}
		var agreed, decided, eAgreed, eDecided, misses int
		for _, c := range run.Cases {
			if c.Undecidable != "" || schemas[c.Tool] == nil {
				continue
			}
			got := schemaerr.TypeScript.Refuse(c.Tool, schemas[c.Tool].Validate(c.Args)).Text
			decided++
			if needs[c.Tool] {
				eDecided++
			}
			if got == c.Text {
				agreed++
				if needs[c.Tool] {
					eAgreed++
				}
				continue
			}
			if misses++; misses <= 20 {
				t.Errorf("%s: %s %s\n  schema: %s\n  sdk:       %q\n  schemaerr: %q", filepath.Base(f), c.Tool, c.Args, run.Tools[c.Tool], c.Text, got)
			}
		}
		t.Logf("%s: %s; tools that need the engine: %s", filepath.Base(f), rate(agreed, decided), rate(eAgreed, eDecided))
		all[0] += agreed
		all[1] += decided
		allEngine[0] += eAgreed
		allEngine[1] += eDecided
	}
	t.Logf("all: %s; tools that need the engine: %s", rate(all[0], all[1]), rate(allEngine[0], allEngine[1]))
}

func rate(agreed, decided int) string {
	return fmt.Sprintf("%d/%d = %.3f%% of decidable cases", agreed, decided, 100*float64(agreed)/float64(max(decided, 1)))
}

package schemaerr

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// undecidable lists what a JSON Schema cannot express: zod features whose published schema is
// the same as another zod schema's that answers the same arguments with other text. Each has its
// evidence in testdata/differential/undecidable.json (written by testdata/zod/undecidable.mjs),
// which TestUndecidableEvidence checks. The generator marks a case with one of these names when
// its answer depends on the feature (the same tool built without it answers otherwise); the
// differential test leaves those cases out of its agreement rate.
var undecidable = []string{
	"refine",                  // a refinement runs code the schema does not carry
	"custom message",          // a check's own message replaces zod's words
	"check order",             // zod reports in the order the checks were chained; the schema has no order
	"coerce",                  // z.coerce.number() takes "5"; it publishes {"type":"number"}
	"trim",                    // .trim() measures the trimmed string; it publishes the same lengths
	"toLowerCase",             // .toLowerCase() checks the lowered string; it publishes the same pattern
	"min equal max",           // .length(3) says "exactly 3", .min(3).max(3) says "<=3"; both publish 3 and 3
	"regex flags",             // /x/i and /x/ publish the same source; zod matches and prints with the flags
	"format overwritten",      // a later startsWith or regex replaces url's format; url still checks
	"repeated check",          // .regex(r).regex(r) publishes r once; zod reports it twice
	"union of equal branches", // z.union([z.boolean(), z.boolean()]) publishes {"type":"boolean"}; it says "Invalid input"
}

// diffRun is what testdata/zod/differential.mjs writes: random tools as the SDK publishes them
// and its answers to random near-valid calls.
type diffRun struct {
	Seed  int                        `json:"seed"`
	Tools map[string]json.RawMessage `json:"tools"`
	Cases []diffCase                 `json:"cases"`
}

type diffCase struct {
	Tool        string          `json:"tool"`
	Args        json.RawMessage `json:"arguments"`
	Result      string          `json:"result"`
	Text        string          `json:"text,omitempty"`
	Undecidable string          `json:"undecidable,omitempty"`
}

// diffScore counts one run's cases.
type diffScore struct {
	cases, undecided, decided, agreed int
	engine                            int // cases of tools whose patterns need ecmaModule
	valid, validAgreed                int
	misses                            []string
}

func (s diffScore) String() string {
	return fmt.Sprintf("%d cases, %d undecidable, %d need the ECMAScript engine (scored in ecmaregexp); agreement %d/%d = %.3f%% of decidable cases (valid arguments %d/%d, rejections %d/%d)",
		s.cases, s.undecided, s.engine, s.agreed, s.decided, 100*float64(s.agreed)/float64(max(s.decided, 1)),
		s.validAgreed, s.valid, s.agreed-s.validAgreed, s.decided-s.valid)
}

// score runs every case of a run through schemaerr, in sdk's dialect, and compares byte for
// byte with the SDK.
func score(t testing.TB, run diffRun, sdk *sdk) diffScore {
	t.Helper()
	schemas := map[string]*Schema{}
	errs := map[string]error{}
	for name, raw := range run.Tools {
		s, err := Compile(raw, nil)
		if err != nil {
			errs[name] = err
			continue
		}
		schemas[name] = s
	}
	var sc diffScore
	for _, c := range run.Cases {
		sc.cases++
		if c.Undecidable != "" {
			if !slices.Contains(undecidable, c.Undecidable) {
				t.Errorf("case of %s names %q, which is not in the undecidable list", c.Tool, c.Undecidable)
			}
			sc.undecided++
			continue
		}
		var pe *PatternError
		if errors.As(errs[c.Tool], &pe) && strings.Contains(pe.Reason, ecmaModule) {
			sc.engine++
			continue
		}
		sc.decided++
		if c.Result == "ok" {
			sc.valid++
		}
		var got string
		if err := errs[c.Tool]; err != nil {
			got = "Compile: " + err.Error()
		} else if s, ok := schemas[c.Tool]; !ok {
			got = "tool not published"
		} else if is := s.Validate(c.Args); is != nil {
			got = sdk.text(c.Tool, is)
		}
		if got == c.Text {
			sc.agreed++
			if c.Result == "ok" {
				sc.validAgreed++
			}
			continue
		}
		sc.misses = append(sc.misses, fmt.Sprintf("%s %s\n  schema: %s\n  sdk:       %q\n  schemaerr: %q", c.Tool, c.Args, run.Tools[c.Tool], c.Text, got))
	}
	return sc
}

func readDiffRun(t testing.TB, raw []byte) diffRun {
	t.Helper()
	var run diffRun
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&run); err != nil {
		t.Fatal(err)
	}
	return run
}

func reportMisses(t *testing.T, sc diffScore) {
	t.Helper()
	for i, m := range sc.misses {
		if i == 20 {
			t.Errorf("... and %d more", len(sc.misses)-20)
			break
		}
		t.Errorf("differs from the SDK: %s", m)
	}
}

// TestDifferentialCapture checks the committed differential runs (testdata/differential/seed-*.json,
// captured from the SDK by testdata/zod/differential.mjs, and testdata/differential/sdk2/seed-*.json,
// the same from the TypeScript SDK 2.x) without node: every decidable case byte for byte.
func TestDifferentialCapture(t *testing.T) {
	for _, sdk := range []*sdk{sdk1, sdk2} {
		dir := filepath.Join("testdata", "differential")
		if sdk == sdk2 {
			dir = filepath.Join(dir, "sdk2")
		}
		files, err := filepath.Glob(filepath.Join(dir, "seed-*.json"))
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			t.Fatalf("no committed differential run in %s", dir)
		}
		for _, f := range files {
			t.Run(sdk.name+"/"+filepath.Base(f), func(t *testing.T) {
				raw, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				sc := score(t, readDiffRun(t, raw), sdk)
				t.Log(sc)
				reportMisses(t, sc)
			})
		}
	}
}

// TestUndecidableEvidence checks the evidence for each entry of the undecidable list: two zod
// schemas that publish the same JSON Schema and answer the same arguments differently.
func TestUndecidableEvidence(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "differential", "undecidable.json"))
	if err != nil {
		t.Fatal(err)
	}
	type side struct {
		Tool        string          `json:"tool"`
		InputSchema json.RawMessage `json:"inputSchema"`
		Result      string          `json:"result"`
		Text        string          `json:"text"`
	}
	var ev map[string]struct {
		Args json.RawMessage `json:"arguments"`
		A    side            `json:"a"`
		B    side            `json:"b"`
	}
	if err := json.Unmarshal(raw, &ev); err != nil {
		t.Fatal(err)
	}
	var cats []string
	for cat, e := range ev {
		cats = append(cats, cat)
		if !jsonEqual(e.A.InputSchema, e.B.InputSchema) {
			t.Errorf("%s: the two schemas publish different JSON Schemas:\n%s\n%s", cat, e.A.InputSchema, e.B.InputSchema)
		}
		a := strings.TrimPrefix(e.A.Text, textPrefix+e.A.Tool)
		b := strings.TrimPrefix(e.B.Text, textPrefix+e.B.Tool)
		if a == b && e.A.Result == e.B.Result {
			t.Errorf("%s: both schemas answer %s alike (%q): not evidence", cat, e.Args, a)
		}
	}
	sort.Strings(cats)
	want := slices.Clone(undecidable)
	sort.Strings(want)
	if diff := cmp.Diff(want, cats); diff != "" {
		t.Errorf("the undecidable list and its evidence differ (-list +evidence):\n%s", diff)
	}
}

// TestDifferential generates random zod tool schemas and near-valid arguments with the real
// TypeScript SDK (testdata/zod/differential.mjs, node) and checks that schemaerr answers every
// decidable case as the SDK does, byte for byte. It needs node, so it runs only when
// MCPERR_NODE=1; MCPERR_DIFF_SEEDS (comma-separated, default "1,2") and MCPERR_DIFF_TOOLS (tools
// per seed, default 40, 10 calls each) size it. It logs the agreement rate of each seed:
//
//	MCPERR_NODE=1 go test -run TestDifferential$ -v ./schemaerr
//	MCPERR_NODE=1 MCPERR_DIFF_SEEDS=1,2,3,4,5 MCPERR_DIFF_TOOLS=1000 go test -run TestDifferential$ -v -timeout 30m ./schemaerr
func TestDifferential(t *testing.T) { differential(t, sdk1) }

// TestDifferential2 is TestDifferential against the TypeScript SDK 2.x (testdata/zod2) in its
// dialect, [TypeScriptV2]: the same generator, its imports mapped onto the 2.x packages.
//
//	MCPERR_NODE=1 go test -run TestDifferential2$ -v ./schemaerr
func TestDifferential2(t *testing.T) { differential(t, sdk2) }

func differential(t *testing.T, sdk *sdk) {
	if os.Getenv("MCPERR_NODE") != "1" {
		t.Skip("set MCPERR_NODE=1 to run the differential test against the TypeScript SDK with node")
	}
	if testing.Short() {
		t.Skip("-short: not running the TypeScript SDK harness")
	}
	node, dir := zodHarness(t, sdk)
	seeds := strings.Split(envOr("MCPERR_DIFF_SEEDS", "1,2"), ",")
	tools := envOr("MCPERR_DIFF_TOOLS", "40")
	var total diffScore
	for _, seed := range seeds {
		if _, err := strconv.Atoi(seed); err != nil {
			t.Fatalf("MCPERR_DIFF_SEEDS: %q is not a number", seed)
		}
		t.Run("seed-"+seed, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, node, "differential.mjs", seed, tools, "10")
			cmd.Dir = dir
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("node differential.mjs: %v\n%s", err, stderr.Bytes())
			}
			if dump := os.Getenv("MCPERR_DIFF_DUMP"); dump != "" {
				if err := os.WriteFile(filepath.Join(dump, "seed-"+seed+".json"), out, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			sc := score(t, readDiffRun(t, out), sdk)
			if dump := os.Getenv("MCPERR_DIFF_DUMP"); dump != "" {
				if err := os.WriteFile(filepath.Join(dump, "seed-"+seed+".misses.txt"), []byte(strings.Join(sc.misses, "\n")), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			t.Logf("seed %s: %v", seed, sc)
			total.cases += sc.cases
			total.engine += sc.engine
			total.undecided += sc.undecided
			total.decided += sc.decided
			total.agreed += sc.agreed
			total.valid += sc.valid
			total.validAgreed += sc.validAgreed
			reportMisses(t, sc)
		})
	}
	t.Logf("all seeds: %v", total)
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

package main

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/ecmaregexp"
	"github.com/mcperr/mcperr/schemaerr"
)

// Every base validates against its schema before any mistake is added, and
// is what a typical client sends: a union's most specific type first, an
// enum's first value, a string that fits its format and pattern, in nested
// objects and array items too, with the properties if/then and
// dependentRequired ask for.
func TestValidBase(t *testing.T) {
	tests := []struct {
		name, schema, want string
	}{
		{"a union of boolean and string takes the boolean",
			`{"type":"object","properties":{"b":{"type":["boolean","string"]}},"required":["b"]}`, `{"b":false}`},
		{"an anyOf of string and integer takes the integer",
			`{"type":"object","properties":{"n":{"anyOf":[{"type":"string"},{"type":"integer","minimum":3}]}},"required":["n"]}`, `{"n":3}`},
		{"an enum's first value",
			`{"type":"object","properties":{"o":{"type":"string","enum":["desc","asc"]}},"required":["o"]}`, `{"o":"desc"}`},
		{"a pattern in a nested object",
			`{"type":"object","properties":{"repo":{"type":"object","properties":{"owner":{"type":"string","pattern":"^[0-9]{3}-[a-z]+$"}},"required":["owner"]}},"required":["repo"]}`, `{"repo":{"owner":"000-a"}}`},
		{"a pattern in array items",
			`{"type":"object","properties":{"ids":{"type":"array","minItems":1,"items":{"type":"string","pattern":"^[A-F0-9]{4}$"}}},"required":["ids"]}`, `{"ids":["AAAA"]}`},
		{"a format",
			`{"type":"object","properties":{"u":{"type":"string","format":"uri"},"d":{"type":"string","format":"date"}},"required":["u","d"]}`, `{"d":"2026-01-01","u":"https://example.com/"}`},
		{"a pattern the builder cannot read, met by a common shape",
			`{"type":"object","properties":{"s":{"type":"string","pattern":"^(?=.*[0-9])[a-z0-9]+$"}},"required":["s"]}`, `{"s":"a1"}`},
		{"dependentRequired adds the property it requires",
			`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"required":["a"],"dependentRequired":{"a":["b"]}}`, `{"a":"a","b":1}`},
		{"if/then adds the property the then requires",
			`{"type":"object","properties":{"kind":{"const":"file"}},"required":["kind"],"if":{"properties":{"kind":{"const":"file"}}},"then":{"required":["path"],"properties":{"path":{"type":"string","minLength":2}}}}`, `{"kind":"file","path":"aa"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := argProbes("t", []byte(tt.schema))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(p.base)); diff != "" {
				t.Errorf("base (-want +got):\n%s", diff)
			}
			s, err := schemaerr.Compile([]byte(tt.schema), &schemaerr.Options{Patterns: ecmaregexp.Engine{}})
			if err != nil {
				t.Fatal(err)
			}
			if issues := s.Validate(p.base); len(issues) > 0 {
				t.Errorf("the base %s is refused: %v", p.base, issues)
			}
			for _, pr := range p.probes {
				if len(s.Validate(pr.args)) == 0 {
					t.Errorf("%s: %s is allowed", pr.name, pr.args)
				}
			}
		})
	}
}

// A schema no base can satisfy is reported as such, not probed.
func TestNoValidBase(t *testing.T) {
	for _, schema := range []string{
		`{"type":"object","properties":{"a":{"type":"string","minLength":3,"maxLength":2}},"required":["a"]}`,
		`{"type":"object","properties":{"a":{"type":"string","pattern":"^x{3}y(?<=zzz)$"}},"required":["a"]}`,
	} {
		_, err := argProbes("t", []byte(schema))
		var nb *noBaseError
		if !errors.As(err, &nb) {
			t.Errorf("%s: error %v, want a *noBaseError", schema, err)
		}
	}
}

// The codes a revision forbids: JSON-RPC's reserved codes it does not
// define, under every revision; under 2026-07-28 the legacy -32000 to
// -32019 and any code of -32020 to -32099 the revision does not define.
func TestCodeRule(t *testing.T) {
	tests := []struct {
		rev    string
		code   int
		reason string // "" when allowed; else a word of the reason
	}{
		{"2025-11-25", -32601, ""},
		{"2025-11-25", -32000, ""},
		{"2025-11-25", -32029, ""},
		{"2025-11-25", -32500, "reserved"},
		{"2026-07-28", -32602, ""},
		{"2026-07-28", -32000, "legacy"},
		{"2026-07-28", -32019, "legacy"},
		{"2026-07-28", -32020, ""},
		{"2026-07-28", -32022, ""},
		{"2026-07-28", -32029, "MUST NOT"},
		{"2026-07-28", -32099, "MUST NOT"},
		{"2026-07-28", 1001, ""},
		{"2026-07-28", -31999, ""},
	}
	for _, tt := range tests {
		got := codeRule(tt.rev, tt.code)
		if (got == "") != (tt.reason == "") || !strings.Contains(got, tt.reason) {
			t.Errorf("codeRule(%s, %d) = %q, want one saying %q", tt.rev, tt.code, got, tt.reason)
		}
	}
	f := codeFindings("2026-07-28", []check{{Tool: "t", Probe: "null: a", Code: -32029}, {Probe: "unknown method (2025-11-25)", Code: -32029, Revision: "2025-11-25"}})
	if len(f) != 1 || !strings.Contains(f[0], "-32029 under 2026-07-28") {
		t.Errorf("findings %q, want one for -32029 under 2026-07-28", f)
	}
}

// -junit writes a suite with a case per check and a failure per check not
// ok; -baseline fails only on a check that was ok and is not now.
func TestJUnitAndBaseline(t *testing.T) {
	dir := t.TempDir()
	junit, base := filepath.Join(dir, "audit.xml"), filepath.Join(dir, "base.json")
	server := append([]string{"--"}, testServer(t, "gosdk")...)
	code, out, stderr := audit(t, append([]string{"-json", "-junit", junit, "-tools", "lookup"}, server...)...)
	if code != 0 {
		t.Fatalf("exit status %d: %s", code, stderr)
	}
	var r report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	x, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	var parsed junitSuites
	if err := xml.Unmarshal(x, &parsed); err != nil || len(parsed.Suites) != 1 {
		t.Fatalf("the JUnit report does not parse as one suite: %v", err)
	}
	failures := 0
	for _, c := range r.Checks {
		if !c.OK {
			failures++
		}
	}
	if n := strings.Count(string(x), "<testcase "); n != len(r.Checks) {
		t.Errorf("%d test cases, want %d", n, len(r.Checks))
	}
	if n := strings.Count(string(x), "<failure "); n != failures {
		t.Errorf("%d failures, want %d", n, failures)
	}
	// The same server against its own report: no regression, exit 0.
	os.WriteFile(base, []byte(out), 0o644)
	if code, _, stderr := audit(t, append([]string{"-baseline", base, "-tools", "lookup"}, server...)...); code != 0 {
		t.Errorf("against its own baseline: exit status %d: %s", code, stderr)
	}
	// A baseline in which a failing check was ok: a regression, exit 1.
	for i := range r.Checks {
		if !r.Checks[i].OK {
			r.Checks[i].OK = true
			break
		}
	}
	b, _ := json.Marshal(r)
	os.WriteFile(base, b, 0o644)
	if code, _, stderr := audit(t, append([]string{"-baseline", base, "-tools", "lookup"}, server...)...); code != 1 || !strings.Contains(stderr, "regression") {
		t.Errorf("against a better baseline: exit status %d, want 1 naming the regression: %s", code, stderr)
	}
}

// -deadline bounds the whole audit, and the error names the step it
// stopped at.
func TestDeadline(t *testing.T) {
	code, _, stderr := audit(t, append([]string{"-deadline", "1ms", "--"}, testServer(t, "gosdk")...)...)
	if code != 2 || !strings.Contains(stderr, "connect") || !strings.Contains(stderr, "-deadline") {
		t.Errorf("exit status %d, stderr %q: want 2 naming the step and the deadline", code, stderr)
	}
}

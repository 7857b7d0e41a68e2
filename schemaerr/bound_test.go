package schemaerr_test

import (
	"encoding/json"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/schemaerr"
)

// recordOfLists is a record of string arrays: each key's value must be an array of strings.
const recordOfLists = `{"type":"object","properties":{"r":{"type":"object","additionalProperties":{"type":"array","items":{"type":"string"}}}}}`

// wrongItems writes {"r":{"<key>":[1,1,...]}} with a key of keyLen bytes and n wrong items.
func wrongItems(keyLen, n int) []byte {
	return []byte(`{"r":{"` + strings.Repeat("k", keyLen) + `":[` + strings.TrimSuffix(strings.Repeat("1,", n), ",") + `]}}`)
}

// allocated returns the bytes f allocates, counted by the runtime.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// hintText is the message of the hint dialect's error.
func hintText(t *testing.T, issues []schemaerr.Issue) string {
	t.Helper()
	r := schemaerr.Hint.Refuse("t", issues)
	if r.Error == nil {
		t.Fatalf("Hint.Refuse = %+v; want a *wire.RPCError", r)
	}
	return r.Error.Message
}

// TestRefusalBounded: a small call with a long key and many wrong items (the red team's 62 KiB
// POST: one 32,000-byte key, 16,760 wrong items) gets a refusal of at most 64 KiB and a few
// bytes in every dialect, not one copy of the key per issue (494 MiB), and validating it and
// writing the three refusals allocates a small multiple of its size, counted. A 1 MiB call with
// a 500,000-byte key allocates a small multiple of its size in Validate.
func TestRefusalBounded(t *testing.T) {
	s, err := schemaerr.Compile([]byte(recordOfLists), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name        string
		keyLen, n   int
		maxAnswer   int // bytes of each dialect's text
		maxAlloc    int // bytes allocated by Validate and the three dialects
		wantIssues  int // issues Validate returns: MaxIssues, then the one that counts the rest
		wantLeftOut int
	}{
		{"62 KiB", 32000, 16760, 66 << 10, 5 << 19, 101, 16660},
		{"1 MiB", 500000, 270000, 66 << 10, 16 << 20, 101, 269900},
	} {
		t.Run(tt.name, func(t *testing.T) {
			args := wrongItems(tt.keyLen, tt.n)
			var is []schemaerr.Issue
			var text, text2, hint string
			alloc := allocated(func() {
				is = s.Validate(args)
				text, text2, hint = schemaerr.TypeScript.Refuse("t", is).Text, schemaerr.TypeScriptV2.Refuse("t", is).Text, hintText(t, is)
			})
			if len(is) != tt.wantIssues || is[len(is)-1].Code != "more_issues" ||
				is[len(is)-1].Message != "and "+strconv.Itoa(tt.wantLeftOut)+" more issues" {
				last := is[len(is)-1]
				t.Errorf("%d issues, the last %s %q; want %d, the last more_issues counting %d", len(is), last.Code, last.Message, tt.wantIssues, tt.wantLeftOut)
			}
			for name, answer := range map[string]string{"TypeScript": text, "TypeScriptV2": text2, "Hint": hint} {
				if len(answer) > tt.maxAnswer {
					t.Errorf("%s of a %d-byte call: %d bytes; want at most %d", name, len(args), len(answer), tt.maxAnswer)
				}
				if !strings.Contains(answer, "more issues") {
					t.Errorf("%s does not say issues were left out: %.200q...", name, answer[max(0, len(answer)-200):])
				}
			}
			if alloc > uint64(tt.maxAlloc) {
				t.Errorf("validating %d bytes and writing the refusals allocated %d bytes; want at most %d", len(args), alloc, tt.maxAlloc)
			}
			t.Logf("%d bytes of arguments: %d issues, TypeScript %d bytes, TypeScriptV2 %d, Hint %d; %d bytes allocated", len(args), len(is), len(text), len(text2), len(hint), alloc)
		})
	}
}

// TestRefusalCut: past MaxIssues, the list ends with one issue counting the rest, which each
// dialect words at its end: a last line (TypeScript), a last item (TypeScriptV2), a last sentence (Hint).
// Within the bound the text is the SDK's, issue for issue.
func TestRefusalCut(t *testing.T) {
	s, err := schemaerr.Compile([]byte(`{"type":"object","properties":{"a":{"type":"array","items":{"type":"string"}}}}`), &schemaerr.Options{Bounds: schemaerr.Bounds{MaxIssues: 2}})
	if err != nil {
		t.Fatal(err)
	}
	is := s.Validate(json.RawMessage(`{"a":[1,2,3,4,5]}`))
	got := []string{schemaerr.TypeScript.Refuse("t", is).Text, schemaerr.TypeScriptV2.Refuse("t", is).Text, hintText(t, is)}
	want := []string{
		"MCP error -32602: Input validation error: Invalid arguments for tool t: Invalid input: expected string, received number at a[0]\n" +
			"Invalid input: expected string, received number at a[1]\nand 3 more issues",
		"Input validation error: Invalid arguments for tool t: a.0: Invalid input: expected string, received number, " +
			"a.1: Invalid input: expected string, received number, and 3 more issues",
		"Invalid value for 'a[0]': must be a string. Invalid value for 'a[1]': must be a string. And 3 more issues.",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// within the bound: no count, the SDK's text
	s, _ = schemaerr.Compile([]byte(`{"type":"object","properties":{"a":{"type":"array","items":{"type":"string"}}}}`), &schemaerr.Options{Bounds: schemaerr.Bounds{MaxIssues: 5}})
	if got := schemaerr.TypeScript.Refuse("t", s.Validate(json.RawMessage(`{"a":[1,2,3,4,5]}`))).Text; strings.Contains(got, "more issues") || strings.Count(got, "\n") != 4 {
		t.Errorf("5 issues within a bound of 5:\n%s", got)
	}
}

// TestRefusalBytesCut: a refusal's issues take at most 64 KiB: the issues that do not fit are
// counted at the end, and a first issue longer alone is cut at a character, with "…".
func TestRefusalBytesCut(t *testing.T) {
	s, err := schemaerr.Compile([]byte(recordOfLists), nil)
	if err != nil {
		t.Fatal(err)
	}
	is := s.Validate(wrongItems(30000, 5)) // 5 issues of 30 KB each
	text := schemaerr.TypeScript.Refuse("t", is).Text
	if lines := strings.Split(text, "\n"); len(lines) != 3 || lines[2] != "and 3 more issues" {
		t.Errorf("5 issues of 30 KB: %d lines, the last %q; want 2 issues and \"and 3 more issues\"", len(lines), lines[len(lines)-1])
	}
	is = s.Validate([]byte(`{"r":{"` + strings.Repeat("é", 40000) + `":[1,2]}}`)) // 80 KB each
	for _, got := range []string{schemaerr.TypeScript.Refuse("t", is).Text, schemaerr.TypeScriptV2.Refuse("t", is).Text, hintText(t, is)} {
		if len(got) > 65<<10 || !strings.Contains(got, "…") || !strings.HasSuffix(got, "and 1 more issues") && !strings.HasSuffix(got, "And 1 more issues.") {
			t.Errorf("two issues of 80 KB: %d bytes ending %q", len(got), got[max(0, len(got)-40):])
		}
	}
}

package schemaerr_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/schemaerr"
)

// slowEngine stands in for an ECMAScript engine on a hostile pattern: every pattern (each needs
// lookahead, "^(?=x)...") matches the strings that start with x, after a delay; calls counts
// the matches run.
type slowEngine struct {
	delay time.Duration
	calls *atomic.Int64
}

func (e slowEngine) Compile(pattern string, unicode bool) (schemaerr.Matcher, error) {
	return slowMatcher(e), nil
}

type slowMatcher slowEngine

func (m slowMatcher) MatchString(s string) bool {
	m.calls.Add(1)
	time.Sleep(m.delay)
	return strings.HasPrefix(s, "x")
}

// list writes n JSON strings: "v0", "v1", ...
func list(n int, format func(i int) string) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = format(i)
	}
	return strings.Join(parts, ",")
}

// TestPatternOncePerValue: a pattern runs once on each value it applies to, in every place a
// pattern applies, although Validate passes over refused arguments twice (a quick pass that
// stops at the first failure, then the pass that words every issue) and a union probes its
// branches before it words the one it picks.
func TestPatternOncePerValue(t *testing.T) {
	const n = 40
	str := func(i int) string { return `"v` + strconv.Itoa(i) + `"` }
	member := func(i int) string { return `"k` + strconv.Itoa(i) + `":1` }
	tests := []struct {
		name, schema, args string
		values             int // the strings the pattern applies to, each refused
	}{
		{"items", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"string","pattern":"^(?=x)"}}}}`,
			`{"a":[` + list(n, str) + `]}`, n},
		{"propertyNames", `{"type":"object","properties":{"a":{"type":"object","propertyNames":{"pattern":"^(?=x)"}}}}`,
			`{"a":{` + list(n, member) + `}}`, n},
		{"patternProperties", `{"type":"object","properties":{"a":{"type":"object","patternProperties":{"^(?=x)":{"type":"string"}},"additionalProperties":{"type":"string"}}}}`,
			`{"a":{` + list(n, member) + `}}`, n},
		{"a union's branch", `{"type":"object","properties":{"a":{"type":"array","items":{"anyOf":[{"type":"string","pattern":"^(?=x)"},{"type":"number"}]}}}}`,
			`{"a":[` + list(n, str) + `]}`, n},
		{"a string under nested unions", `{"type":"object","properties":{"a":{"anyOf":[{"anyOf":[{"type":"string","pattern":"^(?=x)"},{"type":"null"}]},{"type":"number"}]}}}`,
			`{"a":"v"}`, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int64
			s, err := schemaerr.Compile([]byte(tt.schema), &schemaerr.Options{Patterns: slowEngine{calls: &calls}})
			if err != nil {
				t.Fatal(err)
			}
			is := s.Validate(json.RawMessage(tt.args))
			if len(is) != tt.values {
				t.Errorf("%d issues; want %d: %v", len(is), tt.values, is)
			}
			if got := calls.Load(); got != int64(tt.values) {
				t.Errorf("the pattern ran %d times on %d values; want once per value", got, tt.values)
			}
		})
	}
}

// TestDeadlinePerCall: one deadline bounds a call, whatever the number of matches in it: with
// matches of 20 ms each, 40 values are refused soon after the call's 60 ms, not after 40 (or 80)
// times 20 ms, and the refusal is one issue, codeTooSlow, for the arguments as a whole.
func TestDeadlinePerCall(t *testing.T) {
	const delay, maxTime = 20 * time.Millisecond, 60 * time.Millisecond
	str := func(i int) string { return `"v` + strconv.Itoa(i) + `"` }
	member := func(i int) string { return `"k` + strconv.Itoa(i) + `":1` }
	for _, tt := range []struct{ name, schema, args string }{
		{"items", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"string","pattern":"^(?=x)"}}}}`, `{"a":[` + list(40, str) + `]}`},
		{"propertyNames", `{"type":"object","properties":{"a":{"type":"object","propertyNames":{"pattern":"^(?=x)"}}}}`, `{"a":{` + list(40, member) + `}}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int64
			s, err := schemaerr.Compile([]byte(tt.schema), &schemaerr.Options{Patterns: slowEngine{delay: delay, calls: &calls}, Bounds: schemaerr.Bounds{MaxTime: maxTime}})
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			is := s.Validate(json.RawMessage(tt.args))
			took := time.Since(start)
			want := []string{"too_slow"}
			var got []string
			for _, x := range is {
				got = append(got, x.Code)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("issue codes (-want +got):\n%s", diff)
			}
			// the deadline, the match running at it, and room for a loaded machine
			if took > maxTime+delay+300*time.Millisecond || calls.Load() > 10 {
				t.Errorf("Validate took %v and %d matches; want it to stop soon after %v", took, calls.Load(), maxTime)
			}
		})
	}
}

// TestTooSlowWording: a call refused for its time is worded in each dialect as the refusals for
// size are: the TypeScript SDK's one sentence after the tool's name (1.x and 2.x), and the hint
// dialect's "Invalid arguments: ..." with data.code invalid_parameter.
func TestTooSlowWording(t *testing.T) {
	var calls atomic.Int64
	s, err := schemaerr.Compile([]byte(`{"type":"object","properties":{"a":{"type":"array","items":{"type":"string","pattern":"^(?=x)"}}}}`), &schemaerr.Options{Patterns: slowEngine{delay: 5 * time.Millisecond, calls: &calls}, Bounds: schemaerr.Bounds{MaxTime: 1500 * time.Microsecond}})
	if err != nil {
		t.Fatal(err)
	}
	is := s.Validate(json.RawMessage(`{"a":["v","v2"]}`))
	if got, want := schemaerr.TypeScript.Refuse("vexlo_search", is).Text, "MCP error -32602: Invalid arguments for tool vexlo_search: arguments take longer to validate than the maximum of 1.5 ms"; got != want {
		t.Errorf("TypeScript:\n got %q\nwant %q", got, want)
	}
	if got, want := schemaerr.TypeScriptV2.Refuse("vexlo_search", is).Text, "Invalid arguments for tool vexlo_search: arguments take longer to validate than the maximum of 1.5 ms"; got != want {
		t.Errorf("TypeScriptV2:\n got %q\nwant %q", got, want)
	}
	rpc := schemaerr.Hint.Refuse("vexlo_search", is).Error
	if rpc == nil {
		t.Fatal("Hint.Refuse gave no *wire.RPCError")
	}
	b, _ := json.Marshal(rpc)
	if got, want := string(b), `{"code":-32602,"message":"Invalid arguments: arguments take longer to validate than the maximum of 1.5 ms.","data":{"code":"invalid_parameter"}}`; got != want {
		t.Errorf("Hint:\n got %s\nwant %s", got, want)
	}
	s, _ = schemaerr.Compile([]byte(`{}`), &schemaerr.Options{Bounds: schemaerr.Bounds{MaxBytes: 4}})
	if got, want := schemaerr.TypeScript.Refuse("t", s.Validate(json.RawMessage(`{"a":1}`))).Text, "MCP error -32602: Invalid arguments for tool t: arguments are larger than the maximum of 4 bytes"; got != want {
		t.Errorf("the size refusal beside it:\n got %q\nwant %q", got, want)
	}
}

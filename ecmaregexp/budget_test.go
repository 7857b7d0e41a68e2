package ecmaregexp

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcperr/mcperr/schemaerr"
)

// TestHostileCall: a pattern that backtracks catastrophically costs a call the time schemaerr
// gives a call's engine matches together (250 ms), not one timeout per match: 40 hostile items
// (1.3 KB) or 40 hostile propertyNames keys are refused whole ("too_slow") soon after, where a
// timeout per match, run twice per value, took 8 s and 16 s.
func TestHostileCall(t *testing.T) {
	hostile := strings.Repeat("a", 30) + "!"
	items := make([]string, 40)
	members := make([]string, 40)
	for i := range items {
		items[i] = `"` + hostile + `"`
		members[i] = `"` + hostile + strconv.Itoa(i) + `":1`
	}
	for _, tt := range []struct{ name, schema, args string }{
		{"items", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"string","pattern":"^(a+)+(?=b)$"}}}}`,
			`{"a":[` + strings.Join(items, ",") + `]}`},
		{"propertyNames", `{"type":"object","properties":{"a":{"type":"object","propertyNames":{"pattern":"^(a+)+(?=b)$"}}}}`,
			`{"a":{` + strings.Join(members, ",") + `}}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, err := schemaerr.Compile([]byte(tt.schema), &schemaerr.Options{Patterns: Engine{}})
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			is := s.Validate([]byte(tt.args))
			took := time.Since(start)
			if len(is) != 1 || is[0].Code != "too_slow" {
				t.Errorf("%d issues (%v); want one %s", len(is), is, "too_slow")
			}
			// the 250 ms deadline, the match running at it (100 ms, read on a 100 ms clock),
			// and room for a loaded machine
			if took > 1500*time.Millisecond {
				t.Errorf("Validate took %v; want about 250 to 450 ms", took)
			}
			t.Logf("%s: refused after %v", tt.name, took)
		})
	}
}

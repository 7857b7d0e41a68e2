package ecmaregexp

import (
	"strings"
	"testing"
	"time"

	"github.com/mcperr/mcperr/schemaerr"
)

// The patterns RE2 cannot run match as JavaScript matches them.
func TestMatch(t *testing.T) {
	tests := []struct {
		pattern string
		unicode bool
		match   []string
		nomatch []string
	}{
		// a password rule: lookahead
		{`^(?=.*[A-Z])(?=.*\d).{8,}$`, false, []string{"Password1", "Pässword1"}, []string{"password1", "PASSWORD", "Pa1"}},
		{`^(?!test)[a-z]+$`, false, []string{"prod"}, []string{"testing", "Prod"}},
		// backreferences, named and numbered
		{`^(\w)\1$`, false, []string{"aa"}, []string{"ab", "a"}},
		{`^(?<q>['"]).*\k<q>$`, false, []string{`"a"`, `'b'`}, []string{`"a'`}},
		// lookbehind
		{`(?<=\$)\d+`, false, []string{"$12"}, []string{"12", "€12"}},
		{`^(?<!x)y`, false, []string{"y"}, []string{"xy"}},
		// without the u flag "." is one UTF-16 unit: an emoji is two
		{`^(?=.).$`, false, []string{"a", "é"}, []string{"😀", ""}},
		{`^(?=.)..$`, false, []string{"😀", "ab"}, []string{"a"}},
		{`^(?=😀)😀$`, false, []string{"😀"}, []string{"x"}},
		// with it, one code point
		{`^(?=\p{Lu}).$`, true, []string{"É", "A"}, []string{"é"}},
		{`^(?=.).$`, true, []string{"😀"}, []string{"ab"}},
		// "." is not a line terminator
		{`^(?=a).$`, false, []string{"a"}, nil},
		{`^(?!\n).$`, false, []string{"b"}, []string{"\n", "\r", "\u2028"}},
	}
	for _, tt := range tests {
		m, err := Engine{}.Compile(tt.pattern, tt.unicode)
		if err != nil {
			t.Errorf("Compile(%q): %v", tt.pattern, err)
			continue
		}
		for _, s := range tt.match {
			if !m.MatchString(s) {
				t.Errorf("%q does not match %q", tt.pattern, s)
			}
		}
		for _, s := range tt.nomatch {
			if m.MatchString(s) {
				t.Errorf("%q matches %q", tt.pattern, s)
			}
		}
	}
}

// A pattern that backtracks catastrophically stops at the timeout and refuses the value.
func TestTimeout(t *testing.T) {
	m, err := Engine{Timeout: 20 * time.Millisecond}.Compile(`^(a+)+(?=b)$`, false)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if m.MatchString(strings.Repeat("a", 40) + "!") {
		t.Error("a timed-out match reported a match")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the match ran %v, past its 20ms timeout", d)
	}
}

func TestCompileError(t *testing.T) {
	if _, err := (Engine{}).Compile(`(?=a`, false); err == nil {
		t.Error("an unclosed group compiled")
	}
}

// Through schemaerr: a schema with lookahead compiles with the engine and words its failure as zod.
func TestSchema(t *testing.T) {
	schema := []byte(`{"type":"object","properties":{"password":{"type":"string","minLength":8,"pattern":"^(?=.*[A-Z])(?=.*\\d).{8,}$"}},"required":["password"]}`)
	if _, err := schemaerr.Compile(schema, nil); err == nil {
		t.Fatal("schemaerr alone compiled a lookahead")
	}
	s, err := schemaerr.Compile(schema, &schemaerr.Options{Patterns: Engine{}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ args, want string }{
		{`{"password":"Password1"}`, ""},
		{`{"password":"password1"}`, "MCP error -32602: Input validation error: Invalid arguments for tool t: Invalid string: must match pattern /^(?=.*[A-Z])(?=.*\\d).{8,}$/ at password"},
	}
	for _, tt := range tests {
		if got := schemaerr.TypeScript.Refuse("t", s.Validate([]byte(tt.args))).Text; got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.args, got, tt.want)
		}
	}
}

func FuzzCompile(f *testing.F) {
	f.Add(`^(?=.*[A-Z])(?=.*\d).{8,}$`, "Password1", false)
	f.Add(`^(\w)\1$`, "aa", false)
	f.Add(`(?<=\$)\d+`, "$1", true)
	f.Add(`^😀+$`, "😀😀", false)
	f.Fuzz(func(t *testing.T, pattern, s string, unicode bool) {
		m, err := Engine{Timeout: 10 * time.Millisecond}.Compile(pattern, unicode)
		if err != nil {
			return
		}
		m.MatchString(s)
	})
}

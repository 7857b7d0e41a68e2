package envelope

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var challengeSeeds = []string{
	`Bearer realm="example", error="invalid_token", error_description="The access token expired"`,
	`Bearer error="insufficient_scope", scope="repo"`,
	`Basic realm="api", Bearer realm="x", ERROR=invalid_request, Error_Description="say \"please\""`,
	`Negotiate abc==, Bearer error="invalid_token"`,
	`Bearer error="unterminated`, `=`, `==,=`, `Bearer error=`, ``, `Bearer   error  =  "x"`,
}

// TestChallengeError: RFC 6750's error and error_description parameters,
// in any challenge, any case, as a token or a quoted-string.
func TestChallengeError(t *testing.T) {
	want := [][2]string{
		{"invalid_token", "The access token expired"},
		{"insufficient_scope", ""},
		{"invalid_request", `say "please"`},
		{"invalid_token", ""},
		{"unterminated", ""},
		{"", ""}, {"", ""}, {"", ""}, {"", ""},
		{"x", ""},
	}
	for i, s := range challengeSeeds {
		c, d := challengeError(s)
		if diff := cmp.Diff(want[i], [2]string{c, d}); diff != "" {
			t.Errorf("challengeError(%q) (-want +got):\n%s", s, diff)
		}
	}
}

// FuzzChallengeError: the parser ends on any input, and what it returns
// is a part of the field, escapes removed.
func FuzzChallengeError(f *testing.F) {
	for _, s := range challengeSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		c, d := challengeError(v)
		if len(c) > len(v) || len(d) > len(v) {
			t.Fatalf("%q gave %q, %q", v, c, d)
		}
		if !strings.ContainsAny(v, `"\`) && (!strings.Contains(v, c) || !strings.Contains(v, d)) {
			t.Fatalf("%q gave %q, %q, not parts of it", v, c, d)
		}
	})
}

package adaptertest

import (
	"strings"

	"github.com/mcperr/mcperr/schemaerr"
)

// Lookahead stands for ecmaregexp.Engine, which an adapter's tests need
// not import, as Options.Patterns: it runs every pattern RE2 refuses as
// "does not start with secret", which is what a schema means by
// ^(?!secret).
type Lookahead struct{}

// Compile returns Lookahead, whatever the pattern.
func (Lookahead) Compile(string, bool) (schemaerr.Matcher, error) { return Lookahead{}, nil }

// MatchString reports whether s does not start with "secret".
func (Lookahead) MatchString(s string) bool { return !strings.HasPrefix(s, "secret") }

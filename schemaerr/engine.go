package schemaerr

// ECMAModule is the module that runs, through [WithPatterns], the ECMAScript patterns Go's RE2
// cannot: lookahead, lookbehind and backreferences.
const ECMAModule = "github.com/mcperr/mcperr/ecmaregexp"

// Option configures [Compile].
type Option func(*config)

type config struct {
	patterns PatternEngine
}

// PatternEngine compiles the ECMAScript patterns that Go's RE2 cannot run (lookahead, lookbehind,
// backreferences), so that a schema using them compiles instead of failing with a
// *[PatternError]. The module github.com/mcperr/mcperr/ecmaregexp provides one.
type PatternEngine interface {
	// Compile compiles pattern as JavaScript's RegExp does with no flags, or with the u flag when
	// unicode is true (the pattern uses \p{...} or \u{...}, which need it).
	Compile(pattern string, unicode bool) (Matcher, error)
}

// Matcher is a compiled pattern.
type Matcher interface {
	// MatchString reports what JavaScript's RegExp.prototype.test reports for s: without the u
	// flag it matches UTF-16 code units, so "." is half of an emoji. A match that cannot finish
	// (a timeout) reports false: the value is refused.
	MatchString(s string) bool
}

// WithPatterns has Compile run the patterns RE2 cannot through e. Patterns RE2 runs stay on RE2.
func WithPatterns(e PatternEngine) Option {
	return func(c *config) { c.patterns = e }
}

// engineRegexp is a pattern run by a PatternEngine.
type engineRegexp struct {
	src string
	m   Matcher
}

func (r *engineRegexp) String() string            { return r.src }
func (r *engineRegexp) MatchString(s string) bool { return r.m.MatchString(s) }

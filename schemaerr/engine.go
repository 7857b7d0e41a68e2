package schemaerr

import "unicode/utf16"

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
	// unicode is true. Without the u flag JavaScript matches UTF-16 code units: schemaerr then
	// passes strings to the Matcher with each character beyond U+FFFF as its two surrogates
	// (see [UTF16Runes]).
	Compile(pattern string, unicode bool) (Matcher, error)
}

// Matcher is a compiled pattern.
type Matcher interface {
	// MatchRunes reports whether the pattern matches somewhere in s, given as runes (UTF-16 code
	// units without the u flag). A match that cannot finish (a timeout) reports false: the value
	// is refused.
	MatchRunes(s []rune) bool
}

// WithPatterns has Compile run the patterns RE2 cannot through e. Patterns RE2 runs stay on RE2.
func WithPatterns(e PatternEngine) Option {
	return func(c *config) { c.patterns = e }
}

// engineRegexp is a pattern run by a PatternEngine.
type engineRegexp struct {
	src     string
	m       Matcher
	unicode bool
}

func (r *engineRegexp) String() string { return r.src }

func (r *engineRegexp) MatchString(s string) bool {
	if r.unicode {
		return r.m.MatchRunes([]rune(s))
	}
	return r.m.MatchRunes(UTF16Runes(s))
}

// UTF16Runes is s as JavaScript sees a string without the u flag: one rune per UTF-16 code unit,
// a character beyond U+FFFF as its two surrogates.
func UTF16Runes(s string) []rune {
	out := make([]rune, 0, len(s))
	for _, c := range s {
		if c > 0xffff {
			hi, lo := utf16.EncodeRune(c)
			out = append(out, hi, lo)
			continue
		}
		out = append(out, c)
	}
	return out
}

package ecmaregexp

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/dlclark/regexp2/v2"

	"github.com/mcperr/mcperr/schemaerr"
)

// DefaultTimeout bounds one match when Engine.Timeout is zero: far beyond what a pattern that
// does not backtrack takes on any string an argument holds, and short beside schemaerr's
// deadline for a whole call, which a match started before it may overrun by this much.
const DefaultTimeout = 100 * time.Millisecond

// Engine is a schemaerr.PatternEngine on regexp2's ECMAScript mode. The zero value is ready to
// use.
type Engine struct {
	// Timeout bounds each match; 0 means DefaultTimeout. A match that runs out of time reports
	// no match, so the argument is refused rather than the server stalled.
	Timeout time.Duration
}

var _ schemaerr.PatternEngine = Engine{}

// Compile compiles an ECMAScript pattern, with the u flag's meaning when unicode is true.
func (e Engine) Compile(pattern string, unicode bool) (schemaerr.Matcher, error) {
	opts := regexp2.ECMAScript
	src := pattern
	if unicode {
		opts |= regexp2.Unicode
	} else {
		src = surrogateEscapes(pattern)
	}
	re, err := regexp2.Compile(src, opts)
	if err != nil {
		return nil, fmt.Errorf("ecmaregexp: %w", err)
	}
	re.MatchTimeout = e.Timeout
	if re.MatchTimeout <= 0 {
		re.MatchTimeout = DefaultTimeout
	}
	return matcher{re: re, units: !unicode}, nil
}

type matcher struct {
	re    *regexp2.Regexp
	units bool // no u flag: match UTF-16 code units
}

// MatchString reports whether the pattern matches in s as JavaScript's test does; a timeout is
// no match. Without the u flag a string with a character beyond U+FFFF is matched as its UTF-16
// code units (each a rune); other strings have one unit per code point and match as they are.
func (m matcher) MatchString(s string) bool {
	var ok bool
	var err error
	if m.units && hasAstral(s) {
		ok, err = m.re.MatchRunes(utf16Runes(s))
	} else {
		ok, err = m.re.MatchString(s)
	}
	return ok && err == nil
}

// hasAstral reports whether s has a character beyond U+FFFF (four bytes in UTF-8).
func hasAstral(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0xf0 {
			return true
		}
	}
	return false
}

// utf16Runes is s with each character beyond U+FFFF as its two surrogates.
func utf16Runes(s string) []rune {
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

// surrogateEscapes writes each character beyond U+FFFF of a pattern without the u flag as the
// escapes of its two UTF-16 surrogates, the units JavaScript then matches it as.
func surrogateEscapes(p string) string {
	if !strings.ContainsFunc(p, func(r rune) bool { return r > 0xffff }) {
		return p
	}
	var b strings.Builder
	for _, r := range p {
		if r > 0xffff {
			hi, lo := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04X\u%04X`, hi, lo)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

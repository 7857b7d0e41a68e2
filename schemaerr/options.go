package schemaerr

import (
	"math"
	"strconv"
	"time"
)

// ecmaModule is the module that runs, through [Options].Patterns, the ECMAScript patterns Go's
// RE2 cannot: lookahead, lookbehind and backreferences.
const ecmaModule = "github.com/mcperr/mcperr/ecmaregexp"

// Options configures [Compile]; a [Set] holds the same fields and passes them on. The zero
// Options, like a nil *Options, is every default.
type Options struct {
	// Bounds bound the arguments the Schema validates, and the work it takes; the zero Bounds
	// is every default.
	Bounds Bounds

	// Patterns runs the patterns RE2 cannot (lookahead, lookbehind, backreferences), such as
	// ecmaregexp.Engine{}; patterns RE2 runs stay on RE2. Nil leaves a schema with such a
	// pattern failing to compile with a *[PatternError].
	Patterns PatternEngine
}

// Bounds bound the arguments of one call and the work of validating them. Arguments over a
// bound, or whose validation does more work than MaxWork, are refused whole with one issue (see
// [Schema.Validate]). A zero field means its default; the zero Bounds is every default.
type Bounds struct {
	// MaxBytes bounds the size of the arguments in bytes. The default, 1 MiB, is far above
	// what a tool's arguments hold (a few KiB) and keeps one call's work within MaxWork.
	MaxBytes int
	// MaxDepth bounds how deep objects and arrays nest; the top-level object is depth 1. The
	// default, 64, is deeper than any schema a tool publishes.
	MaxDepth int
	// MaxElements bounds the array elements and object members of the arguments, counted as
	// the TypeScript SDK's maxToolInputElements option counts them. The default is no bound,
	// as in the SDK: MaxBytes and MaxWork bound the work.
	MaxElements int
	// MaxWork bounds the work of validating one call, whatever the schema, counted in steps
	// (a keyword applied to a value, 16 bytes of a string matched or hashed, a segment of a
	// path copied into an issue): checking whether the arguments are valid may take ten times
	// MaxWork, wording the refusal of invalid ones MaxWork more; past either the call is
	// refused (codeTooSlow), worded as the time the steps stand for at 100 ns each. The count
	// does not depend on the machine or its load: the same call is refused, or accepted,
	// everywhere. The default, 2,500,000 steps ("250 ms"), gives the check ten times the work
	// of the costliest valid 1 MiB of arguments measured (see "The cost of a call" in the
	// package doc).
	MaxWork int
	// MaxIssues bounds the issues Validate returns: past it the list ends with one issue
	// saying how many more there are (see [Schema.Validate]). The default is 100.
	MaxIssues int
	// MaxTime, when set, bounds the wall-clock time of one call: validation that runs past it
	// stops and the call is refused (codeTooSlow), whatever the work counted. It is an outer
	// guard, off by default, since a busy machine meets it on valid calls. The work of a
	// pattern on an ECMAScript engine (Options.Patterns) cannot be counted: those matches are
	// timed instead, and one call's matches together may take at most MaxTime, or 250 ms
	// when MaxTime is not set.
	MaxTime time.Duration
}

// The defaults of Bounds, explained on its fields.
const (
	defaultMaxBytes   = 1 << 20
	defaultMaxDepth   = 64
	defaultMaxWork    = 2_500_000
	defaultMaxIssues  = 100
	defaultEngineTime = 250 * time.Millisecond
)

// stepTime is the time a step of MaxWork stands for in the refusal's wording.
const stepTime = 100 * time.Nanosecond

// orDefaults is l with each zero (or negative) field set to its default; a MaxTime of zero
// stays zero (no clock but the engine's).
func (l Bounds) orDefaults() Bounds {
	if l.MaxBytes <= 0 {
		l.MaxBytes = defaultMaxBytes
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = defaultMaxDepth
	}
	if l.MaxElements < 0 {
		l.MaxElements = 0
	}
	if l.MaxWork <= 0 {
		l.MaxWork = defaultMaxWork
	}
	l.MaxWork = min(l.MaxWork, math.MaxInt/(4*checkWork)) // no budget overflows

	if l.MaxIssues <= 0 {
		l.MaxIssues = defaultMaxIssues
	}
	if l.MaxTime < 0 {
		l.MaxTime = 0
	}
	return l
}

// durationText writes a duration in a refusal: "250 ms", "1.5 s".
func durationText(d time.Duration) string {
	if d < time.Second {
		return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', -1, 64) + " ms"
	}
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " s"
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

// engineRegexp is a pattern run by a PatternEngine.
type engineRegexp struct {
	src string
	m   Matcher
}

func (r *engineRegexp) String() string            { return r.src }
func (r *engineRegexp) MatchString(s string) bool { return r.m.MatchString(s) }

package schemaerr

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/internal/sdktext"
	"github.com/mcperr/mcperr/wire"
)

// zod's own issue codes, the Code of an Issue the schema refused: what the
// TypeScript SDK's validation names each violation.
const (
	codeInvalidType      = "invalid_type"      // wrong type, or a required property absent
	codeInvalidValue     = "invalid_value"     // not one of an enum's values, or not the const
	codeInvalidUnion     = "invalid_union"     // no branch of anyOf/oneOf fits (or two of oneOf)
	codeInvalidFormat    = "invalid_format"    // a pattern or format mismatch
	codeTooBig           = "too_big"           // above maximum, maxLength, maxItems, ...
	codeTooSmall         = "too_small"         // below minimum, minLength, minItems, ...
	codeNotMultipleOf    = "not_multiple_of"   // multipleOf
	codeUnrecognizedKeys = "unrecognized_keys" // keys additionalProperties: false refuses
	codeInvalidKey       = "invalid_key"       // a key propertyNames refuses
	codeCustom           = "custom"            // not, uniqueItems, contains
)

// The codes of an Issue for arguments refused whole, before or instead of
// validation, for what they are rather than for a keyword of the schema.
const (
	codeInvalidJSON     = "invalid_json"      // the arguments are not one JSON value
	codeTooLarge        = "too_large"         // the arguments exceed Bounds.MaxBytes
	codeTooDeep         = "too_deep"          // the arguments nest deeper than Bounds.MaxDepth
	codeTooManyElements = "too_many_elements" // the arguments hold more elements and members than Bounds.MaxElements
	codeTooSlow         = "too_slow"          // validating the arguments takes more work than Bounds.MaxWork (or time than MaxTime)
)

// refusedWhole reports whether issues of code refuse the arguments as a whole, not one value of
// them: the SDK words them as one sentence after the tool's name.
func refusedWhole(code string) bool {
	switch code {
	case codeInvalidJSON, codeTooLarge, codeTooDeep, codeTooManyElements, codeTooSlow:
		return true
	}
	return false
}

// Issue is one reason the arguments were rejected.
type Issue struct {
	// Path locates the value: property names (string) and array indices (int), outermost first.
	// It is empty for an issue about the arguments as a whole.
	Path []any
	// Code is zod's issue code ("invalid_type", "invalid_value", "invalid_union",
	// "invalid_format", "too_big", "too_small", "not_multiple_of",
	// "unrecognized_keys", "invalid_key" or "custom"); for arguments refused
	// whole, one of "invalid_json" (not one JSON value), "too_large" (over
	// Bounds.MaxBytes), "too_deep" (nested deeper than Bounds.MaxDepth),
	// "too_many_elements" (more elements and members than
	// Bounds.MaxElements) or "too_slow" (more work than Bounds.MaxWork, or
	// more time than MaxTime); "more_issues" for the last issue of a list cut
	// at Bounds.MaxIssues ("and N more issues").
	Code string
	// Message is the text zod gives the issue, without the path: "Too big: expected number to be <=100".
	Message string
	// Keys are the unknown keys of an unrecognized_keys issue, in the order the arguments list them.
	Keys []string

	n       *node  // the schema that raised it
	check   string // what failed: "min", "max", "xmin", "xmax", "int", "safe", "pattern", "enum", ...
	missing bool   // the value is a required property that is absent
	more    int    // for the issue that ends a cut list (codeMore), the issues left out
}

// String is the issue as the TypeScript SDK prints it: the message, then " at " and the path.
func (i Issue) String() string {
	if len(i.Path) == 0 {
		return i.Message
	}
	return i.Message + " at " + dotPath(i.Path)
}

// dotPath writes a path as the TypeScript SDK does: the first segment as it is, then ".name"
// for a property and "[n]" for an array index: "filter.window.hours", "tags[2]".
func dotPath(path []any) string {
	return string(appendPath(nil, path))
}

// The TypeScript SDK's text frames are errkind's, which clients read with.
const (
	textPrefix    = sdktext.InvalidArgumentsPrefix
	refusalPrefix = sdktext.ArgumentsRefusedPrefix
)

// The TypeScript SDK 2.x's frames.
const (
	textPrefix2    = sdktext.InvalidArgumentsPrefix2
	refusalPrefix2 = sdktext.ArgumentsRefusedPrefix2
)

// maxText bounds the bytes the issues of one refusal take in every dialect ([TypeScript],
// [TypeScriptV2], [Hint]), so that a small call cannot get an answer thousands of times its size.
const maxText = 64 << 10

// moreText is the words, in every dialect, for n issues left out of a refusal.
func moreText(n int) string { return "and " + strconv.Itoa(n) + " more issues" }

// writeIssues appends issues to b, sep between them, each as one writes it, within maxText
// bytes: an issue that does not fit, and every one after it, is left out and counted, and
// the list ends with sep and last(n) for the n left out (those the list's own "more_issues"
// issue counts too). A first issue longer than maxText alone is cut at a character and ends
// with "…".
func writeIssues(b []byte, issues []Issue, sep string, one func([]byte, Issue) []byte, last func(int) string) []byte {
	start := len(b)
	for k, is := range issues {
		if is.Code == codeMore || k > 0 && len(b)-start+len(sep)+issueLen(is) > maxText {
			return append(append(b, sep...), last(left(issues[k:]))...)
		}
		if k > 0 {
			b = append(b, sep...)
		}
		if b = one(b, is); len(b)-start > maxText {
			cut := start + maxText
			for cut > start && !utf8.RuneStart(b[cut]) {
				cut--
			}
			b = append(b[:cut], "…"...)
			if rest := issues[k+1:]; len(rest) > 0 {
				b = append(append(b, sep...), last(left(rest))...)
			}
			return b
		}
	}
	return b
}

// left counts the issues of a list: one each, and for the list's own "more_issues" issue
// those it stands for.
func left(issues []Issue) int {
	n := 0
	for _, is := range issues {
		n += max(1, is.more)
	}
	return n
}

// issueLen is at least the bytes an issue takes in any dialect: its message and its path's
// segments.
func issueLen(is Issue) int {
	n := len(is.Message)
	for _, seg := range is.Path {
		if s, ok := seg.(string); ok {
			n += len(s)
		}
	}
	return n
}

// text is the TypeScript dialect's refusal of issues in the arguments of a call to tool (see
// [TypeScript]); "" for no issues.
func text(tool string, issues []Issue) string {
	if len(issues) == 0 {
		return ""
	}
	if len(issues) == 1 && refusedWhole(issues[0].Code) {
		return refusalPrefix + tool + ": " + issues[0].Message
	}
	b := make([]byte, 0, textSize(textPrefix, tool, issues))
	b = append(b, textPrefix...)
	b = append(b, tool...)
	b = append(b, ": "...)
	b = writeIssues(b, issues, "\n", func(b []byte, is Issue) []byte {
		b = append(b, is.Message...)
		if len(is.Path) > 0 {
			b = append(b, " at "...)
			b = appendPath(b, is.Path)
		}
		return b
	}, moreText)
	return string(b)
}

// textSize is about the size of a refusal, for its buffer: at most maxText of issues.
func textSize(prefix, tool string, issues []Issue) int {
	n := len(prefix) + len(tool) + 2
	for _, is := range issues {
		n += len(is.Message) + 4 + 8*len(is.Path)
		if n > maxText {
			return maxText + 64
		}
	}
	return n
}

// textV2 is the TypeScriptV2 dialect's refusal of issues in the arguments of a call to tool
// (see [TypeScriptV2]); "" for no issues.
func textV2(tool string, issues []Issue) string {
	if len(issues) == 0 {
		return ""
	}
	if len(issues) == 1 && refusedWhole(issues[0].Code) {
		return refusalPrefix2 + tool + ": " + issues[0].Message
	}
	b := make([]byte, 0, textSize(textPrefix2, tool, issues))
	b = append(b, textPrefix2...)
	b = append(b, tool...)
	b = append(b, ": "...)
	b = writeIssues(b, issues, ", ", func(b []byte, is Issue) []byte {
		for j, seg := range is.Path {
			if j > 0 {
				b = append(b, '.')
			}
			switch seg := seg.(type) {
			case int:
				b = strconv.AppendInt(b, int64(seg), 10)
			case string:
				b = append(b, seg...)
			}
		}
		if len(is.Path) > 0 {
			b = append(b, ": "...)
		}
		return append(b, is.Message...)
	}, moreText)
	return string(b)
}

// unknownToolV2 is the TypeScript SDK 2.x's answer to a call to a tool it does not have: a
// JSON-RPC error, code -32602, message "Tool <tool> not found".
func unknownToolV2(tool string) *wire.RPCError {
	return &wire.RPCError{Code: errkind.InvalidParams, Message: sdktext.UnknownToolPrefix2 + tool + sdktext.UnknownToolSuffix}
}

// appendPath appends path to b as dotPath returns it.
func appendPath(b []byte, path []any) []byte {
	for k, seg := range path {
		switch seg := seg.(type) {
		case int:
			if k > 0 {
				b = append(b, '[')
			}
			b = strconv.AppendInt(b, int64(seg), 10)
			if k > 0 {
				b = append(b, ']')
			}
		case string:
			if k > 0 {
				b = append(b, '.')
			}
			b = append(b, seg...)
		}
	}
	return b
}

// unknownTool is the TypeScript SDK's text for a call to a tool it does not have: "MCP error
// -32602: Tool <tool> not found".
func unknownTool(tool string) string {
	return sdktext.UnknownTool(tool)
}

// jsNumber formats f as JavaScript's Number.prototype.toString does: 100, 2.5, 0.5, 1e+21, 1e-7.
func jsNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		return "0"
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	// shortest round-trip digits and exponent, then ECMAScript's layout rules
	e := strconv.FormatFloat(math.Abs(f), 'e', -1, 64) // d.ddddde±XX
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	n := x + 1 // position of the decimal point relative to the digits
	k := len(digits)
	var s string
	switch {
	case k <= n && n <= 21:
		s = digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		s = digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		s = "0." + strings.Repeat("0", -n) + digits
	default:
		sign := "+"
		if n-1 < 0 {
			sign = "-"
		}
		ex := n - 1
		if ex < 0 {
			ex = -ex
		}
		if k == 1 {
			s = digits + "e" + sign + strconv.Itoa(ex)
		} else {
			s = digits[:1] + "." + digits[1:] + "e" + sign + strconv.Itoa(ex)
		}
	}
	if f < 0 {
		return "-" + s
	}
	return s
}

package schemaerr

import (
	"math"
	"strconv"
	"strings"

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
	CodeInvalidJSON     = "invalid_json"      // the arguments are not one JSON value
	CodeTooLarge        = "too_large"         // the arguments exceed Bounds.MaxBytes
	CodeTooDeep         = "too_deep"          // the arguments nest deeper than Bounds.MaxDepth
	CodeTooManyElements = "too_many_elements" // the arguments hold more elements and members than Bounds.MaxElements
	CodeTooSlow         = "too_slow"          // validating the arguments takes longer than Bounds.MaxTime
)

// The package's own spellings of the refusal codes.
const (
	codeInvalidJSON     = CodeInvalidJSON
	codeTooLarge        = CodeTooLarge
	codeTooDeep         = CodeTooDeep
	codeTooManyElements = CodeTooManyElements
	codeTooSlow         = CodeTooSlow
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
	// "unrecognized_keys", "invalid_key" or "custom"), or for arguments refused
	// whole CodeInvalidJSON, CodeTooLarge, CodeTooDeep, CodeTooManyElements or CodeTooSlow.
	Code string
	// Message is the text zod gives the issue, without the path: "Too big: expected number to be <=100".
	Message string
	// Keys are the unknown keys of an unrecognized_keys issue, in the order the arguments list them.
	Keys []string

	n       *node  // the schema that raised it
	check   string // what failed: "min", "max", "xmin", "xmax", "int", "safe", "pattern", "enum", ...
	missing bool   // the value is a required property that is absent
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
	var b strings.Builder
	writePath(&b, path)
	return b.String()
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

// Text is the rejection text the TypeScript SDK sends for a tool whose arguments failed
// validation: "MCP error -32602: Input validation error: Invalid arguments for tool <tool>: "
// followed by the issues, one per line. Arguments refused whole (for their size, their
// shape or the time validating them takes) get the SDK's maxToolInputElements wording instead:
// "MCP error -32602: Invalid arguments for tool <tool>: arguments contain more than the maximum
// of N elements". Text of no issues is "".
func Text(tool string, issues []Issue) string {
	if len(issues) == 0 {
		return ""
	}
	if len(issues) == 1 && refusedWhole(issues[0].Code) {
		return refusalPrefix + tool + ": " + issues[0].Message
	}
	n := len(textPrefix) + len(tool) + 2
	for _, is := range issues {
		n += len(is.Message) + 1
		if len(is.Path) > 0 {
			n += 4 + 8*len(is.Path)
		}
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(textPrefix)
	b.WriteString(tool)
	b.WriteString(": ")
	for k, is := range issues {
		if k > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(is.Message)
		if len(is.Path) > 0 {
			b.WriteString(" at ")
			writePath(&b, is.Path)
		}
	}
	return b.String()
}

// Text2 is [Text] in the wording of the TypeScript SDK 2.x (@modelcontextprotocol/server), whose
// isError tool result says "Input validation error: Invalid arguments for tool <tool>: " and then
// the issues on one line, separated by ", ", each its path first: "<path>: <message>", the path's
// segments joined by "." (array indices too: "tags.2"), or the message alone for an issue about
// the arguments as a whole:
//
//	Input validation error: Invalid arguments for tool get_values: path: Too big: expected array to have <=8 items, limit: Too big: expected number to be <=100
//
// Arguments refused whole (for their size, their shape or the time validating them takes) read
// "Invalid arguments for tool <tool>: arguments contain more than the maximum of N elements".
// Text2 of no issues is "".
func Text2(tool string, issues []Issue) string {
	if len(issues) == 0 {
		return ""
	}
	if len(issues) == 1 && refusedWhole(issues[0].Code) {
		return refusalPrefix2 + tool + ": " + issues[0].Message
	}
	n := len(textPrefix2) + len(tool) + 2
	for _, is := range issues {
		n += len(is.Message) + 2 + 8*len(is.Path)
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(textPrefix2)
	b.WriteString(tool)
	b.WriteString(": ")
	for k, is := range issues {
		if k > 0 {
			b.WriteString(", ")
		}
		for j, seg := range is.Path {
			if j > 0 {
				b.WriteByte('.')
			}
			switch seg := seg.(type) {
			case int:
				b.WriteString(strconv.Itoa(seg))
			case string:
				b.WriteString(seg)
			}
		}
		if len(is.Path) > 0 {
			b.WriteString(": ")
		}
		b.WriteString(is.Message)
	}
	return b.String()
}

// UnknownTool2 is the TypeScript SDK 2.x's answer to a call to a tool it does not have: not a
// tool result but a JSON-RPC error, code -32602, message "Tool <tool> not found". The error is a
// *wire.RPCError, which errors.As finds.
func UnknownTool2(tool string) error {
	return &wire.RPCError{Code: errkind.InvalidParams, Message: sdktext.UnknownToolPrefix2 + tool + sdktext.UnknownToolSuffix}
}

// writePath writes path to b as dotPath returns it.
func writePath(b *strings.Builder, path []any) {
	for k, seg := range path {
		switch seg := seg.(type) {
		case int:
			if k == 0 {
				b.WriteString(strconv.Itoa(seg))
			} else {
				b.WriteByte('[')
				b.WriteString(strconv.Itoa(seg))
				b.WriteByte(']')
			}
		case string:
			if k > 0 {
				b.WriteByte('.')
			}
			b.WriteString(seg)
		}
	}
}

// UnknownTool is the text the TypeScript SDK sends for a call to a tool it does not have:
// "MCP error -32602: Tool <tool> not found".
func UnknownTool(tool string) string {
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

package schemaerr

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/wire"
)

// Reject validates args and returns the TypeScript SDK's rejection of them as an isError tool
// result (wire.TextError of [TypeScript]'s refusal text), or nil when they are valid.
func (s *Schema) Reject(tool string, args json.RawMessage) *wire.ToolResult {
	issues := s.Validate(args)
	if issues == nil {
		return nil
	}
	return wire.TextError(text(tool, issues))
}

// Codes of the hint dialect's data.code for arguments the schema refused.
const (
	UnknownParameter = "unknown_parameter" // an argument the schema does not declare
	InvalidParameter = "invalid_parameter" // a value outside its type, enum, range or pattern, or missing
)

// Invalid returns a -32602 error with the given data.code and message: the form of a server's
// own refusal, such as unknown_signal for a name the server does not publish. The error is a
// *wire.RPCError, which errors.As finds, marshalling to exactly
// {"code":-32602,"message":MESSAGE,"data":{"code":CODE}}.
func Invalid(code, message string) error {
	return invalid(code, message)
}

// invalid is [Invalid]'s error as a *wire.RPCError.
func invalid(code, message string) *wire.RPCError {
	return &wire.RPCError{Code: errkind.InvalidParams, Message: message, Data: wire.ErrorData{Code: code}}
}

// Unknown returns a -32602 error (a *wire.RPCError) for a name that is not one of known:
// "Unknown <noun> 'name'." followed by " Did you mean 'x'?" when a known name is close to it (see
// [Suggest]). Unknown(UnknownParameter, "parameter", ...) is the hint for an undeclared argument;
// a server checking its own vocabulary uses its own code: Unknown("unknown_signal", "signal",
// name, published).
func Unknown(code, noun, name string, known []string) error {
	return unknown(code, noun, name, known)
}

// unknown is [Unknown]'s error as a *wire.RPCError.
func unknown(code, noun, name string, known []string) *wire.RPCError {
	msg := "Unknown " + noun + " '" + name + "'."
	if s, ok := Suggest(name, known); ok {
		msg += " Did you mean '" + s + "'?"
	}
	return invalid(code, msg)
}

// Suggest returns the name in known closest to name, when one is close enough to be a likely
// typo: the same name in another case, or within an edit distance (insertions, deletions,
// substitutions and swaps of neighbours) of 1 for names up to 4 characters, 2 up to 8, and 3
// beyond. Ties go to the earlier name in known.
func Suggest(name string, known []string) (string, bool) {
	best, bestD := "", -1
	lower := strings.ToLower(name)
	for _, k := range known {
		if k == name {
			continue
		}
		if strings.ToLower(k) == lower {
			return k, true
		}
		d := editDistance(lower, strings.ToLower(k))
		if bestD < 0 || d < bestD {
			best, bestD = k, d
		}
	}
	n := len([]rune(name))
	limit := 3
	switch {
	case n <= 4:
		limit = 1
	case n <= 8:
		limit = 2
	}
	if bestD < 0 || bestD > limit {
		return "", false
	}
	return best, true
}

// editDistance is the optimal string alignment distance between a and b, in runes.
func editDistance(a, b string) int {
	// more than 256 bytes is more than 64 runes; measured first, a long name costs nothing
	if len(a) > 256 || len(b) > 256 || utf8.RuneCountInString(a) > 64 || utf8.RuneCountInString(b) > 64 {
		if a == b {
			return 0
		}
		return 1 << 20
	}
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// Check validates args, then runs the server's own checks, and answers in the hint dialect
// ([Hint]): nil when the arguments are valid and every check passes, else the -32602
// *wire.RPCError of Hint.Refuse, whose data.code is unknown_parameter or invalid_parameter, or
// the first failing check's own error. A check is a server's own test of arguments the schema
// accepted: it returns nil, or the refusal, typically from [Invalid] or [Unknown] with the
// server's own data.code. Checks run only on arguments the schema accepted.
func (s *Schema) Check(args json.RawMessage, checks ...func(args json.RawMessage) error) error {
	if issues := s.Validate(args); len(issues) > 0 {
		return hints(issues)
	}
	for _, c := range checks {
		if e := c(args); e != nil {
			return e
		}
	}
	return nil
}

// hints is the hint dialect's refusal of issues (see [Hint]); nil for no issues.
func hints(issues []Issue) *wire.RPCError {
	if len(issues) == 0 {
		return nil
	}
	var w hintWriter
	code := InvalidParameter
	for _, is := range issues {
		if is.Code != codeUnrecognizedKeys {
			continue
		}
		code = UnknownParameter
		var known []string
		if is.n != nil {
			for _, p := range is.n.props {
				known = append(known, p.name)
			}
		}
		prefix := ""
		if len(is.Path) > 0 {
			prefix = dotPath(is.Path) + "."
		}
		for _, k := range is.Keys {
			if w.full {
				w.left++
				continue
			}
			msg := "Unknown parameter '" + prefix + k + "'."
			if s, ok := Suggest(k, known); ok {
				msg += " Did you mean '" + prefix + s + "'?"
			}
			w.add(msg)
		}
	}
	for _, is := range issues {
		switch {
		case is.Code == codeUnrecognizedKeys:
		case is.Code == codeMore:
			w.left += is.more
		case w.full:
			w.left++
		default:
			w.add(hintSentence(is))
		}
	}
	if w.left > 0 {
		w.b = append(w.b, " A"...)
		w.b = append(w.b, moreText(w.left)[1:]...)
		w.b = append(w.b, '.')
	}
	return invalid(code, string(w.b))
}

// hintWriter joins the hint dialect's sentences, within maxText bytes: the sentences that do
// not fit are counted in left, and a first sentence longer alone is cut and ends with "…".
type hintWriter struct {
	b    []byte
	full bool
	left int
}

func (w *hintWriter) add(s string) {
	if len(w.b) > 0 && len(w.b)+1+len(s) > maxText {
		w.full = true
		w.left++
		return
	}
	if len(w.b) > 0 {
		w.b = append(w.b, ' ')
	}
	w.b = append(w.b, s...)
	if len(w.b) > maxText {
		cut := maxText
		for cut > 0 && !utf8.RuneStart(w.b[cut]) {
			cut--
		}
		w.b = append(w.b[:cut], "…"...)
		w.full = true
	}
}

func hintSentence(is Issue) string {
	name := dotPath(is.Path)
	if name == "" {
		if refusedWhole(is.Code) {
			return "Invalid arguments: " + is.Message + "."
		}
		return "Invalid arguments: " + lowerFirst(is.Message) + "."
	}
	if is.missing {
		return "Missing required parameter '" + name + "'."
	}
	return "Invalid value for '" + name + "': " + allowed(is) + "."
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// allowed says what a value must be, from the schema that refused it.
func allowed(is Issue) string {
	n := is.n
	switch is.check {
	case "int":
		return "must be an integer"
	case "safe":
		return "must be an integer between -9007199254740991 and 9007199254740991"
	case "enum":
		if len(n.enum) == 1 {
			return "must be " + hintValue(n.enum[0])
		}
		parts := make([]string, len(n.enum))
		for i, v := range n.enum {
			parts[i] = hintValue(v)
		}
		return "must be one of " + strings.Join(parts, ", ")
	case "type":
		switch expectedName(n.types) {
		case "string":
			return "must be a string"
		case "number":
			if n.types&tNumber == 0 {
				return "must be an integer"
			}
			return "must be a number"
		case "boolean":
			return "must be true or false"
		case "array":
			return "must be an array"
		case "object":
			return "must be an object"
		case "null":
			return "must be null"
		}
		return "has the wrong type"
	case "min", "max", "xmin", "xmax":
		switch {
		case strings.Contains(is.Message, "expected number"):
			return numberRange(n)
		case strings.Contains(is.Message, "characters"):
			return sizeRange(n.minLen, n.maxLen, "characters long", "be")
		case strings.Contains(is.Message, "expected array") && strings.Contains(is.Message, "items"):
			return sizeRange(n.minItems, n.maxItems, "items", "have")
		case strings.Contains(is.Message, "properties"):
			return sizeRange(n.minProps, n.maxProps, "properties", "have")
		}
	case "pattern":
		return "must match the pattern /" + jsSource(n.pattern.String()) + "/"
	case "format":
		if rest, ok := strings.CutPrefix(n.msg.pattern, "Invalid string: "); ok {
			return rest // must start with "ab"
		}
		if word, ok := zodFormats[n.format]; ok {
			return "must be a valid " + word
		}
		return "must be a valid " + n.format
	case "multipleOf":
		return "must be a multiple of " + jsNumber(n.multipleOf)
	case "discriminator":
		parts := make([]string, len(n.discVals))
		for i, v := range n.discVals {
			parts[i] = hintValue(v)
		}
		return "must be one of " + strings.Join(parts, ", ")
	case "anyOf", "oneOf":
		return "must match one of its accepted forms"
	}
	return lowerFirst(is.Message)
}

func numberRange(n *node) string {
	lo, hi := "", ""
	switch {
	case n.min != nil:
		lo = jsNumber(*n.min)
	case n.xmin != nil:
		lo = jsNumber(*n.xmin)
	}
	switch {
	case n.max != nil:
		hi = jsNumber(*n.max)
	case n.xmax != nil:
		hi = jsNumber(*n.xmax)
	}
	switch {
	case n.min != nil && n.max != nil:
		return "must be between " + lo + " and " + hi
	case lo != "" && hi != "":
		l, h := "at least "+lo, "at most "+hi
		if n.xmin != nil && n.min == nil {
			l = "greater than " + lo
		}
		if n.xmax != nil && n.max == nil {
			h = "less than " + hi
		}
		return "must be " + l + " and " + h
	case n.min != nil:
		return "must be at least " + lo
	case n.xmin != nil:
		return "must be greater than " + lo
	case n.max != nil:
		return "must be at most " + hi
	case n.xmax != nil:
		return "must be less than " + hi
	}
	return "is out of range"
}

func sizeRange(lo, hi int, unit, verb string) string {
	switch {
	case lo >= 0 && lo == hi:
		return "must " + verb + " exactly " + strconv.Itoa(lo) + " " + unit
	case lo >= 0 && hi >= 0:
		return "must " + verb + " between " + strconv.Itoa(lo) + " and " + strconv.Itoa(hi) + " " + unit
	case lo >= 0:
		return "must " + verb + " at least " + strconv.Itoa(lo) + " " + unit
	case hi >= 0:
		return "must " + verb + " at most " + strconv.Itoa(hi) + " " + unit
	}
	return "has the wrong size"
}

// hintValue writes an allowed value in a hint: strings in single quotes.
func hintValue(v any) string {
	if s, ok := v.(string); ok {
		return "'" + s + "'"
	}
	return jsPrimitive(v)
}

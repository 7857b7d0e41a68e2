package errkind

import (
	"strconv"
	"strings"
	"time"
)

// The client-side reader's general readings: a failure text that no SDK's
// frame claims is read by what it says, whatever SDK or framework wrote
// it. Each reading looks for a fixed set of phrases, in ASCII case, so the
// time stays linear in the text:
//
//   - arguments refused by what the refusal says (a required property
//     missing, a wrong type, a value out of range or not allowed, an
//     unknown property), the argument named however the text names it: a
//     quoted, backticked or bracketed key after or before the phrase, a
//     JSON Pointer ("/filter/hours", "#/a"), a JSONPath ("$.filter.hours"),
//     or a pydantic loc line;
//   - a tool the server does not have ("Unknown tool: x", "Tool x not
//     found", "tool not found", "Invalid tool name: x");
//   - an HTTP status the text carries ("returned 429", "status code 404",
//     "HTTP 503"), a rate limit in words, a wait in words ("retry after
//     30s", "try again in 2 minutes");
//   - a timeout, a cancellation or a closed connection: no answer came
//     back.

// phrase is a phrase of a refusal and where it names the argument at fault.
type phrase struct {
	text  string // lower case
	where int
}

// Where a phrase names the argument.
const (
	nameNone     = iota // it names none
	nameAfter           // a name, or a list of names, follows it
	nameBefore          // a quoted name comes just before it
	nameJSONPath        // it begins a JSONPath: "$.filter.hours: ..."
)

// refusals are the phrases of an argument refusal, in any SDK's words.
var refusals = [...]phrase{
	{" is a required property", nameBefore},                // Python jsonschema
	{" is not defined in the schema", nameBefore},          // networknt: property 'x' is not defined in the schema
	{"additional properties are not allowed (", nameAfter}, // Python jsonschema: ('x' was unexpected)
	{"did not contain a required property of", nameAfter},  // Ruby json-schema
	{"required property", nameAfter},                       // networknt, ajv: required property 'x'
	{"missing required", nameAfter},                        // Missing required arguments: a, b
	{"required argument", nameAfter},                       // mcp-go: required argument "id" not found
	{"required parameter", nameAfter},                      // mcperr's hint dialect
	{"missing field", nameAfter},                           // serde: missing field `b`
	{"unknown field", nameAfter},                           // serde: unknown field `c`
	{"unknown parameter", nameAfter},                       // mcperr's hint dialect
	{"unknown property", nameAfter},
	{"unknown argument", nameAfter},
	{"unrecognized key(s) in object:", nameAfter}, // zod 3
	{"unrecognized key", nameAfter},               // zod 4
	{"invalid argument", nameAfter},               // Quarkus: Invalid argument [a]
	{"invalid value for", nameAfter},              // mcperr's hint dialect
	{"the property ", nameAfter},                  // Ruby json-schema: The property '#/a' ...
	{"property ", nameAfter},                      // PHP: Property '/a': ...
	{"validation error", nameNone},
	{"validation failed", nameNone},
	{"invalid parameter", nameNone},
	{"invalid params", nameNone},
	{"failed to deserialize parameters", nameNone}, // rmcp
	{"is not of type", nameNone},
	{"input should be", nameNone}, // pydantic
	{"field required", nameNone},  // pydantic
	{"unexpected keyword argument", nameNone},
	{"extra inputs are not permitted", nameNone},
	{"unable to convert value", nameNone},
	{"is greater than the maximum", nameNone},
	{"is less than the minimum", nameNone},
	{"is not one of", nameNone},
	{"$.", nameJSONPath},
}

// lower returns s in ASCII lower case, s itself when it has no upper case.
func lower(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// readRefused reads a refusal of arguments in any SDK's words, adding the
// arguments it names to r.Args; it reports whether text is one. low is
// text in lower case.
func readRefused(r *Reading, text, low string) bool {
	pydantic, arguments := pydanticModel(text, low)
	if pydantic && !arguments {
		return false // a model of the tool's own data failed: the server's fault
	}
	var args argSet
	for _, a := range r.Args {
		args.add(r, a) // keep what a reader before found, without repeats
	}
	add := func(n string) { args.add(r, argPath(n)) }
	// The phrases are found in the order of the text, so the arguments
	// are too: next[k] is where phrase k occurs next, and each step takes
	// the first; every phrase's search only moves forward.
	var next [len(refusals)]int
	find := func(k, from int) {
		if i := strings.Index(low[from:], refusals[k].text); i >= 0 {
			next[k] = from + i
		} else {
			next[k] = -1
		}
	}
	for k := range refusals {
		find(k, 0)
	}
	found := false
	for {
		k := -1
		for j, i := range next {
			if i >= 0 && (k < 0 || i < next[k]) {
				k = j
			}
		}
		if k < 0 {
			break
		}
		p, i := refusals[k], next[k]
		end := i + len(p.text)
		from := end
		switch {
		case p.where == nameJSONPath:
			if j, ok := jsonPathAt(text, i); ok {
				add(text[i+2 : j])
				found = true
				from = j
			}
		case (p.text == "property " || p.text == "the property ") && !isPointerNext(text[end:]):
			// "property" alone says too little; PHP's and Ruby's are
			// followed by a quoted pointer.
		case p.where == nameAfter:
			found = true
			from = max(from, names(text[end:], end, add))
		case p.where == nameBefore:
			found = true
			if n, ok := quotedBefore(text[:i]); ok {
				add(n)
			}
		default:
			found = true
		}
		find(k, from)
	}
	if locLines(text, low, add) {
		found = true
	}
	return found
}

// isPointerNext reports whether s starts with a quoted JSON Pointer.
func isPointerNext(s string) bool {
	return len(s) > 1 && (s[0] == '\'' || s[0] == '"') && (s[1] == '/' || s[1] == '#')
}

// names reads the name or names that follow a phrase: after spaces, an
// "s", a ":" and a word such as "argument" or "properties", a quoted,
// backticked or bracketed name, or a list of them (or of bare names)
// separated by ", " or " or ". It calls f with each and returns the offset,
// base plus the bytes it read.
func names(s string, base int, f func(string)) int {
	i := 0
	skip := func() {
		for i < len(s) && (s[i] == ' ' || s[i] == ':' || s[i] == '(') {
			i++
		}
	}
	switch {
	case strings.HasPrefix(s, "ies"):
		i = 3
	case strings.HasPrefix(s, "(s)"):
		i = 3
	case strings.HasPrefix(s, "s"):
		i = 1
	}
	skip()
	for _, w := range [...]string{"arguments", "argument", "parameters", "parameter", "properties", "property", "fields", "field", "keys", "key", "of"} {
		if len(s)-i > len(w) && strings.EqualFold(s[i:i+len(w)], w) && !isNameByte(s[i+len(w)]) {
			i += len(w)
			skip()
			break
		}
	}
	for n := 0; n < 64; n++ { // a list names at most 64 arguments
		name, width, ok := nameAt(s[i:])
		if !ok {
			break
		}
		f(name)
		i += width
		switch {
		case strings.HasPrefix(s[i:], ", "):
			i += 2
		case strings.HasPrefix(s[i:], " or "), strings.HasPrefix(s[i:], " and "):
			i += strings.IndexByte(s[i+1:], ' ') + 2
		default:
			return base + i
		}
	}
	return base + i
}

// nameAt reads one name at the start of s: quoted ('x', "x", `x`),
// bracketed ([x]) or bare (the bytes a path may hold, without a trailing
// '.'), and how many bytes it took.
func nameAt(s string) (name string, width int, ok bool) {
	if s == "" {
		return "", 0, false
	}
	if cl := closing(s[0]); cl != 0 {
		j := strings.IndexByte(s[1:], cl)
		if j <= 0 || j > 256 {
			return "", 0, false
		}
		return s[1 : 1+j], j + 2, true
	}
	j := 0
	for j < len(s) && j < 256 && isNameByte(s[j]) {
		j++
	}
	for j > 0 && s[j-1] == '.' {
		j--
	}
	// A bare word is a name only where a list of names ends or goes on:
	// "Missing required arguments: a, b", not "Invalid arguments: The ...".
	if j == 0 || j < len(s) && !strings.ContainsRune(",.;\n)", rune(s[j])) {
		return "", 0, false
	}
	return s[:j], j, true
}

// toolAt reads a tool's name at the start of s: quoted, or the bytes a
// name may hold, without a trailing '.'.
func toolAt(s string) (name string, width int, ok bool) {
	if name, width, ok := nameAt(s); ok {
		return name, width, ok
	}
	j := 0
	for j < len(s) && j < 256 && isNameByte(s[j]) {
		j++
	}
	for j > 0 && s[j-1] == '.' {
		j--
	}
	return s[:j], j, j > 0
}

func closing(c byte) byte {
	switch c {
	case '\'', '"', '`':
		return c
	case '[':
		return ']'
	}
	return 0
}

func isNameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '$' || c == '.' || c == '/' || c == '#' || c >= 0x80
}

// quotedBefore reads the quoted name that ends s: "'b'" of "'b' is a
// required property".
func quotedBefore(s string) (string, bool) {
	if len(s) < 3 {
		return "", false
	}
	q := s[len(s)-1]
	if q != '\'' && q != '"' && q != '`' {
		return "", false
	}
	lo := max(0, len(s)-258)
	j := strings.LastIndexByte(s[lo:len(s)-1], q)
	if j < 0 {
		return "", false
	}
	return s[lo+j+1 : len(s)-1], true
}

// jsonPathAt reads the JSONPath at text[i:] ("$." and a path) that
// networknt's messages begin with, "$.age: string found, integer
// expected": it returns where the path ends, and false unless the path
// starts a message (after "[", ", " or a space) and ": " follows it.
func jsonPathAt(text string, i int) (int, bool) {
	j := i + 2
	for j < len(text) && j-i < 256 && (isNameByte(text[j]) && text[j] != '$' || text[j] == '[' || text[j] == ']') {
		j++
	}
	ok := (i == 0 || text[i-1] == '[' || text[i-1] == ' ' || text[i-1] == ',') && strings.HasPrefix(text[j:], ": ") && j > i+2
	return j, ok
}

// pydanticModel reports whether text holds pydantic's ValidationError
// header, "N validation error(s) for <model>", and whether the model is a
// tool's arguments: FastMCP's "<tool>Arguments", or "call[<tool>]" of
// pydantic's validate_call. Any other model is the tool's own data (its
// output, or an upstream's answer) that failed.
func pydanticModel(text, low string) (pydantic, arguments bool) {
	i := strings.Index(low, " validation error")
	if i < 0 {
		return false, false
	}
	line, _, _ := strings.Cut(text[i:], "\n")
	_, model, ok := strings.Cut(line, " for ")
	if !ok {
		return false, false
	}
	return true, strings.HasSuffix(model, "Arguments") || strings.HasPrefix(model, "call[")
}

// locLines reads pydantic's ValidationError text: after "N validation
// error(s) for <model>", each error is a line naming its loc
// ("filter.lang", "tags.1") followed by an indented line saying what is
// wrong. It calls f with each loc and reports whether the text is one.
func locLines(text, low string, f func(string)) bool {
	i := strings.Index(low, " validation error")
	if i < 0 {
		return false
	}
	nl := strings.IndexByte(text[i:], '\n')
	if nl < 0 || !strings.Contains(low[i:i+nl], " for ") {
		return false
	}
	rest := text[i+nl+1:]
	for rest != "" {
		line, after, _ := strings.Cut(rest, "\n")
		if line != "" && line[0] != ' ' && strings.HasPrefix(after, "  ") && isPath(line) {
			f(line)
		}
		rest = after
	}
	return true
}

// argPath writes a name as Reading.Args does: a JSON Pointer ("/filter/
// hours", "#/a") or a JSONPath ("$.filter.hours") becomes "filter.hours";
// a dotted path's index segments become "[n]" ("tags.1" is "tags[1]"). It
// returns "" for the arguments object itself and for a name that is not a
// path.
func argPath(n string) string {
	n = strings.TrimPrefix(n, "#")
	n = strings.TrimPrefix(n, "$")
	if strings.HasPrefix(n, "/") {
		n = strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(n[1:], ".", "~2"), "/", "."), "~1", "/")
		n = strings.ReplaceAll(strings.ReplaceAll(n, "~0", "~"), "~2", ".")
	}
	n = strings.TrimPrefix(n, ".")
	if n == "" || !isPath(strings.ReplaceAll(n, "/", "_")) {
		return ""
	}
	if strings.Contains(n, ".") {
		return dotPath(n)
	}
	return n
}

// unknownTool reads a tool the server does not have, in any SDK's words:
// "Unknown tool: x", "Tool x not found", "Tool not found: x", "Invalid
// tool name: x", "No such tool: x". It reports the name ("" when the text
// names none) and whether text is one.
func unknownTool(text, low string) (string, bool) {
	for _, p := range [...]string{"unknown tool", "tool not found", "invalid tool name", "no such tool", "no tool named"} {
		i := strings.Index(low, p)
		if i < 0 {
			continue
		}
		rest := strings.TrimLeft(text[i+len(p):], ": ")
		name, _, _ := toolAt(rest)
		return name, true
	}
	// "Tool <name> not found" (Kotlin, the TypeScript SDK's message).
	for from := 0; ; {
		i := strings.Index(low[from:], "tool ")
		if i < 0 {
			return "", false
		}
		i += from
		from = i + len("tool ")
		if i > 0 && isNameByte(low[i-1]) {
			continue
		}
		name, width, ok := toolAt(text[from:])
		if ok && strings.HasPrefix(low[from+width:], " not found") {
			return name, true
		}
	}
}

// ownOutput reports whether a text says that a tool's result failed its
// own output schema (the TypeScript SDK's "Output validation error: ...",
// "... has an output schema but no structured content was provided").
func ownOutput(low string) bool {
	return strings.Contains(low, "output validation") || strings.Contains(low, "output schema") || strings.Contains(low, "invalid structured content")
}

// netPhrases are what a client or server says when no answer came back.
var netPhrases = [...]string{
	"deadline exceeded", "timed out", "timeout", "connection closed", "connection refused", "connection reset",
	"broken pipe", "no such host", "network is unreachable",
	// A cancelled call, not a cancelled order: the words of Go's context,
	// .NET's OperationCanceledException, the SDKs' cancelled requests.
	"context canceled", "operation was canceled", "operation was cancelled", "operation canceled", "operation cancelled",
	"request was cancelled", "request was canceled", "request cancelled", "request canceled",
}

// statusTexts are the status lines a text may carry without the number.
var statusTexts = [...]struct {
	text   string
	status int
}{{"internal server error", 500}, {"bad gateway", 502}, {"service unavailable", 503}, {"gateway timeout", 504}}

// rateWords say that the caller is over a rate limit.
var rateWords = [...]string{"rate limit", "rate-limit", "ratelimit", "too many requests", "throttl", "quota exceeded", "slow down"}

// readStatus reads the kind a failure text gives in words: an HTTP status
// it carries, a rate limit, a wait, a timeout. It reports false when the
// text says none of them.
func (t *Taxonomy) readStatus(r *Reading, text, low string) bool {
	st := proseStatus(low)
	for _, s := range statusTexts {
		if st == 0 && strings.Contains(low, s.text) {
			st = s.status
		}
	}
	r.Wait, r.HasWait = proseWait(low)
	var k Kind
	switch {
	case st == 408:
		k = NetworkError
	case st != 0:
		k, _ = t.classify("", st, "")
		if !r.HasWait {
			r.Wait, r.HasWait = bodyWait(text, low)
		}
	case containsAny(low, rateWords[:]):
		k = RateLimited
	case containsAny(low, netPhrases[:]):
		k = NetworkError
	case r.HasWait:
		k = Unavailable
	default:
		return false
	}
	r.Kind, r.Move = k, t.Advise(k).Move
	return true
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// statusCues are the words just before an HTTP status in prose.
var statusCues = [...]string{"status code", "status", "http", "returned", "responded with", "response", "error", "code", "got"}

// proseStatus finds an HTTP status (400 to 599) that a text carries: a
// number of three digits after a cue ("returned 429", "status code 404",
// "HTTP 503:"), or in parentheses ("(429)"). It returns 0 when there is
// none.
func proseStatus(low string) int {
	for i := 0; i < len(low); {
		if !isDigit(low[i]) {
			i++
			continue
		}
		j := i
		for j < len(low) && isDigit(low[j]) {
			j++
		}
		start := i
		i = j
		if j-start != 3 || j+1 < len(low) && low[j] == '.' && isDigit(low[j+1]) {
			continue
		}
		n, _ := strconv.Atoi(low[start:j])
		if n < 400 || n > 599 {
			continue
		}
		if start > 0 && low[start-1] == '(' && strings.HasPrefix(low[j:], ")") {
			return n
		}
		before := strings.TrimRight(low[max(0, start-24):start], " :=")
		for _, c := range statusCues {
			if strings.HasSuffix(before, c) {
				return n
			}
		}
	}
	return 0
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// waitCues are the words just before a wait in prose.
var waitCues = [...]string{"retry after", "retry-after", "try again in", "try again after", "retry in", "wait", "available in", "reset in", "resets in"}

// proseWait reads a wait in words: "retry after 30s", "try again in 2
// minutes", "Retry-After: 30" (seconds when no unit is named). A wait
// beyond a year, as one that is negative, is absent.
func proseWait(low string) (time.Duration, bool) {
	for _, c := range waitCues {
		from := 0
		for {
			i := strings.Index(low[from:], c)
			if i < 0 {
				break
			}
			from += i + len(c)
			if d, ok := waitAt(low[from:]); ok {
				return d, true
			}
		}
	}
	return 0, false
}

// waitAt reads "<number> <unit>" at the start of s, after spaces and ':'.
func waitAt(s string) (time.Duration, bool) {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == ':') {
		i++
	}
	j := i
	for j < len(s) && j-i < 20 && (isDigit(s[j]) || s[j] == '.') {
		j++
	}
	if j == i {
		return 0, false
	}
	f, err := strconv.ParseFloat(s[i:j], 64)
	if err != nil {
		return 0, false
	}
	k := j
	for k < len(s) && s[k] == ' ' {
		k++
	}
	u := k
	for u < len(s) && u-k < 16 && 'a' <= s[u] && s[u] <= 'z' {
		u++
	}
	unit := time.Second
	switch s[k:u] {
	case "", "s", "sec", "secs", "second", "seconds":
	case "ms", "millisecond", "milliseconds":
		unit = time.Millisecond
	case "m", "min", "mins", "minute", "minutes":
		unit = time.Minute
	case "h", "hr", "hrs", "hour", "hours":
		unit = time.Hour
	case "d", "day", "days":
		unit = 24 * time.Hour
	default:
		return 0, false
	}
	if f*float64(unit) > float64(maxWait) {
		return 0, false
	}
	d := time.Duration(f * float64(unit))
	if unit >= time.Second {
		d = (d + time.Second - 1) / time.Second * time.Second // whole seconds, rounded up
	}
	return d, true
}

// bodyWait reads the wait of a JSON body that follows a status in prose:
// "upstream returned 429: {...,"retry_after":3}".
func bodyWait(text, low string) (time.Duration, bool) {
	i := strings.Index(text, ": {")
	if i < 0 {
		return 0, false
	}
	var o object
	if !members(text[i+2:], o.set) {
		return 0, false
	}
	for _, raw := range [...]string{o.retryAfterSeconds, o.retryAfterSecs, o.retryAfter} {
		if w := numPtr(raw); w != nil {
			return wait(w)
		}
	}
	return 0, false
}

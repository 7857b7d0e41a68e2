package errkind

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Parsed is what [ParseText] read out of a failed tool result's text. JSON
// says which of the two shapes the text was: the server's JSON kind object
// (the fields up to ResetSeconds) or the MCP layer's own sentence (the
// fields from RPCCode on). New code should use [Read], which also gives the
// kind, the move and the wait.
type Parsed struct {
	JSON bool // the text starts with "{": the server answered with a kind object

	Kind              Kind            // "kind"; "" when the object had none (decode Code with your taxonomy)
	Code              string          // "code", the server's own code
	Message           string          // "message" (or a flat body's "error" when there is no message)
	Details           json.RawMessage // "details" (or "detail"), as sent
	HTTPStatus        int             // "httpStatus"
	RetryAfterSeconds *int64          // "retryAfterSeconds" (or "retry_after_secs"), when present
	Limit             *int64          // "limit", when present
	Remaining         *int64          // "remaining", when present
	ResetSeconds      *int64          // "resetSeconds", when present
	Object            json.RawMessage // the whole object, for fields a server adds

	RPCCode     Code     // the JSON-RPC code of "MCP error <code>: ...", such as InvalidParams
	Tool        string   // the tool the MCP layer named
	UnknownTool bool     // the text was "MCP error -32602: Tool <tool> not found"
	Issues      []Issue  // one per line of an input-validation text
	Args        []string // the arguments at fault, in order, without repeats
	Text        string   // the text, as given
}

// Issue is one line of the MCP layer's input-validation text: the message,
// and the path of the argument at fault (the text after the last " at "), or
// the keys an "Unrecognized key" issue names.
type Issue struct {
	Message string   // "Too big: expected array to have <=8 items"
	Path    string   // "path", "filter.window.hours", "tags[2]"; "" for the arguments object itself
	Keys    []string // the keys of `Unrecognized key: "teams"`: ["teams"]
}

// ParseText tells the shapes of a failed tool result's text apart and reads
// out what each carries. It is [Read] of Outcome{IsError: true, Text: text}
// with the standard taxonomy, in the fields of a Parsed.
//
// A text that starts with "{" (after white space) is a JSON object, decoded
// into Kind (its "kind" member, not classified), Code, Message, Details and
// the rate-limit figures; an object that does not decode leaves JSON set
// and the fields zero. Anything else is the MCP layer reporting the call,
// such as
//
//	MCP error -32602: Input validation error: Invalid arguments for tool get_values: Too big: expected array to have <=8 items at path
//
// from which ParseText reads the JSON-RPC code, the tool, each issue line and
// the arguments at fault ("path"), or
//
//	MCP error -32602: Tool nope not found
//
// which sets UnknownTool. ParseText never fails: a text in neither shape
// comes back with only Text set. Its time is linear in len(text).
func ParseText(text string) Parsed {
	var t *Taxonomy
	r := t.readText(text)
	p := Parsed{Text: text, RPCCode: r.RPCCode, Tool: r.Tool, Issues: r.Issues, Args: r.Args,
		UnknownTool: r.Dialect == DialectUnknownTool}
	p.JSON = strings.HasPrefix(strings.TrimLeft(text, " \t\r\n"), "{")
	if o := r.Object; o != nil {
		p.Kind, p.Code, p.Message, p.Details, p.HTTPStatus = o.Kind, o.Code, o.Message, o.Details, o.HTTPStatus
		p.RetryAfterSeconds, p.Limit, p.Remaining, p.ResetSeconds = o.RetryAfterSeconds, o.Limit, o.Remaining, o.ResetSeconds
		p.Object = json.RawMessage(strings.TrimLeft(text, " \t\r\n"))
	}
	return p
}

// parseIssue splits "<message> at <path>". The path is the text after the
// last " at ", provided it looks like one: property names of letters,
// digits, '_', '-' and '$', joined by '.' and indexed by "[n]" (a message
// such as a pattern may itself contain " at ").
func parseIssue(line string) Issue {
	is := Issue{Message: line}
	if i := strings.LastIndex(line, " at "); i >= 0 {
		if path := line[i+len(" at "):]; isPath(path) {
			is.Message, is.Path = line[:i], path
		}
	}
	if keys, ok := strings.CutPrefix(is.Message, "Unrecognized key: "); ok {
		is.Keys = quoted(keys)
	} else if keys, ok := strings.CutPrefix(is.Message, "Unrecognized keys: "); ok {
		is.Keys = quoted(keys)
	}
	return is
}

func isPath(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			c == '_', c == '-', c == '$', c == '.', c == '[', c == ']':
		default:
			if c < 0x80 {
				return false
			}
		}
	}
	return true
}

// quoted reads a comma-separated list of JSON strings: `"a", "b"`.
func quoted(s string) []string {
	var keys []string
	for part := range strings.SplitSeq(s, ", ") {
		k, err := strconv.Unquote(part)
		if err != nil {
			return keys
		}
		keys = append(keys, k)
	}
	return keys
}

package errkind

import (
	"strconv"
	"strings"
)

// Issue is one issue of an SDK's input-validation text as a client reads
// it: the client-side reading of one schemaerr.Issue (or of another SDK's
// issue), with the message, and the path of the argument at fault (in the
// TypeScript SDK's text the text after the last " at ", in 2.x's the text
// before the first ": "; the schema location of the go-sdk's, the pointer
// of mcp-go's), or the keys an "Unrecognized key" issue, a missing or an
// undeclared property names.
type Issue struct {
	Message string   // "Too big: expected array to have <=8 items"
	Path    string   // "path", "filter.window.hours", "tags[2]"; "" for the arguments object itself
	Keys    []string // the keys of `Unrecognized key: "teams"`: ["teams"]
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
	is.Keys = unrecognized(is.Message)
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

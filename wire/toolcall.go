package wire

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/mcperr/mcperr/internal/jsonscan"
)

// ToolCall returns the tool's name and the arguments of m, a tools/call
// request that CheckMessage accepted, when its params hold those two and
// nothing else: an object whose members are "name", a string without
// escapes, and optionally "arguments", an object, each once. Any SDK
// decodes such params to the same name and arguments, so a transport may
// serve the call without its SDK's decoding. For any other message or
// params it reports false, and the SDK decodes (or refuses) them. args is a
// slice of m.Params, nil when the call has no arguments.
func (m *Message) ToolCall() (name string, args json.RawMessage, ok bool) {
	if m == nil || m.Type != RequestMessage || m.Method != "tools/call" {
		return "", nil, false
	}
	p := m.Params
	seenName, seenArgs, other := false, false, false
	end, valid := jsonscan.Members(p, jsonscan.Space(p, 0), func(key, v json.RawMessage, esc bool) bool {
		switch {
		case esc:
			other = true
		case string(key) == "name" && !seenName && v[0] == '"':
			_, vesc, _ := jsonscan.String(v, 0)
			s := v[1 : len(v)-1]
			if vesc || !utf8.Valid(s) {
				other = true
			}
			seenName, name = true, string(s)
		case string(key) == "arguments" && !seenArgs && v[0] == '{':
			seenArgs, args = true, v
		default:
			other = true
		}
		return !other
	})
	if !valid || other || !seenName || jsonscan.Space(p, end) != len(p) {
		return "", nil, false
	}
	return name, args, true
}

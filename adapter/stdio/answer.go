package stdio

import (
	"bytes"
	"encoding/json"
)

// AnswerID returns the id of b, a JSON-RPC response an SDK wrote, and
// the offset of the id in b, reading only the start of the envelope: b must
// begin {"jsonrpc":"2.0","id": (as the go-sdk and mcp-go write every
// message) and the id, a string or a number, be followed by the "result" or
// "error" member. It reports false for anything else, such as a request or
// a notification. A transport uses it to put a request's id back as sent
// into the answer, without a second parse of a result that may be megabytes
// long:
//
//	answer = append(append(answer[:at:at], sent...), answer[at+len(id):]...)
func AnswerID(b []byte) (id []byte, at int, ok bool) {
	const head = `{"jsonrpc":"2.0","id":`
	if len(b) <= len(head) || !bytes.HasPrefix(b, []byte(head)) {
		return nil, 0, false
	}
	at = len(head)
	end := idEnd(b, at)
	if end < 0 || !json.Valid(b[at:end]) {
		return nil, 0, false
	}
	if rest := b[end:]; !bytes.HasPrefix(rest, []byte(`,"result":`)) && !bytes.HasPrefix(rest, []byte(`,"error":`)) {
		return nil, 0, false
	}
	return b[at:end], at, true
}

// idEnd returns the end of the string or number that begins at b[at], or
// -1 when none does. It finds only where the value ends; json.Valid then
// decides whether it is one.
func idEnd(b []byte, at int) int {
	switch c := b[at]; {
	case c == '"':
		for i := at + 1; i < len(b); i++ {
			switch b[i] {
			case '\\':
				i++ // the escaped byte
			case '"':
				return i + 1
			}
		}
	case c == '-' || c >= '0' && c <= '9':
		i := at + 1
		for i < len(b) && bytes.IndexByte([]byte("+-.0123456789Ee"), b[i]) >= 0 {
			i++
		}
		return i
	}
	return -1
}

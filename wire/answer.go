package wire

import (
	"bytes"

	"github.com/mcperr/mcperr/internal/jsonscan"
)

// AnswerID returns the id of b, a JSON-RPC response an SDK wrote, and
// the offset of the id in b, reading only the start of the envelope: b must
// begin {"jsonrpc":"2.0","id": (as the go-sdk writes every message) and
// the id be followed by the "result" or "error" member. It reports false
// for anything else, such as a request or a notification. A transport uses
// it to put a request's id back as sent into the answer, without a second
// parse of a result that may be megabytes long:
//
//	answer = append(append(answer[:at:at], sent...), answer[at+len(id):]...)
func AnswerID(b []byte) (id []byte, at int, ok bool) {
	const head = `{"jsonrpc":"2.0","id":`
	if len(b) <= len(head) || !bytes.HasPrefix(b, []byte(head)) {
		return nil, 0, false
	}
	at = len(head)
	var end int
	switch c := b[at]; {
	case c == '"':
		if end, _, ok = jsonscan.String(b, at); !ok {
			return nil, 0, false
		}
	case c == '-' || c >= '0' && c <= '9':
		if end, _, ok = jsonscan.Number(b, at); !ok {
			return nil, 0, false
		}
	default:
		return nil, 0, false
	}
	if rest := b[end:]; !bytes.HasPrefix(rest, []byte(`,"result":`)) && !bytes.HasPrefix(rest, []byte(`,"error":`)) {
		return nil, 0, false
	}
	return b[at:end], at, true
}

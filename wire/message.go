package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/internal/jsonscan"
)

// maxDepth is the deepest nesting of objects and arrays CheckMessage
// accepts, counting the message object itself as level 1. MCP messages nest
// a handful of levels and real tool arguments a few dozen; 128 leaves room
// for any of them while staying far below the 1,000 levels past which the
// go-sdk's decoder refuses a message (and ends a stdio session), so a
// message the check lets through is never one an SDK decoder refuses for
// its depth.
const maxDepth = 128

// MaxMessageBytes is the largest message CheckMessage accepts. A transport
// may read less (an HTTP front usually bounds a body at 1 MiB); it never
// needs to hand on more.
const MaxMessageBytes = 16 << 20

// maxID is the largest magnitude of an integer id CheckMessage accepts:
// 2^53, the last integer every JSON implementation (a float64 included)
// carries exactly, so the answer's id is the request's id.
const maxID = 1 << 53

// MessageType says what a JSON-RPC message is.
type MessageType uint8

// The JSON-RPC message types.
const (
	// RequestMessage has a method and an id: it gets exactly one answer
	// carrying that id.
	RequestMessage MessageType = iota + 1
	// NotificationMessage has a method and no id: it gets no answer.
	NotificationMessage
	// ResponseMessage has an id, no method, and a result or an error: the
	// answer to a request the receiver sent.
	ResponseMessage
	// BatchMessage is a JSON array of messages. CheckMessage checks its
	// size, depth and numbers but not its members; MCP has no batches since
	// protocol revision 2025-06-18, so a transport refuses it.
	BatchMessage
)

// Message is what CheckMessage reads of one JSON-RPC message: all a
// transport needs to route it, so the message is parsed once. Its raw
// fields are slices of the checked bytes.
type Message struct {
	Type MessageType

	// ID is the id exactly as sent: a JSON string, or an integer of at
	// most 2^53 in magnitude written without fraction, exponent or sign
	// of zero. It is nil for a notification and a batch. An answer that
	// carries ID byte for byte carries the request's id.
	ID json.RawMessage

	// Method is the method of a request or a notification, decoded.
	Method string

	// Params is the params member as sent (an object or an array), nil
	// when absent.
	Params json.RawMessage
}

// The two kinds of refusal a transport answers differently, for errors.Is
// on a *MessageError: bytes that are not JSON (answered -32700 with id
// null), and JSON that is not a JSON-RPC 2.0 message (-32600 with no
// reason). Every other refusal is -32600 with the MessageError's Reason.
var (
	// ErrNotJSON: the bytes are not one JSON value (JSON-RPC -32700).
	ErrNotJSON = errors.New("not valid JSON")
	// ErrNotMessage: valid JSON, but not a JSON-RPC 2.0 message.
	ErrNotMessage = errors.New("not a JSON-RPC 2.0 message")
)

// The other reasons CheckMessage refuses a message, for MessageError.Err.
var (
	// errTooLarge: the message is over MaxMessageBytes.
	errTooLarge = errors.New("message too large")
	// errTooDeep: objects and arrays nest deeper than 128 levels.
	errTooDeep = errors.New("nested too deep")
	// errNumberRange: a number is too large for a float64, so no decoder
	// of the stack can carry it.
	errNumberRange = errors.New("number out of range")
	// errID: the id is neither a string nor an integer of at most 2^53 in magnitude,
	// so it cannot be echoed byte for byte.
	errID = errors.New("id cannot be echoed")
)

// MessageError is CheckMessage's refusal: the JSON-RPC error a transport
// answers with, and why.
type MessageError struct {
	// Code is errkind.ParseError for bytes that are not JSON, and
	// errkind.InvalidRequest for every other refusal.
	Code errkind.RPCCode

	// ID is the id to answer with: the message's id when it was read and
	// is echoable, nil (JSON null) otherwise.
	ID json.RawMessage

	// Reason says what is wrong in words fit for the error's message,
	// such as "objects and arrays nest deeper than 128 levels". It never
	// quotes the message's bytes.
	Reason string

	// Err is ErrNotJSON, ErrNotMessage, or one of the other reasons above.
	Err error
}

// Error returns "jsonrpc <code>: <reason>".
func (e *MessageError) Error() string {
	return "jsonrpc " + strconv.Itoa(int(e.Code)) + ": " + e.Reason
}

// Unwrap returns Err.
func (e *MessageError) Unwrap() error { return e.Err }

// CheckMessage reads one JSON-RPC message in a single pass over b and
// refuses, with a *MessageError, what the stack past it cannot carry:
//
//   - bytes that are not one JSON value (-32700, id null);
//   - more than MaxMessageBytes, objects and arrays nested deeper than
//     128 levels (maxDepth), or a number beyond the range of a float64 (-32600);
//   - an id that is not a string or an integer of at most 2^53 in
//     magnitude, written plainly (1.5, 1e2, -0, 1e400,
//     12345678901234567890123, null, an object, an array): -32600 with id
//     null, since no id can be echoed;
//   - a value that is not a JSON-RPC 2.0 message: not an object or an
//     array, "jsonrpc" other than "2.0", a member of the envelope given
//     twice or named in another case ("Id"), a method that is not a string, params that are not an object
//     or an array, a response without a result or an error, or with an
//     error that is not a JSON-RPC error object (-32600).
//
// Every refusal carries the id when it was read and is echoable, and null
// otherwise. A message CheckMessage accepts decodes in the go-sdk, the
// MCP TypeScript SDK and encoding/json without error, and an answer that
// carries its ID carries the request's id exactly.
//
// CheckMessage takes time linear in len(b) and allocates only for the
// nesting beyond a few levels and for member names written with escapes.
func CheckMessage(b []byte) (*Message, error) {
	if len(b) > MaxMessageBytes {
		return nil, &MessageError{Code: errkind.InvalidRequest, Reason: "the message is larger than " + strconv.Itoa(MaxMessageBytes) + " bytes", Err: errTooLarge}
	}
	s := scanner{b: b}
	i := s.ws(0)
	if i == len(b) {
		return nil, s.syntax()
	}
	var m *Message
	var merr *MessageError
	if b[i] == '{' {
		m, merr = s.message(i)
		if merr != nil && merr.Err == ErrNotJSON {
			return nil, merr
		}
		i = s.end
	} else {
		t := b[i]
		var ok bool
		if i, ok = s.value(i, 0); !ok {
			return nil, s.syntax()
		}
		if t == '[' {
			m = &Message{Type: BatchMessage}
		} else {
			merr = notMessage(nil, "the message is not a JSON object")
		}
	}
	if i = s.ws(i); i != len(b) {
		return nil, s.syntax()
	}
	// The bounds of the stack come before the form of the message: a
	// message the stack cannot carry is refused as such.
	var id json.RawMessage
	if m != nil {
		id = m.ID
	} else if merr != nil {
		id = merr.ID
	}
	switch {
	case merr != nil && merr.Err == errID:
		return nil, merr
	case s.deep:
		return nil, &MessageError{Code: errkind.InvalidRequest, ID: id, Reason: "objects and arrays nest deeper than " + strconv.Itoa(maxDepth) + " levels", Err: errTooDeep}
	case s.huge:
		return nil, &MessageError{Code: errkind.InvalidRequest, ID: id, Reason: "a number is too large to be carried as a float64", Err: errNumberRange}
	case merr != nil:
		return nil, merr
	}
	return m, nil
}

func notMessage(id json.RawMessage, reason string) *MessageError {
	return &MessageError{Code: errkind.InvalidRequest, ID: id, Reason: reason, Err: ErrNotMessage}
}

// scanner walks the bytes once. Syntax errors stop it; depth and number
// range are recorded and the walk goes on, so that the message's id can
// still be read.
type scanner struct {
	b    []byte
	end  int  // where message stopped
	deep bool // nesting went past maxDepth
	huge bool // a number overflows a float64
}

func (s *scanner) syntax() *MessageError {
	return &MessageError{Code: errkind.ParseError, Reason: "the message is not valid JSON", Err: ErrNotJSON}
}

func (s *scanner) ws(i int) int { return jsonscan.Space(s.b, i) }

// envelope member flags.
const (
	hasVersion = 1 << iota
	hasID
	hasMethod
	hasParams
	hasResult
	hasError
)

// message reads the top-level object at b[i] == '{'. On a syntax error it
// returns ErrNotJSON; on any other refusal it keeps reading to the end of
// the object (s.end) so the caller can tell a syntax error from it.
func (s *scanner) message(i int) (*Message, *MessageError) {
	b := s.b
	m := &Message{}
	var seen int
	var refusal *MessageError
	refuse := func(e *MessageError) {
		if refusal == nil {
			refusal = e
		}
	}
	var idRaw, errRaw []byte
	version := false
	i = s.ws(i + 1)
	if i < len(b) && b[i] == '}' {
		s.end = i + 1
		return nil, notMessage(nil, `"jsonrpc" must be "2.0"`)
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return nil, s.syntax()
		}
		kEnd, esc, ok := s.str(i)
		if !ok {
			return nil, s.syntax()
		}
		key := b[i+1 : kEnd-1]
		if esc {
			var k string
			if json.Unmarshal(b[i:kEnd], &k) != nil {
				return nil, s.syntax()
			}
			key = []byte(k)
		}
		i = s.ws(kEnd)
		if i >= len(b) || b[i] != ':' {
			return nil, s.syntax()
		}
		i = s.ws(i + 1)
		vStart := i
		if i, ok = s.value(i, 1); !ok {
			return nil, s.syntax()
		}
		v := b[vStart:i]
		var flag int
		switch string(key) {
		case "jsonrpc":
			flag = hasVersion
			version = string(v) == `"2.0"` || v[0] == '"' && decodeString(v) == "2.0"
		case "id":
			flag = hasID
			idRaw = v
		case "method":
			flag = hasMethod
			if v[0] != '"' {
				refuse(notMessage(nil, `"method" must be a string`))
			} else {
				m.Method = decodeString(v)
			}
		case "params":
			flag = hasParams
			if v[0] != '{' && v[0] != '[' {
				refuse(notMessage(nil, `"params" must be an object or an array`))
			}
			m.Params = v
		case "result":
			flag = hasResult
		case "error":
			flag = hasError
			errRaw = v
		}
		if flag == 0 && len(key) <= len("jsonrpc") && envelopeFold(key) {
			// "Id" or "METHOD": encoding/json would read it as the member,
			// the go-sdk would not; no decoder past the check may disagree.
			refuse(notMessage(nil, "a member name differs from a JSON-RPC member only in case"))
		}
		if flag != 0 {
			if seen&flag != 0 {
				refuse(notMessage(nil, "a member of the JSON-RPC envelope is given twice"))
			}
			seen |= flag
		}
		i = s.ws(i)
		if i >= len(b) {
			return nil, s.syntax()
		}
		if b[i] == '}' {
			s.end = i + 1
			break
		}
		if b[i] != ',' {
			return nil, s.syntax()
		}
		i = s.ws(i + 1)
	}

	// The id first: every later refusal carries it when it is echoable.
	var id json.RawMessage
	if idRaw != nil {
		if !echoable(idRaw) {
			return nil, &MessageError{Code: errkind.InvalidRequest, Reason: "the id must be a string or an integer of at most 2^53 in magnitude", Err: errID}
		}
		id = json.RawMessage(idRaw)
		m.ID = id
	}
	if refusal != nil {
		refusal.ID = id
		return nil, refusal
	}
	switch {
	case seen&hasVersion == 0 || !version:
		return nil, notMessage(id, `"jsonrpc" must be "2.0"`)
	case seen&hasMethod != 0:
		if seen&(hasResult|hasError) != 0 {
			return nil, notMessage(id, "a message has a method or a result or an error, not both")
		}
		m.Type = NotificationMessage
		if id != nil {
			m.Type = RequestMessage
		}
	case id == nil:
		return nil, notMessage(nil, "the message has neither a method nor an id")
	case seen&(hasResult|hasError) == hasResult|hasError:
		return nil, notMessage(id, "a response has a result or an error, not both")
	case seen&hasResult != 0:
		m.Type = ResponseMessage
	case seen&hasError != 0:
		var e struct {
			Code    *int64          `json:"code"`
			Message *string         `json:"message"`
			Data    json.RawMessage `json:"data"`
		}
		if errRaw[0] != '{' || json.Unmarshal(errRaw, &e) != nil || e.Code == nil || e.Message == nil {
			return nil, notMessage(id, `"error" must be an object with an integer "code" and a string "message"`)
		}
		m.Type = ResponseMessage
	default:
		return nil, notMessage(id, "the message has an id but no method, result or error")
	}
	return m, nil
}

// envelopeFold reports whether key is a JSON-RPC member's name in another
// case.
func envelopeFold(key []byte) bool {
	for _, n := range []string{"jsonrpc", "id", "method", "params", "result", "error"} {
		if len(key) == len(n) && strings.EqualFold(string(key), n) {
			return true
		}
	}
	return false
}

// decodeString returns the JSON string v decoded ("" if it does not
// decode).
func decodeString(v []byte) string {
	if bytes.IndexByte(v, '\\') < 0 && utf8.Valid(v) {
		return string(v[1 : len(v)-1])
	}
	var s string
	json.Unmarshal(v, &s)
	return s
}

// echoable reports whether an id can travel through any JSON-RPC stack and
// come back byte for byte: a string of valid UTF-8, or an integer written plainly of at
// most maxID in magnitude.
func echoable(v []byte) bool {
	if v[0] == '"' {
		// Invalid UTF-8 decodes to U+FFFD in every JSON stack, so two
		// different ids would reach the SDK as one.
		return utf8.Valid(v)
	}
	d := v
	if d[0] == '-' {
		d = d[1:]
	}
	if len(d) == 0 || len(d) > 16 {
		return false
	}
	for _, c := range d {
		if c < '0' || c > '9' {
			return false
		}
	}
	if d[0] == '0' {
		return len(v) == 1 // "0"; "-0" reads back as 0
	}
	n, err := strconv.ParseUint(string(d), 10, 64)
	return err == nil && n <= maxID
}

// value scans one JSON value starting at b[i] at nesting depth, and
// returns where it ends, recording nesting past maxDepth and numbers past a
// float64's range.
func (s *scanner) value(i, depth int) (int, bool) {
	var st jsonscan.Stats
	end, ok := jsonscan.Value(s.b, i, depth, &st)
	s.deep = s.deep || st.Depth > maxDepth
	s.huge = s.huge || st.Huge
	return end, ok
}

// str scans the string at b[i] == '"' and returns where it ends and
// whether it holds escapes.
func (s *scanner) str(i int) (end int, esc, ok bool) { return jsonscan.String(s.b, i) }

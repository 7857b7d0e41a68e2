// Package stdio holds the rules an MCP stdio transport applies to its
// lines, whatever the SDK behind it: each inbound line bounded and checked
// once by the JSON-RPC message rule of package wire, every refused line
// answered with a JSON-RPC error (the session carries on), and answers
// written with the id as the client sent it and <, > and & as themselves.
//
// Two rules bound a session's work and keep its reading going:
//
//   - At most MaxInFlight requests are served at once (DefaultMaxInFlight,
//     256, unless the transport sets another bound). A request read while
//     that many are in flight is refused at once with Busy, and the reading
//     goes on: a transport never waits for a slot, so the lines that free
//     one (the client's answers to the server's own requests, such as
//     roots/list, sampling or elicitation, and notifications/cancelled)
//     and every notification are always read. Answers, cancellations and
//     notifications take no slot.
//   - A request the client cancelled (notifications/cancelled naming a
//     request in flight) gets no answer: revisions 2025-06-18 and
//     2025-11-25 (basic/utilities/cancellation) and 2026-07-28
//     (basic/patterns/cancellation) all say a receiver SHOULD NOT send a
//     response for a cancelled request, so a transport answers it on none.
//     The request's id stays in flight until its handler returns (a request
//     that reuses it before then is refused, as InFlight says), and a
//     cancellation that arrives once the answer is written changes nothing.
//
// Every error line a transport writes itself takes its code from
// errkind's code table for the protocol revision of the session
// (ErrorLine, Revision), and Report hands each such refusal to the
// adapters' one failure hook (adapter.Failure, Stage adapter.Protocol).
//
// The adapters (modules gosdk and mcpgo) build their stdio transports on
// it; so can a transport for another SDK.
package stdio

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/wire"
)

// DefaultMaxLine bounds one inbound line when a transport sets no bound.
const DefaultMaxLine = 16 << 20

// DefaultDrain is how long the end of the input waits for answers still in
// flight when a transport sets no time: long enough for a tool call with a
// 30-second upstream deadline.
const DefaultDrain = 35 * time.Second

// DefaultMaxInFlight bounds the requests a session serves at once when a
// transport sets no bound.
const DefaultMaxInFlight = 256

// MaxInFlight returns the bound on requests in flight of a transport
// whose option says max: max itself, or DefaultMaxInFlight when max is
// zero or less.
func MaxInFlight(max int) int {
	if max <= 0 {
		return DefaultMaxInFlight
	}
	return max
}

// ParseError is the answer to a line that is not JSON, or longer than the
// bound: -32700 on every protocol revision (errkind.RPCCode.On), so it is
// the same line whatever the session's revision.
var ParseError = []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}` + "\n")

// Reader reads the lines of a stream, each at most a bound long.
type Reader struct {
	in   *bufio.Reader
	max  int
	long []byte // a line longer than in's buffer, gathered; reused
}

// NewReader reads r; max bounds a line in bytes, 0 meaning DefaultMaxLine.
func NewReader(r io.Reader, max int) *Reader {
	if max <= 0 {
		max = DefaultMaxLine
	}
	return &Reader{in: bufio.NewReaderSize(r, 64<<10), max: max}
}

// Next returns the next line that is not blank, trimmed of white space and
// valid until the next call, or the answer to a line over the bound
// (ParseError) with a nil line. err is the reading error that ends the
// input (io.EOF at its end).
func (r *Reader) Next() (line, answer []byte, err error) {
	for {
		chunk, err := r.in.ReadSlice('\n')
		switch {
		case err == nil || len(chunk) > 0 && errors.Is(err, io.EOF):
			if len(chunk) > r.max {
				return nil, ParseError, nil
			}
		case errors.Is(err, bufio.ErrBufferFull):
			if chunk, err = r.readLong(chunk); chunk == nil {
				if err != nil {
					return nil, nil, err
				}
				return nil, ParseError, nil
			}
		default:
			return nil, nil, err
		}
		if chunk = bytes.TrimSpace(chunk); len(chunk) > 0 {
			return chunk, nil, nil
		}
	}
}

// readLong gathers a line longer than the reader's buffer, starting with
// chunk, into a buffer kept for the next such line. It returns no line for
// a line over the bound, whose rest it skips; err is then the error that
// ended the input while skipping, if any.
func (r *Reader) readLong(chunk []byte) (line []byte, err error) {
	line = r.long[:0]
	defer func() {
		if cap(line) <= 1<<20 {
			r.long = line[:0]
		}
	}()
	err = bufio.ErrBufferFull
	for {
		if len(line)+len(chunk) > r.max {
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.in.ReadSlice('\n')
			}
			if errors.Is(err, io.EOF) {
				err = nil // the next read reports it
			}
			return nil, err
		}
		line = append(line, chunk...)
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			chunk, err = r.in.ReadSlice('\n')
		case err == nil || errors.Is(err, io.EOF):
			return line, nil
		default:
			return nil, err
		}
	}
}

// Check checks one line with the JSON-RPC message rule (wire.CheckMessage)
// and returns the message, or the answer to a line the SDK behind the
// transport must not see: not JSON (-32700, id null), refused by the rule
// (-32600 with the id when it can be read and echoed, null otherwise), or
// a batch, which MCP has none of since protocol revision 2025-06-18
// (-32600). The codes are those of the session's protocol revision version
// (ErrorLine); the message's raw fields are slices of line.
func Check(line []byte, version string) (*wire.Message, []byte) {
	m, err := wire.CheckMessage(line)
	if err != nil {
		var me *wire.MessageError
		if !errors.As(err, &me) {
			return nil, ErrorLine(nil, errkind.InvalidRequest, "Invalid Request", version)
		}
		switch me.Err {
		case wire.ErrNotJSON:
			return nil, ErrorLine(nil, me.Code, "Parse error", version)
		case wire.ErrNotMessage:
			return nil, ErrorLine(me.ID, me.Code, "Invalid Request", version)
		}
		return nil, ErrorLine(me.ID, me.Code, "Invalid Request: "+me.Reason, version)
	}
	if m.Type == wire.BatchMessage {
		return nil, ErrorLine(nil, errkind.InvalidRequest, "Invalid Request", version)
	}
	return m, nil
}

// InFlight is the answer to a request whose id is the id of a request still
// in flight, on protocol revision version: -32600 on every revision.
func InFlight(id json.RawMessage, version string) []byte {
	return ErrorLine(id, errkind.InvalidRequest, "Invalid Request: a request with this id is still in flight", version)
}

// Busy is the answer to a request read while max requests are already in
// flight, on protocol revision version (Revision): a JSON-RPC error with the
// id as sent, whose code is the table's for the library's server-range
// refusal (errkind.ImplementationDefined.On): -32000 before revision
// 2026-07-28, which says the legacy range -32000 to -32019 SHOULD NOT be
// used, and the application code -31000 from it on. Its data is the kind
// object of the library's other refusals, {"kind":"unavailable",
// "code":"server_busy",...,"retryAfterSeconds":1}, so that errkind.Read
// reads a wait and a retry, not a server's failure: the client may send the
// request again once one of its requests is answered.
func Busy(id json.RawMessage, max int, version string) []byte {
	msg := "Server busy: " + strconv.Itoa(max) + " requests are in flight; send it again once one is answered"
	return errorLine(id, &wire.RPCError{Code: errkind.ImplementationDefined.On(version), Message: msg,
		Data: &envelope.Error{Kind: errkind.Unavailable, Code: "server_busy", Message: msg, RetryAfter: busyWait}})
}

// busyWait is the wait a Busy answer asks for: about as long as a call
// takes, short enough that a client retrying on it does not idle.
const busyWait = time.Second

// Revision returns the protocol revision of m, a request a transport
// refuses, for the code table: the one its params' _meta names (revision
// 2026-07-28 and later name it in every request: adapter.Revision), else
// session, the revision the session negotiated ("" before it did: an
// earlier revision).
func Revision(m *wire.Message, session string) string {
	if m != nil {
		if v := adapter.Revision(m.Params); v != "" {
			return v
		}
	}
	return session
}

// Report hands hook, when it is set, the refusal answer a transport wrote
// itself (a line of Check, InFlight, Busy or ErrorLine, or Reader.Next's
// ParseError) as an adapter.Failure of Stage adapter.Protocol, read as the
// client reads it (errkind.Read of its code, message and data): the one failure
// hook of the adapters hears a stdio line's refusal as it hears the HTTP
// front's. m is the refused message, which gives the Failure its method
// and a tools/call's tool; nil for a line that was none. A transport calls
// it after writing answer, on the goroutine that read the line.
func Report(ctx context.Context, hook func(context.Context, adapter.Failure), m *wire.Message, answer []byte) {
	if hook == nil {
		return
	}
	var a struct {
		Error struct {
			Code    errkind.RPCCode `json:"code"`
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data"`
		} `json:"error"`
	}
	json.Unmarshal(answer, &a) // one of the error lines above: it decodes
	f := adapter.Failure{Stage: adapter.Protocol,
		Reading: errkind.Read(errkind.Outcome{RPCCode: a.Error.Code, Message: a.Error.Message, Data: a.Error.Data})}
	if m != nil {
		f.Method = m.Method
		if m.Method == "tools/call" {
			var p struct {
				Name string `json:"name"`
			}
			json.Unmarshal(m.Params, &p)
			f.Tool = p.Name
		}
	}
	hook(ctx, f)
}

// ErrorLine is a JSON-RPC error answer, one line, as wire.WriteRPCError
// writes it (the one JSON-RPC error writer), whose code is the one the code
// table gives code on protocol revision version (errkind.RPCCode.On): every
// error line of a transport takes its code from that table. A nil id is
// written as null.
func ErrorLine(id json.RawMessage, code errkind.RPCCode, message, version string) []byte {
	return errorLine(id, &wire.RPCError{Code: code.On(version), Message: message})
}

// errorLine is the JSON-RPC error answer carrying e, one line.
func errorLine(id json.RawMessage, e *wire.RPCError) []byte {
	var w lineWriter
	wire.WriteRPCError(&w, 0, id, e)
	return w.b
}

// lineWriter keeps what wire.WriteRPCError writes, without the HTTP
// status and headers.
type lineWriter struct {
	b []byte
	h http.Header
}

func (w *lineWriter) Header() http.Header {
	if w.h == nil {
		w.h = make(http.Header)
	}
	return w.h
}

func (w *lineWriter) WriteHeader(int) {}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}

// IDKey is the value of an id CheckMessage accepted: an integer's digits,
// or a quote and the string decoded. Two ids with one value are one id to
// an SDK, which carries ids as values.
func IDKey(id []byte) string {
	if len(id) == 0 || id[0] != '"' {
		return string(id)
	}
	if bytes.IndexByte(id, '\\') < 0 && utf8.Valid(id) {
		return string(id[:len(id)-1])
	}
	var s string
	json.Unmarshal(id, &s)
	return `"` + s
}

// AppendAnswer appends data, one JSON-RPC message an SDK encoded, to dst
// as the line a transport writes: the id put back as the client sent it
// (sent, when data is an answer and sent is not empty), the \u003c,
// \u003e and \u0026 escapes of Go's encoder written as <, > and &, and a
// newline.
func AppendAnswer(dst, data, sent []byte) []byte {
	if len(sent) > 0 {
		if id, at, ok := wire.AnswerID(data); ok {
			dst = append(append(dst, data[:at]...), sent...)
			data = data[at+len(id):]
		}
	}
	return append(AppendUnescapeHTML(dst, data), '\n')
}

// AppendUnescapeHTML appends p, JSON, to dst with the \u003c, \u003e and
// \u0026 escapes written as <, > and &, so a rejection reads on the wire as
// the TypeScript SDK writes it ("<=8 items"). Both forms are the same JSON
// string; an escaped backslash followed by "u003c" is left alone. It looks
// only at \u00 sequences: a result's text is often JSON in a JSON string,
// full of \" escapes that need no look.
func AppendUnescapeHTML(dst, p []byte) []byte {
	for {
		i := bytes.Index(p, []byte(`\u00`))
		if i < 0 || i+6 > len(p) {
			return append(dst, p...)
		}
		// The backslash at i begins an escape when the run of backslashes
		// ending at it is odd: before it, they pair up as \\.
		j := i
		for j > 0 && p[j-1] == '\\' {
			j--
		}
		if (i-j)%2 == 1 {
			dst = append(dst, p[:i+1]...) // an escaped backslash, then "u00"
			p = p[i+1:]
			continue
		}
		var c byte
		switch string(p[i+4 : i+6]) {
		case "3c":
			c = '<'
		case "3e":
			c = '>'
		case "26":
			c = '&'
		default:
			dst = append(dst, p[:i+6]...) // another \u00XX escape, kept
			p = p[i+6:]
			continue
		}
		dst = append(append(dst, p[:i]...), c)
		p = p[i+6:]
	}
}

// Package stdio is the stdio transport the example MCP servers of mcperr
// share: one JSON-RPC message a line over a pair of streams, as a local MCP
// server speaks to its client.
//
// It exists because the go-sdk's own mcp.StdioTransport (an
// mcp.IOTransport) does four things a piped server must not do: at the end
// of the input it ends the session and drops the answers still in flight,
// so `printf '...' | server` loses the last answers; it ends the session on
// the first line its decoder refuses (not JSON, nested past 1,000 levels,
// an id such as 1e400) instead of answering it with an error; it rewrites
// ids it cannot carry (1.5 comes back as 1); and its encoder escapes <, >
// and & as \u003c, \u003e and \u0026, so a rejection such as "<=8 items"
// does not read on the wire as other MCP SDKs write it. Transport keeps the
// SDK's JSON-RPC handling and changes only those four behaviours.
package stdio

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/wire"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxLine bounds one inbound JSON-RPC line on a Transport whose
// MaxLine is zero.
const DefaultMaxLine = 16 << 20

// DefaultDrain is how long the end of the input waits for answers still in
// flight on a Transport whose Drain is zero: long enough for a tool call with
// a 30-second upstream deadline.
const DefaultDrain = 35 * time.Second

// parseError is the JSON-RPC answer to a line that is not JSON.
var parseError = []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}` + "\n")

// Transport is an mcp.Transport over a pair of streams, one JSON-RPC message
// a line, that behaves as a stdio MCP server should when its input is piped:
//
//   - each line is checked once by the JSON-RPC message rule of package
//     wire (wire.CheckMessage) before the SDK sees it: a line that is not
//     JSON is answered with a parse error (-32700, id null), one the rule
//     refuses (nested past wire.MaxDepth, a number no float64 holds, an id
//     that cannot be echoed byte for byte, a batch, not a JSON-RPC 2.0
//     message, an id still in flight) with -32600 and the id when it can
//     be read, and the session carries on with the answers in flight;
//   - a line longer than MaxLine is answered with a parse error;
//   - an answer carries its request's id exactly as the client wrote it;
//   - at the end of the input, the session stays open until every request
//     read has been answered (or cancelled), up to Drain, so
//     `printf '...' | server` gets every answer;
//   - <, > and & are written as themselves, not as \u003c, \u003e and
//     \u0026.
//
// The go-sdk's own IOTransport ends the session on the first line its
// decoder refuses and drops the answers still in flight when the input
// ends.
//
// A server on the process's stdio runs with
//
//	server.Run(ctx, &stdio.Transport{In: os.Stdin, Out: os.Stdout})
type Transport struct {
	In  io.Reader
	Out io.Writer
	// Drain is how long the end of the input waits for answers still in
	// flight; zero means DefaultDrain.
	Drain time.Duration
	// MaxLine bounds one inbound line in bytes; zero means DefaultMaxLine.
	MaxLine int
}

// Connect implements mcp.Transport.
func (t *Transport) Connect(ctx context.Context) (mcp.Connection, error) {
	drain := t.Drain
	if drain <= 0 {
		drain = DefaultDrain
	}
	st := &stdioState{pending: make(map[string]json.RawMessage), changed: make(chan struct{}, 1)}
	w := &lineWriter{w: t.Out, st: st}
	limit := t.MaxLine
	if limit <= 0 {
		limit = DefaultMaxLine
	}
	r := &lineReader{in: bufio.NewReaderSize(t.In, 64<<10), w: w, st: st, drain: drain, max: limit}
	return (&mcp.IOTransport{Reader: r, Writer: w, MaxLineLength: -1}).Connect(ctx)
}

// stdioState is what the reader and the writer share: the ids of requests
// read but not yet answered.
type stdioState struct {
	mu sync.Mutex
	// pending holds, by the value of their id, the ids of requests read and
	// not yet answered, as they were sent: the SDK decodes an id and writes
	// it anew, and the writer puts it back byte for byte.
	pending map[string]json.RawMessage
	broken  bool          // the output failed; nothing more can be answered
	changed chan struct{} // signalled when pending shrinks or broken is set
}

func (s *stdioState) signal() {
	select {
	case s.changed <- struct{}{}:
	default:
	}
}

// add records a request's id, and reports false when a request with an id
// of the same value is still in flight.
func (s *stdioState) add(id json.RawMessage) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := idKey(id)
	if _, ok := s.pending[k]; ok {
		return false
	}
	s.pending[k] = id
	return true
}

// take forgets the request whose id has the value of id, and returns its
// id as sent.
func (s *stdioState) take(id json.RawMessage) (json.RawMessage, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := idKey(id)
	sent, ok := s.pending[k]
	delete(s.pending, k)
	return sent, ok
}

// idKey is the value of an id (an integer's digits, or a quote and the
// string decoded): the SDK's answer to a request carries an id of the same
// value, though not always the same bytes ("\u0041" comes back as "A").
func idKey(id json.RawMessage) string {
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

// lineReader passes checked JSON-RPC lines to the SDK.
type lineReader struct {
	in    *bufio.Reader
	w     *lineWriter
	st    *stdioState
	drain time.Duration
	max   int
	buf   []byte // the rest of the current line
	eof   bool
}

func (r *lineReader) Read(p []byte) (int, error) {
	for len(r.buf) == 0 {
		if r.eof {
			return 0, io.EOF
		}
		line, err := r.readLine()
		if err != nil {
			r.eof = true
			r.waitAnswers()
			return 0, io.EOF
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if answer := r.admit(line); answer != nil {
			r.w.writeRaw(answer)
			continue
		}
		r.buf = append(line, '\n')
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

// admit checks one line with the JSON-RPC message rule (package wire) and
// returns the answer to a line the SDK must not see: one its decoder would
// refuse, ending the session and losing the answers in flight. For a line
// that goes on it records a request's id, and forgets the one a
// cancellation names.
func (r *lineReader) admit(line []byte) []byte {
	m, err := wire.CheckMessage(line)
	if err != nil {
		var me *wire.MessageError
		if !errors.As(err, &me) {
			return errorLine(nil, errkind.InvalidRequest, "Invalid Request")
		}
		switch me.Err {
		case wire.ErrNotJSON:
			return errorLine(nil, me.Code, "Parse error")
		case wire.ErrNotMessage:
			return errorLine(me.ID, me.Code, "Invalid Request")
		}
		return errorLine(me.ID, me.Code, "Invalid Request: "+me.Reason)
	}
	switch m.Type {
	case wire.BatchMessage:
		return errorLine(nil, errkind.InvalidRequest, "Invalid Request")
	case wire.RequestMessage:
		// The SDK drops, unanswered, a request whose id is in use.
		if !r.st.add(m.ID) {
			return errorLine(m.ID, errkind.InvalidRequest, "Invalid Request: a request with this id is still in flight")
		}
	case wire.NotificationMessage:
		if m.Method == "notifications/cancelled" {
			var p struct {
				RequestID json.RawMessage `json:"requestId"`
			}
			if json.Unmarshal(m.Params, &p) == nil && len(p.RequestID) > 0 {
				if _, ok := r.st.take(p.RequestID); ok {
					r.st.signal()
				}
			}
		}
	}
	return nil
}

// readLine returns the next line, or a parse error answered for a line over
// the bound.
func (r *lineReader) readLine() ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.in.ReadSlice('\n')
		if len(line)+len(chunk) > r.max {
			// Skip the rest of this line and answer it as unparsable.
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.in.ReadSlice('\n')
			}
			r.w.writeRaw(parseError)
			if err != nil {
				return nil, err
			}
			line = line[:0]
			continue
		}
		line = append(line, chunk...)
		switch {
		case err == nil:
			return line, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case len(line) > 0 && errors.Is(err, io.EOF):
			return line, nil
		default:
			return nil, err
		}
	}
}

// errorLine is a JSON-RPC error answer; a nil id is written as null.
func errorLine(id json.RawMessage, code errkind.Code, message string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	msg, _ := json.Marshal(message)
	return []byte(`{"jsonrpc":"2.0","id":` + string(id) + `,"error":{"code":` + strconv.Itoa(int(code)) + `,"message":` + string(msg) + "}}\n")
}

// waitAnswers blocks until every request read has been answered, the
// output broke, or the drain time passed.
func (r *lineReader) waitAnswers() {
	timer := time.NewTimer(r.drain)
	defer timer.Stop()
	for {
		r.st.mu.Lock()
		done := len(r.st.pending) == 0 || r.st.broken
		r.st.mu.Unlock()
		if done {
			return
		}
		select {
		case <-r.st.changed:
		case <-timer.C:
			return
		}
	}
}

// Close implements io.Closer; the input is not ours to close.
func (r *lineReader) Close() error { return nil }

// lineWriter writes whole lines, one writer at a time, and marks requests
// answered.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
	st *stdioState
}

func (w *lineWriter) Write(p []byte) (int, error) {
	out := unescapeHTML(p)
	// An answer carries its request's id as the client sent it.
	id, at, answer := wire.AnswerID(out)
	var sent json.RawMessage
	if answer {
		sent, answer = w.st.take(id)
	}
	if answer && !bytes.Equal(sent, id) {
		out = append(append(out[:at:at], sent...), out[at+len(id):]...)
	}
	_, err := w.writeRaw(out)
	if answer {
		w.st.signal()
	}
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

func (w *lineWriter) writeRaw(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.w.Write(p)
	if err != nil {
		w.st.mu.Lock()
		w.st.broken = true
		w.st.mu.Unlock()
		w.st.signal()
	}
	return n, err
}

// Close implements io.Closer; the output is not ours to close.
func (w *lineWriter) Close() error { return nil }

// unescapeHTML turns the \u003c, \u003e and \u0026 escapes the SDK's
// encoder writes back into <, > and &, so a rejection reads on the wire as
// the TypeScript SDK writes it ("<=8 items"). Both forms are the same JSON
// string; an escaped backslash followed by "u003c" is left alone.
func unescapeHTML(p []byte) []byte {
	if !bytes.Contains(p, []byte(`\u00`)) {
		return p
	}
	out := make([]byte, 0, len(p))
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c != '\\' || i+1 == len(p) {
			out = append(out, c)
			continue
		}
		if p[i+1] == 'u' && i+6 <= len(p) {
			switch string(p[i+2 : i+6]) {
			case "003c":
				out = append(out, '<')
				i += 5
				continue
			case "003e":
				out = append(out, '>')
				i += 5
				continue
			case "0026":
				out = append(out, '&')
				i += 5
				continue
			}
		}
		out = append(out, c, p[i+1])
		i++
	}
	return out
}

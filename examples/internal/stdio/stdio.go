// Package stdio is the stdio transport the example MCP servers of mcperr
// share: one JSON-RPC message a line over a pair of streams, as a local MCP
// server speaks to its client.
//
// It exists because the go-sdk's own mcp.StdioTransport (an
// mcp.IOTransport) does three things a piped server must not do: at the end
// of the input it ends the session and drops the answers still in flight,
// so `printf '...' | server` loses the last answers; it ends the session on
// the first line that is not a JSON-RPC message instead of answering it with
// an error; and its encoder escapes <, > and & as \u003c, \u003e and
// \u0026, so a rejection such as "<=8 items" does not read on the wire as
// other MCP SDKs write it. Transport keeps the SDK's JSON-RPC handling and
// changes only those three behaviours.
package stdio

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"
	"time"

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
//   - a line that is not JSON is answered with a JSON-RPC parse error
//     (id null) and skipped, instead of ending the session;
//   - a line longer than MaxLine is answered the same way;
//   - at the end of the input, the session stays open until every request
//     read has been answered (or cancelled), up to Drain, so
//     `printf '...' | server` gets every answer;
//   - <, > and & are written as themselves, not as \u003c, \u003e and
//     \u0026.
//
// The go-sdk's own IOTransport ends the session on the first undecodable
// byte and drops the answers still in flight when the input ends.
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
	st := &stdioState{pending: make(map[string]bool), changed: make(chan struct{}, 1)}
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
	mu      sync.Mutex
	pending map[string]bool
	broken  bool          // the output failed; nothing more can be answered
	changed chan struct{} // signalled when pending shrinks or broken is set
}

func (s *stdioState) signal() {
	select {
	case s.changed <- struct{}{}:
	default:
	}
}

// frame is the part of a JSON-RPC message the transport looks at.
type frame struct {
	Version string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  *string         `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

func idKey(id json.RawMessage) string {
	if len(id) == 0 || string(id) == "null" {
		return ""
	}
	var v any
	if json.Unmarshal(id, &v) != nil {
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// lineReader passes complete JSON lines to the SDK.
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
		if !json.Valid(line) {
			r.w.writeRaw(parseError)
			continue
		}
		if id, ok := r.observe(line); !ok {
			r.w.writeRaw(invalidRequest(id))
			continue
		}
		r.buf = append(line, '\n')
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
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

// observe checks that a JSON line is a JSON-RPC 2.0 message the SDK can
// take (a request, a notification, or a response to one of the server's
// requests), records a request's id, and forgets the id a cancellation
// names. When the line is not such a message it returns false and the id to
// answer with (null when it has none usable).
func (r *lineReader) observe(line []byte) (json.RawMessage, bool) {
	if line[0] != '{' {
		return nil, false
	}
	var f frame
	err := json.Unmarshal(line, &f)
	id := f.ID
	switch k := idKey(id); {
	case k == "":
		id = nil
	case k[0] == '"':
	case strings.Trim(k, "-0123456789") != "":
		return nil, false // an id is a string or an integer
	}
	if err != nil || f.Version != "2.0" || len(f.Params) > 0 && f.Params[0] != '{' && f.Params[0] != '[' {
		return id, false
	}
	if f.Method == nil {
		// A response to a request of the server's: it needs an id and a
		// result or an error.
		return id, id != nil && (len(f.Result) > 0 || len(f.Error) > 0)
	}
	r.st.mu.Lock()
	defer r.st.mu.Unlock()
	if k := idKey(f.ID); k != "" {
		r.st.pending[k] = true
	} else if *f.Method == "notifications/cancelled" {
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		if json.Unmarshal(f.Params, &p) == nil {
			delete(r.st.pending, idKey(p.RequestID))
		}
	}
	return id, true
}

// invalidRequest is the JSON-RPC answer to a line that is JSON but not a
// message.
func invalidRequest(id json.RawMessage) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	return []byte(`{"jsonrpc":"2.0","id":` + string(id) + `,"error":{"code":-32600,"message":"Invalid Request"}}` + "\n")
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
	_, err := w.writeRaw(unescapeHTML(p))
	n := len(p)
	if err != nil {
		n = 0
	}
	var f frame
	if err == nil && len(p) > 0 && p[0] == '{' && json.Unmarshal(p, &f) == nil && f.Method == nil {
		if k := idKey(f.ID); k != "" {
			w.st.mu.Lock()
			delete(w.st.pending, k)
			w.st.mu.Unlock()
			w.st.signal()
		}
	}
	return n, err
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

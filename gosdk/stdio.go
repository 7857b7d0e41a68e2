package gosdk

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/adapter/stdio"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/wire"
)

// StdioTransport is an mcp.Transport for a server on stdio: one JSON-RPC
// message a line, read from In and written to Out (os.Stdin and os.Stdout
// when nil, so the zero value serves the process's stdio). It is the
// go-sdk's mcp.StdioTransport made safe for a piped server:
//
//   - each line is checked once by the JSON-RPC message rule of package
//     wire (wire.CheckMessage) before the SDK sees it: a line that is not
//     JSON is answered with a parse error (-32700, id null), one the rule
//     refuses (nested past 128 levels, a number no float64 holds, an id
//     that cannot be echoed byte for byte, such as 1.5 or 1e400, a batch,
//     not a JSON-RPC 2.0 message) with -32600 and the id when it can be
//     read, and the session carries on with the answers in flight;
//   - a line longer than MaxLine is answered with a parse error;
//   - every error line it writes itself takes its code from the code table
//     of the session's protocol revision (errkind.RPCCode.On), and reaches
//     OnFailure;
//   - every answer carries its request's id exactly as the client wrote it
//     ("\u0041" stays "\u0041"); a request whose id is still in flight (its
//     answer not yet written, or its handler still running after
//     notifications/cancelled) is refused with -32600;
//   - a request the client cancelled (notifications/cancelled) gets no
//     answer, on every protocol revision: each says a receiver SHOULD NOT
//     answer a cancelled request (package adapter/stdio gives the rule),
//     where the go-sdk's own transport answers it;
//   - at most MaxInFlight requests (256) are served at once: one more is
//     answered at once with a -32000 error (-31000 from protocol revision
//     2026-07-28 on: stdio.Busy) and the reading goes on, so the client's answers to the server's own requests
//     (roots, sampling, elicitation), its cancellations and its
//     notifications are always read, and a client that sends calls without
//     reading the answers holds a bounded number of goroutines and buffers
//     (the go-sdk's own transport has no bound);
//   - at the end of the input, the session stays open until every request
//     read has been answered, up to Drain, so `printf '...' | server` gets
//     every answer;
//   - <, > and & are written as themselves, not as \u003c, \u003e and
//     \u0026, as the other MCP SDKs write them.
//
// The go-sdk's mcp.StdioTransport ends the session on the first line its
// decoder refuses (not JSON, nested 1,001 deep, an id of 1e400), answers
// an id of 1.5 as 1, and drops the answers in flight when the input ends.
// A server on the process's stdio runs with
//
//	server.Run(ctx, &gosdk.StdioTransport{Server: server})
//
// With Server set to the server Run is called on, the transport also
// answers that session's tools/call requests itself, without the SDK's
// JSON-RPC layer: see Server. Everything else (the handshake, every other
// method, notifications) goes to the SDK. With Server unset, every call
// goes to the SDK, at several times the cost of a call (the transport cannot
// learn the server Run is called on): write Server: s.
//
// The connection reads In on a goroutine of its own, so that closing the
// session does not wait for input; a Read of In that never returns (a
// terminal left open) keeps that goroutine until the process exits, as with
// the SDK's own transport. A StdioTransport serves one session at a time.
type StdioTransport struct {
	// In and Out are the streams; nil means os.Stdin and os.Stdout. The
	// transport does not close them.
	In  io.Reader
	Out io.Writer

	// Server, if set, is the server Run is called on (s in
	// s.Run(ctx, &gosdk.StdioTransport{Server: s})). The transport then
	// answers the session's tools/call requests on a direct path: each call
	// is parsed once, run through the server's receiving middleware and tool
	// handler as the SDK runs it, and its result encoded once, where the SDK
	// decodes a call's params three times, each with a fresh 32 KiB buffer,
	// and encodes its result three times. The answers are the SDK's byte
	// for byte. The middleware is the server's as it stands when each call
	// arrives, so middleware may be added in any order, before or after the
	// transport is made. A call the direct path does not take exactly as
	// the SDK would (one sent before initialize, one whose params hold
	// _meta, such as a progress token, or members other than name and
	// arguments, one whose arguments are not an object) goes to the SDK, as
	// does every call when Server is not the server Run is called on. The
	// transport tells its own session from another of Server's that
	// connects in the same instant (its ServerSession.ID answers a probe
	// only the transport's connection knows). Unset, every call goes to the
	// SDK's path, with the same answers at the SDK's cost (a valid call costs
	// about ten times as much over stdio): the transport has no way to learn
	// the server Run is called on, and keeps no list of servers of its own.
	// Set it. Over the direct path a handler's
	// context does not carry the SDK's unexported request-id value, which
	// only its HTTP transport reads; it carries the call's id for RequestID
	// instead. As on the SDK's path, cancelling Run's context does not
	// cancel the calls in flight: Run returns once they have returned, and
	// their answers are not written.
	Server *mcp.Server

	// Drain is how long the end of the input waits for answers still in
	// flight; zero means 35 seconds.
	Drain time.Duration

	// MaxLine bounds one inbound line in bytes; zero means 16 MiB.
	MaxLine int

	// MaxInFlight bounds the requests served at once (the SDK's and the
	// direct path's together); zero means 256 (stdio.DefaultMaxInFlight).
	// A request read while that many are in flight is answered at once
	// with a -32000 error (-31000 from protocol revision 2026-07-28 on:
	// stdio.Busy) whose data, an unavailable kind object, asks for a 1 s
	// wait, and the reading goes on.
	MaxInFlight int

	// OnFailure, if set, hears every refusal the transport writes itself,
	// after writing it, as Stage adapter.Protocol (stdio.Report): a line
	// that is not JSON, not a JSON-RPC message or longer than MaxLine, a
	// batch, a request whose id is in flight, and one past MaxInFlight.
	// What the server answers (arguments, tools, handlers) reaches
	// Options.OnFailure of gosdk.Validate instead: set the same hook on
	// both, as on HTTPOptions.OnFailure for HTTP, and one hook hears every
	// failure (adapter.Log(nil) logs them; telemetry.Failures counts them).
	OnFailure func(ctx context.Context, f adapter.Failure)
}

// Connect implements mcp.Transport.
func (t *StdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	in, out := t.In, t.Out
	if in == nil {
		in = os.Stdin
	}
	if out == nil {
		out = os.Stdout
	}
	c := newConn(in, out, t.Drain, t.MaxLine)
	c.max = stdio.MaxInFlight(t.MaxInFlight)
	c.onFailure = t.OnFailure
	// The direct calls run on a context Run's cancellation does not reach,
	// as the SDK's handlers do: cancelling Run closes the session, which
	// ends once the calls in flight have returned (see Close).
	c.ctx, c.stop = context.WithCancel(context.WithoutCancel(ctx))
	c.capture = func(next mcp.MethodHandler) mcp.MethodHandler {
		c.next = next
		return next
	}
	c.want = t.Server // its session of this connection is found when Read is first called
	go c.readLoop()
	return c, nil
}

// conn is the mcp.Connection of a Transport. Its reading goroutine checks
// and decodes the lines; Read hands the messages to the SDK; Write encodes
// the SDK's messages, one line each.
type conn struct {
	in    *stdio.Reader // bounded lines, blank ones skipped
	drain time.Duration

	// incoming is unbuffered: the reading goroutine is one message ahead
	// of the SDK at most, so the input buffered is one line and one
	// message's params, whatever the client sends (buffering measured no
	// faster).
	incoming  chan jsonrpc.Message
	closed    chan struct{}
	closeOnce sync.Once
	quit      chan struct{} // closed once ending is set and no direct call runs: Read then reports io.EOF

	mu sync.Mutex
	// pending holds, by the value of their id (idKey), the requests read
	// and not yet answered, with their ids as they were sent: the SDK
	// carries an id as a value, and Write puts it back byte for byte.
	pending map[string]pend
	max     int           // the bound on len(pending): requests in flight
	running int           // direct calls not yet answered (see Server)
	inits   int           // initialize requests read and not yet answered
	ending  bool          // the input ended (and the drain passed) or Close was called: no direct call starts, none is answered
	broken  bool          // the output failed; nothing more can be answered
	changed chan struct{} // signalled when pending or running shrinks, or broken is set

	// version is the protocol revision the session negotiated, from the
	// SDK's answer to initialize (see Write); "" before. The error lines
	// the transport writes take their codes from it (stdio.Revision).
	version   atomic.Pointer[string]
	onFailure func(ctx context.Context, f adapter.Failure) // StdioTransport.OnFailure

	wmu  sync.Mutex // one writer at a time; guards out and wbuf
	out  io.Writer
	wbuf []byte // the line being written; reused

	// The direct path (see StdioTransport.Server), when srv is non-nil.
	srv      *mcp.Server            // set with session, by Read
	want     *mcp.Server            // StdioTransport.Server; read once, by Read
	probe    atomic.Pointer[string] // SessionID's answer while Read looks for the session
	found    sync.Once
	session  atomic.Pointer[mcp.ServerSession] // the SDK's session of this connection, once found
	capture  mcp.Middleware                    // sets next; run by srv.AddReceivingMiddleware
	next     mcp.MethodHandler                 // srv's middleware and dispatch; read and written by readLoop only
	served   atomic.Int64                      // tools/call requests answered on the direct path
	ctx      context.Context                   // the calls' parent, ended by Close
	stop     context.CancelFunc
	calls    map[string]*call // the direct calls in flight, by idKey; guarded by mu
	jobs     chan *call       // hands a call to a parked goroutine
	idle     atomic.Int32     // goroutines parked on jobs
	encoders sync.Pool        // of *encoder
}

// pend is a request in flight: its id as sent, whether the client
// cancelled it (its answer is then not written), and whether it is an
// initialize (direct calls wait for its answer, which says the session's
// protocol revision).
type pend struct {
	sent      string
	cancelled bool
	init      bool
}

func newConn(in io.Reader, out io.Writer, drain time.Duration, maxLine int) *conn {
	if drain <= 0 {
		drain = stdio.DefaultDrain
	}
	return &conn{
		in:       stdio.NewReader(in, maxLine),
		drain:    drain,
		incoming: make(chan jsonrpc.Message),
		closed:   make(chan struct{}),
		quit:     make(chan struct{}),
		pending:  make(map[string]pend),
		max:      stdio.DefaultMaxInFlight,
		changed:  make(chan struct{}, 1),
		out:      out,
		calls:    make(map[string]*call),
		jobs:     make(chan *call),
		encoders: sync.Pool{New: newEncoder},
	}
}

// Read implements mcp.Connection: the next checked message, or io.EOF once
// the input has ended and the answers in flight are written, or the
// connection closed, and no direct call is running: the SDK's connection
// is over once Read fails (and its own handlers have returned), and that
// ends Run.
func (c *conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	c.found.Do(c.findSession)
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	default:
	}
	select {
	case msg := <-c.incoming:
		return msg, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.quit:
		return nil, io.EOF
	}
}

// findSession records the SDK's session of this connection, when Server
// is set: the SDK binds the session to the connection before it first
// reads, and it is the one of Server's sessions whose ID is the probe
// SessionID answers meanwhile, so a session of another connection that
// connects in the same instant is told apart. When none is (Server is
// unset, or is not the server Run was called on), tools/call requests go to
// the SDK.
func (c *conn) findSession() {
	if c.want == nil {
		return
	}
	probe := fmt.Sprintf("mcperr-stdio-%p", c) // unique among the connections alive
	c.probe.Store(&probe)
	defer c.probe.Store(nil)
	for ss := range c.want.Sessions() {
		if ss.ID() == probe {
			c.srv = c.want // read by the direct path only once it has loaded the session
			c.session.Store(ss)
			return
		}
	}
}

// Close implements mcp.Connection. The streams are not the connection's to
// close; Close ends the reading goroutine unless it is blocked reading In.
// The SDK closes the connection once its own handlers have returned (when
// Run's context is cancelled, or the session closed); the direct calls
// still running go on, as the SDK's would, their answers unwritten, and
// Read reports the end once they have returned.
func (c *conn) Close() error {
	c.closeOnce.Do(func() {
		close(c.closed)
		c.end()
	})
	return nil
}

// end sets ending: no direct call starts from now on, and none is
// answered.
func (c *conn) end() {
	c.mu.Lock()
	c.ending = true
	c.endIfIdle()
	c.mu.Unlock()
}

// endIfIdle, with c.mu held, closes quit once ending is set and no direct
// call runs.
func (c *conn) endIfIdle() {
	if !c.ending || c.running > 0 {
		return
	}
	select {
	case <-c.quit:
	default:
		close(c.quit)
		if c.stop != nil {
			c.stop()
		}
	}
}

// SessionID implements mcp.Connection: a stdio session has no id. While
// Read looks for the connection's session (findSession), it is a value only
// this connection's session returns from ServerSession.ID.
func (c *conn) SessionID() string {
	if p := c.probe.Load(); p != nil {
		return *p
	}
	return ""
}

// readLoop reads, checks and decodes each line, answers the lines the SDK
// must not see, and hands the others to Read. At the end of the input it
// waits for the answers in flight (up to the drain time) before Read
// reports io.EOF: the SDK cancels every request still in flight when Read
// fails, and the direct calls are cancelled then too.
func (c *conn) readLoop() {
	for {
		line, answer, err := c.in.Next()
		if err != nil {
			c.waitAnswers()
			if c.stop != nil {
				c.stop()
			}
			c.end()
			return
		}
		var refused *wire.Message
		if answer == nil {
			var msg jsonrpc.Message
			msg, refused, answer = c.admit(line)
			if answer == nil {
				if msg != nil && !c.send(msg) {
					return
				}
				continue
			}
		}
		c.writeRaw(answer)
		stdio.Report(c.ctx, c.onFailure, refused, answer)
	}
}

// sessionVersion returns the protocol revision the session negotiated, "" before
// it did.
func (c *conn) sessionVersion() string {
	if v := c.version.Load(); v != nil {
		return *v
	}
	return ""
}

// send hands msg to Read, and reports false when the connection closed
// first.
func (c *conn) send(msg jsonrpc.Message) bool {
	select {
	case c.incoming <- msg:
		return true
	case <-c.closed:
		return false
	}
}

// admit checks one line with the JSON-RPC message rule (package wire) and
// returns either the message for the SDK or the answer to a line the SDK
// must not see: one its decoder would refuse, ending the session and losing
// the answers in flight, with the message it refused (nil for a line that is
// none). It records a request's id, and forgets the one a cancellation
// names. The line's bytes are not kept: the message holds copies.
func (c *conn) admit(line []byte) (jsonrpc.Message, *wire.Message, []byte) {
	m, answer := stdio.Check(line, c.sessionVersion())
	if answer != nil {
		return nil, nil, answer
	}
	switch m.Type {
	case wire.RequestMessage:
		key := stdio.IDKey(m.ID)
		// The SDK drops, unanswered, a request whose id is in use.
		switch c.add(key, m.ID, m.Method == "initialize") {
		case inUse:
			return nil, m, stdio.InFlight(m.ID, stdio.Revision(m, c.sessionVersion()))
		case full:
			return nil, m, stdio.Busy(m.ID, c.max, stdio.Revision(m, c.sessionVersion()))
		}
		if m.Method == "initialize" {
			// The SDK handles no request read after it before its answer is
			// written, and neither does the direct path (see direct).
			c.mu.Lock()
			p := c.pending[key]
			p.init = true
			c.pending[key] = p
			c.inits++
			c.mu.Unlock()
		}
		if m.Method == "tools/call" && c.direct(key, m) {
			return nil, nil, nil
		}
		return &jsonrpc.Request{ID: keyID(key), Method: m.Method, Params: clone(m.Params)}, nil, nil
	case wire.NotificationMessage:
		if m.Method == "notifications/cancelled" {
			var p struct {
				RequestID json.RawMessage `json:"requestId"`
			}
			// The id stays in flight until the cancelled call's handler
			// returns (the SDK answers a cancelled call, and so does the
			// direct path; Write drops that answer): a request that reuses
			// it before then is refused.
			if json.Unmarshal(m.Params, &p) == nil && len(p.RequestID) > 0 {
				key := stdio.IDKey(p.RequestID)
				c.mu.Lock()
				if q, ok := c.pending[key]; ok {
					q.cancelled = true
					c.pending[key] = q
				}
				k := c.calls[key] // a direct call, which the SDK does not know
				c.mu.Unlock()
				if k != nil {
					// Not passed on: the SDK, which handles notifications
					// apart from requests, would cancel a request of its
					// own that reuses the id by the time it reads this.
					k.cancel()
					return nil, nil, nil
				}
			}
		}
		return &jsonrpc.Request{Method: m.Method, Params: clone(m.Params)}, nil, nil
	case wire.ResponseMessage:
		// A client's answer to a request of the server's: rare, and read by
		// the SDK's own decoder, which takes every response the check
		// accepts. Should it not, the line is dropped: a response gets no
		// answer.
		msg, err := jsonrpc.DecodeMessage(line)
		if err != nil {
			return nil, nil, nil
		}
		return msg, nil, nil
	}
	// A batch: MCP has none since protocol revision 2025-06-18.
	return nil, nil, stdio.ErrorLine(nil, errkind.InvalidRequest, "Invalid Request", c.sessionVersion())
}

// requestIDKey is the context key of the call the direct path serves (a
// *call), whose id RequestID returns.
type requestIDKey struct{}

// RequestID returns the JSON-RPC id of the request whose middleware or
// tool handler has ctx, when a StdioTransport's direct path serves it (a
// tools/call of a transport whose Server is set; see
// StdioTransport.Server). The go-sdk tells neither middleware nor handlers a
// request's id, so ok is false for every request the SDK serves itself.
// Package telemetry records it as jsonrpc.request.id.
func RequestID(ctx context.Context) (id jsonrpc.ID, ok bool) {
	k, ok := ctx.Value(requestIDKey{}).(*call)
	if !ok {
		return jsonrpc.ID{}, false
	}
	return k.id, true
}

// clone copies b, nil for nil.
func clone(b []byte) json.RawMessage {
	if b == nil {
		return nil
	}
	return json.RawMessage(bytes.Clone(b))
}

// keyID is the SDK's id for an id whose value is key: a string, or an
// integer of at most 2^53 in magnitude (which a float64 carries
// exactly).
func keyID(key string) jsonrpc.ID {
	var v any
	if len(key) > 0 && key[0] == '"' {
		v = key[1:]
	} else {
		n, _ := strconv.ParseInt(key, 10, 64)
		v = float64(n)
	}
	id, _ := jsonrpc.MakeID(v)
	return id
}

// appendKey appends the value of the SDK's id id in the form of idKey.
func appendKey(dst []byte, id jsonrpc.ID) ([]byte, bool) {
	switch v := id.Raw().(type) {
	case int64:
		return strconv.AppendInt(dst, v, 10), true
	case string:
		return append(append(dst, '"'), v...), true
	}
	return dst, false
}

func (c *conn) signal() {
	select {
	case c.changed <- struct{}{}:
	default:
	}
}

// What add did with a request.
const (
	added = iota
	inUse // a request with an id of the same value is in flight
	full  // max requests are in flight
)

// add records a request's id as sent under its value key, and whether it
// is an initialize, unless a request with an id of the same value is still
// in flight, or c.max requests are.
func (c *conn) add(key string, sent []byte, init bool) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.pending[key]; ok {
		return inUse
	}
	if len(c.pending) >= c.max {
		return full
	}
	if string(sent) == key {
		c.pending[key] = pend{sent: key, init: init} // an integer: its digits are its value
	} else {
		c.pending[key] = pend{sent: string(sent), init: init}
	}
	return added
}

// takeID forgets the request whose id is the SDK's id and returns it (its
// id as sent is "" if there was none), without making a string of the
// id's value. Its answer is then written or dropped (see answering). The
// answer to an initialize, result, records the protocol revision it
// negotiated.
func (c *conn) takeID(id jsonrpc.ID, result json.RawMessage) pend {
	var a [64]byte
	k, ok := appendKey(a[:0], id)
	if !ok {
		return pend{}
	}
	c.mu.Lock()
	p, ok := c.pending[string(k)]
	if ok {
		delete(c.pending, string(k))
	}
	c.mu.Unlock()
	if p.init && len(result) > 0 {
		var r struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		if json.Unmarshal(result, &r) == nil && r.ProtocolVersion != "" {
			c.version.Store(&r.ProtocolVersion)
		}
	}
	return p
}

// answering records that the answer to p, a request takeID returned, is
// dropped, or about to be written with c.wmu held: a direct call read from
// now on takes c.wmu to write its answer, after this one (see direct).
func (c *conn) answering(p pend) {
	if p.init {
		c.mu.Lock()
		c.inits--
		c.mu.Unlock()
	}
}

// waitAnswers blocks until every request read has been answered (and
// every direct call's answer written, cancelled or not), the
// output broke, the connection closed, or the drain time passed.
func (c *conn) waitAnswers() {
	timer := time.NewTimer(c.drain)
	defer timer.Stop()
	for {
		c.mu.Lock()
		done := len(c.pending) == 0 && c.running == 0 || c.broken
		c.mu.Unlock()
		if done {
			return
		}
		select {
		case <-c.changed:
		case <-timer.C:
			return
		case <-c.closed:
			return
		}
	}
}

// responseHead is how the go-sdk begins every message it encodes.
const responseHead = `{"jsonrpc":"2.0","id":`

// Write implements mcp.Connection: msg as one line, an answer with its
// request's id as sent; the answer to a request the client cancelled is
// dropped. A result is written around the bytes the SDK
// encoded it to, with no second encode; any other message is encoded by
// the SDK's jsonrpc.EncodeMessage.
func (c *conn) Write(ctx context.Context, msg jsonrpc.Message) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	default:
	}
	if r, ok := msg.(*jsonrpc.Response); ok && r.Error == nil && len(r.Result) > 0 {
		// jsonrpc.EncodeMessage would write {"jsonrpc":"2.0","id":ID,
		// "result":RESULT} with RESULT compacted, which it already is: the
		// SDK made it with a JSON encoder.
		if p := c.takeID(r.ID, r.Result); p.cancelled {
			c.answering(p)
			c.signal()
			return nil
		} else if p.sent != "" {
			c.wmu.Lock()
			c.answering(p)
			b := append(c.wbuf[:0], responseHead...)
			b = append(b, p.sent...)
			b = append(b, `,"result":`...)
			b = stdio.AppendUnescapeHTML(b, r.Result)
			b = append(b, "}\n"...)
			err := c.writeLocked(b)
			c.wmu.Unlock()
			c.signal()
			return err
		}
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	// An answer carries its request's id as the client sent it.
	var p pend
	id, at, answer := wire.AnswerID(data)
	if r, ok := msg.(*jsonrpc.Response); ok && answer {
		if p = c.takeID(r.ID, nil); p.cancelled {
			c.answering(p)
			c.signal()
			return nil
		}
	}
	answer = p.sent != ""
	c.wmu.Lock()
	b := c.wbuf[:0]
	if answer {
		c.answering(p)
		b = append(append(b, data[:at]...), p.sent...)
		data = data[at+len(id):]
	}
	b = append(stdio.AppendUnescapeHTML(b, data), '\n')
	err = c.writeLocked(b)
	c.wmu.Unlock()
	if answer {
		c.signal()
	}
	return err
}

// writeRaw writes one whole line.
func (c *conn) writeRaw(p []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.out.Write(p)
	if err != nil {
		c.fail()
	}
	return err
}

// writeLocked writes b, the line built in c.wbuf, with c.wmu held, and
// keeps the buffer for the next line unless it grew past 1 MiB.
func (c *conn) writeLocked(b []byte) error {
	_, err := c.out.Write(b)
	if cap(b) <= 1<<20 {
		c.wbuf = b[:0]
	} else {
		c.wbuf = nil
	}
	if err != nil {
		c.fail()
	}
	return err
}

// fail records that the output broke: nothing more can be answered.
func (c *conn) fail() {
	c.mu.Lock()
	c.broken = true
	c.mu.Unlock()
	c.signal()
}

package mcpgo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/adapter/stdio"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/wire"
)

// StdioOptions configures ServeStdio. The zero value (or nil) serves
// os.Stdin and os.Stdout without a Validator.
type StdioOptions struct {
	// Validator, the one Validate returned for the server, answers the
	// tools/call refusals mcp-go would otherwise answer itself (an unknown
	// tool, a hint-dialect -32602) before mcp-go reads the message.
	Validator *Validator

	// In and Out are the streams; nil means os.Stdin and os.Stdout.
	In  io.Reader
	Out io.Writer

	// Drain is how long the end of the input, or of ctx, waits for the
	// answers still in flight; 0 means 35 seconds.
	Drain time.Duration

	// MaxLine bounds one inbound line in bytes; 0 means 16 MiB. A longer
	// line is answered with a parse error.
	MaxLine int

	// MaxInFlight bounds the requests served at once; 0 means 256
	// (stdio.DefaultMaxInFlight). A request read while that many are in
	// flight is answered at once with a -32000 error (-31000 from protocol
	// revision 2026-07-28 on: stdio.Busy) whose data, an unavailable kind
	// object, asks for a 1 s wait, and the reading goes on.
	MaxInFlight int

	// OnFailure, if set, hears every refusal ServeStdio writes itself,
	// after writing it, as Stage adapter.Protocol (stdio.Report): a line
	// that is not JSON, not a JSON-RPC message or longer than MaxLine, a
	// batch, a request whose id is in flight, and one past MaxInFlight.
	// Nil means the Validator's Options.OnFailure, which hears what the
	// Validator answers (arguments, unknown tools) and the failed tool
	// calls: a hook set once on Validate's options hears every failure of
	// the session.
	OnFailure func(ctx context.Context, f adapter.Failure)
}

// ServeStdio serves s over stdio, one JSON-RPC message a line, until the
// input ends, ctx is done or the output fails; it is server.ServeStdio with
// mcperr's answers and the rules of a stdio server whose input is piped:
//
//   - with a Validator, a tools/call naming a tool s does not have, or
//     arguments the tool's schema refuses, is answered in the Validator's
//     dialect (the hint dialect's refusal as a JSON-RPC -32602 error with
//     data.code), as HTTPHandler answers it;
//   - each line is checked once by the JSON-RPC message rule of package
//     wire (wire.CheckMessage) before mcp-go sees it: a line that is not
//     JSON is answered with a parse error (-32700, id null), one the rule
//     refuses (nested past 128 levels, a number no float64 holds, an id
//     that cannot be echoed byte for byte such as 1.5 or 1e400, a batch,
//     not a JSON-RPC 2.0 message, the id of a request still in flight)
//     with -32600 and the id when it can be read, and the session carries
//     on;
//   - an answer carries its request's id exactly as the client wrote it,
//     and <, > and & as themselves, not as \u003c, \u003e and \u0026;
//   - at the end of the input the answers in flight are written (up to
//     Drain) before ServeStdio returns nil, so `printf '...' | server`
//     gets every answer;
//   - notifications/cancelled cancels the context of the request it names,
//     and that request gets no answer, on every protocol revision (each
//     says a receiver SHOULD NOT answer a cancelled request; package
//     adapter/stdio gives the rule); its id stays in flight until its
//     handler returns;
//   - every error line it writes itself takes its code from the code table
//     of the session's protocol revision (errkind.RPCCode.On), and reaches
//     OnFailure (by default the Validator's);
//   - a request read after an initialize is served once that initialize's
//     answer is written, as the protocol orders them (mcp-go's own stdio
//     server serves each on a goroutine, in no order): a client that
//     pipelines its first calls behind initialize gets the initialize
//     answer first;
//   - requests are served concurrently, at most MaxInFlight (256) at a
//     time: one more is answered at once with a -32000 error (-31000 from
//     protocol revision 2026-07-28 on: stdio.Busy) while the reading goes on, so the client's answers to the server's
//     own requests (roots, sampling, elicitation), its cancellations and
//     its notifications are always read. They are served by at most
//     MaxInFlight goroutines (one more while requests held behind an
//     initialize start), each serving one request after another until
//     ServeStdio returns.
//
// The session
// (server.ClientSessionFromContext) has logging, the client's info, and
// sampling, elicitation and roots requests to the client, as mcp-go's own
// stdio session has. When ctx ends first, the handlers running see their
// context end, and ServeStdio writes their answers as they return, as
// server.ServeStdio does, waiting for them up to Drain (not after the
// output failed); it then returns ctx.Err(). It reads In on a goroutine of its own: a Read of In that never
// returns keeps that goroutine until the process exits. Unlike
// server.ServeStdio it does not catch SIGINT and SIGTERM: they end the
// process, as Go's default, unless the program passes a ctx from
// signal.NotifyContext.
func ServeStdio(ctx context.Context, s *server.MCPServer, o *StdioOptions) error {
	if o == nil {
		o = &StdioOptions{}
	}
	in, out := o.In, o.Out
	if in == nil {
		in = os.Stdin
	}
	if out == nil {
		out = os.Stdout
	}
	drain := o.Drain
	if drain <= 0 {
		drain = stdio.DefaultDrain
	}
	c := &stdioConn{
		srv:       s,
		validator: o.Validator,
		out:       out,
		calls:     make(map[string]*flight),
		max:       stdio.MaxInFlight(o.MaxInFlight),
		changed:   make(chan struct{}, 1),
		work:      make(chan request),
		onFailure: o.OnFailure,
	}
	if c.onFailure == nil && o.Validator != nil {
		c.onFailure = o.Validator.opts.OnFailure
	}
	c.session = &stdioSession{conn: c, notifications: make(chan mcp.JSONRPCNotification, 100), pending: make(map[int64]chan clientAnswer)}
	if err := s.RegisterSession(ctx, c.session); err != nil {
		return fmt.Errorf("mcpgo: registering the stdio session: %w", err)
	}
	defer s.UnregisterSession(context.WithoutCancel(ctx), c.session.SessionID())
	ctx, cancel := context.WithCancelCause(s.WithContext(ctx, c.session))
	defer cancel(nil)
	c.ctx, c.cancel = ctx, cancel
	go c.notify(ctx)

	ended := make(chan error, 1)
	go func() { ended <- c.read(stdio.NewReader(in, o.MaxLine)) }()
	var err error
	select {
	case err = <-ended:
		if err == nil {
			c.waitAnswers(drain, ctx.Done())
		}
	case <-ctx.Done():
		// As server.ServeStdio: the handlers running see their context
		// end, and their answers are written as they return; none can be
		// once the output failed.
		if !errors.Is(context.Cause(ctx), errOutput) {
			c.waitAnswers(drain, nil)
		}
	}
	c.wmu.Lock()
	c.closed = true // answers of handlers still running are dropped
	c.wmu.Unlock()
	if cause := context.Cause(ctx); cause != nil && err == nil {
		err = cause
	}
	return err
}

// stdioConn is one stdio session: its reading loop checks and dispatches
// the lines, each request's goroutine answers it.
type stdioConn struct {
	srv       *server.MCPServer
	validator *Validator
	session   *stdioSession
	ctx       context.Context // the requests' parent, ended when ServeStdio returns
	cancel    context.CancelCauseFunc

	max     int          // requests served at once
	work    chan request // to the idle workers
	workers atomic.Int64 // workers started

	// version is the protocol revision the session negotiated at
	// initialize (stdioSession.SetProtocolVersion); "" before. The error
	// lines ServeStdio writes take their codes from it (stdio.Revision).
	version   atomic.Pointer[string]
	onFailure func(ctx context.Context, f adapter.Failure) // StdioOptions.OnFailure

	mu      sync.Mutex
	calls   map[string]*flight // requests in flight, by the value of their id (stdio.IDKey)
	changed chan struct{}      // signalled when calls shrinks
	inits   int                // initialize requests served and not yet answered
	held    []request          // requests read while inits > 0, in order: served once it is 0 (see initAnswered)

	wmu    sync.Mutex // one writer at a time; guards out, wbuf and closed
	out    io.Writer
	wbuf   []byte // the line being written; reused
	closed bool
}

// flight is a request in flight.
type flight struct {
	key       string    // the value of its id (stdio.IDKey)
	read      time.Time // when its line was read (Received)
	cancel    context.CancelFunc
	cancelled atomic.Bool // the client cancelled it: it gets no answer
}

// errOutput wraps the error of a failed write to the output.
var errOutput = errors.New("mcpgo: writing to the stdio output")

// read reads the lines until the input ends: nil at its end, the error
// otherwise.
func (c *stdioConn) read(r *stdio.Reader) error {
	for {
		line, answer, err := r.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		var refused *wire.Message
		if answer == nil {
			refused, answer = c.admit(line)
		}
		if answer != nil {
			c.writeLine(answer)
			stdio.Report(c.ctx, c.onFailure, refused, answer)
		}
		if c.ctx.Err() != nil {
			return nil
		}
	}
}

// sessionVersion returns the protocol revision the session negotiated, ""
// before it did.
func (c *stdioConn) sessionVersion() string {
	if v := c.version.Load(); v != nil {
		return *v
	}
	return ""
}

// admit checks one line and serves it: a request on a worker (dispatch), a
// notification or a client's answer at once. It returns the answer to a
// line that is refused, with the message it refused (nil for a line that is
// none); a refused line's answer, or the Validator's, is written at once.
func (c *stdioConn) admit(line []byte) (*wire.Message, []byte) {
	m, answer := stdio.Check(line, c.sessionVersion())
	if answer != nil {
		return nil, answer
	}
	switch m.Type {
	case wire.NotificationMessage:
		if m.Method == string(mcp.MethodNotificationCancelled) {
			c.cancelled(m.Params)
		}
		c.handle(c.ctx, line)
		return nil, nil
	case wire.ResponseMessage:
		c.session.answered(m.ID, line)
		return nil, nil
	}
	read := time.Now()
	var f *flight
	var ctx context.Context // for RequestID and Received
	checked := c.validator != nil && m.Method == string(mcp.MethodToolsCall)
	screen := checked // the Validator's refusal is written by serve, after an initialize's answer
	if checked && !c.holding() {
		// Only this goroutine starts holding: the refusal cannot overtake
		// an initialize's answer.
		screen = false
		sctx := c.ctx
		if c.validator.opts.OnFailure != nil { // the hook has the id and the read time too
			f = &flight{key: stdio.IDKey(m.ID), read: read}
			ctx = context.WithValue(c.ctx, requestIDKey{}, f)
			sctx = ctx
		}
		if resp, refused := c.validator.screenCall(sctx, m); refused {
			c.answer(resp, m.ID, "")
			return nil, nil
		}
	}
	if f == nil {
		f = &flight{key: stdio.IDKey(m.ID), read: read}
		ctx = context.WithValue(c.ctx, requestIDKey{}, f)
	}
	key := f.key
	ctx, cancel := context.WithCancel(ctx)
	f.cancel = cancel
	if checked {
		ctx = context.WithValue(ctx, checkedKey{}, true)
	}
	// The line outlives the reader's buffer: one copy, holding the id.
	msg := append([]byte(nil), line...)
	var sent []byte
	if at := cap(line) - cap(m.ID); at >= 0 && at+len(m.ID) <= len(msg) {
		sent = msg[at : at+len(m.ID)] // m.ID is a slice of line
	}
	if !bytes.Equal(sent, m.ID) {
		sent = bytes.Clone(m.ID)
	}
	r := request{ctx: ctx, msg: msg, sent: sent, key: key, f: f, init: m.Method == string(mcp.MethodInitialize), screen: screen}
	c.mu.Lock()
	if c.ctx.Err() != nil { // ServeStdio is returning: waitAnswers counts no more
		c.mu.Unlock()
		cancel()
		return nil, nil
	}
	if _, dup := c.calls[key]; dup {
		c.mu.Unlock()
		cancel()
		return m, stdio.InFlight(m.ID, stdio.Revision(m, c.sessionVersion()))
	}
	if len(c.calls) >= c.max { // the reading never waits for a slot
		c.mu.Unlock()
		cancel()
		return m, stdio.Busy(m.ID, c.max, stdio.Revision(m, c.sessionVersion()))
	}
	c.calls[key] = f
	if c.inits > 0 { // served once the initialize read before it is answered
		c.held = append(c.held, r)
		c.mu.Unlock()
		return nil, nil
	}
	if r.init {
		c.inits++
	}
	c.mu.Unlock()
	c.dispatch(r, false)
	return nil, nil
}

// holding reports whether a request read now is held behind an
// initialize.
func (c *stdioConn) holding() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.inits > 0
}

// initAnswered is called once the answer to an initialize is written, or
// dropped: the requests held behind it are served, in the order read, up
// to and including the next initialize, which holds the rest. A held
// request the client cancelled, or one the end of the session finds held,
// is forgotten unserved.
func (c *stdioConn) initAnswered() {
	c.mu.Lock()
	c.inits--
	var run []request
	for c.inits == 0 && len(c.held) > 0 {
		r := c.held[0]
		c.held = c.held[1:]
		run = append(run, r)
		if r.init {
			c.inits++
		}
	}
	if len(c.held) == 0 {
		c.held = nil
	}
	c.mu.Unlock()
	for _, r := range run {
		if r.f.cancelled.Load() || c.ctx.Err() != nil {
			c.done(r.key)
			if r.init {
				c.initAnswered()
			}
			continue
		}
		c.dispatch(r, true)
	}
}

// requestIDKey is the context key of the *flight of a request ServeStdio
// serves.
type requestIDKey struct{}

// RequestID returns the JSON-RPC id of the request whose tool handler,
// middleware or hook has ctx, when ServeStdio serves it: mcp-go tells tool
// middleware no id (its hooks have it). ok is false for a request
// ServeStdio did not read, such as every request over HTTP. Package
// telemetry records it as jsonrpc.request.id.
func RequestID(ctx context.Context) (id mcp.RequestId, ok bool) {
	f, ok := ctx.Value(requestIDKey{}).(*flight)
	if !ok {
		return mcp.RequestId{}, false
	}
	if s, ok := strings.CutPrefix(f.key, `"`); ok {
		return mcp.NewRequestId(s), true
	}
	n, err := strconv.ParseInt(f.key, 10, 64)
	if err != nil {
		return mcp.RequestId{}, false // an integer past int64, which mcp-go holds as a float64
	}
	return mcp.NewRequestId(n), true
}

// Received returns when ServeStdio read the line of the request whose
// tool handler, middleware, hook or Validator's OnFailure has ctx; ok is
// false for a request ServeStdio did not read. Package telemetry measures
// the duration of a call the Validator refuses from it.
func Received(ctx context.Context) (t time.Time, ok bool) {
	f, ok := ctx.Value(requestIDKey{}).(*flight)
	if !ok {
		return time.Time{}, false
	}
	return f.read, true
}

// request is a request admitted, for a worker to serve.
type request struct {
	ctx  context.Context
	msg  []byte // the line
	sent []byte // its id, as the client wrote it
	key  string // its id's value (stdio.IDKey)
	f    *flight
	init bool // an initialize: the requests read after it wait for its answer

	// screen says the Validator has yet to screen this tools/call: it was
	// held behind an initialize, and its refusal is written after that.
	screen bool
}

// dispatch hands r to an idle worker, or to a new one when none is idle and
// fewer than max run. A worker serves requests one after another until the
// session ends, so the stack that mcp-go's decoding grows is grown once per
// worker, not once per request (it was a sixth of a valid call's CPU). The
// reading calls it, and waits only for a worker that has answered its
// request and is on its way back. The worker that answered an initialize
// calls it too (initAnswered, with worker set), for the requests held
// behind that initialize: it must not wait for a worker, since it may be
// the one it would wait for (with max workers busy, itself among them), so
// it starts a new one when none is idle. Workers stay within max + 1: a new
// one starts only when none is idle, and at most max requests are in flight.
func (c *stdioConn) dispatch(r request, worker bool) {
	select {
	case c.work <- r:
		return
	default:
	}
	if c.workers.Add(1) <= int64(c.max) || worker {
		go c.worker(r)
		return
	}
	c.workers.Add(-1)
	select {
	case c.work <- r: // max workers for at most max requests in flight: one is about to take it
	case <-c.ctx.Done(): // the workers are ending
		c.done(r.key)
	}
}

// worker serves r, then the requests dispatch hands it, until the session
// ends.
func (c *stdioConn) worker(r request) {
	for {
		c.serve(r)
		select {
		case r = <-c.work:
		case <-c.ctx.Done():
			return
		}
	}
}

// serve answers the request r and forgets it.
func (c *stdioConn) serve(r request) {
	var resp mcp.JSONRPCMessage
	if r.screen {
		resp = c.screen(r)
	}
	if resp == nil {
		resp = c.handle(r.ctx, r.msg)
	}
	switch {
	case r.f.cancelled.Load(): // a cancelled request gets no answer
		c.done(r.key)
	case resp != nil:
		if line, _ := c.answer(resp, r.sent, r.key); line != nil {
			c.internal(r, line)
		}
	default:
		line := stdio.ErrorLine(r.sent, errkind.InternalError, "Internal error", c.sessionVersion())
		c.wmu.Lock()
		c.done(r.key) // before the line, as answer does
		c.writeLocked(line)
		c.wmu.Unlock()
		c.internal(r, line)
	}
	if r.init {
		c.initAnswered()
	}
}

// internal hands OnFailure the -32603 line ServeStdio wrote for r itself
// (a handler's panic, an answer it could not encode), as it hands the
// lines it refuses, after writing it.
func (c *stdioConn) internal(r request, line []byte) {
	if c.onFailure == nil {
		return
	}
	m, _ := stdio.Check(r.msg, "") // it was checked once: it parses
	stdio.Report(r.ctx, c.onFailure, m, line)
}

// screen returns the Validator's refusal of r, a tools/call held behind an
// initialize; nil when it passes.
func (c *stdioConn) screen(r request) mcp.JSONRPCMessage {
	m, bad := stdio.Check(r.msg, "")
	if bad != nil {
		return nil // it was checked once: not reached
	}
	if resp, refused := c.validator.screenCall(r.ctx, m); refused {
		return resp
	}
	return nil
}

// handle is the server's HandleMessage, recovering a handler's panic: a
// request then gets no answer from it (nil), and its caller answers
// -32603.
func (c *stdioConn) handle(ctx context.Context, msg []byte) (resp mcp.JSONRPCMessage) {
	defer func() {
		if recover() != nil {
			resp = nil
		}
	}()
	return c.srv.HandleMessage(ctx, msg)
}

// cancelled cancels the request a notifications/cancelled names, which then
// gets no answer.
func (c *stdioConn) cancelled(params json.RawMessage) {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil || len(p.RequestID) == 0 {
		return
	}
	c.mu.Lock()
	f := c.calls[stdio.IDKey(p.RequestID)]
	c.mu.Unlock()
	if f != nil {
		f.cancelled.Store(true)
		f.cancel()
	}
}

// done forgets the request whose id has the value key, once answered.
func (c *stdioConn) done(key string) {
	c.mu.Lock()
	f := c.calls[key]
	delete(c.calls, key)
	c.mu.Unlock()
	if f != nil {
		f.cancel()
	}
	select {
	case c.changed <- struct{}{}:
	default:
	}
}

// waitAnswers blocks until every request read has been answered, stop is
// closed, or the drain time passed.
func (c *stdioConn) waitAnswers(drain time.Duration, stop <-chan struct{}) {
	timer := time.NewTimer(drain)
	defer timer.Stop()
	for {
		c.mu.Lock()
		n := len(c.calls)
		c.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-c.changed:
		case <-timer.C:
			return
		case <-stop:
			return
		}
	}
}

// answer writes msg, the answer to a request whose id the client wrote as
// sent (nil for a notification). When msg cannot be encoded, it writes a
// -32603 error in its place and returns that line (none for a
// notification, which gets no line) and the encoding's error. key, when not "", is that request's id
// value: the request is forgotten (done) with the writer's lock held, just
// before its answer is written, so a client that has read an answer never
// finds the request still counted among those in flight (one more would be
// refused as busy), and ServeStdio, which takes the lock after the last
// request is forgotten, returns after the answer is written.
func (c *stdioConn) answer(msg mcp.JSONRPCMessage, sent []byte, key string) (internal []byte, err error) {
	c.wmu.Lock()
	if b, ok := appendAnswer(c.wbuf[:0], msg, sent); ok { // a tool result: encoded without reflection
		c.keep(b)
		c.forget(key)
		c.writeLocked(b)
		c.wmu.Unlock()
		return nil, nil
	}
	c.wmu.Unlock()
	data, err := json.Marshal(msg)
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.forget(key)
	if err != nil {
		if sent != nil {
			internal = stdio.ErrorLine(sent, errkind.InternalError, "Internal error: the answer could not be encoded.", c.sessionVersion())
			c.writeLocked(internal)
		}
		return internal, err
	}
	b := stdio.AppendAnswer(c.wbuf[:0], data, sent)
	c.keep(b)
	c.writeLocked(b)
	return nil, nil
}

// forget forgets the request whose id has the value key (done), when key
// is not "".
func (c *stdioConn) forget(key string) {
	if key != "" {
		c.done(key)
	}
}

// keep keeps b, the line being written, as the buffer of the next one,
// unless it grew past 1 MiB. The caller holds c.wmu.
func (c *stdioConn) keep(b []byte) {
	if cap(b) <= 1<<20 {
		c.wbuf = b[:0]
	} else {
		c.wbuf = nil
	}
}

// writeLine writes one whole line.
func (c *stdioConn) writeLine(b []byte) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.writeLocked(b)
}

// writeLocked writes b with c.wmu held; a failed write ends the session.
func (c *stdioConn) writeLocked(b []byte) {
	if c.closed {
		return
	}
	if _, err := c.out.Write(b); err != nil {
		c.closed = true
		c.cancel(fmt.Errorf("%w: %w", errOutput, err))
	}
}

// notify writes the server's notifications to the client until ctx ends.
func (c *stdioConn) notify(ctx context.Context) {
	for {
		select {
		case n := <-c.session.notifications:
			c.answer(n, nil, "")
		case <-ctx.Done():
			return
		}
	}
}

// stdioSession is the server's session of a stdio connection: there is one
// client.
type stdioSession struct {
	conn          *stdioConn
	notifications chan mcp.JSONRPCNotification
	initialized   atomic.Bool
	level         atomic.Value // mcp.LoggingLevel
	info          atomic.Value // mcp.Implementation
	caps          atomic.Value // mcp.ClientCapabilities

	lastID  atomic.Int64
	mu      sync.Mutex
	pending map[int64]chan clientAnswer // the server's requests awaiting the client's answer
}

var (
	_ server.SessionWithLogging     = (*stdioSession)(nil)
	_ server.SessionWithClientInfo  = (*stdioSession)(nil)
	_ server.SessionWithSampling    = (*stdioSession)(nil)
	_ server.SessionWithElicitation = (*stdioSession)(nil)
	_ server.SessionWithRoots       = (*stdioSession)(nil)
)

func (s *stdioSession) SessionID() string { return "stdio" }
func (s *stdioSession) NotificationChannel() chan<- mcp.JSONRPCNotification {
	return s.notifications
}
func (s *stdioSession) Initialize()                        { s.initialized.Store(true) }
func (s *stdioSession) Initialized() bool                  { return s.initialized.Load() }
func (s *stdioSession) SetLogLevel(level mcp.LoggingLevel) { s.level.Store(level) }
func (s *stdioSession) GetLogLevel() mcp.LoggingLevel {
	if l, ok := s.level.Load().(mcp.LoggingLevel); ok {
		return l
	}
	return mcp.LoggingLevelError
}
func (s *stdioSession) GetClientInfo() mcp.Implementation {
	i, _ := s.info.Load().(mcp.Implementation)
	return i
}
func (s *stdioSession) SetClientInfo(i mcp.Implementation) { s.info.Store(i) }
func (s *stdioSession) GetClientCapabilities() mcp.ClientCapabilities {
	c, _ := s.caps.Load().(mcp.ClientCapabilities)
	return c
}
func (s *stdioSession) SetClientCapabilities(c mcp.ClientCapabilities) { s.caps.Store(c) }

// SetProtocolVersion records the protocol revision initialize negotiated:
// mcp-go calls it on a session that has it.
func (s *stdioSession) SetProtocolVersion(v string) { s.conn.version.Store(&v) }

// clientAnswer is the client's answer to a request of the server's.
type clientAnswer struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// answered hands the client's answer line, whose id is id, to the request
// of the server's that waits for it; other answers are dropped.
func (s *stdioSession) answered(id json.RawMessage, line []byte) {
	n, err := strconv.ParseInt(string(id), 10, 64)
	if err != nil {
		return
	}
	s.mu.Lock()
	ch := s.pending[n]
	delete(s.pending, n)
	s.mu.Unlock()
	if ch == nil {
		return
	}
	var a clientAnswer
	if json.Unmarshal(line, &a) != nil {
		a.Result = nil
	}
	ch <- a // buffered: one answer
}

// request sends a request to the client and decodes its result into v.
func (s *stdioSession) request(ctx context.Context, method mcp.MCPMethod, params any, v any) error {
	id := s.lastID.Add(1)
	ch := make(chan clientAnswer, 1)
	s.mu.Lock()
	s.pending[id] = ch
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.pending, id)
		s.mu.Unlock()
	}()
	req := struct {
		JSONRPC string `json:"jsonrpc"`
		ID      int64  `json:"id"`
		Method  string `json:"method"`
		Params  any    `json:"params,omitempty"`
	}{mcp.JSONRPC_VERSION, id, string(method), params}
	if _, err := s.conn.answer(req, nil, ""); err != nil {
		return fmt.Errorf("mcpgo: encoding the %s request: %w", method, err)
	}
	select {
	case a := <-ch:
		if a.Error != nil {
			return fmt.Errorf("mcpgo: %s request failed: %s", method, a.Error.Message)
		}
		if err := json.Unmarshal(a.Result, v); err != nil {
			return fmt.Errorf("mcpgo: decoding the client's %s result: %w", method, err)
		}
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-s.conn.ctx.Done():
		return context.Cause(s.conn.ctx)
	}
}

// RequestSampling implements server.SessionWithSampling.
func (s *stdioSession) RequestSampling(ctx context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	var res mcp.CreateMessageResult
	if err := s.request(ctx, mcp.MethodSamplingCreateMessage, req.CreateMessageParams, &res); err != nil {
		return nil, err
	}
	content, err := mcp.ParseSamplingContent(res.Content)
	if err != nil {
		return nil, fmt.Errorf("mcpgo: decoding the client's sampling content: %w", err)
	}
	res.Content = content
	return &res, nil
}

// RequestElicitation implements server.SessionWithElicitation.
func (s *stdioSession) RequestElicitation(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	var res mcp.ElicitationResult
	if err := s.request(ctx, mcp.MethodElicitationCreate, req.Params, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// ListRoots implements server.SessionWithRoots.
func (s *stdioSession) ListRoots(ctx context.Context, _ mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	var res mcp.ListRootsResult
	if err := s.request(ctx, mcp.MethodListRoots, nil, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

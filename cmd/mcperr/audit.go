package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/gosdk"
)

// The answers a probe can get.
const (
	answerToolError    = "tool_error"    // a tool result with isError: it reaches the model
	answerRPCError     = "rpc_error"     // a JSON-RPC error response
	answerSuccess      = "success"       // a result that is not an error
	answerNone         = "none"          // no answer within the timeout
	answerSessionEnded = "session_ended" // the server exited or stopped answering
	answerHTTPError    = "http_error"    // an HTTP status of 400 or more
)

// noSuchTool is the tool the unknown-tool probe calls.
const noSuchTool = "mcperr_audit_no_such_tool"

// target is the server under audit: a command (stdio) or a URL (Streamable HTTP).
type target struct {
	argv    []string
	url     string
	headers http.Header
}

func (t target) transport() string {
	if t.url != "" {
		return "streamable-http"
	}
	return "stdio"
}

// auditor runs one audit. Every call it makes is bounded by timeout.
type auditor struct {
	target   target
	timeout  time.Duration
	deadline time.Duration              // for the whole audit; none when 0
	step     string                     // what the audit is doing, for the error that stops it
	version  string                     // the protocol revision connect asks for; the SDK's latest when ""
	faults   *faultProxy                // with -faults: the proxy the server's upstream requests go to
	filter   []string                   // tool names to audit; all when empty
	status   func(string)               // progress
	httpc    *http.Client               // for HTTP targets
	tap      *tapTransport              // httpc's transport: bounds and keeps the bodies
	env      []string                   // the stdio server's environment; the audit's own when nil
	bases    map[string]json.RawMessage // each tool's valid base arguments, for -faults
	secrets  map[string]string          // with -faults: the secret values of the server's environment, by name
	client   *mcp.Client                // the go-sdk client
	session  *mcp.ClientSession
	conn     *stdioConn // the running process, for stdio targets
	rep      report
}

// connectError is a failure to open a session: exit status 2.
type connectError struct{ err error }

func (e *connectError) Error() string { return e.err.Error() }
func (e *connectError) Unwrap() error { return e.err }

// connect opens a session: it starts the command or reaches the URL, and
// initializes.
func (a *auditor) connect(ctx context.Context) error {
	if a.client == nil {
		a.client = mcp.NewClient(&mcp.Implementation{Name: "mcperr-audit", Version: version}, nil)
	}
	// A server's start (npx, a JVM, a cluster client) may take longer than a call.
	ctx, cancel := context.WithTimeout(ctx, connectTimeout*a.timeout)
	defer cancel()
	var tr mcp.Transport
	var st *stdioTransport
	if a.target.url != "" {
		tr = &mcp.StreamableClientTransport{Endpoint: a.target.url, HTTPClient: a.httpc, MaxRetries: -1, DisableStandaloneSSE: true}
	} else {
		st = &stdioTransport{argv: a.target.argv, env: a.env}
		tr = st
	}
	var opts *mcp.ClientSessionOptions
	if a.version != "" {
		opts = &mcp.ClientSessionOptions{ProtocolVersion: a.version}
	}
	s, err := a.client.Connect(ctx, tr, opts)
	if err != nil {
		hello := "initialize"
		if a.version >= "2026-07-28" || a.version == "" {
			hello = "server/discover, then initialize"
		}
		switch {
		case st != nil && st.conn == nil:
			err = fmt.Errorf("starting %s: %w", a.target.argv[0], err)
		case st != nil && !st.conn.alive():
			err = fmt.Errorf("the server exited during %s: %w", hello, err)
		case errors.Is(err, context.DeadlineExceeded):
			err = fmt.Errorf("no answer to %s within %s: %w", hello, connectTimeout*a.timeout, err)
		default:
			err = fmt.Errorf("%s: %w", hello, err)
		}
		if st != nil && st.conn != nil {
			st.conn.Close()
			if msg := st.conn.stderr.String(); msg != "" {
				return &connectError{fmt.Errorf("%w; the server wrote on stderr: %s", err, oneLine(msg, 300))}
			}
		}
		return &connectError{err}
	}
	a.session = s
	if st != nil {
		a.conn = st.conn
	}
	return nil
}

// tapReset forgets the last answer's bytes before a call.
func (a *auditor) tapReset() {
	switch {
	case a.tap != nil:
		a.tap.reset()
	case a.conn != nil:
		a.conn.lastAnswer()
	}
}

// tapLast returns the server's own bytes of the last call's answer (at most
// maxRaw*4 of them), nil when none was kept.
func (a *auditor) tapLast() []byte {
	switch {
	case a.tap != nil:
		return a.tap.lastMessage()
	case a.conn != nil:
		return bytes.TrimSpace(a.conn.lastAnswer())
	}
	return nil
}

// connectTimeout is how many call timeouts opening a session may take.
const connectTimeout = 3

// reconnect replaces a session that ended; the probes after it need one.
func (a *auditor) reconnect(ctx context.Context) error {
	a.close()
	return a.connect(ctx)
}

func (a *auditor) close() {
	if a.session != nil {
		a.session.Close()
		a.session = nil
	}
	if a.conn != nil {
		a.conn.Close()
		a.conn = nil
	}
}

// alive reports whether the session still answers: a ping gets an answer,
// even an error (the 2026-07-28 revision has no ping). Over HTTP, a revision
// without sessions answers a ping at the transport, so a tools/list that gets
// its result tells instead.
func (a *auditor) alive(ctx context.Context) bool {
	if a.session == nil || (a.conn != nil && !a.conn.alive()) {
		return false
	}
	pctx, cancel := context.WithTimeout(ctx, a.timeout)
	defer cancel()
	var params *mcp.PingParams
	if a.newProtocol() {
		// The go-sdk client leaves the per-request _meta off a ping.
		params = &mcp.PingParams{Meta: a.meta()}
	}
	err := a.session.Ping(pctx, params)
	var we *jsonrpc.Error
	if err == nil || errors.As(err, &we) {
		return true
	}
	if a.target.url != "" && a.newProtocol() {
		ans, err := a.send(ctx, httpProbe{method: "POST", rpc: "tools/list", body: []byte(a.request(`"mcperr-audit-alive"`, "tools/list", ""))})
		return err == nil && ans.status < 300 && ans.rpc != nil && ans.rpc.Result != nil
	}
	return false
}

// newProtocol reports whether the session's revision wants the protocol
// version and client capabilities in every request's _meta.
func (a *auditor) newProtocol() bool {
	return a.rep.Protocol >= "2026-07-28"
}

// harmless is the method the probes send where any request will do: ping,
// or in the revision without ping, tools/list.
func (a *auditor) harmless() string {
	if a.newProtocol() {
		return "tools/list"
	}
	return "ping"
}

// meta is the _meta a request carries in the revisions that want it.
func (a *auditor) meta() map[string]any {
	return map[string]any{
		mcp.MetaKeyProtocolVersion:    a.rep.Protocol,
		mcp.MetaKeyClientCapabilities: map[string]any{},
	}
}

// request is a raw JSON-RPC request line: id and params are JSON text
// (params without braces, "" for none), with the _meta the revision wants.
func (a *auditor) request(id, method, params string) string {
	if a.newProtocol() {
		m, _ := json.Marshal(a.meta())
		if params != "" {
			params = `"_meta":` + string(m) + `,` + params
		} else {
			params = `"_meta":` + string(m)
		}
	}
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `","params":{` + params + `}}`
}

// stepError is the audit stopped at a step it names.
type stepError struct {
	step string
	err  error
}

func (e *stepError) Error() string { return e.step + ": " + e.err.Error() }
func (e *stepError) Unwrap() error { return e.err }

// run is the whole audit: connect and list, then the bad arguments of each
// tool, then the protocol probes; the grade last. The whole of it is bounded
// by the deadline; an audit stopped by it, or by a server it cannot go on
// with, says at which step.
func (a *auditor) run(ctx context.Context) (*report, error) {
	start := time.Now()
	if a.deadline > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, a.deadline)
		defer cancel()
	}
	rep, err := a.steps(ctx, start)
	if err != nil {
		if ctx.Err() != nil && a.deadline > 0 && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			err = fmt.Errorf("the audit's -deadline of %s passed: %w", a.deadline, err)
		}
		return nil, &stepError{a.step, err}
	}
	return rep, nil
}

func (a *auditor) steps(ctx context.Context, start time.Time) (*report, error) {
	a.step = "connect"
	a.status("connecting")
	if err := a.connect(ctx); err != nil {
		return nil, err
	}
	defer a.close()
	init := a.session.InitializeResult()
	a.rep.Transport = a.target.transport()
	if init != nil {
		a.rep.Protocol = init.ProtocolVersion
		if init.ServerInfo != nil {
			a.rep.Server = init.ServerInfo.Name
			a.rep.Version = init.ServerInfo.Version
		}
	}
	a.step = "tools/list"
	tools, err := a.listTools(ctx)
	if err != nil {
		return nil, &connectError{err}
	}
	a.rep.Tools = len(tools)
	for _, name := range a.filter {
		if !slices.ContainsFunc(tools, func(t *mcp.Tool) bool { return t.Name == name }) {
			return nil, &connectError{fmt.Errorf("-tools: the server has no tool %q", name)}
		}
	}
	for i, t := range tools {
		if len(a.filter) > 0 && !slices.Contains(a.filter, t.Name) {
			continue
		}
		a.step = fmt.Sprintf("tool %d/%d (%s)", i+1, len(tools), t.Name)
		a.status(a.step)
		if err := a.auditTool(ctx, t); err != nil {
			return nil, err
		}
	}
	a.step = "protocol probes"
	a.status(a.step)
	if err := a.protocolProbes(ctx); err != nil {
		return nil, err
	}
	a.step = "unknown method on each revision"
	if err := a.revisionProbes(ctx); err != nil {
		return nil, err
	}
	if a.faults != nil {
		a.step = "upstream faults"
		a.status(a.step)
		if err := a.faultChecks(ctx, tools); err != nil {
			return nil, err
		}
	}
	if a.tap != nil {
		a.rep.Limits = append(a.rep.Limits, a.tap.bounds()...)
	}
	a.rep.grade()
	if a.secrets != nil {
		a.rep.Findings = append(a.rep.Findings, leaks(a.secrets, a.rep.Checks, a.rep.Controls)...)
	}
	a.rep.Seconds = time.Since(start).Seconds()
	return &a.rep, nil
}

// The bounds of tools/list: a server whose cursor never ends, or whose
// pages never stop growing, is listed this far and audited on what came.
const (
	maxPages = 100
	maxTools = 1000
)

// listTools reads the pages of tools/list, up to maxPages pages and
// maxTools tools; a cursor seen before ends the listing. What it met is a
// finding.
func (a *auditor) listTools(ctx context.Context) ([]*mcp.Tool, error) {
	var tools []*mcp.Tool
	params := &mcp.ListToolsParams{}
	seen := map[string]bool{}
	for page := 0; ; page++ {
		if page == maxPages {
			a.rep.Limits = append(a.rep.Limits, fmt.Sprintf("tools/list still had a nextCursor after %d pages: audited the first %d tools", maxPages, len(tools)))
			return tools, nil
		}
		cctx, cancel := context.WithTimeout(ctx, a.timeout)
		res, err := a.session.ListTools(cctx, params)
		cancel()
		if err != nil {
			if page > 0 {
				a.rep.Limits = append(a.rep.Limits, fmt.Sprintf("tools/list page %d failed (%s): audited the first %d tools", page+1, oneLine(err.Error(), 120), len(tools)))
				return tools, nil
			}
			return nil, err
		}
		if room := maxTools - len(tools); len(res.Tools) > room {
			tools = append(tools, res.Tools[:room]...)
			a.rep.Limits = append(a.rep.Limits, fmt.Sprintf("tools/list listed more than %d tools: audited the first %d", maxTools, maxTools))
			return tools, nil
		}
		tools = append(tools, res.Tools...)
		if res.NextCursor == "" {
			return tools, nil
		}
		if seen[res.NextCursor] {
			a.rep.Limits = append(a.rep.Limits, fmt.Sprintf("tools/list sent the cursor %q twice: a loop; audited the first %d tools", oneLine(res.NextCursor, 40), len(tools)))
			return tools, nil
		}
		seen[res.NextCursor] = true
		params = &mcp.ListToolsParams{Cursor: res.NextCursor}
	}
}

// auditTool makes the control call of a tool, with the valid base
// arguments, then sends each set of arguments its schema forbids.
func (a *auditor) auditTool(ctx context.Context, t *mcp.Tool) error {
	schema, err := json.Marshal(t.InputSchema)
	if err != nil || t.InputSchema == nil {
		schema = []byte(`{"type":"object"}`)
	}
	p, err := argProbes(t.Name, schema)
	if err != nil {
		a.rep.Skipped = append(a.rep.Skipped, t.Name+": "+oneLine(err.Error(), 200))
		return nil
	}
	if len(p.probes) == 0 {
		return nil
	}
	if a.bases == nil {
		a.bases = map[string]json.RawMessage{}
	}
	a.bases[t.Name] = p.base
	ctl, err := a.control(ctx, t.Name, p.base)
	if err != nil {
		return err
	}
	for _, pr := range p.probes {
		c, err := a.callProbe(ctx, t.Name, pr, ctl)
		if err != nil {
			return err
		}
		a.rep.add(c)
	}
	return nil
}

// control is the call of a tool with arguments its schema allows: what a
// probe's answer is compared with.
type control struct {
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
	Answer    string          `json:"answer"`
	Kind      string          `json:"kind"`
	Move      string          `json:"move"`
	Text      string          `json:"text"`

	outcome errkind.Outcome
	reading errkind.Reading
}

// failed reports whether the control call got an error.
func (c *control) failed() bool {
	return c != nil && (c.Answer == answerToolError || c.Answer == answerRPCError || c.Answer == answerNone)
}

func (a *auditor) control(ctx context.Context, tool string, args json.RawMessage) (*control, error) {
	res, callErr, err := a.call(ctx, tool, args)
	if err != nil {
		return nil, err
	}
	ans, err := a.answerOf(ctx, res, callErr)
	if err != nil {
		return nil, err
	}
	o := gosdk.Outcome(res, callErr)
	c := &control{Tool: tool, Arguments: args, Answer: ans, outcome: o, Text: answerText(o)}
	if ans != answerSuccess {
		c.reading = errkind.Read(o)
		c.Kind, c.Move = string(c.reading.Kind), string(c.reading.Move)
	}
	a.rep.Controls = append(a.rep.Controls, *c)
	return c, nil
}

// answerText is the text of an answer as the server sent it: a result's
// text blocks, or a JSON-RPC error's message.
func answerText(o errkind.Outcome) string {
	if o.RPCCode != 0 || o.Message != "" || o.Data != nil {
		return o.Message
	}
	return o.Text
}

// maxLimitWait is the longest wait a rate limit may ask of the audit before
// the call is made once more; a longer one ends the audit.
const maxLimitWait = 30 * time.Second

// noWaitLimit is the wait before the second try of a call refused by a rate
// limit that names no wait.
const noWaitLimit = 2 * time.Second

// call makes one tools/call, bounded by the timeout. A call refused by a
// rate limit is made once more after the wait it names.
func (a *auditor) call(ctx context.Context, tool string, args json.RawMessage) (*mcp.CallToolResult, error, error) {
	var res *mcp.CallToolResult
	var callErr error
	for try := 0; ; try++ {
		a.tapReset()
		cctx, cancel := context.WithTimeout(ctx, a.timeout)
		res, callErr = a.session.CallTool(cctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		cancel()
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		r := errkind.Read(gosdk.Outcome(res, callErr))
		if r.Kind != errkind.RateLimited || try > 0 {
			return res, callErr, nil
		}
		wait := r.Wait
		if !r.HasWait {
			wait = noWaitLimit
		}
		if wait > maxLimitWait {
			return nil, nil, &connectError{fmt.Errorf("the server rate-limits the audit (%s): audit a test instance whose limits allow a few hundred calls a minute", tool)}
		}
		a.status(fmt.Sprintf("rate-limited: waiting %s", wait))
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
	}
}

// callProbe makes one call with forbidden arguments and grades its answer
// against the control's.
func (a *auditor) callProbe(ctx context.Context, tool string, p argProbe, ctl *control) (check, error) {
	c := check{Tool: tool, Probe: p.name, Field: p.field, Expected: p.expected, Arguments: p.args, group: groupArguments}
	res, callErr, err := a.call(ctx, tool, p.args)
	if err != nil {
		return c, err
	}
	raw := a.tapLast()
	ans, err := a.answerOf(ctx, res, callErr)
	if err != nil {
		return c, err
	}
	if ans == answerNone {
		c.Text = callErr.Error()
	}
	gradeArgument(&c, ans, gosdk.Outcome(res, callErr), ctl, raw)
	return c, nil
}

// answerOf names the answer a call got. A call that failed without a
// JSON-RPC error is told apart by a ping: a session that no longer answers
// has ended, and a new one is opened for what follows.
func (a *auditor) answerOf(ctx context.Context, res *mcp.CallToolResult, callErr error) (string, error) {
	var we *jsonrpc.Error
	switch {
	case callErr == nil && res != nil && res.IsError:
		return answerToolError, nil
	case callErr == nil:
		return answerSuccess, nil
	case errors.As(callErr, &we):
		return answerRPCError, nil
	case a.alive(ctx):
		return answerNone, nil
	}
	if err := a.reconnect(ctx); err != nil {
		return "", &connectError{fmt.Errorf("the session ended and a new one could not open: %w", err)}
	}
	return answerSessionEnded, nil
}

// protocolProbes: the unknown tool, the unknown method, and the probes of
// the transport.
func (a *auditor) protocolProbes(ctx context.Context) error {
	a.tapReset()
	cctx, cancel := context.WithTimeout(ctx, a.timeout)
	res, err := a.session.CallTool(cctx, &mcp.CallToolParams{Name: noSuchTool, Arguments: map[string]any{}})
	cancel()
	raw := a.tapLast()
	ans, err2 := a.answerOf(ctx, res, err)
	if err2 != nil {
		return err2
	}
	c := check{Probe: "unknown tool", Field: noSuchTool, Arguments: json.RawMessage(`{}`), Raw: string(raw), group: groupProtocol}
	gradeUnknownTool(&c, ans, gosdk.Outcome(res, err))
	a.rep.add(c)

	if a.target.url != "" {
		return a.httpProbes(ctx)
	}
	return a.stdioProbes(ctx)
}

// rpcAnswer is a JSON-RPC response as a probe reads it.
type rpcAnswer struct {
	raw    []byte          // the message as the server sent it
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

// stdioProbe is a line written to the server's stdin, and the id its answer
// should carry ("" for a line whose id cannot be read: the answer's is null).
type stdioProbe struct {
	name string
	line string
	id   string
}

func (a *auditor) stdioProbes(ctx context.Context) error {
	deep := strings.Repeat("[", 1001) + strings.Repeat("]", 1001)
	probes := []stdioProbe{
		a.unknownMethodProbe(),
		{"line not JSON", `this line is not JSON {`, ""},
		{"line nested 1,001 deep", a.request(`"mcperr-audit-deep"`, a.harmless(), `"a":`+deep), `"mcperr-audit-deep"`},
		{"id 1.5", a.request(`1.5`, a.harmless(), ""), `1.5`},
		{"id 1e400", a.request(`1e400`, a.harmless(), ""), `1e400`},
		{`id "<&>"`, a.request(`"<&>"`, a.harmless(), ""), `"<&>"`},
	}
	for _, p := range probes {
		c, err := a.stdioProbe(ctx, p)
		if err != nil {
			return err
		}
		a.rep.add(c)
	}
	return nil
}

// stdioProbe writes one raw line, then pings: the ping's answer says the
// session survived, and bounds the wait for the line's own answer (a server
// answers in order, or nearly).
func (a *auditor) stdioProbe(ctx context.Context, p stdioProbe) (check, error) {
	c := check{Probe: p.name, group: groupProtocol}
	a.conn.drain()
	var got *rpcAnswer
	survived := a.conn.writeLine([]byte(p.line)) == nil && a.alive(ctx)
	wait := 250 * time.Millisecond
	if !survived {
		wait = 0
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
wait:
	for {
		select {
		case raw := <-a.conn.raw:
			var r rpcAnswer
			if json.Unmarshal(raw, &r) == nil {
				r.raw = raw
				got = &r
				break wait
			}
		case <-timer.C:
			break wait
		}
	}
	if !survived {
		if err := a.reconnect(ctx); err != nil {
			return c, &connectError{fmt.Errorf("the session ended and a new one could not open: %w", err)}
		}
	}
	gradeLine(&c, p, got, survived)
	return c, nil
}

// sameID reports whether an answer's id is the one sent: the same string,
// or the same number however it is written.
func sameID(got json.RawMessage, want string) bool {
	got = bytes.TrimSpace(got)
	if string(got) == want {
		return true
	}
	if sameNumber(string(got), want) {
		return true
	}
	var g, w any
	if json.Unmarshal(got, &g) != nil || json.Unmarshal([]byte(want), &w) != nil {
		return false
	}
	if gs, ok := g.(string); ok {
		ws, ok := w.(string)
		return ok && gs == ws
	}
	return false
}

// sameNumber reports whether two JSON numbers are the same value, even
// beyond float64's range (1e400).
func sameNumber(a, b string) bool {
	x, _, err1 := big.ParseFloat(a, 10, 2000, big.ToNearestEven)
	y, _, err2 := big.ParseFloat(b, 10, 2000, big.ToNearestEven)
	return err1 == nil && err2 == nil && x.Cmp(y) == 0
}

package gosdk

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/wire"
)

// The direct path: the tools/call requests of a StdioTransport whose
// Server is set are answered here, without the SDK's JSON-RPC layer. The
// request is parsed once by the transport, handed to the server's receiving
// middleware and tool handler as the SDK would hand it, and the result is
// encoded once. The go-sdk, by contrast, decodes a tools/call's params three
// times (for _meta, then into the request) with a fresh 32 KiB buffer each
// time, and encodes a result three times over (the result, then two
// compactions); over stdio that is most of a small call's cost.
//
// The answers are the SDK's byte for byte, in the SDK's order: the same
// middleware and handler run, errors are encoded by the SDK's own
// jsonrpc.EncodeMessage, a result is encoded as the SDK encodes it (its
// resultType the one the SDK set), no call read while an initialize is
// unanswered is served here (see direct), and the calls in flight outlive
// a cancelled Run as the SDK's handlers do (see conn.Close).
// TestDirectMatchesSDK and FuzzDirect run both paths on the same input and
// compare the lines, and their order where the protocol fixes one. The
// middleware is taken from the server when each call arrives, through the
// SDK's own AddReceivingMiddleware: a middleware that returns the handler it
// is given leaves the server's chain as it was and shows the chain as it
// stands.

// call is a tools/call the direct path serves.
type call struct {
	next   mcp.MethodHandler // the server's middleware and dispatch
	key    string            // the id's value (idKey)
	id     jsonrpc.ID
	req    *mcp.CallToolRequest
	ctx    context.Context
	cancel context.CancelFunc
}

// maxIdle bounds the goroutines a connection keeps parked for the next
// call. A call runs on a goroutine that has run calls before, whose stack
// has already grown, when one is parked; otherwise on a new one.
const maxIdle = 32

// direct serves m, a tools/call request whose id is already recorded as in
// flight, when the session is initialized, no initialize is waiting for
// its answer, and m's params are a name and arguments alone
// (wire.Message.ToolCall); it reports false for the SDK to serve it. A call
// read while an initialize is unanswered goes to the SDK, which starts no
// request read after an initialize before that initialize's answer is
// written, whatever a middleware does after the session's state is set.
func (c *conn) direct(key string, m *wire.Message) bool {
	ss := c.session.Load() // stored after c.srv: the server is found
	if ss == nil || ss.InitializeParams() == nil {
		return false
	}
	name, args, ok := m.ToolCall()
	if !ok {
		return false
	}
	// The server's middleware and dispatch as they stand now: the SDK
	// composes a middleware when it is added, so the function runs here,
	// with the whole chain, and returns it unchanged.
	c.next = nil
	c.srv.AddReceivingMiddleware(c.capture)
	if c.next == nil {
		return false // an SDK that composes otherwise: its own path
	}
	k := &call{
		next: c.next,
		key:  key,
		id:   keyID(key),
		req:  &mcp.CallToolRequest{Session: ss, Params: &mcp.CallToolParamsRaw{Name: name, Arguments: clone(args)}},
	}
	// The context carries k for RequestID: its id, parsed once here.
	k.ctx, k.cancel = context.WithCancel(context.WithValue(c.ctx, requestIDKey{}, k))
	c.mu.Lock()
	ok = c.inits == 0 && !c.ending
	if ok {
		c.calls[k.key] = k
		c.running++
	}
	c.mu.Unlock()
	if !ok {
		k.cancel()
		return false
	}
	select {
	case c.jobs <- k:
	default:
		go c.work(k)
	}
	return true
}

// work runs k and then the calls handed to it while it is parked.
func (c *conn) work(k *call) {
	for {
		c.serve(k)
		if c.idle.Add(1) > maxIdle {
			c.idle.Add(-1)
			return
		}
		select {
		case k = <-c.jobs:
			c.idle.Add(-1)
		case <-c.closed:
			c.idle.Add(-1)
			return
		}
	}
}

// methodNotFound is the SDK's -32601 error: the SDK answers any error
// that is one (errors.Is compares the code) as "method not found: " and
// the method.
var methodNotFound = &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "method not found"}

// serve runs one call through the server's middleware and tool handler,
// and writes its answer as the SDK would.
func (c *conn) serve(k *call) {
	c.served.Add(1)
	var res mcp.Result
	err := k.ctx.Err()
	if err == nil {
		res, err = k.next(k.ctx, "tools/call", k.req)
	} // else cancelled before it ran: the SDK answers such a call with the error alone

	c.mu.Lock()
	delete(c.calls, k.key) // no later call has the id: it stays in flight until the answer below is written
	over := c.ending
	c.mu.Unlock()
	k.cancel()
	// The end of the input waits for the answer to be written, and Read
	// reports the end only once every direct call has returned: the SDK,
	// which does not know the call, ends the session once Read does.
	defer func() {
		c.mu.Lock()
		c.running--
		c.endIfIdle()
		c.mu.Unlock()
		c.signal()
	}()
	if err != nil && errors.Is(err, methodNotFound) {
		err = fmt.Errorf("%w: %q", methodNotFound, "tools/call")
	}
	if err == nil && res == nil {
		err = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "internal error: the tool call returned neither a result nor an error"}
	}
	if over {
		return // the session is over: the SDK writes nothing after it either
	}
	// A cancelled call's answer is dropped by Write, as the SDK's is.
	ctx := context.Background()
	if err != nil {
		c.Write(ctx, &jsonrpc.Response{ID: k.id, Error: err})
		return
	}
	e := c.encoders.Get().(*encoder)
	raw, err := e.result(res)
	if err != nil {
		// The SDK leaves a request whose result it cannot encode
		// unanswered; the client is told instead.
		c.Write(ctx, &jsonrpc.Response{ID: k.id, Error: &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "internal error: the tool's result could not be encoded"}})
	} else {
		c.Write(ctx, &jsonrpc.Response{ID: k.id, Result: raw})
	}
	if e.buf.Cap() <= 64<<10 {
		c.encoders.Put(e)
	}
}

// encoder encodes tool results into a buffer it keeps.
type encoder struct {
	buf bytes.Buffer
	enc *json.Encoder
	res toolResult // the result being encoded; its Content is reused
}

func newEncoder() any {
	e := &encoder{}
	e.enc = json.NewEncoder(&e.buf)
	e.res.Content = make([]textBlock, 0, 1) // never nil: no content is "content":[]
	return e
}

// toolResult is a CallToolResult of text blocks as the go-sdk writes it
// (CallToolResult.MarshalJSON): its fields in the SDK's order, with the
// SDK's omissions.
type toolResult struct {
	Content           []textBlock     `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError,omitempty"`
	ResultType        string          `json:"resultType,omitempty"`
}

// textBlock is a TextContent without _meta or annotations, as the go-sdk
// writes it.
type textBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// result encodes res as the go-sdk encodes it into a response, once: a
// result of text blocks whose structuredContent, if any, is JSON already
// (what gosdk.Raw and wire.Success make) takes one pass of encoding/json
// over a struct of the same shape; any other goes through the SDK's own
// marshalling. The bytes are the encoder's until its next use.
func (e *encoder) result(r mcp.Result) ([]byte, error) {
	res, ok := r.(*mcp.CallToolResult)
	if !ok || res == nil || len(res.Meta) > 0 || res.InputRequests != nil || res.RequestState != "" || res.Content == nil {
		return json.Marshal(r)
	}
	rt, ok := resultTypeOf(res)
	if !ok {
		return json.Marshal(r)
	}
	w := &e.res
	*w = toolResult{Content: w.Content[:0], IsError: res.IsError, ResultType: rt}
	defer func() {
		// The texts and the structured content are the caller's; the
		// encoder keeps only the slice.
		clear(w.Content)
		w.StructuredContent = nil
	}()
	for _, c := range res.Content {
		t, ok := c.(*mcp.TextContent)
		if !ok || t == nil || t.Meta != nil || t.Annotations != nil {
			return json.Marshal(r)
		}
		w.Content = append(w.Content, textBlock{Type: "text", Text: t.Text})
	}
	switch sc := res.StructuredContent.(type) {
	case nil:
	case json.RawMessage:
		if len(sc) == 0 {
			return json.Marshal(r)
		}
		w.StructuredContent = sc
	default:
		return json.Marshal(r)
	}
	e.buf.Reset()
	if err := e.enc.Encode(w); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(e.buf.Bytes(), []byte("\n")), nil
}

// bareHead is how the go-sdk's encoding of a CallToolResult begins when its
// _meta is empty and its content nil.
const bareHead = `{"content":null`

// resultTypeOf is the "resultType" the SDK writes for r ("": none), read
// from the SDK's own encoding of r with its content and everything but
// resultType left out. The SDK decides it where it dispatches a call to
// the tool's handler (on the protocol revisions that carry it, for the
// handler's result only: a result a middleware makes itself has none) and
// keeps it unexported, so the direct path carries it from there and
// decides nothing. It reports false when that encoding is not one it
// knows, for the SDK to encode r whole.
func resultTypeOf(r *mcp.CallToolResult) (string, bool) {
	bare := *r
	bare.Content, bare.StructuredContent, bare.IsError = nil, nil, false
	b, err := bare.MarshalJSON()
	if err != nil || !bytes.HasPrefix(b, []byte(bareHead)) {
		return "", false
	}
	switch b = b[len(bareHead):]; {
	case string(b) == "}":
		return "", true
	case bytes.HasPrefix(b, []byte(`,"resultType":"`)) && bytes.HasSuffix(b, []byte(`"}`)):
		switch v := b[len(`,"resultType":"`) : len(b)-2]; {
		case string(v) == "complete":
			return "complete", true
		case bytes.IndexByte(v, '\\') < 0:
			return string(v), true
		}
		var rt string
		if json.Unmarshal(b[len(`,"resultType":`):len(b)-1], &rt) != nil {
			return "", false
		}
		return rt, true
	}
	return "", false
}

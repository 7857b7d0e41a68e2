package telemetry

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcperr/mcperr/mcpgo"
)

// MCPGo returns the server option that instruments a server of
// github.com/mark3labs/mcp-go as GoSDK instruments a go-sdk server. Pass it
// to server.NewMCPServer before any other tool middleware (mcpgo.Validate
// adds one later, with MCPServer.Use), so that it is the outermost one and
// sees the refusals, and after server.WithHooks if the server passes one
// (WithHooks replaces the server's hooks; MCPGo adds to them):
//
//	s := server.NewMCPServer("traces", "1.0.0", telemetry.MCPGo(nil))
//
// A tool call is recorded by a tool handler middleware, so an upstream
// call the handler makes is a child of its span; every other request, and a
// call to a tool the server does not have, by the server's hooks. A tool
// call refused before its handler runs (by mcpgo.Validate, or a tool the
// server does not have), of an expected kind, has its points and no span
// (Options.RefusalSpans); the refusals ServeStdio's Validator answers
// before mcp-go reads the message are recorded by Failures, set as the
// Validator's OnFailure.
func MCPGo(o *Options) server.ServerOption {
	r := newRecorder(o)
	m := &mcpgoHooks{r: r}
	return func(s *server.MCPServer) {
		h := s.GetHooks()
		if h == nil {
			h = &server.Hooks{}
			server.WithHooks(h)(s)
		}
		h.AddBeforeAny(m.before)
		h.AddOnSuccess(m.success)
		h.AddOnError(m.failure)
		h.AddOnRegisterSession(m.register)
		h.AddOnUnregisterSession(m.unregister)
		s.Use(m.tool)
	}
}

// mcpgoHooks records an mcp-go server's requests.
type mcpgoHooks struct {
	r        *recorder
	calls    sync.Map // requestKey -> *call begun in before, for requests other than tools/call
	sessions sync.Map // session id -> time.Time it was registered
}

type requestKey struct{ session, id string }

func keyOf(ctx context.Context, id any) requestKey {
	k := requestKey{id: idString(id)}
	if cs := server.ClientSessionFromContext(ctx); cs != nil {
		k.session = cs.SessionID()
	}
	return k
}

// before begins a request other than tools/call: a tool call is the tool
// middleware's to record, or, for a tool the server does not have, failure's.
func (m *mcpgoHooks) before(ctx context.Context, id any, method mcp.MCPMethod, message any) {
	if method == mcp.MethodToolsCall {
		return
	}
	c := callOf(ctx, id, method, message)
	c.start = time.Now()
	m.calls.Store(keyOf(ctx, id), c)
}

// callOf is the call of an mcp-go request, not yet started.
func callOf(ctx context.Context, id any, method mcp.MCPMethod, message any) *call {
	c := &call{method: string(method), id: idString(id), transport: transportPipe}
	if cs := server.ClientSessionFromContext(ctx); cs != nil {
		c.session = cs.SessionID()
	}
	switch msg := message.(type) {
	case *mcp.CallToolRequest:
		c.target, c.meta = msg.Params.Name, metaOf(msg.Params.Meta)
		if msg.Header != nil {
			c.transport, c.protocol = transportTCP, msg.Header.Get("Mcp-Protocol-Version")
		}
	case *mcp.GetPromptRequest:
		c.target, c.meta = msg.Params.Name, metaOf(msg.Params.Meta)
		if msg.Header != nil {
			c.transport = transportTCP
		}
	case *mcp.ReadResourceRequest:
		c.resource = msg.Params.URI
		if msg.Header != nil {
			c.transport = transportTCP
		}
	case *mcp.InitializeRequest:
		c.protocol = msg.Params.ProtocolVersion
		if msg.Header != nil {
			c.transport = transportTCP
		}
	}
	return c
}

func (m *mcpgoHooks) take(ctx context.Context, id any) *call {
	v, ok := m.calls.LoadAndDelete(keyOf(ctx, id))
	if !ok {
		return nil
	}
	return v.(*call)
}

func (m *mcpgoHooks) success(ctx context.Context, id any, method mcp.MCPMethod, message, result any) {
	if method == mcp.MethodToolsCall {
		return // the tool middleware's to record
	}
	if c := m.take(ctx, id); c != nil {
		m.r.end(m.r.begin(ctx, c), c, answer{})
	}
}

func (m *mcpgoHooks) failure(ctx context.Context, id any, method mcp.MCPMethod, message any, err error) {
	var c *call
	switch {
	case method != mcp.MethodToolsCall:
		c = m.take(ctx, id)
	case errors.Is(err, server.ErrToolNotFound):
		// A call to a tool the server does not have never reaches the
		// tool middleware: its span starts and ends here, the lookup that
		// refused it being all it took.
		c = callOf(ctx, id, method, message)
	default:
		return // it reached the tool middleware, which recorded it
	}
	if c == nil {
		return
	}
	m.r.end(m.r.begin(ctx, c), c, mcpgoError(err))
}

// mcpgoError is the JSON-RPC error mcp-go sends for err.
func mcpgoError(err error) answer {
	a := answer{rpc: true, message: err.Error()}
	var je interface{ ToJSONRPCError() mcp.JSONRPCError }
	if errors.As(err, &je) {
		d := je.ToJSONRPCError().Error
		a.code, a.message = int64(d.Code), d.Message
		if d.Data != nil {
			a.data, _ = json.Marshal(d.Data)
		}
	}
	return a
}

func (m *mcpgoHooks) register(ctx context.Context, cs server.ClientSession) {
	m.sessions.Store(cs.SessionID(), time.Now())
}

func (m *mcpgoHooks) unregister(ctx context.Context, cs server.ClientSession) {
	v, ok := m.sessions.LoadAndDelete(cs.SessionID())
	if !ok {
		return
	}
	m.r.session(ctx, v.(time.Time), "", "", nil)
}

// tool records one tool call around the rest of the tool middleware chain
// and the handler.
func (m *mcpgoHooks) tool(next server.ToolHandlerFunc) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		c := &call{method: string(mcp.MethodToolsCall), target: req.Params.Name, meta: metaOf(req.Params.Meta), transport: transportPipe}
		if id, ok := mcpgo.RequestID(ctx); ok {
			c.id = idString(id)
		}
		if req.Header != nil {
			c.transport, c.protocol = transportTCP, req.Header.Get("Mcp-Protocol-Version")
		}
		if cs := server.ClientSessionFromContext(ctx); cs != nil {
			c.session = cs.SessionID()
		}
		ctx = m.r.begin(ctx, c)
		defer func() {
			if p := recover(); p != nil {
				m.r.end(ctx, c, answer{panic: true})
				panic(p)
			}
			m.r.end(ctx, c, mcpgoAnswer(res, err))
		}()
		return next(ctx, req)
	}
}

// mcpgoAnswer is the answer a tool handler's res and err make.
func mcpgoAnswer(res *mcp.CallToolResult, err error) answer {
	if err != nil {
		return mcpgoError(err)
	}
	if res == nil || !res.IsError {
		return answer{}
	}
	if len(res.Content) == 1 { // one text block, as mcperr's refusals and errors send: no copy
		if t, ok := mcp.AsTextContent(res.Content[0]); ok {
			return answer{isError: true, text: t.Text}
		}
	}
	var b strings.Builder
	for i, c := range res.Content {
		if t, ok := mcp.AsTextContent(c); ok {
			if i > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(t.Text)
		}
	}
	return answer{isError: true, text: b.String()}
}

// metaOf is the fields of an mcp-go request's _meta the trace context
// travels in.
func metaOf(m *mcp.Meta) map[string]any {
	if m == nil {
		return nil
	}
	return m.AdditionalFields
}

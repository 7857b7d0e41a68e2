package telemetry

import (
	"context"
	"errors"
	"io"
	"reflect"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/gosdk"
)

// GoSDK instruments s, a server of the official go-sdk
// (github.com/modelcontextprotocol/go-sdk): a server span and a point of
// mcp.server.operation.duration for every request and notification s
// receives, a point of mcp.server.session.duration when a session ends, and
// mcperr's reading of every failure (see the package doc); a tools/call
// that gosdk.Validate or the SDK refuses before its handler runs, of an
// expected kind, has its points and no span (Options.RefusalSpans). Call it after
// every other receiving middleware (gosdk.Validate among them), so that it
// is the outermost one and sees their refusals:
//
//	s.AddReceivingMiddleware(gosdk.Validate(nil))
//	telemetry.GoSDK(s, nil)
//
// The go-sdk does not tell middleware a request's JSON-RPC id:
// jsonrpc.request.id is recorded for the tools/call requests that
// gosdk.StdioTransport's direct path serves, which says it (gosdk.RequestID),
// and not for the requests the SDK serves itself (the handshake, every call
// over HTTP).
func GoSDK(s *mcp.Server, o *Options) {
	r := newRecorder(o)
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			return r.goSDK(ctx, next, method, req)
		}
	})
}

func (r *recorder) goSDK(ctx context.Context, next mcp.MethodHandler, method string, req mcp.Request) (res mcp.Result, err error) {
	c := call{method: method}
	if id, ok := gosdk.RequestID(ctx); ok {
		c.id = idString(id.Raw())
	}
	params := req.GetParams()
	if v := reflect.ValueOf(params); v.Kind() == reflect.Pointer && v.IsNil() {
		params = nil // a notification sent without params: a typed nil
	}
	switch p := params.(type) {
	case *mcp.CallToolParamsRaw:
		c.target, c.meta = p.Name, p.Meta
	case *mcp.CallToolParams:
		c.target, c.meta = p.Name, p.Meta
	case *mcp.GetPromptParams:
		c.target, c.meta = p.Name, p.Meta
	case *mcp.ReadResourceParams:
		c.resource, c.meta = p.URI, p.Meta
	case *mcp.SubscribeParams:
		c.resource, c.meta = p.URI, p.Meta
	case *mcp.UnsubscribeParams:
		c.resource, c.meta = p.URI, p.Meta
	case mcp.Params:
		c.meta = p.GetMeta()
	}
	c.transport = transportPipe
	if x := req.GetExtra(); x != nil && x.Header != nil {
		c.transport = transportTCP
		c.protocol = x.Header.Get("Mcp-Protocol-Version")
	}
	ss, _ := req.GetSession().(*mcp.ServerSession)
	if ss != nil {
		c.session = ss.ID()
		if c.protocol == "" {
			if ip := ss.InitializeParams(); ip != nil {
				c.protocol = ip.ProtocolVersion
			}
		}
	}
	if method == "initialize" && c.protocol == "" {
		if p, ok := params.(*mcp.InitializeParams); ok {
			c.protocol = p.ProtocolVersion
		}
	}
	ctx = r.begin(ctx, &c)
	if ss != nil {
		if _, seen := r.live.LoadOrStore(ss, struct{}{}); !seen {
			// A session's duration runs from the first request seen in it to
			// the end of its connection; the goroutine that waits for that
			// end lives as long as the session does.
			go func(start time.Time, protocol, transport string) {
				err := ss.Wait()
				r.live.Delete(ss)
				r.session(context.Background(), start, protocol, transport, sessionError(err))
			}(c.start, c.protocol, c.transport)
		}
	}
	defer func() {
		if p := recover(); p != nil {
			r.end(ctx, &c, answer{panic: true})
			panic(p)
		}
		r.end(ctx, &c, goSDKAnswer(res, err))
	}()
	return next(ctx, method, req)
}

// goSDKAnswer is the answer res and err make: the JSON-RPC error err is, or
// a tool result's isError and text.
func goSDKAnswer(res mcp.Result, err error) answer {
	if err != nil {
		a := answer{rpc: true, message: err.Error()}
		var je *jsonrpc.Error
		if errors.As(err, &je) {
			a.code, a.message, a.data = je.Code, je.Message, je.Data
		}
		return a
	}
	tr, ok := res.(*mcp.CallToolResult)
	if !ok || tr == nil || !tr.IsError {
		return answer{}
	}
	if len(tr.Content) == 1 { // one text block, as mcperr's refusals and errors send: no copy
		if t, ok := tr.Content[0].(*mcp.TextContent); ok {
			return answer{isError: true, text: t.Text}
		}
	}
	var b strings.Builder
	for i, c := range tr.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			if i > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(t.Text)
		}
	}
	return answer{isError: true, text: b.String()}
}

// sessionError is err unless it only says the connection closed or its
// context ended, which is how sessions end.
func sessionError(err error) error {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) {
		return nil
	}
	return err
}

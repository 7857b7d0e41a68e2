package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/gosdk"
	"github.com/mcperr/mcperr/schemaerr"
	"github.com/mcperr/mcperr/telemetry"
)

// Version is the server's version, as it reports itself in the handshake.
const Version = "0.1.0"

// MCP returns the local MCP server: the eight tools over the index,
// with no API key and no watch store, so the watch tools answer with the
// tool error unsupported. Command news runs it on stdio with RunStdio.
func (s *Server) MCP() *mcp.Server { return s.mcpServer(false) }

// RunStdio serves one session of the local MCP server on t, as command news
// does, until the input ends or ctx ends: MCP().Run(ctx, t) with t's Server
// set to that server, so that tools/call requests are served without the
// SDK's JSON-RPC decoding, with the same answers. The transport, unlike the
// SDK's mcp.StdioTransport, answers every line and every request still in
// flight when a piped input ends.
func (s *Server) RunStdio(ctx context.Context, t *gosdk.StdioTransport) error {
	srv := s.MCP()
	c := *t
	c.Server = srv
	return srv.Run(ctx, &c)
}

// mcpServer builds the go-sdk server. A hosted one charges the account of
// the call's Authorization header.
func (s *Server) mcpServer(hosted bool) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "news", Title: "News index", Version: Version}, &mcp.ServerOptions{
		Instructions: "Search a news story index. Errors are JSON objects with a code; results carry credits_charged and say whether they are complete (partial, coverage).",
	})
	for _, t := range s.tools {
		srv.AddTool(&mcp.Tool{
			Name:         t.name,
			Description:  t.desc,
			InputSchema:  inputSchema(t.params, true),
			OutputSchema: json.RawMessage(t.output),
		}, s.handler(t, hosted))
	}
	// The adapter refuses arguments in the hint dialect, validating with
	// the schema the tool checks (its published one lists the signals as an
	// enum, which the tool's own check answers with unknown_signal); a call
	// naming no tool is -32601 with the list of tools.
	schemas := make(map[string]json.RawMessage, len(s.tools))
	for _, t := range s.tools {
		schemas[t.name] = inputSchema(t.params, false)
	}
	srv.AddReceivingMiddleware(gosdk.Validate(&gosdk.Options{
		Validation: gosdk.Validation{
			Dialect: gosdk.Hint,
			Schemas: schemas,
		},
		Unknown: func(ctx context.Context, name string, _ []string) (*mcp.CallToolResult, error) {
			return nil, &unknownToolError{msg: fmt.Sprintf("Unknown tool '%s'. The tools are: %s.", quoteName(name), strings.Join(s.toolNames(), ", "))}
		},
	}), s.route)
	if s.telemetry {
		telemetry.GoSDK(srv, nil) // outermost: it sees the refusals of Validate and route
	}
	return srv
}

// undeclared holds the methods of the capabilities this server does not
// declare (it serves tools only). The go-sdk answers them with empty lists,
// which a client would read as a capability declared and empty.
var undeclared = map[string]bool{
	"prompts/list": true, "prompts/get": true,
	"resources/list": true, "resources/read": true, "resources/templates/list": true,
	"resources/subscribe": true, "resources/unsubscribe": true,
	"completion/complete": true,
}

// route answers JSON-RPC -32601 for a method of a capability the server does
// not declare: the request is unroutable (the go-sdk's own answer would be
// an empty list).
func (s *Server) route(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if undeclared[method] {
			return nil, &jsonrpc.Error{Code: int64(errkind.MethodNotFound), Message: fmt.Sprintf("Method not found: %q", method)}
		}
		return next(ctx, method, req)
	}
}

// unknownToolError travels as JSON-RPC -32601 with its own message. It is
// not a *jsonrpc.Error, because the go-sdk rewrites the message of any
// -32601 it is handed to "method not found: \"tools/call\"", which would
// tell the client the method, rather than the tool, is unknown.
type unknownToolError struct{ msg string }

func (e *unknownToolError) Error() string { return e.msg }

// As lets the go-sdk find the JSON-RPC code.
func (e *unknownToolError) As(target any) bool {
	if p, ok := target.(**jsonrpc.Error); ok {
		*p = &jsonrpc.Error{Code: int64(errkind.MethodNotFound), Message: e.msg}
		return true
	}
	return false
}

func (s *Server) toolNames() []string {
	var names []string
	for _, t := range s.tools {
		names = append(names, t.name)
	}
	return names
}

func (s *Server) handler(t *tool, hosted bool) mcp.ToolHandler {
	return gosdk.Raw(func(ctx context.Context, req *mcp.CallToolRequest) (any, error) {
		acct := s.local
		if hosted {
			var h http.Header
			if req.Extra != nil {
				h = req.Extra.Header
			}
			acct = s.account(bearer(h))
			if acct == nil {
				// The HTTP front refuses a missing or invalid key with a
				// 401 before any message is read; this is the fallback.
				return nil, newError(Unsupported, "%s needs an API key on this endpoint; send Authorization: Bearer <key>", t.name)
			}
		}
		// The adapter's middleware has checked the arguments against the
		// tool's schema; what is left is news' own checks.
		out := s.callChecked(ctx, acct, t, req.Params.Arguments)
		switch {
		case out.argErr != nil:
			// {"code":-32602,"message":"Unknown signal 'cpu'.","data":{"code":"unknown_signal"}}
			return nil, schemaerr.Invalid(string(out.argErr.Code), out.argErr.Message)
		case out.toolErr != nil:
			return nil, out.toolErr
		}
		return out.ok, nil
	})
}

// bearer returns the key of an "Authorization: Bearer <key>" header, or "".
func bearer(h http.Header) string {
	v := h.Get("Authorization")
	scheme, key, ok := strings.Cut(v, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(key)
}

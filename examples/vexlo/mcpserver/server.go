// Package mcpserver is the Vexlo MCP server: the eleven vexlo_* tools of
// the Vexlo error contract (see examples/vexlo/README.md) on the official MCP
// Go SDK, assembled from the mcperr packages. Command vexlo serves it on stdio.
//
// Every failure an agent can see comes from those packages, never from text
// written in a handler:
//
//   - arguments outside a tool's input schema are rejected by schemaerr, with
//     the text the MCP TypeScript SDK would send ("MCP error -32602: Input
//     validation error: ..."); an unknown tool name likewise;
//   - upstream calls go through retry's Transport (one silent retry of a 429
//     whose Retry-After is at most 2 seconds) and envelope's Reader (error or
//     data by the body's shape, never by the status alone);
//   - failures are rendered by wire.ErrorResult as the JSON kind object
//     of the Vexlo taxonomy (see Taxonomy): errkind's standard kinds and the
//     two the Vexlo API adds.
//
// Tools are registered with the SDK's low-level Server.AddTool through the
// gosdk adapter's Raw, whose handler receives the raw arguments; the
// adapter's Validate middleware checks them against each tool's input schema
// and answers calls to unknown tools as a tool result instead of the SDK's
// JSON-RPC error.
package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/gosdk"
	"github.com/mcperr/mcperr/retry"
	"github.com/mcperr/mcperr/schemaerr"
	"github.com/mcperr/mcperr/telemetry"
	"github.com/mcperr/mcperr/wire"
)

// Name and Version are the serverInfo the server announces.
const (
	Name    = "vexlo-mcp"
	Version = "0.1.0"
)

// DefaultTimeout is the deadline of every upstream call. Config.Timeout may
// lower it, never raise it.
const DefaultTimeout = 30 * time.Second

// ProtocolVersions returns the MCP protocol versions the server answers,
// newest first.
func ProtocolVersions() []string { return []string{"2025-11-25", "2025-06-18"} }

// Config configures a Server. Only BaseURL is required.
type Config struct {
	// BaseURL is the Vexlo API's base URL (VEXLO_URL), such as
	// "http://127.0.0.1:8080".
	BaseURL string

	// Token is the read token (VEXLO_TOKEN). Empty means no-auth mode: no
	// Authorization header is sent and CheckToken calls nothing.
	Token string

	// Timeout is the deadline of each upstream call (VEXLO_TIMEOUT). Zero,
	// or anything above DefaultTimeout, means DefaultTimeout.
	Timeout time.Duration

	// Telemetry records every request as OpenTelemetry spans and metrics
	// (package github.com/mcperr/mcperr/telemetry), through the global
	// providers, and every upstream attempt as a client span carrying the
	// trace context. Off, the server records nothing and pays nothing.
	Telemetry bool

	// Transport carries the upstream requests under the retry policy; nil
	// means a clone of http.DefaultTransport that keeps up to 64 idle
	// connections per host, so pipelined calls reuse their connections.
	Transport http.RoundTripper

	// MaxBytes bounds an upstream body; 0 means envelope.Reader's default, 10 MiB.
	MaxBytes int64

	// RetrySleep waits out a short Retry-After before the one retry; nil
	// means a timer. Tests inject a fake so they never sleep.
	RetrySleep func(ctx context.Context, d time.Duration) error
}

// Server is the Vexlo MCP server. Create it with New; it is safe for
// concurrent use and may serve several sessions.
type Server struct {
	base    string
	token   string
	timeout time.Duration
	reader  *envelope.Reader
	tax     *errkind.Taxonomy
	tools   map[string]*tool
	mcp     *mcp.Server
}

// tool is a toolDef with its compiled schema.
type tool struct {
	*toolDef
	schema *schemaerr.Schema
}

// New returns a Server for cfg. It calls nothing; see CheckToken.
func New(cfg Config) (*Server, error) {
	base := strings.TrimRight(cfg.BaseURL, "/")
	if u, err := url.Parse(base); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("the Vexlo API URL %q is not an http or https URL", cfg.BaseURL)
	}
	timeout := cfg.Timeout
	if timeout <= 0 || timeout > DefaultTimeout {
		timeout = DefaultTimeout
	}
	rt := cfg.Transport
	if rt == nil {
		// The default keeps 2 idle connections per host: with more calls
		// in flight, every other upstream GET dialled a new connection.
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConns, t.MaxIdleConnsPerHost = 64, 64
		rt = t
	}
	if cfg.Telemetry {
		rt = &telemetry.Transport{Base: rt} // under the retry: each attempt is a span
	}
	tax := Taxonomy()
	s := &Server{
		tax:     tax,
		base:    base,
		token:   cfg.Token,
		timeout: timeout,
		reader: &envelope.Reader{
			Client: &http.Client{
				Transport: &retry.Transport{Base: rt, Sleep: cfg.RetrySleep},
				// A redirect is not part of the API; following one could carry
				// the token elsewhere. The 3xx is read as any other response.
				CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
			},
			Taxonomy: tax,
			MaxBytes: cfg.MaxBytes,
		},
		tools: make(map[string]*tool, len(tools)),
	}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: Name, Version: Version}, &mcp.ServerOptions{
		Capabilities:              &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}},
		SupportedProtocolVersions: ProtocolVersions(),
	})
	for i := range tools {
		d := &tools[i]
		sc, err := schemaerr.Compile([]byte(d.schema), nil)
		if err != nil {
			return nil, fmt.Errorf("tool %s: %w", d.name, err)
		}
		t := &tool{toolDef: d, schema: sc}
		s.tools[d.name] = t
		s.mcp.AddTool(&mcp.Tool{
			Name:        d.name,
			Title:       d.title,
			Description: d.description,
			InputSchema: json.RawMessage(d.schema),
			Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(true)},
		}, gosdk.Raw(func(ctx context.Context, req *mcp.CallToolRequest) (any, error) {
			return s.run(ctx, t, req.Params.Arguments)
		}))
	}
	s.mcp.AddReceivingMiddleware(gosdk.Validate(nil))
	if cfg.Telemetry {
		telemetry.GoSDK(s.mcp, nil) // the outermost middleware: it sees Validate's refusals
	}
	return s, nil
}

func ptr[T any](v T) *T { return &v }

// MCP returns the SDK server, to Run or Connect on a transport.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Run serves one session on t until the client disconnects or ctx ends.
// On a gosdk.StdioTransport whose Server is unset, Server is set to the
// SDK server, so that tools/call requests are served without the SDK's
// JSON-RPC decoding, with the same answers.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	if st, ok := t.(*gosdk.StdioTransport); ok && st.Server == nil {
		c := *st
		c.Server = s.mcp
		t = &c
	}
	return s.mcp.Run(ctx, t)
}

// Call runs the tool name with raw JSON arguments (nil means none) and
// returns its result, as a tools/call would, without an SDK: it validates
// the arguments as gosdk.Validate does for the SDK server, then runs the tool.
func (s *Server) Call(ctx context.Context, name string, arguments json.RawMessage) *wire.ToolResult {
	t, ok := s.tools[name]
	if !ok {
		return wire.TextError(schemaerr.TypeScript.RefuseTool(name, nil).Text)
	}
	return s.call(ctx, t, arguments)
}

func (s *Server) call(ctx context.Context, t *tool, raw json.RawMessage) *wire.ToolResult {
	if issues := t.schema.Validate(raw); len(issues) > 0 {
		return wire.TextError(schemaerr.TypeScript.Refuse(t.name, issues).Text)
	}
	v, err := s.run(ctx, t, raw)
	if err != nil {
		return wire.ErrorResult(err)
	}
	res, err := wire.Success(v)
	if err != nil {
		return s.errorResult(err)
	}
	return res
}

// run calls the upstream for arguments the schema accepted and returns its
// answer, or the error as the Vexlo taxonomy shapes it (see errorResult).
func (s *Server) run(ctx context.Context, t *tool, raw json.RawMessage) (json.RawMessage, error) {
	var a args
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &a); err != nil {
			// The schema accepted what the decoder cannot read; say so as a
			// server-side failure rather than guess.
			return nil, fmt.Errorf("decoding arguments the schema accepted: %w", err)
		}
	}
	path, q := t.route(&a)
	b := &body{want: t.want}
	if err := s.get(ctx, path, q, b); err != nil {
		return nil, s.shape(err)
	}
	return b.raw, nil
}

// get sends GET base+path?q with the token and the deadline, and reads the
// answer into v.
func (s *Server) get(ctx context.Context, path string, q url.Values, v any) error {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	u := s.base + path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", Name+"/"+Version)
	if s.token != "" {
		req.Header.Set("Authorization", "Bearer "+s.token)
	}
	return s.reader.Do(req, v)
}

// self is /v1/tokens/self's answer.
type self struct {
	ID    string   `json:"id"`
	Role  string   `json:"role"`
	Teams []string `json:"teams"`
}

// CheckShape requires a role.
func (t *self) CheckShape() error {
	if t.Role == "" {
		return errShape(`the body has no "role"`)
	}
	return nil
}

// StartupError is why CheckToken refuses to start. Its text is the one line
// the process prints, after "vexlo-mcp: ".
type StartupError struct {
	Reason string
	Err    error // the upstream failure, if any (an *envelope.Error)
}

// Error returns the reason, the line the process prints.
func (e *StartupError) Error() string { return e.Reason }

// Unwrap returns the upstream failure.
func (e *StartupError) Unwrap() error { return e.Err }

// CheckToken is the startup check. In no-auth mode it calls nothing and
// returns nil. With a token it calls GET /v1/tokens/self: a rejected token,
// a role other than read, or an API it cannot reach is a *StartupError.
func (s *Server) CheckToken(ctx context.Context) error {
	if s.token == "" {
		return nil
	}
	var t self
	err := s.get(ctx, "/v1/tokens/self", nil, &t)
	var e *envelope.Error
	switch {
	case err == nil && t.Role != "read":
		return &StartupError{Reason: "token role " + strconv.Quote(t.Role) + " is not allowed; use a read token"}
	case err == nil:
		return nil
	case !errors.As(err, &e):
		return &StartupError{Reason: "checking the token: " + err.Error(), Err: err}
	case e.Kind == errkind.AuthenticationFailed:
		return &StartupError{Reason: "token rejected by the Vexlo API: " + oneLine(e.Message), Err: err}
	case e.Kind == errkind.NetworkError:
		return &StartupError{Reason: "cannot reach the Vexlo API at " + s.base + ": " + oneLine(e.Message), Err: err}
	default:
		return &StartupError{Reason: "checking the token: " + oneLine(e.Error()), Err: err}
	}
}

// oneLine keeps a message on one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// Package mcpserver is the Vulnetix MCP server: vulnerability lookups from
// the Vulnetix VDB (vdb-api) as MCP tools and resources, served over
// Streamable HTTP in protocol revision 2026-07-28 (stateless), with every
// error of the Vulnetix error contract in the shape the contract gives it.
//
// A failure is one of two things. A protocol error means the request never
// reached a tool: the HTTP status is not 200 and the body is a JSON-RPC
// error. They are answered in this order:
//
//	Host or Origin not on the allowlist        403 (plain text)       front.Front
//	path not /mcp and not GET /healthz         404 -32601             front.Front
//	method other than POST                     405 -32600 Allow: POST front.Front
//	Content-Type not application/json          415 -32600             front.Front
//	edge flood guard (per source IP)           429 -32000             edgeGuard (ratelimit.Store)
//	body over the size bound                   413 -32600             front.Front
//	body not JSON                              400 -32700             front.Front
//	a batch, nested too deep, an id that       400 -32600             front.Front
//	  cannot be echoed exactly (1.5, 1e400)
//	not one JSON-RPC request (a response, ...) 400 -32600
//	_meta missing an io.modelcontextprotocol/* key   400 -32602
//	Mcp-Method or Mcp-Name disagrees with the body   400 -32020
//	Mcp-Protocol-Version disagrees with _meta  400 -32020
//	protocol version not 2026-07-28            400 -32022 data.supported, data.requested
//	unknown method                             404 -32601
//
// gosdk.HTTPHandler wires it: the front.Front rows are its front, the
// guard its Gate, the rows from "not one JSON-RPC request" on its Wrap, and
// /healthz a Public path. The go-sdk's Streamable HTTP handler then serves
// what passed. It answers some of these itself, differently (its 405 and 415 are plain text, its
// version check reads a header, it compares a =?base64?...?= Mcp-Name
// verbatim), so the server answers first and hands the SDK only requests it
// would accept; anything the SDK still refuses in plain text is rewritten
// as a JSON-RPC error, and every answer carries the request's id exactly as
// sent (the front's doing).
//
// A tool error means the tool ran and could not answer: HTTP 200, a result
// with isError and a message written for the agent, worded by the server's
// taxonomy (see [Shapes] and [Taxonomy]). Every tool result carries
// _meta["vulnetix/plan"] and _meta["vulnetix/upstream"] (see [Upstream]).
// resources/read failures are JSON-RPC errors: -32602 for a record not in
// the VDB, an unknown skill:// file or a bad URI variable; -32603 with the
// tool's text for any other upstream failure.
//
// The caller's credential is the Authorization: Bearer header of the MCP
// request. It is forwarded to vdb-api and never logged or put in a message.
package mcpserver

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/time/rate"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/front"
	"github.com/mcperr/mcperr/gosdk"
	"github.com/mcperr/mcperr/ratelimit"
	"github.com/mcperr/mcperr/wire"
)

// Config configures a Server. The zero value serves loopback clients with
// the contract's edge limits and no vdb-api.
type Config struct {
	// APIURL is the base URL of vdb-api, such as "https://api.vdb.vulnetix.com".
	APIURL string

	// Transport sends the requests to vdb-api, under the GET retry; nil
	// means a clone of http.DefaultTransport that keeps up to 256 idle
	// connections per host, so concurrent calls reuse their connections.
	Transport http.RoundTripper

	// UpstreamTimeout bounds each vdb-api request, retry included; zero
	// means 15 seconds.
	UpstreamTimeout time.Duration

	// AEADKey is MCP_AEAD_KEY decoded (32 bytes; see ParseAEADKey). Without
	// it the login tools answer that they cannot run.
	AEADKey []byte

	// AllowHosts and AllowOrigins add to the Host and Origin allowlist,
	// which always holds the loopback names localhost, 127.0.0.1 and ::1
	// (any port). AllowHosts entries are host names without a port;
	// AllowOrigins entries are scheme://host[:port].
	AllowHosts, AllowOrigins []string

	// EdgeLimit requests per EdgeWindow from one source pass the edge flood
	// guard; a source over it is refused for EdgeBlock. Zero values mean
	// 100, 10s and 10s.
	EdgeLimit             int
	EdgeWindow, EdgeBlock time.Duration
	EdgeColoHeader        string // a CDN location header to key on beside the source IP; "" keys on the IP only
	EdgeStore             ratelimit.Store

	// MaxBodyBytes bounds the body of a POST /mcp; zero means 1 MiB.
	MaxBodyBytes int64

	// Now is the clock of the edge guard, the login handles and the quota
	// reset; nil means time.Now.
	Now func() time.Time

	// Logger receives one line per request (never a header value); nil
	// discards them.
	Logger *slog.Logger

	// Telemetry records every MCP request as OpenTelemetry spans and
	// metrics (package github.com/mcperr/mcperr/telemetry), through the
	// global providers. Off, the server records nothing.
	Telemetry bool
}

// Server is the Vulnetix MCP server, an http.Handler serving POST /mcp and
// GET /healthz. Create it with New.
type Server struct {
	handler http.Handler
	mcp     *mcp.Server
	vdb     *vdb
	sealer  *sealer
	spent   spentLogins
	guard   *edgeGuard
	colo    string
	now     func() time.Time
	log     *slog.Logger
	edgeLog rate.Sometimes // the edge guard's store errors, once a minute
	maxBody int64
}

// New returns a Server for cfg.
func New(cfg Config) (*Server, error) {
	s := &Server{now: cfg.Now, log: cfg.Logger, maxBody: cfg.MaxBodyBytes, colo: cfg.EdgeColoHeader, edgeLog: rate.Sometimes{Interval: time.Minute}}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.maxBody <= 0 {
		s.maxBody = 1 << 20
	}
	var base *url.URL
	if cfg.APIURL != "" {
		u, err := url.Parse(cfg.APIURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("vdb-api URL %q is not an http(s) URL", cfg.APIURL)
		}
		u.Path = strings.TrimSuffix(u.Path, "/")
		base = u
	}
	timeout := cfg.UpstreamTimeout
	if timeout <= 0 {
		timeout = 15 * time.Second
	}
	s.vdb = newVDB(base, cfg.Transport, timeout, s.now)
	if cfg.AEADKey != nil {
		sl, err := newSealer(cfg.AEADKey)
		if err != nil {
			return nil, err
		}
		s.sealer = sl
	}
	s.guard = &edgeGuard{limit: cfg.EdgeLimit, window: cfg.EdgeWindow, block: cfg.EdgeBlock, policy: "edge", store: cfg.EdgeStore}

	// The SDK logs two lines per stateless request at Info; keep its warnings.
	sdkLog := slog.New(atLeast{slog.LevelWarn, s.log.Handler()})
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "vulnetix", Title: "Vulnetix VDB", Version: "0.1.0"}, &mcp.ServerOptions{
		Instructions:              "Look up vulnerabilities in the Vulnetix VDB. Send your Vulnetix API key as Authorization: Bearer <key>. Read skill://vulnetix/errors.md for what each error means.",
		SupportedProtocolVersions: []string{ProtocolVersion},
		Logger:                    sdkLog,
	})
	s.addTools(cfg.Telemetry)
	s.addResources()
	s.handler = gosdk.HTTPHandler(s.mcp, &gosdk.HTTPOptions{
		HTTP: adapter.HTTP{
			Path:           "/mcp",
			AllowedHosts:   append([]string{"localhost", "127.0.0.1", "::1"}, cfg.AllowHosts...),
			AllowedOrigins: cfg.AllowOrigins,
			Gate:           s.edge(),
			Wrap:           s.body,
			Public:         map[string]http.Handler{"/healthz": http.HandlerFunc(healthz)},
		},
		Streamable: &mcp.StreamableHTTPOptions{
			Stateless:                    true,
			JSONResponse:                 true,
			MaxRequestBodyBytes:          s.maxBody, // the front's bound too
			PropagateRequestCancellation: true,
			Logger:                       sdkLog,
		},
	})
	return s, nil
}

// ServeHTTP serves POST /mcp and GET /healthz, and logs one line per
// request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rec := &recorder{ResponseWriter: w, status: http.StatusOK}
	s.handler.ServeHTTP(rec, r)
	s.log.LogAttrs(r.Context(), slog.LevelInfo, "request",
		slog.String("method", wire.Printable(r.Method)),
		slog.String("path", wire.Printable(r.URL.Path)),
		slog.String("rpc", rec.rpc),
		slog.Int("status", rec.status),
		slog.Duration("took", time.Since(start)))
}

func healthz(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		wire.WriteRPCError(w, http.StatusMethodNotAllowed, nil, &wire.RPCError{Code: errkind.InvalidRequest, Message: "Method not allowed: /healthz answers GET."})
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	io.WriteString(w, `{"status":"ok"}`+"\n")
}

// edge is the flood guard in front of POST /mcp: the front's gate, before
// the body is read.
func (s *Server) edge() func(http.ResponseWriter, *http.Request) bool {
	key := sourceKey(s.colo)
	return func(w http.ResponseWriter, r *http.Request) bool {
		d, err := s.guard.check(r.Context(), key(r), s.now())
		if err != nil { // a failing store lets traffic through
			s.edgeLog.Do(func() {
				s.log.Warn("edge guard store failed; requests pass unguarded (logged once a minute at most)", "err", err)
			})
			return true
		}
		d.SetHeaders(w.Header())
		if !d.OK {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusTooManyRequests)
			io.WriteString(w, EdgeRefusal)
			return false
		}
		return true
	}
}

// body answers the protocol errors of the message the front read and
// checked, in the contract's order, and gives the SDK the requests that
// passed, with the headers it reads normalised.
func (s *Server) body(sdk http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m := front.Checked(r)
		if m == nil { // only the front serves /mcp
			wire.WriteRPCError(w, http.StatusInternalServerError, nil, &wire.RPCError{Code: errkind.InternalError, Message: "no message"})
			return
		}
		a, ref := admit(r.Header, m)
		if rec := recorderOf(w); rec != nil {
			switch {
			case a != nil:
				rec.rpc = wire.Printable(a.method)
			case ref.method != "":
				rec.rpc = wire.Printable(ref.method)
			}
		}
		if ref != nil {
			ref.write(w)
			return
		}
		r.Header.Set(headerMethod, a.method)
		if a.id != nil {
			r.Header.Set(headerVersion, a.version)
			if a.name != "" {
				r.Header.Set(headerName, a.name)
			}
		}
		sdk.ServeHTTP(w, r)
	})
}

// recorderOf finds the recorder under the writers the front wraps w in.
func recorderOf(w http.ResponseWriter) *recorder {
	for {
		switch x := w.(type) {
		case *recorder:
			return x
		case interface{ Unwrap() http.ResponseWriter }:
			w = x.Unwrap()
		default:
			return nil
		}
	}
}

// recorder remembers the status and JSON-RPC method for the log line.
type recorder struct {
	http.ResponseWriter
	status int
	rpc    string
	wrote  bool
}

func (r *recorder) WriteHeader(code int) {
	if !r.wrote {
		r.status, r.wrote = code, true
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	r.wrote = true
	return r.ResponseWriter.Write(b)
}

func (r *recorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// atLeast is a slog.Handler that drops records below a level.
type atLeast struct {
	min slog.Level
	slog.Handler
}

func (h atLeast) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

func (h atLeast) WithAttrs(as []slog.Attr) slog.Handler {
	return atLeast{h.min, h.Handler.WithAttrs(as)}
}

func (h atLeast) WithGroup(name string) slog.Handler {
	return atLeast{h.min, h.Handler.WithGroup(name)}
}

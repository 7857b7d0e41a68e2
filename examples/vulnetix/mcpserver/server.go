// Package mcpserver is the Vulnetix MCP server: vulnerability lookups from
// the Vulnetix VDB (vdb-api) as MCP tools and resources, served over
// Streamable HTTP in protocol revision 2026-07-28 (stateless), with every
// error of the Vulnetix error contract in the shape the contract gives it.
//
// A failure is one of two things. A protocol error means the request never
// reached a tool: the HTTP status is not 200 and the body is a JSON-RPC
// error. They are answered in this order:
//
//	Host or Origin not on the allowlist        403 (plain text)       envelope.Front
//	path not /mcp and not GET /healthz         404 -32601             envelope.Front
//	method other than POST                     405 -32600 Allow: POST envelope.Front
//	Content-Type not application/json          415 -32600             envelope.Front
//	edge flood guard (per source IP)           429 -32000             ratelimit.Guard
//	body over the size bound                   413 -32600
//	body not JSON                              400 -32700
//	not one JSON-RPC request (batch, ...)      400 -32600
//	_meta missing an io.modelcontextprotocol/* key   400 -32602
//	Mcp-Method or Mcp-Name disagrees with the body   400 -32020
//	Mcp-Protocol-Version disagrees with _meta  400 -32020
//	protocol version not 2026-07-28            400 -32022 data.supported, data.requested
//	unknown method                             404 -32601
//
// The go-sdk's Streamable HTTP handler then serves what passed. It answers
// some of these itself, differently (its 405 and 415 are plain text, its
// version check reads a header, it compares a =?base64?...?= Mcp-Name
// verbatim), so the server answers first and hands the SDK only requests it
// would accept; anything the SDK still refuses in plain text is rewritten
// as a JSON-RPC error.
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
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/ratelimit"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/time/rate"
)

// Config configures a Server. The zero value serves loopback clients with
// the contract's edge limits and no vdb-api.
type Config struct {
	// APIURL is the base URL of vdb-api, such as "https://api.vdb.vulnetix.com".
	APIURL string

	// Transport sends the requests to vdb-api, under the GET retry; nil
	// means http.DefaultTransport.
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
}

// Server is the Vulnetix MCP server, an http.Handler serving POST /mcp and
// GET /healthz. Create it with New.
type Server struct {
	handler http.Handler
	mcp     *mcp.Server
	vdb     *vdb
	sealer  *sealer
	guard   *ratelimit.Guard
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
	s.guard = &ratelimit.Guard{Limit: cfg.EdgeLimit, Window: cfg.EdgeWindow, Block: cfg.EdgeBlock, Policy: "edge", Store: cfg.EdgeStore}

	// The SDK logs two lines per stateless request at Info; keep its warnings.
	sdkLog := slog.New(atLeast{slog.LevelWarn, s.log.Handler()})
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "vulnetix", Title: "Vulnetix VDB", Version: "0.1.0"}, &mcp.ServerOptions{
		Instructions:              "Look up vulnerabilities in the Vulnetix VDB. Send your Vulnetix API key as Authorization: Bearer <key>. Read skill://vulnetix/errors.md for what each error means.",
		SupportedProtocolVersions: []string{ProtocolVersion},
		Logger:                    sdkLog,
	})
	s.addTools()
	s.addResources()
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp }, &mcp.StreamableHTTPOptions{
		Stateless:                    true,
		JSONResponse:                 true,
		DisableLocalhostProtection:   true, // the front checks Host and Origin against the allowlist
		MaxRequestBodyBytes:          s.maxBody,
		PropagateRequestCancellation: true,
		Logger:                       sdkLog,
	})

	hosts := append([]string{"localhost", "127.0.0.1", "::1"}, cfg.AllowHosts...)
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", healthz)
	mux.Handle("/mcp", s.edge(s.body(sdk)))
	s.handler = &envelope.Front{
		Handler:        mux,
		Path:           "/mcp",
		Public:         []string{"/healthz"},
		AllowedHosts:   hosts,
		AllowedOrigins: cfg.AllowOrigins,
	}
	return s, nil
}

// ServeHTTP serves POST /mcp and GET /healthz, and logs one line per
// request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rec := &recorder{ResponseWriter: w, status: http.StatusOK}
	s.handler.ServeHTTP(rec, r)
	s.log.LogAttrs(r.Context(), slog.LevelInfo, "request",
		slog.String("method", printable(r.Method)),
		slog.String("path", printable(r.URL.Path)),
		slog.String("rpc", rec.rpc),
		slog.Int("status", rec.status),
		slog.Duration("took", time.Since(start)))
}

func healthz(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		envelope.WriteRPCError(w, http.StatusMethodNotAllowed, nil, &envelope.RPCError{Code: errkind.InvalidRequest, Message: "Method not allowed: /healthz answers GET."})
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	io.WriteString(w, `{"status":"ok"}`+"\n")
}

// EdgeRefusal is the body of the edge flood guard's 429, exactly as the
// Vulnetix error contract gives it.
const EdgeRefusal = ratelimit.EdgeBody

// edge is the flood guard in front of POST /mcp.
func (s *Server) edge(next http.Handler) http.Handler {
	key := ratelimit.SourceKey(s.colo)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d, err := s.guard.Check(r.Context(), key(r), s.now())
		if err != nil { // a failing store lets traffic through
			s.edgeLog.Do(func() {
				s.log.Warn("edge guard store failed; requests pass unguarded (logged once a minute at most)", "err", err)
			})
			next.ServeHTTP(w, r)
			return
		}
		d.SetHeaders(w.Header())
		if !d.OK {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusTooManyRequests)
			io.WriteString(w, EdgeRefusal)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// body reads the bounded body, answers the protocol errors of the body in
// the contract's order, and gives the SDK the requests that passed, with
// the headers it reads normalised.
func (s *Server) body(sdk http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tooLarge := func() {
			envelope.WriteRPCError(w, http.StatusRequestEntityTooLarge, nil, &envelope.RPCError{Code: errkind.InvalidRequest,
				Message: fmt.Sprintf("Invalid Request: the body is larger than %d bytes.", s.maxBody)})
		}
		if r.ContentLength > s.maxBody { // refuse before reading a byte of it
			tooLarge()
			return
		}
		b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.maxBody))
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				tooLarge()
				return
			}
			envelope.WriteRPCError(w, http.StatusBadRequest, nil, &envelope.RPCError{Code: errkind.InvalidRequest,
				Message: "Invalid Request: the body could not be read."})
			return
		}
		a, ref := admit(r.Header, b)
		if rec, ok := w.(*recorder); ok {
			switch {
			case a != nil:
				rec.rpc = printable(a.method)
			case ref.method != "":
				rec.rpc = printable(ref.method)
			}
		}
		if ref != nil {
			ref.write(w)
			return
		}
		r2 := r.Clone(r.Context())
		r2.Body = io.NopCloser(strings.NewReader(string(b)))
		r2.ContentLength = int64(len(b))
		r2.Header.Set("Accept", "application/json, text/event-stream")
		r2.Header.Set("Content-Type", "application/json")
		r2.Header.Set(headerMethod, a.method)
		if a.id != nil {
			r2.Header.Set(headerVersion, a.version)
			if a.name != "" {
				r2.Header.Set(headerName, a.name)
			}
		}
		serveSDK(sdk, &rpcWriter{ResponseWriter: w, id: a.id}, r2)
	})
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

// rpcWriter rewrites a plain-text error the SDK writes (status 400 and
// above, not application/json) as a JSON-RPC error with the request's id,
// so every error body is JSON-RPC.
type rpcWriter struct {
	http.ResponseWriter
	id      json.RawMessage
	capture int // the status of a plain-text error being captured
	text    strings.Builder
}

func (w *rpcWriter) WriteHeader(code int) {
	if code >= 400 && !strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") {
		w.capture = code
		return
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *rpcWriter) Write(b []byte) (int, error) {
	if w.capture != 0 {
		if w.text.Len() < 1024 {
			w.text.Write(b[:min(len(b), 1024)])
		}
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

func (w *rpcWriter) Flush() {
	if w.capture != 0 {
		return
	}
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// finish writes the captured error, if any. ServeHTTP of the SDK has
// returned when it is called.
func (w *rpcWriter) finish() {
	if w.capture == 0 {
		return
	}
	code := errkind.InvalidRequest
	switch {
	case w.capture == http.StatusNotFound:
		code = errkind.MethodNotFound
	case w.capture >= 500:
		code = errkind.InternalError
	}
	h := w.Header()
	h.Del("X-Content-Type-Options")
	envelope.WriteRPCError(w.ResponseWriter, w.capture, w.id, &envelope.RPCError{Code: code, Message: printable(strings.TrimSpace(w.text.String()))})
}

// serveSDK runs the SDK's handler and finishes the rewrite.
func serveSDK(sdk http.Handler, w *rpcWriter, r *http.Request) {
	sdk.ServeHTTP(w, r)
	w.finish()
}

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

package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/gosdk"
	"github.com/mcperr/mcperr/telemetry"
	"github.com/mcperr/mcperr/wire"
)

// Tool names.
const (
	ToolVuln      = "vulnetix_vuln"
	ToolPURL      = "vulnetix_purl"
	ToolRequest   = "vdb_request"
	ToolOverview  = "vulnetix_overview"
	ToolAuthStart = "vulnetix_auth_start"
	ToolAuthPoll  = "vulnetix_auth_poll"
)

// The _meta keys of every tool result.
const (
	MetaPlan     = "vulnetix/plan"
	MetaUpstream = "vulnetix/upstream"
	MetaDegraded = "vulnetix/degraded"
)

// idPattern accepts a CVE or a GHSA id.
const idPattern = `^(CVE-[0-9]{4}-[0-9]{4,}|GHSA-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4})$`

// call is one tool call: the caller's key and the arguments.
type call struct {
	key  string // "" when the request carried no usable credential
	args json.RawMessage
}

type tool struct {
	name, title, desc string
	schema            string
	needsKey          bool
	run               func(ctx context.Context, c *call) (payload any, meta map[string]any, f *Failure)
}

func (s *Server) tools() []*tool {
	return []*tool{
		{
			name: ToolVuln, title: "Vulnerability record",
			desc:     "The Vulnetix VDB record for a CVE or GHSA id; its aliases list the other ids. With raw, the raw upstream record (refused over 524,288 bytes).",
			schema:   `{"type":"object","properties":{"id":{"type":"string","pattern":"` + idPattern + `","description":"A CVE id (CVE-2021-44228) or a GHSA id (GHSA-jfh8-c2jp-5v3q)"},"raw":{"type":"boolean","description":"Return the raw upstream record instead of the parsed one"}},"required":["id"],"additionalProperties":false}`,
			needsKey: true,
			run:      s.vuln,
		},
		{
			name: ToolPURL, title: "Vulnerabilities of a package",
			desc:     "The vulnerabilities affecting a package, given as a Package URL (pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1).",
			schema:   `{"type":"object","properties":{"purl":{"type":"string","minLength":1,"description":"A Package URL: pkg:<type>/<namespace>/<name>@<version>"}},"required":["purl"],"additionalProperties":false}`,
			needsKey: true,
			run:      s.purl,
		},
		{
			name: ToolRequest, title: "vdb-api GET",
			desc:     "A GET to a vdb-api path under /v1/vulns/, /v1/purl or /v1/vendors/, answered as JSON.",
			schema:   `{"type":"object","properties":{"path":{"type":"string","minLength":1,"description":"A vdb-api path such as /v1/vendors/apache/trends"}},"required":["path"],"additionalProperties":false}`,
			needsKey: true,
			run:      s.request,
		},
		{
			name: ToolOverview, title: "Vulnerability overview",
			desc:     "A record with its exploit intelligence and its vendor's trends. A section that fails is replaced by {\"error\": \"<message>\"} and named in _meta[\"vulnetix/degraded\"]; the call fails only when every section does.",
			schema:   `{"type":"object","properties":{"id":{"type":"string","pattern":"` + idPattern + `","description":"A CVE or GHSA id"}},"required":["id"],"additionalProperties":false}`,
			needsKey: true,
			run:      s.overview,
		},
		{
			name: ToolAuthStart, title: "Start a Vulnetix login",
			desc:   "Starts a device login. Returns a sealed handle, a code and a page: open the page, enter the code, then call vulnetix_auth_poll with the handle within 5 minutes.",
			schema: `{"type":"object","properties":{},"additionalProperties":false}`,
			run:    s.authStart,
		},
		{
			name: ToolAuthPoll, title: "Poll a Vulnetix login",
			desc:   "Polls a device login started by vulnetix_auth_start. A handle older than 5 minutes has expired.",
			schema: `{"type":"object","properties":{"handle":{"type":"string","minLength":1,"description":"The handle vulnetix_auth_start returned"}},"required":["handle"],"additionalProperties":false}`,
			run:    s.authPoll,
		},
	}
}

func (s *Server) addTools(telemetryOn bool) {
	for _, t := range s.tools() {
		s.mcp.AddTool(&mcp.Tool{
			Name:        t.name,
			Title:       t.title,
			Description: t.desc,
			InputSchema: json.RawMessage(t.schema),
			Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(true)},
		}, gosdk.Raw(s.toolHandler(t)))
	}
	// Arguments outside a tool's schema are refused by gosdk.Validate with
	// the TypeScript SDK's text; an unknown tool keeps the SDK's own
	// JSON-RPC error. meta, outermost, gives every tool result its _meta.
	s.mcp.AddReceivingMiddleware(s.meta, gosdk.Validate(&gosdk.Options{
		Unknown: func(ctx context.Context, name string, _ []string) (*mcp.CallToolResult, error) {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown tool %q", name)}
		},
	}))
	if telemetryOn {
		telemetry.GoSDK(s.mcp, nil) // outermost: it sees the refusals of Validate
	}
}

func ptr[T any](v T) *T { return &v }

// MCP returns the SDK server, to Connect on a transport other than the
// server's own HTTP endpoint (such as an in-memory one in a test).
func (s *Server) MCP() *mcp.Server { return s.mcp }

// ToolResult is the tool error as the contract words it: the message, as
// prose for the agent.
func (f *Failure) ToolResult() *wire.ToolResult { return wire.TextError(f.Message) }

// meta gives every tools/call result, refusals included, the
// _meta["vulnetix/plan"] and _meta["vulnetix/upstream"] of the call, keeps
// the caller's key out of an error's text, and logs one line per tool error.
func (s *Server) meta(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		r, ok := req.(*mcp.CallToolRequest)
		if method != "tools/call" || !ok || r.Params == nil {
			return next(ctx, method, req)
		}
		acct := &account{}
		res, err := next(withAccount(ctx, acct), method, req)
		tr, ok := res.(*mcp.CallToolResult)
		if err != nil || !ok || tr == nil {
			return res, err
		}
		up, plan := acct.snapshot()
		if tr.Meta == nil {
			tr.Meta = map[string]any{}
		}
		tr.Meta[MetaPlan] = plan
		tr.Meta[MetaUpstream] = up
		if tr.IsError {
			kind := InvalidArguments // refused by the schema: no Go error
			var f *Failure
			if errors.As(tr.GetError(), &f) {
				kind = f.Kind
			}
			var h http.Header
			if r.Extra != nil {
				h = r.Extra.Header
			}
			if key, _ := bearer(h); key != "" {
				for _, c := range tr.Content {
					if tc, ok := c.(*mcp.TextContent); ok && strings.Contains(tc.Text, key) { // never, but never say never
						tc.Text = strings.ReplaceAll(tc.Text, key, "[redacted]")
					}
				}
			}
			s.log.LogAttrs(ctx, slog.LevelInfo, "tool error", slog.String("tool", r.Params.Name), slog.String("kind", string(kind)))
		}
		return tr, nil
	}
}

// toolHandler runs the tool: a payload is the result's JSON, a *Failure
// the contract's prose.
func (s *Server) toolHandler(t *tool) func(ctx context.Context, req *mcp.CallToolRequest) (any, error) {
	return func(ctx context.Context, req *mcp.CallToolRequest) (any, error) {
		c := &call{args: req.Params.Arguments}
		if req.Extra != nil {
			c.key, _ = bearer(req.Extra.Header)
		}
		if t.needsKey && c.key == "" {
			return nil, fail(NoCredential)
		}
		payload, meta, f := t.run(ctx, c)
		if f != nil {
			return nil, f
		}
		b, err := json.Marshal(payload)
		if err != nil {
			return nil, fail(Malformed, 200, "the result could not be encoded")
		}
		return &mcp.CallToolResult{
			Meta:              meta,
			Content:           []mcp.Content{&mcp.TextContent{Text: string(b)}},
			StructuredContent: json.RawMessage(b),
		}, nil
	}
}

// bearer returns the key of an Authorization: Bearer header.
func bearer(h http.Header) (string, bool) {
	v := h.Get("Authorization")
	scheme, key, ok := strings.Cut(strings.TrimSpace(v), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	key = strings.TrimSpace(key)
	if key == "" || strings.ContainsFunc(key, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		return "", false
	}
	return key, true
}

func (s *Server) vuln(ctx context.Context, c *call) (any, map[string]any, *Failure) {
	var a struct {
		ID  string `json:"id"`
		Raw bool   `json:"raw"`
	}
	json.Unmarshal(c.args, &a) // validated
	path := "/v1/vulns/" + url.PathEscape(a.ID)
	if !a.Raw {
		var rec map[string]any
		if _, f := s.vdb.get(ctx, c.key, path, &rec, nil); f != nil {
			return nil, nil, f
		}
		return rec, nil, nil
	}
	var raw map[string]any
	_, f := s.vdb.get(ctx, c.key, path+"/raw", &raw, func(n string) *Failure {
		return fail(RawTooLarge, a.ID, n, MaxRaw)
	})
	if f != nil {
		return nil, nil, f
	}
	return raw, nil, nil
}

func (s *Server) purl(ctx context.Context, c *call) (any, map[string]any, *Failure) {
	var a struct {
		PURL string `json:"purl"`
	}
	json.Unmarshal(c.args, &a)
	if why := checkPURL(a.PURL); why != "" {
		return nil, nil, fail(NotAPURL, quote(a.PURL)+" ("+why+")")
	}
	var out map[string]any
	if _, f := s.vdb.get(ctx, c.key, "/v1/purl?purl="+url.QueryEscape(a.PURL), &out, nil); f != nil {
		return nil, nil, f
	}
	return out, nil, nil
}

// checkPURL says why p is not a Package URL, or "" when it is one:
// pkg:<type>/[<namespace>/]<name>[@<version>][?<qualifiers>][#<subpath>].
func checkPURL(p string) string {
	rest, ok := strings.CutPrefix(p, "pkg:")
	if !ok {
		return "it does not start with pkg:"
	}
	rest = strings.TrimLeft(rest, "/")
	rest, _, _ = strings.Cut(rest, "#")
	rest, _, _ = strings.Cut(rest, "?")
	typ, name, ok := strings.Cut(rest, "/")
	if !ok || typ == "" {
		return "it has no type: pkg:<type>/<name>"
	}
	for i, r := range typ {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' && i > 0 || r == '.' || r == '+' || r == '-') {
			return "its type " + quote(typ) + " has a character a type may not"
		}
	}
	if i := strings.LastIndex(name, "@"); i >= 0 {
		name = name[:i]
	}
	if name = strings.Trim(name, "/"); name == "" || strings.HasSuffix(name, "/") {
		return "it has no name: pkg:<type>/<name>"
	}
	if strings.ContainsFunc(p, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		return "it contains spaces or control characters"
	}
	return ""
}

// allowedPaths are the vdb-api prefixes vdb_request may GET.
var allowedPaths = []string{"/v1/vulns/", "/v1/purl", "/v1/vendors/"}

func (s *Server) request(ctx context.Context, c *call) (any, map[string]any, *Failure) {
	var a struct {
		Path string `json:"path"`
	}
	json.Unmarshal(c.args, &a)
	if !pathAllowed(a.Path) {
		return nil, nil, fail(PathNotAllowed, wire.Printable(a.Path))
	}
	var out any
	if _, f := s.vdb.get(ctx, c.key, a.Path, &out, nil); f != nil {
		return nil, nil, f
	}
	if _, ok := out.(map[string]any); !ok {
		out = map[string]any{"data": out} // structuredContent must be an object
	}
	return out, nil, nil
}

// pathAllowed reports whether p is a plain absolute path (with an optional
// query) under one of the allowed prefixes, with no dot segments, no
// scheme or host, and no encoded slash or dot that could climb out.
func pathAllowed(p string) bool {
	if len(p) > 2048 || !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") {
		return false
	}
	if strings.ContainsFunc(p, func(r rune) bool { return r <= ' ' || r == 0x7f || r == '\\' || r == '#' }) {
		return false
	}
	u, err := url.Parse(p)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil {
		return false
	}
	// No path parameters: a servlet container reads "..;" as ".." and
	// ";jsessionid=..." as a parameter, so a ";" in the path, written or
	// escaped, could climb out of the allowlist upstream.
	esc := strings.ToLower(u.EscapedPath())
	if strings.Contains(u.Path, ";") || strings.Contains(esc, "%3b") ||
		strings.Contains(esc, "%2f") || strings.Contains(esc, "%2e") || strings.Contains(esc, "%5c") {
		return false
	}
	for _, seg := range strings.Split(u.Path, "/") {
		if seg == "." || seg == ".." {
			return false
		}
	}
	for _, prefix := range allowedPaths {
		if strings.HasPrefix(u.Path, prefix) && (prefix != "/v1/purl" || u.Path == prefix) {
			return true
		}
	}
	return false
}

// The overview's sections, in payload order.
const (
	SectionRecord   = "record"
	SectionExploits = "exploits"
	SectionTrends   = "vendor-trends"
)

func (s *Server) overview(ctx context.Context, c *call) (any, map[string]any, *Failure) {
	var a struct {
		ID string `json:"id"`
	}
	json.Unmarshal(c.args, &a)
	path := "/v1/vulns/" + url.PathEscape(a.ID)

	var (
		wg                sync.WaitGroup
		rec               map[string]any
		exploits, trends  any
		recF, expF, trndF *Failure
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		_, expF = s.vdb.get(ctx, c.key, path+"/exploits", &exploits, nil)
	}()
	_, recF = s.vdb.get(ctx, c.key, path, &rec, nil)
	if recF == nil {
		vendor, _ := rec["vendor"].(string)
		if vendor == "" {
			trndF = fail(UpstreamStatus, 200, "The record names no vendor, so there are no vendor trends.")
		} else {
			_, trndF = s.vdb.get(ctx, c.key, "/v1/vendors/"+url.PathEscape(vendor)+"/trends", &trends, nil)
		}
	} else {
		trndF = recF // no record, no vendor
	}
	wg.Wait()

	if recF != nil && expF != nil {
		return nil, nil, recF
	}
	out := map[string]any{"id": a.ID}
	var degraded []string
	section := func(name string, v any, f *Failure) {
		if f != nil {
			out[name] = map[string]string{"error": f.Message}
			degraded = append(degraded, name)
			return
		}
		out[name] = v
	}
	section(SectionRecord, rec, recF)
	section(SectionExploits, exploits, expF)
	section(SectionTrends, trends, trndF)
	var meta map[string]any
	if len(degraded) > 0 {
		meta = map[string]any{MetaDegraded: degraded}
	}
	return out, meta, nil
}

// LoginStart is what vulnetix_auth_start returns.
type LoginStart struct {
	Handle          string `json:"handle"`
	UserCode        string `json:"user_code"`
	VerificationURI string `json:"verification_uri"`
	ExpiresIn       int    `json:"expires_in"`
	Next            string `json:"next"`
}

func (s *Server) authStart(ctx context.Context, c *call) (any, map[string]any, *Failure) {
	if s.sealer == nil {
		return nil, nil, fail(LoginUnavailable)
	}
	var d struct {
		DeviceCode      string `json:"device_code"`
		UserCode        string `json:"user_code"`
		VerificationURI string `json:"verification_uri"`
	}
	if _, f := s.vdb.get(ctx, "", "/v1/auth/device", &d, nil); f != nil {
		return nil, nil, f
	}
	if d.DeviceCode == "" {
		return nil, nil, fail(Malformed, 200, "the device login has no device_code")
	}
	return LoginStart{
		Handle:          s.sealer.seal(d.DeviceCode, s.now()),
		UserCode:        d.UserCode,
		VerificationURI: d.VerificationURI,
		ExpiresIn:       int(HandleTTL / time.Second),
		Next:            "Open verification_uri, enter user_code, then call vulnetix_auth_poll with handle within 5 minutes.",
	}, nil, nil
}

func (s *Server) authPoll(ctx context.Context, c *call) (any, map[string]any, *Failure) {
	if s.sealer == nil {
		return nil, nil, fail(LoginUnavailable)
	}
	var a struct {
		Handle string `json:"handle"`
	}
	json.Unmarshal(c.args, &a)
	code, issued, err := s.sealer.open(a.Handle)
	if err != nil {
		return nil, nil, fail(LoginInvalid)
	}
	if now := s.now(); now.Sub(issued) > HandleTTL || issued.After(now.Add(time.Minute)) {
		return nil, nil, fail(LoginExpired, issued.Format(time.RFC3339))
	}
	if s.spent.used(code) {
		return nil, nil, fail(LoginUsed)
	}
	var out map[string]any
	if _, f := s.vdb.get(ctx, "", "/v1/auth/device/"+url.PathEscape(code), &out, nil); f != nil {
		return nil, nil, f
	}
	// Single use once approved: the approval is handed over once, to the
	// first poll that sees it; a copied handle polled later gets nothing.
	if out["status"] == "approved" && !s.spent.spend(code, issued.Add(HandleTTL), s.now()) {
		return nil, nil, fail(LoginUsed)
	}
	return out, nil, nil
}

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/examples/vulnetix/mcpserver"
	"github.com/mcperr/mcperr/examples/vulnetix/vdbdemo"
)

// vulnetixSection is the vulnetix server's part of the tour.
var vulnetixSection = section{
	name:  "vulnetix",
	title: "the Vulnetix VDB over Streamable HTTP 2026-07-28: protocol errors as HTTP statuses with JSON-RPC bodies, the edge flood guard, tool errors as prose, a degraded result, resources/read errors",
	run:   vulnetixRun,
}

// vulnetixRun starts the embedded vdb-api and the server (an http.Handler)
// on loopback, meets every failure shape of the Vulnetix error contract over
// real HTTP, and returns one line per shape, texts whole: the
// protocol errors, the edge flood guard, the tool errors, a degraded result
// and the resources/read errors.
func vulnetixRun(ctx context.Context) ([]Line, error) {
	now := time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	api := vdbdemo.New(clock)
	var servers []*http.Server
	defer func() {
		for _, s := range servers {
			s.Close()
		}
	}()
	start := func(h http.Handler) (string, error) {
		s, addr, err := serveLoopback(h)
		if err != nil {
			return "", err
		}
		servers = append(servers, s)
		return "http://" + addr, nil
	}
	upURL, err := start(api)
	if err != nil {
		return nil, err
	}
	var urls []string
	for _, cfg := range []mcpserver.Config{
		{APIURL: upURL, AEADKey: make([]byte, 32), Now: clock}, // the tour's server
		{APIURL: upURL}, // without MCP_AEAD_KEY
		{APIURL: upURL, EdgeLimit: 5, Now: clock}, // a tight edge guard
	} {
		srv, err := mcpserver.New(cfg)
		if err != nil {
			return nil, err
		}
		u, err := start(srv)
		if err != nil {
			return nil, err
		}
		urls = append(urls, u)
	}
	client := &http.Client{Transport: &http.Transport{}}
	defer client.CloseIdleConnections()

	t := &vulnetixTourer{ctx: ctx, client: client, base: urls[0]}
	const ok = vdbdemo.KeyCommunity
	m := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	list := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + m + `}}`
	jsonHdr := map[string]string{"Content-Type": "application/json", "Mcp-Method": "tools/list"}

	t.protocol("Host: evil.example", "POST", "/mcp", map[string]string{"Host": "evil.example", "Content-Type": "application/json"}, list)
	t.protocol("GET /admin", "GET", "/admin", nil, "")
	t.protocol("GET /mcp", "GET", "/mcp", nil, "")
	t.protocol("Content-Type: text/plain", "POST", "/mcp", map[string]string{"Content-Type": "text/plain"}, list)
	t.protocol("a body that is not JSON", "POST", "/mcp", jsonHdr, "{oops")
	t.protocol("_meta without clientCapabilities", "POST", "/mcp", jsonHdr,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"1900-01-01"}}}`)
	t.protocol("Mcp-Name: vulnetix_purl, body vulnetix_vuln", "POST", "/mcp",
		map[string]string{"Content-Type": "application/json", "Mcp-Method": "tools/call", "Mcp-Name": "vulnetix_purl"},
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"vulnetix_vuln","arguments":{},`+m+`}}`)
	t.protocol("protocolVersion 1900-01-01", "POST", "/mcp", jsonHdr,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"1900-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}`)
	t.protocol("method tools/destroy", "POST", "/mcp", map[string]string{"Content-Type": "application/json", "Mcp-Method": "tools/destroy"},
		`{"jsonrpc":"2.0","id":4,"method":"tools/destroy","params":{`+m+`}}`)

	t.tool("no Authorization header", mcpserver.ToolVuln, `{"id":"CVE-2021-44228"}`, "")
	t.tool("a key vdb-api refuses", mcpserver.ToolVuln, `{"id":"CVE-2021-44228"}`, "not-a-key")
	t.tool("an inactive organisation", mcpserver.ToolVuln, `{"id":"CVE-2021-44228"}`, vdbdemo.KeyInactive)
	t.tool("a CVE indexed under its GHSA only", mcpserver.ToolVuln, `{"id":"`+vdbdemo.UnindexedAliasID+`"}`, ok)
	t.tool("...so try the alias", mcpserver.ToolVuln, `{"id":"`+vdbdemo.GHSAOnlyID+`"}`, ok)
	for range vdbdemo.QuotaPerDay {
		t.send(mcpserver.ToolVuln, `{"id":"CVE-2022-22965"}`, vdbdemo.KeyQuota)
	}
	t.tool("the daily quota, spent", mcpserver.ToolVuln, `{"id":"CVE-2022-22965"}`, vdbdemo.KeyQuota)
	t.tool("vdb-api in maintenance", mcpserver.ToolVuln, `{"id":"CVE-2021-44228"}`, vdbdemo.KeyMaintenance)
	t.tool("a route that fails with 500 (retried once)", mcpserver.ToolRequest, `{"path":"/v1/vendors/tukaani/trends"}`, ok)
	t.tool("a route that fails once (retried, calls 2)", mcpserver.ToolVuln, `{"id":"`+vdbdemo.FlakyID+`"}`, ok)
	t.tool("raw record over 524,288 bytes", mcpserver.ToolVuln, `{"id":"`+vdbdemo.HugeRawID+`","raw":true}`, ok)
	t.tool("purl lodash@4.17.21", mcpserver.ToolPURL, `{"purl":"lodash@4.17.21"}`, ok)
	t.tool("path /v1/auth/device", mcpserver.ToolRequest, `{"path":"/v1/auth/device"}`, ok)
	t.tool("a login without MCP_AEAD_KEY", mcpserver.ToolAuthStart, `{}`, "", urls[1])
	handle := t.loginHandle()
	mu.Lock()
	now = now.Add(mcpserver.HandleTTL + time.Second)
	mu.Unlock()
	t.tool("poll a handle 5m01s old", mcpserver.ToolAuthPoll, `{"handle":"`+handle+`"}`, "")
	t.tool("poll an altered handle", mcpserver.ToolAuthPoll, `{"handle":"`+flip(handle)+`"}`, "")
	t.tool("raw: \"yes\"", mcpserver.ToolVuln, `{"id":"CVE-2021-44228","raw":"yes"}`, ok)
	t.tool("overview: vendor trends fail", mcpserver.ToolOverview, `{"id":"`+vdbdemo.DegradedID+`"}`, ok)
	t.tool("overview: every section fails", mcpserver.ToolOverview, `{"id":"CVE-1999-0001"}`, ok)

	t.resource("read vulnetix://vuln/CVE-1999-0001", "vulnetix://vuln/CVE-1999-0001", ok)
	t.resource("read skill://vulnetix/nope.md", "skill://vulnetix/nope.md", ok)
	t.resource("read vulnetix://vuln/CVE%2", "vulnetix://vuln/CVE%2", ok)
	t.resource("read as an inactive organisation", "vulnetix://vuln/CVE-2021-44228", vdbdemo.KeyInactive)

	t.base = urls[2]
	for range 5 { // a flood against a guard of 5 requests per 10 seconds
		t.post(t.base, jsonHdr, list)
	}
	t.protocol("the 6th request in 10 seconds, limit 5", "POST", "/mcp", jsonHdr, list)
	return t.lines, t.err
}

// vulnetixTourer sends the section's requests and collects its lines.
type vulnetixTourer struct {
	ctx    context.Context
	client *http.Client
	base   string
	lines  []Line
	err    error
	id     int
}

func (t *vulnetixTourer) post(base string, h map[string]string, body string) (int, string) {
	return t.do("POST", base+"/mcp", h, body)
}

func (t *vulnetixTourer) do(method, url string, h map[string]string, body string) (int, string) {
	if t.err != nil {
		return 0, ""
	}
	req, err := http.NewRequestWithContext(t.ctx, method, url, strings.NewReader(body))
	if err != nil {
		t.err = err
		return 0, ""
	}
	for k, v := range h {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := t.client.Do(req)
	if err != nil {
		t.err = err
		return 0, ""
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		t.err = err
	}
	return resp.StatusCode, strings.TrimSpace(string(b))
}

func (t *vulnetixTourer) protocol(call, method, path string, h map[string]string, body string) {
	status, text := t.do(method, t.base+path, h, body)
	if t.err != nil {
		return
	}
	var r struct {
		Error *struct{ Code errkind.RPCCode } `json:"error"`
	}
	kind, move := "HTTP "+strconv.Itoa(status), retryGuidance(errkind.InvalidRequest)
	if json.Unmarshal([]byte(text), &r) == nil && r.Error != nil {
		kind += " " + strconv.Itoa(int(r.Error.Code))
		move = retryGuidance(r.Error.Code)
	}
	t.lines = append(t.lines, Line{Shape: call, Kind: kind, Move: move, Text: text})
}

// send calls a tool and returns its result's text, isError and whether a
// section was degraded.
func (t *vulnetixTourer) send(tool, args, key string, base ...string) (string, bool, bool) {
	t.id++
	h := map[string]string{"Content-Type": "application/json", "Mcp-Method": "tools/call", "Mcp-Name": tool}
	if key != "" {
		h["Authorization"] = "Bearer " + key
	}
	b := t.base
	if len(base) > 0 {
		b = base[0]
	}
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`, t.id, tool, args)
	status, text := t.post(b, h, body)
	if t.err != nil {
		return "", false, false
	}
	var resp struct {
		Result *struct {
			Meta    map[string]any `json:"_meta"`
			Content []struct{ Text string }
			IsError bool `json:"isError"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(text), &resp); err != nil || resp.Result == nil || len(resp.Result.Content) == 0 {
		t.err = fmt.Errorf("tools/call %s: HTTP %d %.200s", tool, status, text)
		return "", false, false
	}
	_, degraded := resp.Result.Meta[mcpserver.MetaDegraded]
	return resp.Result.Content[0].Text, resp.Result.IsError, degraded
}

func (t *vulnetixTourer) tool(call, tool, args, key string, base ...string) {
	text, isError, degraded := t.send(tool, args, key, base...)
	if t.err != nil {
		return
	}
	l := Line{Shape: tool + " " + call, Text: text}
	switch {
	case degraded:
		l.Kind, l.Move, l.Clip = "degraded", mcpserver.DegradedAdvice, true
	case !isError:
		l.Kind, l.Move, l.Clip = "(data)", "use it", true
	default:
		r := mcpserver.Taxonomy().Read(errkind.Outcome{IsError: true, Text: text})
		l.Kind, l.Move = string(r.Kind), string(r.Move)
	}
	t.lines = append(t.lines, l)
}

func (t *vulnetixTourer) loginHandle() string {
	text, _, _ := t.send(mcpserver.ToolAuthStart, `{}`, "")
	var s mcpserver.LoginStart
	if t.err == nil {
		if err := json.Unmarshal([]byte(text), &s); err != nil || s.Handle == "" {
			t.err = fmt.Errorf("vulnetix_auth_start: %s", text)
		}
	}
	return s.Handle
}

func (t *vulnetixTourer) resource(call, uri, key string) {
	t.id++
	h := map[string]string{"Content-Type": "application/json", "Mcp-Method": "resources/read", "Mcp-Name": uri, "Authorization": "Bearer " + key}
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"resources/read","params":{"uri":%q,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`, t.id, uri)
	status, text := t.post(t.base, h, body)
	if t.err != nil {
		return
	}
	var r struct {
		Error *struct {
			Code    errkind.RPCCode
			Message string
		} `json:"error"`
	}
	l := Line{Shape: call, Kind: "HTTP " + strconv.Itoa(status), Text: text}
	if json.Unmarshal([]byte(text), &r) == nil && r.Error != nil {
		l.Kind += " " + strconv.Itoa(int(r.Error.Code))
		l.Move = retryGuidance(r.Error.Code)
		if k, ok := mcpserver.KindOf(r.Error.Message); ok { // the tool's text: its advice
			l.Move = mcpserver.Taxonomy().Advise(k).Note
		}
	}
	t.lines = append(t.lines, l)
}

// flip changes one character in the middle of a handle.
func flip(h string) string {
	b := []byte(h)
	if len(b) > 0 {
		i := len(b) / 2
		if b[i] == 'A' {
			b[i] = 'B'
		} else {
			b[i] = 'A'
		}
	}
	return string(b)
}

// serveLoopback serves h on a fresh loopback port until the returned
// server is closed.
func serveLoopback(h http.Handler) (*http.Server, string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln)
	return srv, ln.Addr().String(), nil
}

// retryGuidance is the Vulnetix error contract's "Retry" sentence for a
// protocol error with code c: the words the contract's retry table gives
// beside errkind's move for c.
func retryGuidance(c errkind.RPCCode) string {
	switch c {
	case errkind.UnsupportedVersion:
		return "Once, with a version from data.supported."
	case errkind.ImplementationDefined: // only the edge guard's 429 sends it
		return "Yes, after a few seconds."
	case errkind.InternalError:
		return "No. Report it; the same request will fail the same way."
	case errkind.MissingCapability:
		return "No. Declare the capability and start a new session."
	}
	return "No. Fix the request."
}

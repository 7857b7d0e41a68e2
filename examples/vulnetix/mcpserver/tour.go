package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/examples/vulnetix/vdbdemo"
)

var (
	shapeREOnce sync.Once
	shapeREs    []*regexp.Regexp
)

// KindOf reads a tool error's text as an agent would and returns the kind
// of the shape that words it: the shape whose message format matches the
// whole text, the most specific one when several do. It reports false for
// a text no shape words.
func KindOf(text string) (errkind.Kind, bool) {
	if strings.HasPrefix(text, "MCP error -32602: ") {
		return InvalidArguments, true
	}
	shapeREOnce.Do(func() {
		for _, s := range shapes {
			var b strings.Builder
			b.WriteString(`^(?s:`)
			rest := s.Format
			for {
				i := strings.IndexByte(rest, '%')
				if i < 0 || i == len(rest)-1 {
					b.WriteString(regexp.QuoteMeta(rest))
					break
				}
				b.WriteString(regexp.QuoteMeta(rest[:i]))
				if rest[i+1] == 'd' {
					b.WriteString(`[0-9]+`)
				} else {
					b.WriteString(`.*`)
				}
				rest = rest[i+2:]
			}
			b.WriteString(`)$`)
			shapeREs = append(shapeREs, regexp.MustCompile(b.String()))
		}
	})
	best, bestLen := errkind.Kind(""), -1
	for i, s := range shapes {
		if s.Kind == InvalidArguments || !shapeREs[i].MatchString(text) {
			continue
		}
		if n := len(s.Format); n > bestLen {
			best, bestLen = s.Kind, n
		}
	}
	return best, bestLen >= 0
}

// TourLine is one failure shape as an agent meets it.
type TourLine struct {
	Call string // what was sent
	// Kind is the tool error's kind (read from its text by KindOf),
	// "degraded" for a result with a degraded section, or "HTTP <status>
	// <code>" for a protocol error and a resources/read error.
	Kind string
	Move string // the agent's next move: the taxonomy's advice, or the contract's retry guidance
	Text string // as sent: the tool result's text, or the response body
}

// Tour starts the embedded vdb-api and the server on loopback, meets every
// failure shape of the Vulnetix error contract over real HTTP, and returns one line per shape:
// the protocol errors, the edge flood guard, the tool errors, a degraded
// result and the resources/read errors.
func Tour(ctx context.Context) ([]TourLine, error) {
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
	for _, cfg := range []Config{
		{APIURL: upURL, AEADKey: make([]byte, 32), Now: clock}, // the tour's server
		{APIURL: upURL}, // without MCP_AEAD_KEY
		{APIURL: upURL, EdgeLimit: 5, Now: clock}, // a tight edge guard
	} {
		srv, err := New(cfg)
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

	t := &tourer{ctx: ctx, client: client, base: urls[0]}
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

	t.tool("no Authorization header", ToolVuln, `{"id":"CVE-2021-44228"}`, "")
	t.tool("a key vdb-api refuses", ToolVuln, `{"id":"CVE-2021-44228"}`, "not-a-key")
	t.tool("an inactive organisation", ToolVuln, `{"id":"CVE-2021-44228"}`, vdbdemo.KeyInactive)
	t.tool("a CVE indexed under its GHSA only", ToolVuln, `{"id":"`+vdbdemo.UnindexedAliasID+`"}`, ok)
	t.tool("...so try the alias", ToolVuln, `{"id":"`+vdbdemo.GHSAOnlyID+`"}`, ok)
	for range vdbdemo.QuotaPerDay {
		t.send(ToolVuln, `{"id":"CVE-2022-22965"}`, vdbdemo.KeyQuota)
	}
	t.tool("the daily quota, spent", ToolVuln, `{"id":"CVE-2022-22965"}`, vdbdemo.KeyQuota)
	t.tool("vdb-api in maintenance", ToolVuln, `{"id":"CVE-2021-44228"}`, vdbdemo.KeyMaintenance)
	t.tool("a route that fails with 500 (retried once)", ToolRequest, `{"path":"/v1/vendors/tukaani/trends"}`, ok)
	t.tool("a route that fails once (retried, calls 2)", ToolVuln, `{"id":"`+vdbdemo.FlakyID+`"}`, ok)
	t.tool("raw record over 524,288 bytes", ToolVuln, `{"id":"`+vdbdemo.HugeRawID+`","raw":true}`, ok)
	t.tool("purl lodash@4.17.21", ToolPURL, `{"purl":"lodash@4.17.21"}`, ok)
	t.tool("path /v1/auth/device", ToolRequest, `{"path":"/v1/auth/device"}`, ok)
	t.tool("a login without MCP_AEAD_KEY", ToolAuthStart, `{}`, "", urls[1])
	handle := t.loginHandle()
	mu.Lock()
	now = now.Add(HandleTTL + time.Second)
	mu.Unlock()
	t.tool("poll a handle 5m01s old", ToolAuthPoll, `{"handle":"`+handle+`"}`, "")
	t.tool("poll an altered handle", ToolAuthPoll, `{"handle":"`+flip(handle)+`"}`, "")
	t.tool("raw: \"yes\"", ToolVuln, `{"id":"CVE-2021-44228","raw":"yes"}`, ok)
	t.tool("overview: vendor trends fail", ToolOverview, `{"id":"`+vdbdemo.DegradedID+`"}`, ok)
	t.tool("overview: every section fails", ToolOverview, `{"id":"CVE-1999-0001"}`, ok)

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

// tourer sends the tour's requests and collects its lines.
type tourer struct {
	ctx    context.Context
	client *http.Client
	base   string
	lines  []TourLine
	err    error
	id     int
}

func (t *tourer) post(base string, h map[string]string, body string) (int, string) {
	return t.do("POST", base+"/mcp", h, body)
}

func (t *tourer) do(method, url string, h map[string]string, body string) (int, string) {
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

func (t *tourer) protocol(call, method, path string, h map[string]string, body string) {
	status, text := t.do(method, t.base+path, h, body)
	if t.err != nil {
		return
	}
	var r struct {
		Error *struct{ Code errkind.Code } `json:"error"`
	}
	kind, move := "HTTP "+strconv.Itoa(status), retryGuidance(errkind.InvalidRequest)
	if json.Unmarshal([]byte(text), &r) == nil && r.Error != nil {
		kind += " " + strconv.Itoa(int(r.Error.Code))
		move = retryGuidance(r.Error.Code)
	}
	t.lines = append(t.lines, TourLine{Call: call, Kind: kind, Move: move, Text: text})
}

// send calls a tool and returns its result's text, isError and whether a
// section was degraded.
func (t *tourer) send(tool, args, key string, base ...string) (string, bool, bool) {
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
	_, degraded := resp.Result.Meta[MetaDegraded]
	return resp.Result.Content[0].Text, resp.Result.IsError, degraded
}

func (t *tourer) tool(call, tool, args, key string, base ...string) {
	text, isError, degraded := t.send(tool, args, key, base...)
	if t.err != nil {
		return
	}
	l := TourLine{Call: tool + " " + call, Text: text}
	switch {
	case degraded:
		l.Kind, l.Move = "degraded", DegradedAdvice
	case !isError:
		l.Kind, l.Move = "(data)", "use it"
	default:
		k, _ := KindOf(text)
		l.Kind, l.Move = string(k), string(Taxonomy().Advise(k).Move)
	}
	t.lines = append(t.lines, l)
}

func (t *tourer) loginHandle() string {
	text, _, _ := t.send(ToolAuthStart, `{}`, "")
	var s LoginStart
	if t.err == nil {
		if err := json.Unmarshal([]byte(text), &s); err != nil || s.Handle == "" {
			t.err = fmt.Errorf("vulnetix_auth_start: %s", text)
		}
	}
	return s.Handle
}

func (t *tourer) resource(call, uri, key string) {
	t.id++
	h := map[string]string{"Content-Type": "application/json", "Mcp-Method": "resources/read", "Mcp-Name": uri, "Authorization": "Bearer " + key}
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"resources/read","params":{"uri":%q,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`, t.id, uri)
	status, text := t.post(t.base, h, body)
	if t.err != nil {
		return
	}
	var r struct {
		Error *struct {
			Code    errkind.Code
			Message string
		} `json:"error"`
	}
	l := TourLine{Call: call, Kind: "HTTP " + strconv.Itoa(status), Text: text}
	if json.Unmarshal([]byte(text), &r) == nil && r.Error != nil {
		l.Kind += " " + strconv.Itoa(int(r.Error.Code))
		l.Move = retryGuidance(r.Error.Code)
		if k, ok := KindOf(r.Error.Message); ok { // the tool's text: its advice
			l.Move = shapeOf(k).Advice.Note
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

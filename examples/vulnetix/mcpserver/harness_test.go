package mcpserver

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcperr/mcperr/examples/internal/fakeclock"
	"github.com/mcperr/mcperr/examples/internal/proc"
	"github.com/mcperr/mcperr/examples/vulnetix/vdbdemo"
)

var update = flag.Bool("update", false, "rewrite the golden transcripts under testdata/")

// clock is an injected clock tests move by hand.
type clock = fakeclock.Clock

// newClock is a clock at the tests' instant, 2026-11-30 08:00 UTC.
func newClock() *clock { return fakeclock.At(time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)) }

// env is a Vulnetix MCP server on loopback in front of the embedded vdb-api.
type env struct {
	url   string // the MCP server's base URL
	api   *vdbdemo.API
	clock *clock
	logs  *proc.Buffer
	srv   *Server
}

// testKey is the AEAD key of the test servers.
var testKey = bytes.Repeat([]byte{7}, 32)

func newEnv(t testing.TB, edit func(*Config)) *env {
	t.Helper()
	e := &env{clock: newClock(), logs: &proc.Buffer{}}
	e.api = vdbdemo.New(e.clock.Now)
	upstream := httptest.NewServer(e.api)
	t.Cleanup(upstream.Close)
	cfg := Config{
		APIURL:  upstream.URL,
		AEADKey: testKey,
		Now:     e.clock.Now,
		Logger:  slog.New(slog.NewTextHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}
	if edit != nil {
		edit(&cfg)
	}
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	e.srv = srv
	hs := httptest.NewUnstartedServer(srv)
	hs.Listener = Listener(hs.Listener)
	hs.Config.MaxHeaderBytes = 64 << 10 // as main serves it
	hs.Start()
	t.Cleanup(hs.Close)
	e.url = hs.URL
	return e
}

// meta is the _meta envelope every 2026-07-28 call carries.
const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// rpc builds a JSON-RPC request body with the _meta envelope added to params.
func rpc(id any, method, params string) string {
	p := "{" + meta + "}"
	if params != "" {
		p = "{" + params + "," + meta + "}"
	}
	idJSON, _ := json.Marshal(id)
	return `{"jsonrpc":"2.0","id":` + string(idJSON) + `,"method":"` + method + `","params":` + p + `}`
}

// exchange is one HTTP request and its answer, as a golden transcript shows it.
type exchange struct {
	Method, Path string
	Header       map[string]string // sent as written: the names keep their case
	Body         string

	Status     int
	RespHeader map[string]string // Content-Type, Allow, Retry-After
	RespBody   string
}

// do sends an exchange's request to the server over HTTP and fills in the answer.
func (e *env) do(t testing.TB, x *exchange) {
	t.Helper()
	e.doWith(t, http.DefaultClient, x)
}

func (e *env) doWith(t testing.TB, client *http.Client, x *exchange) {
	t.Helper()
	method := x.Method
	if method == "" {
		method = http.MethodPost
	}
	path := x.Path
	if path == "" {
		path = "/mcp"
	}
	req, err := http.NewRequest(method, e.url+path, strings.NewReader(x.Body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range x.Header {
		if strings.EqualFold(k, "Host") {
			req.Host = v
			continue
		}
		req.Header[k] = []string{v} // as written: header names in any case
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	x.Status = resp.StatusCode
	x.RespHeader = map[string]string{}
	for _, k := range []string{"Content-Type", "Allow", "Retry-After"} {
		if v := resp.Header.Get(k); v != "" {
			x.RespHeader[k] = v
		}
	}
	x.RespBody = strings.TrimSuffix(string(b), "\n")
}

// post sends body to POST /mcp with the standard headers plus extra ones.
func (e *env) post(t testing.TB, body string, extra map[string]string) *exchange {
	t.Helper()
	h := map[string]string{"Content-Type": "application/json"}
	var m struct {
		Method string
		Params struct {
			Name, URI string
		}
	}
	if json.Unmarshal([]byte(body), &m) == nil && m.Method != "" {
		h["Mcp-Method"] = m.Method
		if n := m.Params.Name + m.Params.URI; n != "" {
			h["Mcp-Name"] = n
		}
	}
	for k, v := range extra {
		if v == "" {
			delete(h, k)
			continue
		}
		h[k] = v
	}
	x := &exchange{Header: h, Body: body}
	e.do(t, x)
	return x
}

// rpcError is a JSON-RPC error response, decoded.
type rpcError struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

func decodeRPC(t testing.TB, body string) rpcError {
	t.Helper()
	var r rpcError
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		t.Fatalf("body is not JSON: %v\n%s", err, body)
	}
	return r
}

// result is a tool result, decoded.
type result struct {
	Meta struct {
		Plan     string    `json:"vulnetix/plan"`
		Upstream *Upstream `json:"vulnetix/upstream"`
		Degraded []string  `json:"vulnetix/degraded"`
	} `json:"_meta"`
	Content []struct {
		Type, Text string
	} `json:"content"`
	Structured json.RawMessage `json:"structuredContent"`
	IsError    bool            `json:"isError"`
	ResultType string          `json:"resultType"`
}

func (r result) text() string {
	if len(r.Content) == 0 {
		return ""
	}
	return r.Content[0].Text
}

// callTool calls a tool with args (a JSON object) and the key ("" for no
// Authorization header) and returns its result; the HTTP status must be 200.
func (e *env) callTool(t testing.TB, tool, args, key string) result {
	t.Helper()
	extra := map[string]string{}
	if key != "" {
		extra["Authorization"] = "Bearer " + key
	}
	params := `"name":"` + tool + `"`
	if args != "" {
		params += `,"arguments":` + args
	}
	x := e.post(t, rpc(1, "tools/call", params), extra)
	if x.Status != http.StatusOK {
		t.Fatalf("tools/call %s: HTTP %d %s", tool, x.Status, x.RespBody)
	}
	var resp struct {
		Result *result `json:"result"`
	}
	if err := json.Unmarshal([]byte(x.RespBody), &resp); err != nil || resp.Result == nil {
		t.Fatalf("tools/call %s: no result: %v\n%s", tool, err, x.RespBody)
	}
	return *resp.Result
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	proc.Golden(t, filepath.Join("testdata", name), got, *update)
}

var msRE = regexp.MustCompile(`"ms":[0-9]+`)

// transcript renders exchanges as a golden transcript.
func transcript(xs []*exchange, names []string) string {
	var b strings.Builder
	for i, x := range xs {
		if i > 0 {
			b.WriteString("\n")
		}
		method, path := x.Method, x.Path
		if method == "" {
			method = "POST"
		}
		if path == "" {
			path = "/mcp"
		}
		b.WriteString("### " + names[i] + "\n")
		b.WriteString("> " + method + " " + path + "\n")
		writeHeaders(&b, "> ", x.Header)
		if x.Body != "" {
			body := x.Body
			if len(body) > 300 {
				body = body[:300] + "...(" + itoa(len(x.Body)) + " bytes)"
			}
			b.WriteString("> \n> " + body + "\n")
		}
		b.WriteString("< " + itoa(x.Status) + " " + http.StatusText(x.Status) + "\n")
		writeHeaders(&b, "< ", x.RespHeader)
		if x.RespBody != "" {
			body := msRE.ReplaceAllString(x.RespBody, `"ms":0`) // timing varies
			// The masked body's length: a slow upstream's "ms":12 counts
			// as "ms":0 does.
			if len(body) > 400 {
				body = body[:400] + "...(" + itoa(len(body)) + " bytes)"
			}
			b.WriteString("< \n< " + body + "\n")
		}
	}
	return b.String()
}

func writeHeaders(b *strings.Builder, prefix string, h map[string]string) {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := h[k]
		if strings.EqualFold(k, "Authorization") {
			v = "Bearer <key>"
		}
		b.WriteString(prefix + k + ": " + v + "\n")
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// clientFrom returns an HTTP client whose connections come from the local
// address ip, so the server sees another source.
func clientFrom(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 4}}
}

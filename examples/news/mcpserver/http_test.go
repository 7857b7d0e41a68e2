package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"
)

// exchange is one request of a transcript.
type exchange struct {
	note    string
	method  string
	path    string
	key     string
	headers map[string]string
	body    string
	before  func() // runs before the request
}

// transcript sends the exchanges to srv and renders them, responses with
// their status, the headers that matter and the body.
func transcript(t *testing.T, srv *httptest.Server, xs []exchange) string {
	t.Helper()
	var b strings.Builder
	for _, x := range xs {
		if x.before != nil {
			x.before()
		}
		resp, body := send(t, srv, x)
		fmt.Fprintf(&b, "### %s\n>>> %s %s", x.note, x.method, x.path)
		if x.key != "" {
			fmt.Fprintf(&b, "  [Authorization: Bearer %s]", x.key)
		}
		if v := x.headers["MCP-Protocol-Version"]; v != "" {
			fmt.Fprintf(&b, "  [MCP-Protocol-Version: %s]", v)
		}
		b.WriteString("\n")
		if x.body != "" {
			b.WriteString(x.body + "\n")
		}
		fmt.Fprintf(&b, "<<< %d\n", resp.StatusCode)
		var names []string
		for k := range resp.Header {
			switch k {
			case "Retry-After", "Www-Authenticate", "Allow", "Content-Type", "X-Credits-Charged", "X-Credits-Limit", "X-Credits-Used", "X-Credits-Remaining":
				names = append(names, k)
			}
		}
		slices.Sort(names)
		for _, k := range names {
			fmt.Fprintf(&b, "%s: %s\n", k, resp.Header.Get(k))
		}
		b.WriteString(strings.TrimRight(string(body), "\n") + "\n\n")
	}
	return b.String()
}

func send(t *testing.T, srv *httptest.Server, x exchange) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(x.method, srv.URL+x.path, strings.NewReader(x.body))
	if err != nil {
		t.Fatal(err)
	}
	if x.key != "" {
		req.Header.Set("Authorization", "Bearer "+x.key)
	}
	if x.path == "/mcp" {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
	}
	for k, v := range x.headers {
		req.Header.Set(k, v)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

func rpc(id int, method, params string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params)
}

func toolCall(id int, name, args string) string {
	return rpc(id, "tools/call", fmt.Sprintf(`{"name":%q,"arguments":%s}`, name, args))
}

const initialize = `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"1"}}`

// TestHostedMCP drives the hosted MCP endpoint over real HTTP on loopback,
// protocol 2025-11-25, through every row of the seed's two tables that
// applies to it, and compares with testdata/hosted-mcp.golden.
func TestHostedMCP(t *testing.T) {
	s, _ := newTestServer(t)
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	v := map[string]string{"MCP-Protocol-Version": "2025-11-25"}
	post := func(note, key, body string) exchange {
		return exchange{note: note, method: "POST", path: "/mcp", key: key, headers: v, body: body}
	}
	xs := []exchange{
		{note: "no key: 401, no JSON-RPC pretending", method: "POST", path: "/mcp", body: rpc(1, "initialize", initialize)},
		{note: "a key the server does not know: 401, the key not echoed", method: "POST", path: "/mcp", key: "sk-not-a-key", body: rpc(1, "initialize", initialize)},
		{note: "the handshake", method: "POST", path: "/mcp", key: "demo-free", body: rpc(1, "initialize", initialize)},
		post("initialized", "demo-free", `{"jsonrpc":"2.0","method":"notifications/initialized"}`),
		post("unknown tool: -32601", "demo-free", toolCall(2, "search_storys", `{"query":"wind"}`)),
		post("undeclared argument: -32602 unknown_parameter with the hint", "demo-free", toolCall(3, "search_stories", `{"query":"wind","langauge":"en"}`)),
		post("undeclared argument, nothing close: no hint", "demo-free", toolCall(4, "search_stories", `{"query":"wind","xyz":true}`)),
		post("unknown signal: -32602 unknown_signal", "demo-free", toolCall(5, "search_stories", `{"query":"wind","signals":["sentimnt"]}`)),
		post("value out of range: -32602 invalid_parameter", "demo-free", toolCall(6, "search_stories", `{"query":"wind","limit":500}`)),
		post("malformed date: -32602 invalid_parameter", "demo-free", toolCall(7, "search_stories", `{"query":"wind","from":"last tuesday"}`)),
		post("success: structuredContent and one text block of the same JSON", "demo-free", toolCall(8, "search_stories", `{"query":"offshore wind","limit":2,"signals":["sentiment","velocity"]}`)),
		post("estimate: the breakdown, free", "demo-free", toolCall(9, "search_stories", `{"query":"wind","limit":50,"signals":["topics"],"estimate":true}`)),
		post("over max_credits: credit_budget_exceeded, before running", "demo-free", toolCall(10, "search_stories", `{"query":"wind","limit":50,"max_credits":3}`)),
		post("get_article", "demo-free", toolCall(11, "get_article", `{"id":"a-00042"}`)),
		post("not_found", "demo-free", toolCall(12, "get_story", `{"id":"s-9999"}`)),
		post("create_watch", "demo-free", toolCall(13, "create_watch", `{"query":"wind","signals":["sentiment"]}`)),
		post("create_watch", "demo-free", toolCall(14, "create_watch", `{"query":"rail"}`)),
		post("create_watch", "demo-free", toolCall(15, "create_watch", `{"query":"harvest"}`)),
		post("over the plan's watch cap: watch_limit", "demo-free", toolCall(16, "create_watch", `{"query":"bank"}`)),
		post("watch_events", "demo-free", toolCall(17, "watch_events", `{"id":"w-3","since":"2026-10-25T00:00:00Z"}`)),
		post("suspended", "demo-suspended", toolCall(18, "get_article", `{"id":"a-00042"}`)),
		{note: "two shards fail: partial", method: "POST", path: "/mcp", key: "demo-pro", headers: v, body: toolCall(19, "search_stories", `{"query":"harvest","limit":1}`), before: func() { s.FailShards(2) }},
		post("a range only failing shards hold: upstream_unavailable", "demo-pro", toolCall(20, "search_stories", `{"query":"harvest","from":"2026-10-20T00:00:00Z"}`)),
		{note: "from earlier than the index holds: from_clamped", method: "POST", path: "/mcp", key: "demo-pro", headers: v, body: toolCall(21, "search_stories", `{"query":"harvest","limit":1,"from":"2020-01-01T00:00:00Z"}`), before: func() { s.FailShards(0) }},
		{note: "no credits left on a key that stops there: insufficient_credits", method: "POST", path: "/mcp", key: "demo-free", headers: v, body: toolCall(22, "create_watch", `{"query":"wind"}`), before: func() {
			b := s.balance(t.Context(), s.account("demo-free"), s.now())
			s.spend(t.Context(), s.account("demo-free"), b.Remaining, false, s.now())
		}},
	}
	got := transcript(t, srv, xs)
	golden(t, "hosted-mcp.golden", got)

	// The success result: structured and text equal, encoded once.
	resp, body := send(t, srv, post("", "demo-pro", toolCall(30, "get_story", `{"id":"s-0007"}`)))
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	var msg struct {
		Result struct {
			Content []struct {
				Type, Text string
			}
			StructuredContent json.RawMessage
			IsError           bool
		}
	}
	if err := json.Unmarshal(body, &msg); err != nil {
		t.Fatal(err)
	}
	r := msg.Result
	if len(r.Content) != 1 || r.IsError {
		t.Fatalf("result %+v", r)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, r.StructuredContent); err != nil {
		t.Fatal(err)
	}
	if compact.String() != r.Content[0].Text {
		t.Errorf("structuredContent and text differ:\n%s\n%s", compact.String(), r.Content[0].Text)
	}
	if strings.HasPrefix(r.Content[0].Text, `"`) {
		t.Errorf("text is double encoded: %.40s", r.Content[0].Text)
	}
}

// TestHostedMCPNewProtocol speaks 2026-07-28 to the same endpoint: no
// handshake, the version in a header and in _meta.
func TestHostedMCPNewProtocol(t *testing.T) {
	s, _ := newTestServer(t)
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"test","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`
	call := func(note string, id int, key, tool, args string) exchange {
		return exchange{note: note, method: "POST", path: "/mcp", key: key,
			headers: map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": tool},
			body:    rpc(id, "tools/call", fmt.Sprintf(`{"name":%q,"arguments":%s,%s}`, tool, args, meta))}
	}
	method := func(note string, id int, m string) exchange {
		return exchange{note: note, method: "POST", path: "/mcp", key: "demo-pro",
			headers: map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": m},
			body:    rpc(id, m, fmt.Sprintf(`{%s}`, meta))}
	}
	xs := []exchange{
		call("no key: 401", 1, "", "search_stories", `{"query":"wind"}`),
		call("unknown tool: -32601 (HTTP 404 on 2026-07-28)", 2, "demo-pro", "nope", `{}`),
		call("undeclared argument: -32602 unknown_parameter (HTTP 400 on 2026-07-28)", 3, "demo-pro", "search_stories", `{"query":"wind","langauge":"en"}`),
		call("unknown signal", 4, "demo-pro", "search_stories", `{"query":"wind","signals":["mood"]}`),
		call("success", 5, "demo-pro", "find_related", `{"id":"a-00042","limit":2}`),
		call("tool error", 6, "demo-pro", "get_article", `{"id":"a-00000"}`),
		method("a capability not declared (prompts): -32601, not an empty list", 7, "prompts/list"),
		method("a capability not declared (resources): -32601, not an empty list", 8, "resources/list"),
	}
	golden(t, "hosted-mcp-2026-07-28.golden", transcript(t, srv, xs))
}

// TestMessageRateLimit: every HTTP message takes a token, the handshake
// included; the 61st message in a minute is a 429 with Retry-After.
func TestMessageRateLimit(t *testing.T) {
	s, c := newTestServer(t)
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	v := map[string]string{"MCP-Protocol-Version": "2025-11-25"}
	msgs := []exchange{
		{method: "POST", path: "/mcp", key: "demo-pro", body: rpc(1, "initialize", initialize)},
		{method: "POST", path: "/mcp", key: "demo-pro", headers: v, body: `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
	}
	for i := range 57 {
		msgs = append(msgs, exchange{method: "POST", path: "/mcp", key: "demo-pro", headers: v, body: rpc(10+i, "tools/list", "{}")})
	}
	// A REST message counts against the same key.
	msgs = append(msgs, exchange{method: "GET", path: "/v1/articles/a-00001", key: "demo-pro"})
	for i, x := range msgs {
		if resp, body := send(t, srv, x); resp.StatusCode >= 300 {
			t.Fatalf("message %d: %d %s", i+1, resp.StatusCode, body)
		}
	}
	resp, body := send(t, srv, exchange{method: "POST", path: "/mcp", key: "demo-pro", headers: v, body: toolCall(99, "get_article", `{"id":"a-00001"}`)})
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "60" {
		t.Fatalf("61st message: %d Retry-After %q %s", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	want := `{"error":"too many messages","code":"message_rate_limited","detail":"this key's messages this minute are spent (60 a minute; every HTTP message counts, the MCP handshake included); send the same message again after 60 seconds","retry_after_secs":60}`
	if got := strings.TrimSpace(string(body)); got != want {
		t.Errorf("body:\n got %s\nwant %s", got, want)
	}
	// Another key is not affected.
	if resp, _ := send(t, srv, exchange{method: "POST", path: "/mcp", key: "demo-free", body: rpc(1, "initialize", initialize)}); resp.StatusCode != 200 {
		t.Errorf("another key: %d", resp.StatusCode)
	}
	c.Advance(59 * time.Second)
	if resp, _ := send(t, srv, exchange{method: "POST", path: "/mcp", key: "demo-pro", headers: v, body: toolCall(100, "get_article", `{"id":"a-00001"}`)}); resp.StatusCode != 429 {
		t.Errorf("a second before the minute ends: %d, want 429", resp.StatusCode)
	}
	c.Advance(time.Second)
	if resp, body := send(t, srv, exchange{method: "POST", path: "/mcp", key: "demo-pro", headers: v, body: toolCall(100, "get_article", `{"id":"a-00001"}`)}); resp.StatusCode != 200 {
		t.Errorf("after Retry-After: %d %s", resp.StatusCode, body)
	}
}

// TestREST drives the REST API through every row that applies to it, and
// compares with testdata/rest.golden.
func TestREST(t *testing.T) {
	s, c := newTestServer(t)
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	get := func(note, key, path string) exchange {
		return exchange{note: note, method: "GET", path: path, key: key}
	}
	xs := []exchange{
		get("no key: 401", "", "/v1/search?query=wind"),
		get("a key the server does not know: 401", "sk-not-a-key", "/v1/search?query=wind"),
		get("unknown query parameter: 400 with the same hint", "demo-free", "/v1/search?query=wind&langauge=en"),
		get("unknown signal: 400 unknown_signal", "demo-free", "/v1/search?query=wind&signals=sentiment,velocty"),
		get("out of range: 400 invalid_parameter", "demo-free", "/v1/search?query=wind&limit=500"),
		get("not a number: 400 invalid_parameter", "demo-free", "/v1/search?query=wind&limit=ten"),
		get("malformed date: 400 invalid_parameter", "demo-free", "/v1/search?query=wind&from=2026-02-30"),
		get("invalid UTF-8: 400 invalid_parameter", "demo-free", "/v1/search?query=w%FFind"),
		get("a parameter twice: 400 invalid_parameter", "demo-free", "/v1/search?query=wind&limit=2&limit=3"),
		get("malformed query string: 400", "demo-free", "/v1/search?query=%zz"),
		get("search", "demo-free", "/v1/search?query=offshore+wind&limit=2&signals=sentiment&signals=languages"),
		get("estimate", "demo-free", "/v1/search?query=wind&limit=20&estimate=true"),
		get("over max_credits: 402 credit_budget_exceeded", "demo-free", "/v1/search?query=wind&limit=50&max_credits=2"),
		get("article", "demo-free", "/v1/articles/a-00042"),
		get("an id as a query parameter too: 400", "demo-free", "/v1/articles/a-00042?id=a-00043"),
		get("article not found: 404 not_found", "demo-free", "/v1/articles/a-99999"),
		get("story", "demo-free", "/v1/stories/s-0007"),
		get("related", "demo-free", "/v1/articles/a-00042/related?limit=2"),
		{note: "create a watch", method: "POST", path: "/v1/watches", key: "demo-free", body: `{"query":"wind","signals":["sentiment"]}`},
		{note: "an unknown member in the body: 400 with the hint", method: "POST", path: "/v1/watches", key: "demo-free", body: `{"query":"wind","signal":["sentiment"]}`},
		{note: "a body that is not JSON: 400", method: "POST", path: "/v1/watches", key: "demo-free", body: `query=wind`},
		{note: "create a watch", method: "POST", path: "/v1/watches", key: "demo-free", body: `{"query":"rail"}`},
		{note: "create a watch", method: "POST", path: "/v1/watches", key: "demo-free", body: `{"query":"harvest"}`},
		{note: "over the watch cap: 409 watch_limit", method: "POST", path: "/v1/watches", key: "demo-free", body: `{"query":"bank"}`},
		get("a watch", "demo-free", "/v1/watches/w-2"),
		get("another account's watch: 404 not_found", "demo-pro", "/v1/watches/w-2"),
		get("watch events", "demo-free", "/v1/watches/w-2/events?since=2026-10-30T00:00:00Z"),
		{note: "delete a watch", method: "DELETE", path: "/v1/watches/w-2", key: "demo-free"},
		get("suspended: 402 suspended", "demo-suspended", "/v1/articles/a-00042"),
		get("unknown route: 404", "demo-free", "/v1/nope"),
		{note: "wrong method: 405 with Allow", method: "PUT", path: "/v1/search", key: "demo-free"},
		{note: "admin route, not an admin key: 403", method: "POST", path: "/v1/admin/shards", key: "demo-pro", body: `{"failing":6}`},
		{note: "admin: every shard fails", method: "POST", path: "/v1/admin/shards", key: "demo-admin", body: `{"failing":6}`},
		get("no shard answers: 503 upstream_unavailable", "demo-pro", "/v1/search?query=wind"),
		{note: "admin: two shards fail", method: "POST", path: "/v1/admin/shards", key: "demo-admin", body: `{"failing":2}`},
		get("some shards answer: partial", "demo-pro", "/v1/search?query=harvest&limit=1"),
		{note: "admin: heal", method: "POST", path: "/v1/admin/shards", key: "demo-admin", body: `{"failing":0}`},
		get("credits spent this minute: 429 credit_rate_limited", "demo-free", "/v1/stories/s-0007"),
		{note: "no credits left this month: 402 insufficient_credits", method: "POST", path: "/v1/watches", key: "demo-free", body: `{"query":"wind"}`, before: func() {
			c.Advance(time.Minute)
			b := s.balance(t.Context(), s.account("demo-free"), s.now())
			s.spend(t.Context(), s.account("demo-free"), b.Remaining-1, false, s.now())
		}},
		{note: "messages this minute spent: 429 message_rate_limited", method: "GET", path: "/v1/articles/a-00042", key: "demo-free", before: func() {
			s.spendMessages(t.Context(), s.account("demo-free"), 60, s.now())
		}},
	}
	// Spend demo-free's minute of credits, two seconds before the minute
	// ends, right before the credit_rate_limited row.
	for i, x := range xs {
		if strings.HasPrefix(x.note, "credits spent this minute") {
			xs[i].before = func() {
				c.Advance(58 * time.Second)
				s.spend(t.Context(), s.account("demo-free"), 29, true, s.now())
			}
		}
	}
	golden(t, "rest.golden", transcript(t, srv, xs))
}

// TestHostedMessages: the hosted endpoint's message rule (issue 13). Ids
// are echoed byte for byte or refused with -32600 and id null (it answered
// id 1.5 with 1 and a 23-digit id with -9223372036854775808), nesting past
// the SDK's decoder never reaches it, and a POST lacking or with a wrong
// Accept gets a JSON-RPC answer, not the go-sdk's plain-text 400.
func TestHostedMessages(t *testing.T) {
	s, _ := newTestServer(t)
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"test","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`
	list := func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/list","params":{` + meta + `}}`
	}
	h := map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"}
	with := func(k, v string) map[string]string {
		m := map[string]string{k: v}
		for k, v := range h {
			m[k] = v
		}
		return m
	}
	refused := `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: the id must be a string or an integer of at most 2^53 in magnitude."}}`
	tests := []struct {
		name    string
		headers map[string]string
		body    string
		status  int
		prefix  string // of the body
	}{
		{"id 1.5", h, list("1.5"), 400, refused},
		{"id of 23 digits", h, list("12345678901234567890123"), 400, refused},
		{"id 1e400", h, list("1e400"), 400, refused},
		{"string id as sent", h, list(`"\u0041"`), 200, `{"jsonrpc":"2.0","id":"\u0041","result":{`},
		{"2^53", h, list("9007199254740992"), 200, `{"jsonrpc":"2.0","id":9007199254740992,"result":{`},
		{"params nested 1,001 deep", h, `{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"x":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}}`, 400,
			`{"jsonrpc":"2.0","id":4,"error":{"code":-32600,"message":"Invalid Request: objects and arrays nest deeper than 128 levels."}}`},
		{"a body over 1 MiB: 413, the SDK never reads it", h, `{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{"pad":"` + strings.Repeat("a", 1<<20) + `"}}`, 413,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: the body is larger than 1048576 bytes."}}`},
		{"no Accept", with("Accept", ""), list("5"), 200, `{"jsonrpc":"2.0","id":5,"result":{`},
		{"Accept text/html", with("Accept", "text/html"), list("6"), 200, `{"jsonrpc":"2.0","id":6,"result":{`},
		{"Accept application/json only", with("Accept", "application/json"), list("7"), 200, `{"jsonrpc":"2.0","id":7,"result":{`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := send(t, srv, exchange{method: "POST", path: "/mcp", key: "demo-pro", headers: tt.headers, body: tt.body})
			if resp.StatusCode != tt.status || !strings.HasPrefix(string(body), tt.prefix) {
				t.Errorf("%d %.200s\nwant %d %s...", resp.StatusCode, body, tt.status, tt.prefix)
			}
			if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q", ct)
			}
		})
	}
}

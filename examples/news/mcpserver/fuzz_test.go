package mcpserver

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcperr/mcperr/examples/internal/rpctest"
	"github.com/mcperr/mcperr/wire"
)

// FuzzArgs: any bytes as any tool's arguments give a valid payload, a
// tool error or an argument error of one of the three codes, the same
// answer every time, and never a panic.
func FuzzArgs(f *testing.F) {
	for _, seed := range []string{
		`{"query":"wind","langauge":"en"}`, `{"query":"wind","signals":["sentimnt"]}`, `{"query":"wind","limit":1e300}`,
		`{"id":"a-00001"}`, `{"query":"w\udc00"}`, "{\"query\":\"\xff\"}", `[]`, `null`, `{"query":"x","from":"2026-09-01T00:00:00Z","to":"2026-08-01T00:00:00Z"}`,
		`{"query":"x","estimate":true,"max_credits":0}`, `{"id":"w-1","since":"2026-01-01T00:00:00Z"}`, `{"a":{"b":{"c":[[[[[]]]]]}}}`,
	} {
		f.Add(uint8(0), seed)
		f.Add(uint8(3), seed)
	}
	s := mustNew(f, Config{})
	f.Fuzz(func(t *testing.T, which uint8, raw string) {
		tl := s.tools[int(which)%len(s.tools)]
		a1, e1 := tl.validate(json.RawMessage(raw))
		a2, e2 := tl.validate(json.RawMessage(raw))
		if (e1 == nil) != (e2 == nil) || (e1 != nil && *e1 != *e2) {
			t.Fatalf("two answers for %q: %v / %v", raw, e1, e2)
		}
		if e1 != nil {
			if !slices.Contains([]string{"unknown_parameter", "unknown_signal", "invalid_parameter"}, string(e1.Code)) || e1.Message == "" {
				t.Fatalf("bad refusal %+v", e1)
			}
			return
		}
		if a1 == nil || a2 == nil {
			t.Fatal("no arguments and no error")
		}
		out := s.call(t.Context(), s.local, tl, json.RawMessage(raw))
		if out.argErr != nil || (out.ok == nil) == (out.toolErr == nil) {
			t.Fatalf("outcome %+v", out)
		}
	})
}

// FuzzREST: any query string on any route answers JSON with a code on
// every 4xx and 5xx, and never panics.
func FuzzREST(f *testing.F) {
	for _, seed := range []string{"/v1/search?query=wind&langauge=en", "/v1/search?query=%FF", "/v1/search?query=%zz", "/v1/articles/a-00001?limit=3",
		"/v1/search?query=x&signals=,,,&limit=1e3", "/v1/watches/w-1/events?since=x", "/v1/nope"} {
		f.Add(seed)
	}
	s := mustNew(f, Config{})
	h := s.Handler()
	f.Fuzz(func(t *testing.T, target string) {
		if !strings.HasPrefix(target, "/") || strings.ContainsAny(target, " \r\n\t#") {
			return
		}
		if _, err := url.ParseRequestURI(target); err != nil {
			return // not a request a client can send
		}
		req := httptest.NewRequest("GET", "http://localhost"+target, nil)
		req.Header.Set("Authorization", "Bearer demo-admin")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code >= 400 && req.URL.Path != "/mcp" {
			var e ToolError
			if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil || e.Code == "" {
				t.Fatalf("%s: %d %s", target, w.Code, w.Body)
			}
		}
	})
}

// FuzzReadKeys: a keys file of any bytes is read or refused, never panics.
func FuzzReadKeys(f *testing.F) {
	f.Add(`[{"key":"k","plan":"pro","monthly_credits":10,"messages_per_minute":1,"credits_per_minute":1,"watch_cap":1}]`)
	f.Add(`{"keys":[]}`)
	f.Fuzz(func(t *testing.T, data string) {
		keys, err := ReadKeys(strings.NewReader(data))
		if err == nil && len(keys) == 0 {
			t.Fatal("no keys and no error")
		}
	})
}

// FuzzObjectFields checks the member splitter against encoding/json.
func FuzzObjectFields(f *testing.F) {
	for _, seed := range []string{`{"a":1,"b":[1,{"c":"]}"}],"d":"x\"y"}`, ` { } `, `{"a\u0062":true,"c":null,"d":-1.5e3}`, `{"a":{"b":{}},"c":[[],[]]}`, `[1]`, `{"a":1,"a":2}`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		fields, aerr := objectFields(json.RawMessage(raw))
		var m map[string]json.RawMessage
		uerr := json.Unmarshal([]byte(raw), &m)
		trimmed := strings.Trim(raw, jsonSpace) // JSON's whitespace only: "\f" is not absent arguments
		switch {
		case trimmed == "" || trimmed == "null":
			if aerr != nil || fields != nil {
				t.Fatalf("absent arguments: %v %v", fields, aerr)
			}
		case uerr != nil || m == nil:
			if aerr == nil {
				t.Fatalf("accepted %q, which encoding/json refuses as an object", raw)
			}
		case aerr != nil:
			if !strings.Contains(aerr.Message, "given more than once") && !strings.Contains(aerr.Message, "UTF-8") {
				t.Fatalf("refused %q: %v", raw, aerr)
			}
		default:
			if len(fields) != len(m) {
				t.Fatalf("%q: %d fields, encoding/json %d", raw, len(fields), len(m))
			}
			for _, fl := range fields {
				if string(compact(t, fl.value)) != string(compact(t, m[fl.name])) {
					t.Fatalf("%q: %s = %s, encoding/json %s", raw, fl.name, fl.value, m[fl.name])
				}
			}
		}
	})
}

func compact(t *testing.T, b []byte) []byte {
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		t.Fatalf("compact %q: %v", b, err)
	}
	return out.Bytes()
}

// FuzzHostedMCP drives arbitrary bodies through the hosted endpoint's
// front to the go-sdk, in-process (a clock a minute further on each read,
// so the message limit never bites): every answer is one JSON-RPC message
// with Content-Type application/json (or a 202 for a notification), and it
// carries the request's id byte for byte when the message rule read one,
// null otherwise.
func FuzzHostedMCP(f *testing.F) {
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + meta + `}}`,
		`{"jsonrpc":"2.0","id":"\u0041","method":"tools/call","params":{"name":"get_article","arguments":{"id":"a-00042"},` + meta + `}}`,
		`{"jsonrpc":"2.0","id":1.5,"method":"tools/list","params":{` + meta + `}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_stories","arguments":{"query":"wind","langauge":"en"},` + meta + `}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
	} {
		f.Add([]byte(s))
	}
	var mu sync.Mutex
	t0, _ := time.Parse(time.RFC3339, testNow)
	now := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t0 = t0.Add(time.Minute)
		return t0
	}
	h := mustNew(f, Config{Now: now}).Handler()
	f.Fuzz(func(t *testing.T, body []byte) {
		req := httptest.NewRequest("POST", "http://localhost/mcp", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer demo-pro")
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		var named struct {
			Method string `json:"method"`
			Params struct {
				Name string `json:"name"`
			} `json:"params"`
		}
		json.Unmarshal(body, &named)
		req.Header.Set("Mcp-Method", named.Method)
		if named.Params.Name != "" {
			req.Header.Set("Mcp-Name", named.Params.Name)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)

		rpctest.CheckHTTP(t, body, w, wire.NotificationMessage, wire.ResponseMessage)
	})
}

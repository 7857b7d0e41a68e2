package mcpserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/examples/internal/rpctest"
	"github.com/mcperr/mcperr/examples/vulnetix/vdbdemo"
	"github.com/mcperr/mcperr/wire"
)

// FuzzAdmit feeds the body checks arbitrary bodies and header values: they
// never panic, every refusal is a catalogued code with its status and an id
// that is null or valid JSON, and every admitted request names a method the
// server serves.
func FuzzAdmit(f *testing.F) {
	f.Add(rpc(1, "tools/list", ""), "tools/list", "")
	f.Add(rpc("x", "tools/call", `"name":"vulnetix_vuln","arguments":{"id":"CVE-2021-44228"}`), "tools/call", "=?base64?dnVsbmV0aXhfdnVsbg==?=")
	f.Add(rawCall("1", "tools/list", version1900), "tools/list", "")
	f.Add(`[{"jsonrpc":"2.0"}]`, "", "")
	f.Add(`{"jsonrpc":"2.0","method":"notifications/cancelled"}`, "notifications/cancelled", "")
	f.Add(`{"jsonrpc":"2.0","id":1e400,"method":"tools/list","params":{"_meta":null}}`, "tools/list", "=?base64?")
	f.Add(rpc(2, "resources/read", `"uri":"vulnetix://vuln/%zz"`), "resources/read", "vulnetix://vuln/%zz")
	f.Fuzz(func(t *testing.T, body, method, name string) {
		h := http.Header{}
		h.Set("Mcp-Method", method)
		h.Set("Mcp-Name", name)
		m, err := wire.CheckMessage([]byte(body))
		if err != nil || m.Type == wire.BatchMessage {
			return // the front's to answer
		}
		a, r := admit(h, m)
		if (a == nil) == (r == nil) {
			t.Fatalf("admit returned %v and %v", a, r)
		}
		if r != nil {
			if !slices.Contains([]errkind.RPCCode{errkind.ParseError, errkind.InvalidRequest, errkind.MethodNotFound, errkind.InvalidParams, errkind.InternalError, errkind.ImplementationDefined, errkind.HeaderMismatch, errkind.MissingCapability, errkind.UnsupportedVersion}, r.err.Code) {
				t.Fatalf("code %d is not catalogued", r.err.Code)
			}
			if r.status != r.err.Code.HTTPStatus() {
				t.Fatalf("status %d for code %d", r.status, r.err.Code)
			}
			if r.id != nil && !json.Valid(r.id) {
				t.Fatalf("id %q is not JSON", r.id)
			}
			if _, err := json.Marshal(r.err); err != nil {
				t.Fatalf("the error does not marshal: %v", err)
			}
			return
		}
		if !slices.Contains(methods, a.method) && !slices.Contains(notifications, a.method) {
			t.Fatalf("admitted method %q", a.method)
		}
		if a.id != nil && a.version != ProtocolVersion {
			t.Fatalf("admitted version %q", a.version)
		}
	})
}

// FuzzPathAllowed: an allowed path is always under an allowed prefix, with
// no dot segment, no path parameter (";") and nothing that leaves the host.
func FuzzPathAllowed(f *testing.F) {
	for _, p := range []string{"/v1/vulns/CVE-1", "/v1/purl?purl=pkg:npm/x", "/v1/vulns/../auth", "//evil/v1/vulns/", "/v1/vendors/%2e%2e/x", "/v1/purlx", "/v1/vulns/..;/auth/device"} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if !pathAllowed(p) {
			return
		}
		base, _ := url.Parse("http://vdb.example/api")
		u, err := (&vdb{base: base}).resolve(p)
		if err != nil {
			t.Fatalf("%q allowed but does not resolve: %v", p, err)
		}
		if u.Host != "vdb.example" || u.User != nil {
			t.Fatalf("%q leaves the host: %s", p, u)
		}
		ok := false
		for _, prefix := range allowedPaths {
			if strings.HasPrefix(u.Path, "/api"+prefix) {
				ok = true
			}
		}
		if !ok || strings.Contains(u.Path, "/../") || strings.HasSuffix(u.Path, "/..") || strings.Contains(u.EscapedPath(), ";") || strings.Contains(strings.ToLower(u.EscapedPath()), "%3b") {
			t.Fatalf("%q resolves outside the allowlist: %s", p, u.Path)
		}
	})
}

// FuzzLoginHandle: open never panics and never accepts what seal did not make.
func FuzzLoginHandle(f *testing.F) {
	s, _ := newSealer(testKey)
	f.Add("")
	f.Add("AAAA")
	f.Add(s.seal("dc_1", newClock().Now()))
	f.Fuzz(func(t *testing.T, h string) {
		code, _, err := s.open(h)
		if err == nil && code != "dc_1" {
			t.Fatalf("opened a forged handle %q: %q", h, code)
		}
	})
}

// FuzzHTTP drives arbitrary bodies (with the Mcp-Method and Mcp-Name
// headers the body names, so that bodies reach the SDK) through the whole
// server, in-process, against an in-process vdb-api: every answer is one
// JSON-RPC message with Content-Type application/json (or a 202 for a
// notification), and it carries the request's id byte for byte when the
// message rule read one, null otherwise; the server goes on answering.
func FuzzHTTP(f *testing.F) {
	for _, s := range []string{
		rpc(1, "tools/list", ""),
		rpc(`"\u0041"`, "tools/call", `"name":"vulnetix_vuln","arguments":{"id":"CVE-2021-44228"}`),
		rpc(2, "resources/read", `"uri":"vulnetix://vuln/CVE-2021-44228"`),
		rawCall("1.5", "tools/list", meta),
		rawCall("12345678901234567890123", "tools/list", meta),
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"x":[[[[[[[[]]]]]]]]}}`,
		`[` + rpc(1, "tools/list", "") + `]`,
	} {
		f.Add([]byte(s))
	}
	clk := newClock()
	s, err := New(Config{APIURL: "http://vdb.test", Transport: rpctest.HandlerTransport{H: vdbdemo.New(clk.Now)}, AEADKey: testKey, Now: clk.Now, EdgeLimit: 1 << 30})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req := httptest.NewRequest("POST", "http://127.0.0.1/mcp", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		var named struct {
			Method string `json:"method"`
			Params struct {
				Name string `json:"name"`
				URI  string `json:"uri"`
			} `json:"params"`
		}
		json.Unmarshal(body, &named)
		req.Header.Set("Mcp-Method", named.Method)
		if n := named.Params.Name + named.Params.URI; n != "" {
			req.Header.Set("Mcp-Name", n)
		}
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)

		rpctest.CheckHTTP(t, body, rec, wire.NotificationMessage)
	})
}

package mcpserver

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/mcperr/mcperr/errkind"
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
			if !slices.Contains(errkind.Codes(), r.err.Code) {
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
// no dot segment and nothing that leaves the host.
func FuzzPathAllowed(f *testing.F) {
	for _, p := range []string{"/v1/vulns/CVE-1", "/v1/purl?purl=pkg:npm/x", "/v1/vulns/../auth", "//evil/v1/vulns/", "/v1/vendors/%2e%2e/x", "/v1/purlx"} {
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
		if !ok || strings.Contains(u.Path, "/../") || strings.HasSuffix(u.Path, "/..") {
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

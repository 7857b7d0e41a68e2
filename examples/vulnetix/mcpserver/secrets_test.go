package mcpserver

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcperr/mcperr/examples/vulnetix/vdbdemo"
)

// TestCredentialNeverShown sends credentials down every path (accepted,
// refused, echoed back by a careless upstream, with no upstream at all)
// and checks that none appears in any response or in any log line, with
// the logger at debug level.
func TestCredentialNeverShown(t *testing.T) {
	const secret = "sk-live-9f8e7d6c5b4a39281706"

	// An upstream that echoes the Authorization header in its errors.
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Vulnetix-Plan", r.Header.Get("Authorization"))
		switch {
		case strings.Contains(r.URL.Path, "forbidden"):
			w.WriteHeader(403)
		case strings.Contains(r.URL.Path, "teapot"):
			w.WriteHeader(418)
		default:
			w.WriteHeader(500)
		}
		w.Write([]byte(`{"error":{"code":"oops","message":"refused ` + r.Header.Get("Authorization") + `"}}`))
	}))
	defer echo.Close()

	demo := newEnv(t, nil)
	echoing := newEnv(t, func(c *Config) { c.APIURL = echo.URL })
	var bodies []string
	for _, e := range []*env{demo, echoing} {
		for _, key := range []string{secret, vdbdemo.KeyCommunity} {
			auth := map[string]string{"Authorization": "Bearer " + key}
			for _, c := range []struct{ tool, args string }{
				{ToolVuln, `{"id":"CVE-2021-44228"}`},
				{ToolVuln, `{"id":"CVE-2021-44228","raw":true}`},
				{ToolOverview, `{"id":"CVE-2024-3094"}`},
				{ToolRequest, `{"path":"/v1/vendors/forbidden/trends"}`},
				{ToolRequest, `{"path":"/v1/vendors/teapot/trends"}`},
				{ToolPURL, `{"purl":"pkg:npm/lodash"}`},
				{ToolVuln, `{"id":"` + key + `"}`}, // the key as an argument: a schema error naming the field
			} {
				x := e.post(t, rpc(1, "tools/call", `"name":"`+c.tool+`","arguments":`+c.args), auth)
				bodies = append(bodies, x.RespBody)
			}
			x := e.post(t, rpc(2, "resources/read", `"uri":"vulnetix://vuln/CVE-2021-44228"`), auth)
			bodies = append(bodies, x.RespBody)
			x = e.post(t, rpc(3, "tools/list", ""), map[string]string{"Authorization": "Bearer " + key, "Mcp-Method": "tools/call"})
			bodies = append(bodies, x.RespBody)
			x = e.post(t, "{not json "+key, auth)
			bodies = append(bodies, x.RespBody)
		}
	}
	// Only the argument echo may contain the key: it was the caller's own
	// argument, not its credential, and the schema error does not repeat values.
	for _, b := range bodies {
		if strings.Contains(b, secret) || strings.Contains(b, vdbdemo.KeyCommunity) {
			t.Errorf("a response carries the credential: %s", b)
		}
	}
	for _, e := range []*env{demo, echoing} {
		logs := e.logs.String()
		if logs == "" {
			t.Fatal("no log lines: the test would prove nothing")
		}
		if strings.Contains(logs, secret) || strings.Contains(logs, vdbdemo.KeyCommunity) {
			t.Errorf("a log line carries the credential:\n%s", logs)
		}
	}
}

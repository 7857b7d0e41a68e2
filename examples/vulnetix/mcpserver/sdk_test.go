package mcpserver

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestSDKAlone records what the go-sdk's stateless Streamable HTTP handler
// answers on its own, without this server's checks in front, for the rows
// of seed 003 it would meet (testdata/sdk-alone.golden). It is why the
// server answers first; README.md compares it with the seed's table.
func TestSDKAlone(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "p", Version: "1"}, &mcp.ServerOptions{SupportedProtocolVersions: []string{ProtocolVersion}})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	srv := httptest.NewServer(h)
	defer srv.Close()
	e := &env{url: srv.URL}
	both := "application/json, text/event-stream"
	m := `"_meta":{"io.modelcontextprotocol/protocolVersion":"%s","io.modelcontextprotocol/clientCapabilities":{}}`
	list := func(version string) string {
		return `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + fmt.Sprintf(m, version) + `}}`
	}
	hdr := func(kv ...string) map[string]string {
		h := map[string]string{"Content-Type": "application/json", "Accept": both}
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i+1] == "" {
				delete(h, kv[i])
			} else {
				h[kv[i]] = kv[i+1]
			}
		}
		return h
	}
	cases := []struct {
		name string
		x    exchange
	}{
		{"Origin from another site", exchange{Header: hdr("Origin", "https://evil.example", "Mcp-Method", "tools/list", "Mcp-Protocol-Version", ProtocolVersion), Body: list(ProtocolVersion)}},
		{"another path", exchange{Path: "/anything", Header: hdr("Mcp-Method", "tools/list", "Mcp-Protocol-Version", ProtocolVersion), Body: list(ProtocolVersion)}},
		{"GET", exchange{Method: "GET"}},
		{"Content-Type text/plain", exchange{Header: hdr("Content-Type", "text/plain"), Body: list(ProtocolVersion)}},
		{"no Accept", exchange{Header: hdr("Accept", "", "Mcp-Method", "tools/list", "Mcp-Protocol-Version", ProtocolVersion), Body: list(ProtocolVersion)}},
		{"not JSON", exchange{Header: hdr(), Body: "{bad"}},
		{"a batch", exchange{Header: hdr("Mcp-Protocol-Version", ProtocolVersion), Body: "[" + list(ProtocolVersion) + "]"}},
		{"no _meta, no version header", exchange{Header: hdr("Mcp-Method", "tools/list"), Body: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`}},
		{"no _meta, version header", exchange{Header: hdr("Mcp-Method", "tools/list", "Mcp-Protocol-Version", ProtocolVersion), Body: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`}},
		{"1900-01-01 in _meta, no version header", exchange{Header: hdr("Mcp-Method", "tools/list"), Body: list("1900-01-01")}},
		{"1900-01-01 in _meta and header", exchange{Header: hdr("Mcp-Method", "tools/list", "Mcp-Protocol-Version", "1900-01-01"), Body: list("1900-01-01")}},
		{"Mcp-Name as a base64 sentinel", exchange{Header: hdr("Mcp-Method", "tools/call", "Mcp-Name", "=?base64?eA==?=", "Mcp-Protocol-Version", ProtocolVersion),
			Body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x",` + fmt.Sprintf(m, ProtocolVersion) + `}}`}},
		{"unknown method, version header", exchange{Header: hdr("Mcp-Method", "foo", "Mcp-Protocol-Version", ProtocolVersion), Body: `{"jsonrpc":"2.0","id":1,"method":"foo","params":{` + fmt.Sprintf(m, ProtocolVersion) + `}}`}},
		{"unknown method, no version header", exchange{Header: hdr("Mcp-Method", "foo"), Body: `{"jsonrpc":"2.0","id":1,"method":"foo","params":{` + fmt.Sprintf(m, ProtocolVersion) + `}}`}},
	}
	var xs []*exchange
	var names []string
	for _, c := range cases {
		x := c.x
		e.do(t, &x)
		x.RespBody = strings.TrimSpace(x.RespBody)
		xs, names = append(xs, &x), append(names, c.name)
	}
	golden(t, "sdk-alone.golden", transcript(xs, names))
}

package mcpserver_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/mcperr/mcperr/examples/vulnetix/mcpserver"
	"github.com/mcperr/mcperr/examples/vulnetix/vdbdemo"
)

// post sends one JSON-RPC request to POST /mcp with the 2026-07-28 headers.
func post(url, method, name, key, body string) (int, string) {
	req, _ := http.NewRequest(http.MethodPost, url+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Mcp-Method", method)
	if name != "" {
		req.Header.Set("Mcp-Name", name)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, strings.TrimSpace(string(b))
}

// The server in front of the embedded vdb-api: a protocol error is an HTTP
// status with a JSON-RPC error body; a tool error is HTTP 200 with a result
// whose text is written for the agent.
func Example() {
	vdb := httptest.NewServer(vdbdemo.New(nil))
	defer vdb.Close()
	srv, err := mcpserver.New(mcpserver.Config{APIURL: vdb.URL})
	if err != nil {
		panic(err)
	}
	mcp := httptest.NewServer(srv)
	defer mcp.Close()

	status, body := post(mcp.URL, "tools/list", "", "",
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"1900-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}`)
	fmt.Println(status, body)

	status, body = post(mcp.URL, "tools/call", "vulnetix_vuln", vdbdemo.KeyCommunity,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"vulnetix_vuln","arguments":{"id":"CVE-2024-35195"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`)
	text := body[strings.Index(body, `"text":"`)+8:]
	fmt.Println(status, text[:strings.Index(text, `"`)])
	// Output:
	// 400 {"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version: 1900-01-01","data":{"supported":["2026-07-28"],"requested":"1900-01-01"}}}
	// 200 Not found in the Vulnetix VDB: CVE-2024-35195. Try an alias (a GHSA id for a CVE, or the reverse).
}

// KindOf reads a tool error's text as an agent would, and the taxonomy
// says what to do next.
func ExampleKindOf() {
	text := "Vulnetix daily rate limit exhausted for this organisation. The quota resets at 2026-12-01T00:00:00Z. Do NOT retry this call."
	k, _ := mcpserver.KindOf(text)
	a := mcpserver.Taxonomy().Advise(k)
	fmt.Println(k, a.Move, a.Retryable, a.Note)
	// Output:
	// daily_quota_exhausted stop false No. Wait for the reset.
}

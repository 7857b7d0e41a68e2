package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/errkind"
)

// want is what a protocol-error test expects of an answer.
type want struct {
	Status int
	Allow  string // the Allow header, "" when absent
	Code   int    // the JSON-RPC code; 0 for an answer without a JSON-RPC body
	ID     string // the id echoed, as JSON ("null" when unreadable)
	// Message is the error message's start.
	Message string
	// Supported and Requested are data.supported and data.requested of a -32022.
	Supported []string
	Requested string
}

type protoCase struct {
	name   string
	method string            // HTTP method; "" is POST
	path   string            // "" is /mcp
	header map[string]string // sent as written; "" deletes a default
	body   string
	want   want
}

// got reduces an answer to what want compares.
func gotOf(t *testing.T, x *exchange) want {
	t.Helper()
	g := want{Status: x.Status, Allow: x.RespHeader["Allow"]}
	if x.RespHeader["Content-Type"] != "application/json" {
		return g
	}
	r := decodeRPC(t, x.RespBody)
	if r.Error == nil {
		return g
	}
	if r.JSONRPC != "2.0" {
		t.Fatalf("not a JSON-RPC response: %s", x.RespBody)
	}
	g.Code, g.ID, g.Message = r.Error.Code, string(r.ID), r.Error.Message
	if r.Error.Code == int(errkind.UnsupportedVersion) {
		var d UnsupportedVersionData
		if err := json.Unmarshal(r.Error.Data, &d); err != nil {
			t.Fatalf("-32022 data: %v: %s", err, r.Error.Data)
		}
		g.Supported, g.Requested = d.Supported, d.Requested
	}
	return g
}

// same compares want with got, Message as a prefix.
func same(t *testing.T, name string, w, g want) {
	t.Helper()
	if strings.HasPrefix(g.Message, w.Message) {
		g.Message = w.Message
	}
	if diff := cmp.Diff(w, g); diff != "" {
		t.Errorf("%s (-want +got):\n%s", name, diff)
	}
}

const version1900 = `"_meta":{"io.modelcontextprotocol/protocolVersion":"1900-01-01","io.modelcontextprotocol/clientCapabilities":{}}`

func rawCall(id, method, params string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `","params":{` + params + `}}`
}

// TestProtocolErrors drives every row of seed 003's "Protocol errors" table
// over HTTP on loopback, in the contract's order of checks, and records the
// exchanges in testdata/protocol.golden.
func TestProtocolErrors(t *testing.T) {
	e := newEnv(t, func(c *Config) {
		c.AllowOrigins = []string{"https://app.example"}
		c.AllowHosts = []string{"mcp.example"}
	})
	json := map[string]string{"Content-Type": "application/json", "Mcp-Method": "tools/list"}
	// merged is base with extra's headers set on it, an empty value
	// removing the header.
	merged := func(base, extra map[string]string) map[string]string {
		h := maps.Clone(base)
		for k, v := range extra {
			if v == "" {
				delete(h, k)
			} else {
				h[k] = v
			}
		}
		return h
	}
	with := func(extra map[string]string) map[string]string { return merged(json, extra) }
	toolsCall := rpc(5, "tools/call", `"name":"vulnetix_vuln","arguments":{"id":"CVE-2021-44228"}`)
	callHeaders := func(extra map[string]string) map[string]string {
		return merged(with(map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": "vulnetix_vuln", "Authorization": "Bearer vdb-demo-community"}), extra)
	}
	tests := []protoCase{
		// 403: Host or Origin not on the allowlist.
		{name: "403 Host not allowed", header: with(map[string]string{"Host": "evil.example"}), body: rpc(1, "tools/list", ""),
			want: want{Status: 403}},
		{name: "403 Origin not allowed", header: with(map[string]string{"Origin": "https://evil.example"}), body: rpc(1, "tools/list", ""),
			want: want{Status: 403}},
		{name: "403 before 404: Host checked first", method: "GET", path: "/nope", header: map[string]string{"Host": "evil.example:8787"},
			want: want{Status: 403}},
		{name: "allowed Host (-allow-host)", header: with(map[string]string{"Host": "mcp.example:8787"}), body: rpc(1, "tools/list", ""),
			want: want{Status: 200}},
		{name: "allowed Origin (-allow-origin)", header: with(map[string]string{"Origin": "https://app.example"}), body: rpc(1, "tools/list", ""),
			want: want{Status: 200}},
		{name: "loopback Origin with a port", header: with(map[string]string{"Origin": "http://localhost:3000"}), body: rpc(1, "tools/list", ""),
			want: want{Status: 200}},

		// 404: path, and unknown method.
		{name: "404 path not /mcp", method: "GET", path: "/nope",
			want: want{Status: 404, Code: -32601, ID: "null", Message: "Not found"}},
		{name: "404 POST to another path", path: "/mcp/extra", header: json, body: rpc(1, "tools/list", ""),
			want: want{Status: 404, Code: -32601, ID: "null", Message: "Not found"}},
		{name: "public GET /healthz", method: "GET", path: "/healthz", want: want{Status: 200}},
		{name: "404 unknown JSON-RPC method", header: with(map[string]string{"Mcp-Method": "tools/destroy"}), body: rpc(9, "tools/destroy", ""),
			want: want{Status: 404, Code: -32601, ID: "9", Message: `Method not found: "tools/destroy"`}},
		{name: "404 method removed in 2026-07-28 (initialize)", header: with(map[string]string{"Mcp-Method": "initialize"}), body: rpc("init", "initialize", ""),
			want: want{Status: 404, Code: -32601, ID: `"init"`, Message: `Method not found: "initialize"`}},

		// 405: method other than POST.
		{name: "405 GET /mcp", method: "GET", want: want{Status: 405, Allow: "POST", Code: -32600, ID: "null", Message: "Method not allowed"}},
		{name: "405 DELETE /mcp", method: "DELETE", want: want{Status: 405, Allow: "POST", Code: -32600, ID: "null", Message: "Method not allowed"}},
		{name: "405 PUT /mcp with a body", method: "PUT", header: json, body: rpc(1, "tools/list", ""),
			want: want{Status: 405, Allow: "POST", Code: -32600, ID: "null", Message: "Method not allowed"}},

		// 415: Content-Type not application/json.
		{name: "415 text/plain", header: with(map[string]string{"Content-Type": "text/plain"}), body: rpc(1, "tools/list", ""),
			want: want{Status: 415, Code: -32600, ID: "null", Message: "Unsupported Media Type"}},
		{name: "415 no Content-Type", header: with(map[string]string{"Content-Type": ""}), body: rpc(1, "tools/list", ""),
			want: want{Status: 415, Code: -32600, ID: "null", Message: "Unsupported Media Type"}},
		{name: "application/json with charset passes", header: with(map[string]string{"Content-Type": "application/json; charset=utf-8"}), body: rpc(1, "tools/list", ""),
			want: want{Status: 200}},

		// 400 -32602: a required io.modelcontextprotocol/* key missing.
		{name: "-32602 protocolVersion missing", header: json,
			body: rawCall("2", "tools/list", `"_meta":{"io.modelcontextprotocol/clientCapabilities":{}}`),
			want: want{Status: 400, Code: -32602, ID: "2", Message: `Invalid _meta envelope: missing required key "io.modelcontextprotocol/protocolVersion"`}},
		{name: "-32602 clientCapabilities missing", header: json,
			body: rawCall("3", "tools/list", `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`),
			want: want{Status: 400, Code: -32602, ID: "3", Message: `Invalid _meta envelope: missing required key "io.modelcontextprotocol/clientCapabilities"`}},
		{name: "-32602 no _meta at all", header: json, body: `{"jsonrpc":"2.0","id":"x","method":"tools/list"}`,
			want: want{Status: 400, Code: -32602, ID: `"x"`, Message: `Invalid _meta envelope: missing required keys "io.modelcontextprotocol/protocolVersion" and "io.modelcontextprotocol/clientCapabilities"`}},
		{name: "-32602 checked before the version", header: json,
			body: rawCall("4", "tools/list", `"_meta":{"io.modelcontextprotocol/protocolVersion":"1900-01-01"}`),
			want: want{Status: 400, Code: -32602, ID: "4", Message: `Invalid _meta envelope: missing required key "io.modelcontextprotocol/clientCapabilities"`}},
		{name: "-32602 checked before the headers", header: with(map[string]string{"Mcp-Method": "tools/call"}),
			body: rawCall("4", "tools/list", `"_meta":{}`),
			want: want{Status: 400, Code: -32602, ID: "4", Message: "Invalid _meta envelope"}},

		// 400 -32020: Mcp-Method or Mcp-Name disagrees with the body.
		{name: "-32020 Mcp-Method disagrees", header: with(map[string]string{"Mcp-Method": "tools/call"}), body: rpc(6, "tools/list", ""),
			want: want{Status: 400, Code: -32020, ID: "6", Message: `Header mismatch: Mcp-Method header "tools/call" does not match the body's method "tools/list"`}},
		{name: "-32020 Mcp-Method missing", header: with(map[string]string{"Mcp-Method": ""}), body: rpc(6, "tools/list", ""),
			want: want{Status: 400, Code: -32020, ID: "6", Message: "Header mismatch: the Mcp-Method header is required"}},
		{name: "-32020 mcp-method in lower case, disagreeing", header: with(map[string]string{"Mcp-Method": "", "mcp-method": "resources/list"}), body: rpc(6, "tools/list", ""),
			want: want{Status: 400, Code: -32020, ID: "6", Message: `Header mismatch: Mcp-Method header "resources/list"`}},
		{name: "MCP-METHOD in upper case, agreeing", header: with(map[string]string{"Mcp-Method": "", "MCP-METHOD": "tools/list"}), body: rpc(6, "tools/list", ""),
			want: want{Status: 200}},
		{name: "-32020 Mcp-Name disagrees", header: callHeaders(map[string]string{"Mcp-Name": "vulnetix_purl"}), body: toolsCall,
			want: want{Status: 400, Code: -32020, ID: "5", Message: `Header mismatch: Mcp-Name header "vulnetix_purl" does not match the body's name "vulnetix_vuln"`}},
		{name: "-32020 Mcp-Name missing", header: callHeaders(map[string]string{"Mcp-Name": ""}), body: toolsCall,
			want: want{Status: 400, Code: -32020, ID: "5", Message: "Header mismatch: the Mcp-Name header is required for tools/call"}},
		{name: "-32020 mcp-name in lower case, disagreeing", header: callHeaders(map[string]string{"Mcp-Name": "", "mcp-name": "vdb_request"}), body: toolsCall,
			want: want{Status: 400, Code: -32020, ID: "5", Message: `Header mismatch: Mcp-Name header "vdb_request"`}},
		{name: "Mcp-Name as a base64 sentinel, agreeing", header: callHeaders(map[string]string{"Mcp-Name": "=?base64?dnVsbmV0aXhfdnVsbg==?="}), body: toolsCall,
			want: want{Status: 200}},
		{name: "-32020 Mcp-Name base64 sentinel disagreeing", header: callHeaders(map[string]string{"Mcp-Name": "=?base64?dnVsbmV0aXhfcHVybA==?="}), body: toolsCall,
			want: want{Status: 400, Code: -32020, ID: "5", Message: `Header mismatch: Mcp-Name header "vulnetix_purl" does not match the body's name "vulnetix_vuln"`}},
		{name: "-32020 Mcp-Name base64 sentinel not base64", header: callHeaders(map[string]string{"Mcp-Name": "=?base64?***?="}), body: toolsCall,
			want: want{Status: 400, Code: -32020, ID: "5", Message: "Header mismatch: the Mcp-Name header's =?base64?...?= value is not valid base64"}},
		{name: "-32020 Mcp-Name for resources/read disagrees", header: with(map[string]string{"Mcp-Method": "resources/read", "Mcp-Name": "skill://vulnetix/errors.md"}),
			body: rpc(8, "resources/read", `"uri":"skill://vulnetix/SKILL.md"`),
			want: want{Status: 400, Code: -32020, ID: "8", Message: `Header mismatch: Mcp-Name header "skill://vulnetix/errors.md" does not match the body's uri "skill://vulnetix/SKILL.md"`}},
		{name: "-32020 Mcp-Protocol-Version disagrees with _meta", header: with(map[string]string{"Mcp-Protocol-Version": "2025-11-25"}), body: rpc(6, "tools/list", ""),
			want: want{Status: 400, Code: -32020, ID: "6", Message: "Header mismatch: Mcp-Protocol-Version header"}},

		// 400 -32022: unsupported protocol version.
		{name: "-32022 unsupported version", header: json, body: rawCall("1", "tools/list", version1900),
			want: want{Status: 400, Code: -32022, ID: "1", Message: "Unsupported protocol version: 1900-01-01", Supported: []string{"2026-07-28"}, Requested: "1900-01-01"}},
		{name: "-32022 with a matching Mcp-Protocol-Version header", header: with(map[string]string{"Mcp-Protocol-Version": "1900-01-01"}), body: rawCall(`"v"`, "tools/list", version1900),
			want: want{Status: 400, Code: -32022, ID: `"v"`, Message: "Unsupported protocol version: 1900-01-01", Supported: []string{"2026-07-28"}, Requested: "1900-01-01"}},
		{name: "-32022 a legacy version", header: json,
			body: rawCall("1", "tools/list", `"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25","io.modelcontextprotocol/clientCapabilities":{}}`),
			want: want{Status: 400, Code: -32022, ID: "1", Message: "Unsupported protocol version: 2025-11-25", Supported: []string{"2026-07-28"}, Requested: "2025-11-25"}},
		{name: "-32022 before the unknown method", header: with(map[string]string{"Mcp-Method": "tools/destroy"}), body: rawCall("1", "tools/destroy", version1900),
			want: want{Status: 400, Code: -32022, ID: "1", Message: "Unsupported protocol version: 1900-01-01", Supported: []string{"2026-07-28"}, Requested: "1900-01-01"}},
		{name: "-32020 Mcp-Protocol-Version 2026-07-28 but _meta 1900-01-01", header: with(map[string]string{"Mcp-Protocol-Version": "2026-07-28"}), body: rawCall("1", "tools/list", version1900),
			want: want{Status: 400, Code: -32020, ID: "1", Message: `Header mismatch: Mcp-Protocol-Version header "2026-07-28" does not match _meta io.modelcontextprotocol/protocolVersion "1900-01-01"`}},
		{name: "-32020 before the version", header: with(map[string]string{"Mcp-Method": "tools/call"}), body: rawCall("1", "tools/list", version1900),
			want: want{Status: 400, Code: -32020, ID: "1", Message: "Header mismatch"}},

		// A request that passes every check.
		{name: "server/discover", header: with(map[string]string{"Mcp-Method": "server/discover"}), body: rpc(1, "server/discover", ""),
			want: want{Status: 200}},
	}
	var xs []*exchange
	var names []string
	for _, tt := range tests {
		x := &exchange{Method: tt.method, Path: tt.path, Header: tt.header, Body: tt.body}
		e.do(t, x)
		same(t, tt.name, tt.want, gotOf(t, x))
		if tt.want.Code != 0 && x.RespHeader["Content-Type"] != "application/json" {
			t.Errorf("%s: Content-Type %q, want application/json", tt.name, x.RespHeader["Content-Type"])
		}
		xs, names = append(xs, x), append(names, tt.name)
	}
	golden(t, "protocol.golden", transcript(xs, names))
}

// TestSeedVersionExample compares the -32022 answer with the seed's example
// body, member for member.
func TestSeedVersionExample(t *testing.T) {
	e := newEnv(t, nil)
	x := e.post(t, rawCall("1", "tools/list", version1900), nil)
	const seed = `{
	  "jsonrpc": "2.0",
	  "id": 1,
	  "error": {
	    "code": -32022,
	    "message": "Unsupported protocol version: 1900-01-01",
	    "data": { "supported": ["2026-07-28"], "requested": "1900-01-01" }
	  }
	}`
	var w, g any
	json.Unmarshal([]byte(seed), &w)
	if err := json.Unmarshal([]byte(x.RespBody), &g); err != nil {
		t.Fatal(err)
	}
	if x.Status != 400 {
		t.Errorf("status %d, want 400", x.Status)
	}
	if diff := cmp.Diff(w, g); diff != "" {
		t.Errorf("-32022 body (-seed +got):\n%s", diff)
	}
}

// TestBadInput sends bodies and headers a server must survive: each gets a
// clear JSON-RPC error with the right status, quickly.
func TestBadInput(t *testing.T) {
	e := newEnv(t, nil)
	h := map[string]string{"Content-Type": "application/json", "Mcp-Method": "tools/list"}
	big := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"pad":"` + strings.Repeat("a", 10<<20) + `"}}`
	tests := []protoCase{
		{name: "not JSON", header: h, body: "hello", want: want{Status: 400, Code: -32700, ID: "null", Message: "Parse error"}},
		{name: "truncated JSON", header: h, body: `{"jsonrpc":"2.0","id":1,`, want: want{Status: 400, Code: -32700, ID: "null", Message: "Parse error"}},
		{name: "empty body", header: h, body: "", want: want{Status: 400, Code: -32700, ID: "null", Message: "Parse error"}},
		{name: "invalid UTF-8 inside a string", header: h, body: "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}", want: want{Status: 400, Code: -32602, ID: "1", Message: "Invalid _meta envelope"}},
		{name: "a number", header: h, body: "42", want: want{Status: 400, Code: -32600, ID: "null", Message: "Invalid Request"}},
		{name: "an object that is not JSON-RPC", header: h, body: `{"hello":"world"}`, want: want{Status: 400, Code: -32600, ID: "null", Message: `Invalid Request: "jsonrpc" must be "2.0"`}},
		{name: "jsonrpc 1.0", header: h, body: `{"jsonrpc":"1.0","id":3,"method":"tools/list"}`, want: want{Status: 400, Code: -32600, ID: "3", Message: `Invalid Request: "jsonrpc" must be "2.0"`}},
		{name: "method not a string", header: h, body: `{"jsonrpc":"2.0","id":3,"method":7}`, want: want{Status: 400, Code: -32600, ID: "3", Message: `Invalid Request: "method" must be a string`}},
		{name: "id an object", header: h, body: `{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}`, want: want{Status: 400, Code: -32600, ID: "null", Message: "Invalid Request: the id must be a string or an integer of at most 2^53 in magnitude."}},
		{name: "id null", header: h, body: `{"jsonrpc":"2.0","id":null,"method":"tools/list"}`, want: want{Status: 400, Code: -32600, ID: "null", Message: "Invalid Request: the id must be a string or an integer of at most 2^53 in magnitude."}},
		{name: "params an array", header: h, body: `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":[1]}`, want: want{Status: 400, Code: -32602, ID: "3", Message: "Invalid params"}},
		{name: "a response", header: h, body: `{"jsonrpc":"2.0","id":3,"result":{}}`, want: want{Status: 400, Code: -32600, ID: "3", Message: "Invalid Request: this server sends no requests"}},
		{name: "a batch", header: h, body: "[" + rpc(1, "tools/list", "") + "," + rpc(2, "tools/list", "") + "]", want: want{Status: 400, Code: -32600, ID: "null", Message: "Invalid Request: batch requests are not supported"}},
		{name: "an empty batch", header: h, body: "[]", want: want{Status: 400, Code: -32600, ID: "null", Message: "Invalid Request: batch requests are not supported"}},
		{name: "a 10 MiB body", header: h, body: big, want: want{Status: 413, Code: -32600, ID: "null", Message: "Invalid Request: the body is larger than 1048576 bytes"}},
		{name: "deeply nested JSON", header: h, body: strings.Repeat("[", 100000) + strings.Repeat("]", 100000), want: want{Status: 400, Code: -32600, ID: "null", Message: "Invalid Request: objects and arrays nest deeper than 128 levels."}},
		// Issue 13: ids the SDK rewrote (1.5 came back as 1, a 23-digit
		// id as -9223372036854775808) are refused at the front; nesting
		// past the SDK's 1,000 levels never reaches it.
		{name: "id 1.5", header: h, body: rawCall("1.5", "tools/list", ""), want: want{Status: 400, Code: -32600, ID: "null", Message: "Invalid Request: the id must be a string or an integer of at most 2^53 in magnitude."}},
		{name: "id of 23 digits", header: h, body: rawCall("12345678901234567890123", "tools/list", ""), want: want{Status: 400, Code: -32600, ID: "null", Message: "Invalid Request: the id must be a string or an integer of at most 2^53 in magnitude."}},
		{name: "id 1e400", header: h, body: rawCall("1e400", "tools/list", ""), want: want{Status: 400, Code: -32600, ID: "null", Message: "Invalid Request: the id must be a string or an integer of at most 2^53 in magnitude."}},
		{name: "params nested 1,001 deep", header: h, body: `{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"x":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}}`, want: want{Status: 400, Code: -32600, ID: "5", Message: "Invalid Request: objects and arrays nest deeper than 128 levels."}},
		{name: "a notification", header: map[string]string{"Content-Type": "application/json", "Mcp-Method": "notifications/cancelled"},
			body: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`, want: want{Status: 202}},
		{name: "an unknown notification", header: map[string]string{"Content-Type": "application/json", "Mcp-Method": "notifications/nope"},
			body: `{"jsonrpc":"2.0","method":"notifications/nope"}`, want: want{Status: 404, Code: -32601, ID: "null", Message: `Method not found: "notifications/nope"`}},
		{name: "tools/call without params.name", header: map[string]string{"Content-Type": "application/json", "Mcp-Method": "tools/call", "Mcp-Name": "x"},
			body: rpc(4, "tools/call", `"arguments":{}`), want: want{Status: 400, Code: -32602, ID: "4", Message: "Invalid params: params.name must be a string"}},
		{name: "a control character in an argument", header: map[string]string{"Content-Type": "application/json", "Mcp-Method": "tools/call", "Mcp-Name": "vdb_request"},
			body: rpc(4, "tools/call", `"name":"vdb_request","arguments":{"path":"/v1/\u0000x\n"}`), want: want{Status: 200}},
		{name: "an SDK refusal in plain text becomes JSON-RPC (Last-Event-ID on a POST)", header: map[string]string{"Content-Type": "application/json", "Mcp-Method": "tools/list", "Last-Event-ID": "x_1"},
			body: rpc(11, "tools/list", ""), want: want{Status: 400, Code: -32600, ID: "11", Message: "can't send Last-Event-ID for POST request"}},
		{name: "non-ASCII Mcp-Name, as sent", header: map[string]string{"Content-Type": "application/json", "Mcp-Method": "tools/call", "Mcp-Name": "vulnetix_vuln\u00e9"},
			body: rpc(4, "tools/call", `"name":"vulnetix_vuln","arguments":{}`), want: want{Status: 400, Code: -32020, ID: "4", Message: "Header mismatch: Mcp-Name header"}},
	}
	for _, tt := range tests {
		start := time.Now()
		x := &exchange{Method: tt.method, Path: tt.path, Header: tt.header, Body: tt.body}
		e.do(t, x)
		same(t, tt.name, tt.want, gotOf(t, x))
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: took %v", tt.name, d)
		}
	}
}

// TestControlCharacterHeaders sends header values with control characters,
// and a head over the header bound, on a raw connection: Go's HTTP server
// refuses them before any handler runs, and Listener turns its plain-text
// refusal into a JSON-RPC -32600 body with the same status; the connection
// closes, it never hangs, and the refused header is not echoed.
func TestControlCharacterHeaders(t *testing.T) {
	e := newEnv(t, nil)
	addr := strings.TrimPrefix(e.url, "http://")
	const want = `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: %s: the HTTP request could not be read (a malformed or oversized request head)."}}`
	for _, hdr := range []string{"Mcp-Name: vulnetix\x01vuln", "Mcp-Method: tools/list\x7f", "Authorization: Bearer a\x00b", "X-Evil: \x1b[31m", "X-Big: " + strings.Repeat("a", 100<<10)} {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		conn.SetDeadline(time.Now().Add(5 * time.Second))
		body := rpc(1, "tools/list", "")
		fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n%s\r\nContent-Length: %d\r\n\r\n%s", hdr, len(body), body)
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("%.40q: %v", hdr, err)
		}
		got, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		conn.Close()
		status := http.StatusBadRequest
		if strings.HasPrefix(hdr, "X-Big") {
			status = http.StatusRequestHeaderFieldsTooLarge
		}
		if resp.StatusCode != status || resp.Header.Get("Content-Type") != "application/json" || err != nil {
			t.Errorf("%.40q: status %d, Content-Type %q, %v; want %d, application/json", hdr, resp.StatusCode, resp.Header.Get("Content-Type"), err, status)
		}
		if w := fmt.Sprintf(want, http.StatusText(status)); string(got) != w {
			t.Errorf("%.40q: body\n got %s\nwant %s", hdr, got, w)
		}
	}
}

// TestRewriteRefusal: only net/http's own plain-text refusal is rewritten;
// a handler's response, whatever its status and type, passes untouched.
func TestRewriteRefusal(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want bool
	}{
		{"HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n400 Bad Request", true},
		{"HTTP/1.1 400 Bad Request: invalid header\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n400 Bad Request: invalid header", true},
		{"HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n431 Request Header Fields Too Large", true},
		{"HTTP/1.1 501 Not Implemented\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\nUnsupported transfer encoding", true},
		{"HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\nDate: Mon, 30 Nov 2026 08:00:00 GMT\r\n\r\nno", false},
		{"HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\nx", false},
		{"HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\nok", false},
		{"HTTP/1.1 4", false},
		{"", false},
		{`{"jsonrpc":"2.0"}`, false},
	} {
		out, ok := rewriteRefusal([]byte(tt.in))
		if ok != tt.want {
			t.Errorf("%q: rewritten %v, want %v", tt.in, ok, tt.want)
			continue
		}
		if ok {
			resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(out)), nil)
			if err != nil {
				t.Fatalf("%q: the rewrite is not an HTTP response: %v", tt.in, err)
			}
			b, _ := io.ReadAll(resp.Body)
			var msg struct {
				ID    json.RawMessage
				Error struct{ Code int }
			}
			if err := json.Unmarshal(b, &msg); err != nil || msg.Error.Code != -32600 || string(msg.ID) != "null" || resp.StatusCode < 400 {
				t.Errorf("%q: rewritten to %d %s (%v)", tt.in, resp.StatusCode, b, err)
			}
		}
	}
}

// TestBodyBounds: a body over the bound is refused with 413 whether or not
// it announces its length, and a header sent twice with different values is
// a mismatch.
func TestBodyBounds(t *testing.T) {
	e := newEnv(t, nil)
	big := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"pad":"` + strings.Repeat("a", 10<<20) + `"}}`)
	req, _ := http.NewRequest(http.MethodPost, e.url+"/mcp", io.MultiReader(big)) // no Content-Length: chunked
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Mcp-Method", "tools/list")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.ContentLength == 0 || resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(b), `"code":-32600`) {
		t.Errorf("chunked 10 MiB: %d %s", resp.StatusCode, b)
	}

	req, _ = http.NewRequest(http.MethodPost, e.url+"/mcp", strings.NewReader(rpc(1, "tools/list", "")))
	req.Header.Set("Content-Type", "application/json")
	req.Header["Mcp-Method"] = []string{"tools/list", "tools/call"}
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 400 || !strings.Contains(string(b), `"code":-32020`) {
		t.Errorf("two different Mcp-Method headers: %d %s", resp.StatusCode, b)
	}
}

// TestIDsEchoed: an answer carries the request's id exactly as sent, on the
// front and past it (the SDK decodes ids and writes them anew, so "\u0041"
// would come back as "A").
func TestIDsEchoed(t *testing.T) {
	e := newEnv(t, nil)
	for _, id := range []string{`7`, `-3`, `9007199254740992`, `"\u0041"`, `"a<b&c"`, `"\ud83d\ude00"`, `"x\/y"`} {
		x := e.post(t, rawCall(id, "tools/list", meta), nil)
		if want := `{"jsonrpc":"2.0","id":` + id + `,"result":`; x.Status != 200 || !strings.HasPrefix(x.RespBody, want) {
			t.Errorf("id %s: %d %.120s, want %s...", id, x.Status, x.RespBody, want)
		}
		// A refusal past the front carries it too.
		x = e.post(t, rawCall(id, "nope/nope", meta), nil)
		if want := `{"jsonrpc":"2.0","id":` + id + `,"error":`; x.Status != 404 || !strings.HasPrefix(x.RespBody, want) {
			t.Errorf("id %s: %d %.120s, want %s...", id, x.Status, x.RespBody, want)
		}
	}
}

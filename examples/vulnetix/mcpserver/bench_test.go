package mcpserver

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/mcperr/mcperr/wire"
)

var benchBody = []byte(rpc(7, "tools/call", `"name":"vulnetix_vuln","arguments":{"id":"CVE-2021-44228","raw":false}`))

func benchHeader() http.Header {
	h := http.Header{}
	h.Set("Mcp-Method", "tools/call")
	h.Set("Mcp-Name", "=?base64?dnVsbmV0aXhfdnVsbg==?=")
	return h
}

// BenchmarkAdmit is every body check of one tools/call: the message rule
// the front applies (JSON, JSON-RPC, depth, numbers, id), then _meta,
// Mcp-Method, Mcp-Name (base64), version, method.
func BenchmarkAdmit(b *testing.B) {
	h := benchHeader()
	b.ReportAllocs()
	for b.Loop() {
		m, err := wire.CheckMessage(benchBody)
		if err != nil {
			b.Fatal(err)
		}
		if _, r := admit(h, m); r != nil {
			b.Fatal(r.err.Message)
		}
	}
}

// BenchmarkUnmarshalAnchor is the anchor: a plain json.Unmarshal of the same
// body into a JSON-RPC request struct, which checks nothing.
func BenchmarkUnmarshalAnchor(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		var req struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Method  string          `json:"method"`
			Params  json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal(benchBody, &req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkToolsListHTTP is one tools/list through the whole server over
// loopback HTTP: front, guard, body checks, the SDK.
func BenchmarkToolsListHTTP(b *testing.B) {
	e := newEnv(b, func(c *Config) { c.EdgeLimit = 1 << 30 })
	body := rpc(1, "tools/list", "")
	b.ReportAllocs()
	for b.Loop() {
		x := e.post(b, body, nil)
		if x.Status != 200 {
			b.Fatal(x.Status)
		}
	}
}

package mcpserver

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcperr/mcperr/examples/internal/rpctest"
)

// TestDirectMatchesSDK: command news serves tools/call on stdio without the
// SDK's JSON-RPC decoding (RunStdio: gosdk.StdioTransport with Server set);
// every call of its golden
// transcript, the hint dialect's refusals, unknown tools, tool errors and
// successes, gets from it the answer the SDK gives, byte for byte.
func TestDirectMatchesSDK(t *testing.T) {
	s := mustNew(t, Config{})
	srv := s.MCP()
	direct := rpctest.CountDirect(srv)
	calls := [][2]string{
		{"search_storys", `{"query":"wind"}`},
		{"search_stories", `{"query":"wind","langauge":"en"}`},
		{"search_stories", `{"query":"wind","colour":"red"}`},
		{"search_stories", `{"query":"wind","signals":["sentimnt"]}`},
		{"search_stories", `{"query":"wind","limit":1000000}`},
		{"search_stories", `{"query":"wind","limit":"5"}`},
		{"search_stories", `{"query":"wind","from":"01/09/2026"}`},
		{"search_stories", `{"query":"wind","language":"english"}`},
		{"search_stories", "{\"query\":\"w\xff\xfeind\"}"},
		{"search_stories", `{"query":"wind","estimate":true,"limit":30,"signals":["entities"]}`},
		{"search_stories", `{"query":"wind","max_credits":1}`},
		{"search_stories", `{"query":"offshore wind","limit":2,"signals":["sentiment","entities"]}`},
		{"search_stories", `{"query":"offshore wind","limit":1,"from":"1999-12-31T23:59:59Z"}`},
		{"get_article", `{"id":"a-00042"}`},
		{"get_article", `{"id":"a-99999"}`},
		{"get_article", `{"id":"a-00001","limit":3}`},
		{"get_story", `{"id":"s-0007"}`},
		{"find_related", `{"id":"a-00042","limit":3}`},
		{"create_watch", `{"query":"wind"}`},
		{"get_watch", `{"id":"w-1"}`},
		{"delete_watch", `{"id":"w-1"}`},
		{"watch_events", `{"id":"w-1"}`},
	}
	var tail []string
	for i, c := range calls {
		tail = append(tail, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, i+2, c[0], c[1]))
	}
	lines, served := rpctest.Compare(t, srv, direct, rpctest.Initialize+"\n", rpctest.Initialized+"\n"+strings.Join(tail, "\n")+"\n")
	if served != int64(len(calls)) || len(lines) != len(calls)+1 {
		t.Errorf("%d calls served directly and %d lines, want %d and %d:\n%s", served, len(lines), len(calls), len(calls)+1, strings.Join(lines, "\n"))
	}
}

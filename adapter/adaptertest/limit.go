package adaptertest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/ratelimit"
)

// modernCall is a tools/call of the tool get_values (arguments
// {"limit":0}) on protocol revision 2026-07-28, with its _meta naming the
// revision, the client and its capabilities.
const modernCall = `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"get_values","arguments":{"limit":0},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`

// LimitCodeByRevision checks, in a subtest of t for each revision, that a
// message refused by an all-message limit answers 429 with -32000 on
// revision 2025-11-25 and with the application code -31000 on 2026-07-28
// (errkind.RPCCode.On), data carrying the rate_limited kind object on
// both. handler builds the adapter's HTTP handler with o (a limit of one
// message, counting Messages) over a server with a tool get_values.
func LimitCodeByRevision(t *testing.T, handler func(o adapter.HTTP) http.Handler) {
	for _, c := range []struct{ revision, code string }{{"2025-11-25", "-32000"}, {"2026-07-28", "-31000"}} {
		t.Run(c.revision, func(t *testing.T) {
			lim := ratelimit.NewLimiter(0.5, 1)
			stopped := time.Now()
			lim.Now = func() time.Time { return stopped }
			srv := httptest.NewServer(handler(adapter.HTTP{Limiter: lim, Count: adapter.Messages}))
			defer srv.Close()
			var status int
			var got string
			for range 2 {
				var err error
				if status, got, err = PostModern(srv.URL, c.revision); err != nil {
					t.Fatal(err)
				}
				got = strings.TrimSpace(got)
			}
			want := `{"jsonrpc":"2.0","id":5,"error":{"code":` + c.code + `,"message":"Rate limited: retry after 2 seconds.","data":{"kind":"rate_limited","retryAfterSeconds":2,"limit":1,"remaining":0,"resetSeconds":2}}}`
			if status != 429 || got != want {
				t.Errorf("got %d %s\nwant 429 %s", status, got, want)
			}
		})
	}
}

// PostModern posts a tools/call of the tool get_values (arguments
// {"limit":0}) to the endpoint /mcp of the server at url, written as a
// client of revision 2026-07-28 writes it (the revision, client and
// capabilities in its _meta; the headers Mcp-Method and Mcp-Name) but
// naming revision (in _meta and MCP-Protocol-Version), and returns the
// answer's status and body.
func PostModern(url, revision string) (int, string, error) {
	body := strings.Replace(modernCall, "2026-07-28", revision, 1)
	req, err := http.NewRequest("POST", url+"/mcp", strings.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	for k, v := range map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
		"MCP-Protocol-Version": revision, "Mcp-Method": "tools/call", "Mcp-Name": "get_values"} {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

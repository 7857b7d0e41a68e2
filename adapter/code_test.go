package adapter_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/front"
	"github.com/mcperr/mcperr/ratelimit"
)

// TestLimitCodeByRevision: a message refused by an all-message limit
// answers -32000 on revisions before 2026-07-28 and the application code
// -31000 from it on (errkind.RPCCode.On), whether the revision comes from
// the request's _meta or its MCP-Protocol-Version header; data carries the
// kind object either way.
func TestLimitCodeByRevision(t *testing.T) {
	const data = `"data":{"kind":"rate_limited","retryAfterSeconds":1000,"limit":1,"remaining":0,"resetSeconds":1000}}}`
	meta := func(v string) string {
		return `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"` + v + `"}}}`
	}
	ping := `{"jsonrpc":"2.0","id":3,"method":"ping"}`
	for _, c := range []struct {
		name, body, header, want string
	}{
		{"no revision said", ping, "", `{"jsonrpc":"2.0","id":3,"error":{"code":-32000,"message":"Rate limited: retry after 1000 seconds.",` + data},
		{"header 2025-06-18", ping, "2025-06-18", `{"jsonrpc":"2.0","id":3,"error":{"code":-32000,"message":"Rate limited: retry after 1000 seconds.",` + data},
		{"header 2025-11-25", ping, "2025-11-25", `{"jsonrpc":"2.0","id":3,"error":{"code":-32000,"message":"Rate limited: retry after 1000 seconds.",` + data},
		{"_meta 2026-07-28", meta("2026-07-28"), "2026-07-28", `{"jsonrpc":"2.0","id":3,"error":{"code":-31000,"message":"Rate limited: retry after 1000 seconds.",` + data},
		{"header 2026-07-28 alone", ping, "2026-07-28", `{"jsonrpc":"2.0","id":3,"error":{"code":-31000,"message":"Rate limited: retry after 1000 seconds.",` + data},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := adapter.Limit{Count: adapter.Messages, Limiter: ratelimit.NewLimiter(0.001, 1)}
			h := &front.Front{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if l.Admit(w, r, front.Checked(r)) {
					w.Header().Set("Content-Type", "application/json")
					io.WriteString(w, `{"jsonrpc":"2.0","id":3,"result":{}}`)
				}
			})}
			var got string
			for range 2 {
				req := httptest.NewRequest("POST", "http://localhost/mcp", strings.NewReader(c.body))
				req.Header.Set("Content-Type", "application/json")
				if c.header != "" {
					req.Header.Set("MCP-Protocol-Version", c.header)
				}
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				got = strings.TrimSpace(rec.Body.String())
			}
			if d := cmp.Diff(c.want, got); d != "" {
				t.Errorf("refusal (-want +got):\n%s", d)
			}
		})
	}
}

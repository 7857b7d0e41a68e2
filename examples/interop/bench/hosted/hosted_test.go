package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/adapter"
)

// kinds are the servers the hosted rows run, stateless.
var kinds = []string{"gosdk", "sdk", "mcpgo"}

// upstreamAPI serves TRACES_API for the tests: every id is a trace with
// three spans.
func upstreamAPI(t testing.TB) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"`+strings.TrimPrefix(r.URL.Path, "/v1/traces/")+`","spans":3}`)
	}))
	t.Cleanup(up.Close)
	old := api
	api = up.URL
	t.Cleanup(func() { api = old })
}

// serve starts the server of kind and returns its /mcp URL and a client.
func serve(t testing.TB, kind string) (string, *http.Client) {
	h, err := handler(kind, false, adapter.HTTP{Key: bearer, MaxSessions: -1})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp", &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
}

// call posts a tools/call with params and returns the answer.
func call(c *http.Client, url, params string) (string, error) {
	req, err := http.NewRequest("POST", url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":`+params+`}`))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	req.Header.Set("Authorization", "Bearer c")
	resp, err := c.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

// TestHosted checks that each server answers the three calls of the
// hosted rows as the load driver expects: get_trace with the upstream's
// trace, trace_link at once, missing arguments as an isError result.
func TestHosted(t *testing.T) {
	upstreamAPI(t)
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			url, c := serve(t, kind)
			var answers [3]string
			for i, params := range []string{
				`{"name":"get_trace","arguments":{"id":"abc"}}`,
				`{"name":"trace_link","arguments":{"id":"a b"}}`,
				`{"name":"get_trace","arguments":{}}`,
			} {
				var err error
				if answers[i], err = call(c, url, params); err != nil {
					t.Fatal(err)
				}
			}
			get, link, bad := answers[0], answers[1], answers[2]
			got := []bool{
				strings.Contains(get, `"structuredContent":{"id":"abc","spans":3}`),
				strings.Contains(link, `"structuredContent":{"id":"a b","url":"`+api+`/traces/a%20b"}`),
				strings.Contains(bad, `"isError":true`) && !strings.Contains(bad, `"structuredContent"`),
			}
			if diff := cmp.Diff([]bool{true, true, true}, got); diff != "" {
				t.Errorf("answers as expected (-want +got):\n%s\nget_trace: %s\ntrace_link: %s\nrejection: %s", diff, get, link, bad)
			}
		})
	}
}

// BenchmarkHosted is a tools/call over loopback HTTP through each
// stateless server, from clients in parallel: the hosted rows' path, for a
// CPU profile of it:
//
//	cd examples && go test ./interop/bench/hosted -run '^$' -bench 'Hosted/gosdk/trace_link' -cpuprofile cpu.out
func BenchmarkHosted(b *testing.B) {
	upstreamAPI(b)
	for _, kind := range kinds {
		for _, tool := range []string{"trace_link", "get_trace"} {
			b.Run(kind+"/"+tool, func(b *testing.B) {
				url, c := serve(b, kind)
				params := `{"name":"` + tool + `","arguments":{"id":"abc"}}`
				b.SetParallelism(8)
				b.ResetTimer()
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						if a, err := call(c, url, params); err != nil || !strings.Contains(a, `"structuredContent"`) {
							b.Errorf("answer %s, %v", a, err)
							return
						}
					}
				})
			})
		}
	}
}

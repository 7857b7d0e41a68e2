package telemetry_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/gosdk"
	"github.com/mcperr/mcperr/ratelimit"
	"github.com/mcperr/mcperr/telemetry"
)

// TestFailuresOutsideTheSDK: the front's and the limits' refusals, which
// no middleware sees, are counted by the Failures hook, and only those: a
// tool call's failure is the middleware's to record, once.
func TestFailuresOutsideTheSDK(t *testing.T) {
	r := newRig()
	var parents []string
	s := goSDKServer(r, fakeAPI(t, &parents).URL)
	h := gosdk.HTTPHandler(s, &gosdk.HTTPOptions{HTTP: adapter.HTTP{
		Limiter: ratelimit.NewLimiter(0.001, 2), OnFailure: telemetry.Failures(r.opts),
	}})
	srv := httptest.NewServer(h)
	defer srv.Close()
	post := func(ctype, body string) {
		req, _ := http.NewRequest("POST", srv.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", ctype)
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_trace","arguments":{"id":"zzz"}}}`
	post("text/plain", call)       // refused by the front: 415
	post("application/json", call) // not_found, in the SDK
	post("application/json", call) // not_found, in the SDK
	post("application/json", call) // refused by the limit
	want := map[string]int64{
		" invalid_arguments expected=true":     1, // the front's 415, before the message is read
		"get_trace not_found expected=true":    2,
		"get_trace rate_limited expected=true": 1,
	}
	got := r.failures(t)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("failure counter (-want +got):\n%s", diff)
	}
}

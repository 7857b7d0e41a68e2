package gosdk_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/adapter/adaptertest"
	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/gosdk"
	"github.com/mcperr/mcperr/ratelimit"
)

// seen is one failure as the tests compare it.
type seen struct {
	Stage  adapter.Stage
	Tool   string
	Kind   errkind.Kind
	Status int
	HasErr bool
}

// seenOf is what f heard, as the tests compare it.
func seenOf(f *adaptertest.Failures) []seen {
	var out []seen
	for _, fl := range f.Got() {
		out = append(out, seen{fl.Stage, fl.Tool, fl.Reading.Kind, fl.HTTPStatus, fl.Err != nil})
	}
	return out
}

// TestOnFailure: one hook hears every failed answer to a tools/call, read
// as the agent reads it: refused arguments, an unknown tool, a handler's
// failure (with its Go error, which errors.As opens), and nothing for a
// call that succeeded.
func TestOnFailure(t *testing.T) {
	var f adaptertest.Failures
	cs := session(t, testServer(&gosdk.Options{Validation: gosdk.Validation{OnFailure: f.Hook}}, nil, nil))
	ctx := context.Background()
	for _, p := range []*mcp.CallToolParams{
		{Name: "fail", Arguments: map[string]any{"what": "ok"}},
		{Name: "fail", Arguments: map[string]any{"what": 7}},
		{Name: "fial", Arguments: map[string]any{}},
		{Name: "fail", Arguments: map[string]any{"what": "envelope"}},
	} {
		if _, err := cs.CallTool(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	want := []seen{
		{Stage: adapter.Arguments, Tool: "fail", Kind: errkind.InvalidArguments},
		{Stage: adapter.UnknownToolCall, Tool: "fial", Kind: errkind.InvalidArguments},
		{Stage: adapter.Handler, Tool: "fail", Kind: errkind.NotFound, HasErr: true},
	}
	if diff := cmp.Diff(want, seenOf(&f)); diff != "" {
		t.Errorf("failures heard (-want +got):\n%s", diff)
	}
	var e *envelope.Error
	if got := f.Got(); len(got) == 0 {
		t.Error("the hook heard nothing")
	} else if last := got[len(got)-1]; !errors.As(last.Err, &e) || e.Code != "thing_not_found" {
		t.Errorf("the handler's failure carries Err %v, want the *envelope.Error it returned", last.Err)
	}
}

// TestOnFailureHTTP: the same hook on HTTPOptions hears the front's
// refusals (with their HTTP status) and the limits', which never reach the
// SDK.
func TestOnFailureHTTP(t *testing.T) {
	var f adaptertest.Failures
	s := testServer(&gosdk.Options{Validation: gosdk.Validation{OnFailure: f.Hook}}, nil, nil)
	lim := ratelimit.NewLimiter(0.001, 1)
	h := gosdk.HTTPHandler(s, &gosdk.HTTPOptions{HTTP: adapter.HTTP{Limiter: lim, Count: adapter.Messages, OnFailure: f.Hook}})
	srv := httptest.NewServer(h)
	defer srv.Close()
	post := func(ctype, body string) int {
		req, _ := http.NewRequest("POST", srv.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", ctype)
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	post("text/plain", `{}`)                                                               // the front: 415
	post("application/json", `{"jsonrpc":"2.0","id":1,"method":"ping"}`)                   // takes the one token
	post("application/json", `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}`) // the limit: 429
	want := []seen{
		{Stage: adapter.Protocol, Kind: errkind.InvalidArguments, Status: http.StatusUnsupportedMediaType},
		{Stage: adapter.Limited, Kind: errkind.RateLimited, Status: http.StatusTooManyRequests},
	}
	if diff := cmp.Diff(want, seenOf(&f)); diff != "" {
		t.Errorf("failures heard (-want +got):\n%s", diff)
	}
}

package mcperr_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/retry"
	"github.com/mcperr/mcperr/wire"
)

// upstream reads bodies by shape (never by status alone) and retries a short 429 once.
var upstream = &envelope.Reader{Client: &http.Client{Transport: &retry.Transport{}}}

// getTrace is a tool handler written without an SDK adapter: it calls an
// upstream API and returns its answer, or a kind-tagged error, as a plain
// wire.ToolResult. (The README's quick start, on the go-sdk adapter, is the
// Example of package gosdk.)
func getTrace(ctx context.Context, base, token, id string) *wire.ToolResult {
	req, err := http.NewRequestWithContext(ctx, "GET", base+"/v1/traces/"+id, nil)
	if err != nil {
		return wire.ErrorResult(err)
	}
	req.Header.Set("Authorization", "Bearer "+token) // never appears in an error
	var trace json.RawMessage
	if err := upstream.Do(req, &trace); err != nil {
		return wire.ErrorResult(err)
	}
	res, err := wire.Success(trace) // structuredContent and one text block, encoded once
	if err != nil {
		return wire.ErrorResult(err)
	}
	return res
}

// Example wraps an upstream call in a tool handler: the upstream's 404 error
// envelope becomes a not_found kind object, and a trace it knows comes back as
// structured content and one text block holding the same JSON.
func Example() {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path != "/v1/traces/0f1a2b3c4d5e6f708192a3b4c5d6e7f8" {
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `{"error":{"code":"trace_not_found","message":"no trace with id deadbeefdeadbeefdeadbeefdeadbeef","details":{"trace_id":"deadbeefdeadbeefdeadbeefdeadbeef"}}}`)
			return
		}
		fmt.Fprint(w, `{"trace_id":"0f1a2b3c4d5e6f708192a3b4c5d6e7f8","steps":[]}`)
	}))
	defer api.Close()

	for _, id := range []string{"deadbeefdeadbeefdeadbeefdeadbeef", "0f1a2b3c4d5e6f708192a3b4c5d6e7f8"} {
		out, _ := json.Marshal(getTrace(context.Background(), api.URL, "s3cr3t", id))
		fmt.Println(string(out))
	}
	// Output:
	// {"content":[{"type":"text","text":"{\"kind\":\"not_found\",\"code\":\"trace_not_found\",\"message\":\"no trace with id deadbeefdeadbeefdeadbeefdeadbeef\",\"details\":{\"trace_id\":\"deadbeefdeadbeefdeadbeefdeadbeef\"}}"}],"isError":true}
	// {"content":[{"type":"text","text":"{\"trace_id\":\"0f1a2b3c4d5e6f708192a3b4c5d6e7f8\",\"steps\":[]}"}],"structuredContent":{"trace_id":"0f1a2b3c4d5e6f708192a3b4c5d6e7f8","steps":[]}}
}

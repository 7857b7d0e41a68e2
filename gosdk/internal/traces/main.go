// Command traces is the server of the gosdk package doc, written as the doc
// writes it and served over stdio as the doc says, with
// gosdk.StdioTransport. Its upstream is TRACES_API (https://vexlo.example
// when unset). The tests of package gosdk build it and drive it over pipes,
// and the load driver (examples/interop/load) measures it against the same
// server on the TypeScript SDK (examples/interop/bench/traces.mjs).
//
// Built with -ldflags '-X main.transport=sdk', it serves over the go-sdk's
// own mcp.StdioTransport instead, for comparison; with '-X
// main.transport=zero', over a zero gosdk.StdioTransport (Server unset).
// Its second tool, get_trace_local, is get_trace without the upstream GET.
package main

import (
	"context"
	"log"
	"net/http"
	"net/url"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/envelope" // mcperr
	"github.com/mcperr/mcperr/gosdk"    // mcperr
	"github.com/mcperr/mcperr/retry"    // mcperr
)

type TraceIn struct {
	ID string `json:"id" jsonschema:"the trace id"`
}

type Trace struct {
	ID    string `json:"id"`
	Spans int    `json:"spans"`
}

var upstream = &envelope.Reader{Client: &http.Client{Transport: &retry.Transport{}}} // mcperr

var api = "https://vexlo.example"

func getTrace(ctx context.Context, _ *mcp.CallToolRequest, in TraceIn) (t Trace, err error) {
	req, err := http.NewRequestWithContext(ctx, "GET", api+"/v1/traces/"+url.PathEscape(in.ID), nil)
	if err != nil {
		return t, err
	}
	return t, upstream.Do(req, &t) // mcperr
}

// localTrace is get_trace without its upstream: a valid call whose handler
// returns at once, the row where the SDK's own work on a call shows.
func localTrace(_ context.Context, _ *mcp.CallToolRequest, in TraceIn) (Trace, error) {
	return Trace{ID: in.ID, Spans: 3}, nil
}

// transport is "sdk" to serve over mcp.StdioTransport, "zero" over a zero
// gosdk.StdioTransport (Server unset).
var transport = "gosdk"

func main() {
	if u := os.Getenv("TRACES_API"); u != "" {
		api = u
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "traces", Version: "1.0.0"}, nil)
	gosdk.AddTool(s, &mcp.Tool{Name: "get_trace"}, getTrace) // mcperr
	gosdk.AddTool(s, &mcp.Tool{Name: "get_trace_local"}, localTrace)
	s.AddReceivingMiddleware(gosdk.Validate(nil))          // mcperr
	var t mcp.Transport = &gosdk.StdioTransport{Server: s} // mcperr
	switch transport {
	case "sdk":
		t = &mcp.StdioTransport{}
	case "zero":
		t = &gosdk.StdioTransport{}
	}
	if err := s.Run(context.Background(), t); err != nil {
		log.Fatal(err)
	}
}

// Command traces is the server of the mcpgo package doc, written as the doc
// writes it (mcpgo.Handle, mcpgo.Validate) and served over stdio as the doc
// says, with mcpgo.ServeStdio: the mcp-go twin of gosdk/internal/traces,
// with the tools of the TypeScript server examples/interop/bench/traces.mjs:
// the doc's get_trace, whose upstream is TRACES_API (https://vexlo.example
// when unset), and trace_link, which answers at once with where the trace
// is, without an upstream call (the tool the hosted bench server has too):
// the cost of a valid call itself. The load driver (examples/interop/load)
// measures it against the TypeScript server.
package main

import (
	"context"
	"log"
	"net/http"
	"net/url"
	"os"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcperr/mcperr/envelope" // mcperr
	"github.com/mcperr/mcperr/mcpgo"    // mcperr
)

type TraceIn struct {
	ID string `json:"id" jsonschema_description:"the trace id"`
}

type Trace struct {
	ID    string `json:"id"`
	Spans int    `json:"spans"`
}

var upstream = &envelope.Reader{} // mcperr: error or data by the body's shape

var api = "https://vexlo.example"

func getTrace(ctx context.Context, _ mcp.CallToolRequest, in TraceIn) (t Trace, err error) {
	req, err := http.NewRequestWithContext(ctx, "GET", api+"/v1/traces/"+url.PathEscape(in.ID), nil)
	if err != nil {
		return t, err
	}
	return t, upstream.Do(req, &t) // mcperr
}

// Link is trace_link's answer: where the trace is, computed, not fetched.
type Link struct {
	ID  string `json:"id"`
	URL string `json:"url"`
}

func traceLink(_ context.Context, _ mcp.CallToolRequest, in TraceIn) (Link, error) {
	return Link{ID: in.ID, URL: api + "/traces/" + url.PathEscape(in.ID)}, nil
}

func main() {
	if u := os.Getenv("TRACES_API"); u != "" {
		api = u
	}
	s := server.NewMCPServer("traces", "1.0.0")
	s.AddTool(mcp.NewTool("get_trace", mcp.WithDescription("Get a trace"), mcp.WithInputSchema[TraceIn]()), mcpgo.Handle(getTrace)) // mcperr
	s.AddTool(mcp.NewTool("trace_link", mcp.WithInputSchema[TraceIn]()), mcpgo.Handle(traceLink))                                   // mcperr
	v := mcpgo.Validate(s, nil)                                                                                                     // mcperr
	if err := mcpgo.ServeStdio(context.Background(), s, &mcpgo.StdioOptions{Validator: v}); err != nil {                            // mcperr
		log.Fatal(err)
	}
}

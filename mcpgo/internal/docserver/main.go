// Command docserver is an MCP server written as the mcpgo package doc says
// (typed tools, mcpgo.Handle, mcpgo.Validate, mcpgo.ServeStdio), with two of
// the Vexlo example's tools against VEXLO_URL: what the stdio tests build
// and drive over pipes, and the mcp-go row of the load driver
// (examples/interop/load) against the TypeScript twin of the same tools.
//
// -hint answers refusals in the hint dialect; -sdk serves over mcp-go's own
// server.ServeStdio instead, for comparison.
package main

import (
	"context"
	"flag"
	"log"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/mcpgo"
)

type GetTraceIn struct {
	TraceID string `json:"traceId" jsonschema_description:"A trace id: 32 lowercase hex characters."`
}

type SearchIn struct {
	Service string `json:"service,omitempty"`
	Status  string `json:"status,omitempty"`
	Limit   int    `json:"limit,omitempty"`
}

type Step struct {
	Path       string `json:"path"`
	Parent     string `json:"parent,omitempty"`
	Name       string `json:"name"`
	Function   string `json:"function"`
	DurationMS int    `json:"duration_ms"`
	Status     string `json:"status"`
}

type Trace struct {
	TraceID     string   `json:"trace_id"`
	Service     string   `json:"service"`
	Function    string   `json:"function"`
	Environment string   `json:"environment,omitempty"`
	Status      string   `json:"status"`
	Tags        []string `json:"tags"`
	StartedAt   string   `json:"started_at"`
	DurationMS  int      `json:"duration_ms"`
	Steps       []Step   `json:"steps,omitempty"`
}

type Traces struct {
	NextCursor string  `json:"next_cursor,omitempty"`
	ScopeNote  string  `json:"scope_note,omitempty"`
	Traces     []Trace `json:"traces"`
}

var (
	base     = strings.TrimRight(os.Getenv("VEXLO_URL"), "/")
	upstream = &envelope.Reader{} // mcperr: error or data by the body's shape
)

func getTrace(ctx context.Context, _ mcp.CallToolRequest, in GetTraceIn) (t Trace, err error) {
	req, err := http.NewRequestWithContext(ctx, "GET", base+"/v1/traces/"+url.PathEscape(in.TraceID), nil)
	if err != nil {
		return t, err
	}
	return t, upstream.Do(req, &t) // mcperr
}

func searchTraces(ctx context.Context, _ mcp.CallToolRequest, in SearchIn) (t Traces, err error) {
	q := url.Values{}
	if in.Service != "" {
		q.Set("service", in.Service)
	}
	if in.Status != "" {
		q.Set("status", in.Status)
	}
	if in.Limit != 0 {
		q.Set("limit", strconv.Itoa(in.Limit))
	}
	req, err := http.NewRequestWithContext(ctx, "GET", base+"/v1/traces?"+q.Encode(), nil)
	if err != nil {
		return t, err
	}
	return t, upstream.Do(req, &t) // mcperr
}

func main() {
	hint := flag.Bool("hint", false, "answer refusals in the hint dialect")
	sdk := flag.Bool("sdk", false, "serve over mcp-go's server.ServeStdio")
	flag.Parse()

	s := server.NewMCPServer("vexlo-doc", "1.0.0")
	s.AddTool(mcp.NewTool("vexlo_get_trace", mcp.WithDescription("Get one trace with its steps."), mcp.WithInputSchema[GetTraceIn]()), mcpgo.Handle(getTrace)) // mcperr
	s.AddTool(mcp.NewTool("vexlo_search_traces", mcp.WithDescription("Search recorded traces, newest first."),
		mcp.WithString("service"), mcp.WithString("status", mcp.Enum("ok", "error")),
		mcp.WithNumber("limit", mcp.Description("At most this many traces (default 20)."), mcp.Min(1), mcp.Max(100))),
		mcpgo.Handle(searchTraces)) // mcperr
	opts := &mcpgo.Options{}
	if *hint {
		opts.Dialect = mcpgo.Hint
	}
	v := mcpgo.Validate(s, opts) // mcperr
	var err error
	if *sdk {
		err = server.ServeStdio(s)
	} else {
		err = mcpgo.ServeStdio(context.Background(), s, &mcpgo.StdioOptions{Validator: v}) // mcperr
	}
	if err != nil {
		log.Fatal(err)
	}
}

package mcpgo_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcperr/mcperr/mcpgo"
	"github.com/mcperr/mcperr/schemaerr"
)

// perRequestServer is a 20-tool server of the size real servers publish, its
// tools written with mcp-go's option DSL (a dozen properties with types,
// enums, patterns and bounds each), built anew.
func perRequestServer() *server.MCPServer {
	ok := func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("[]"), nil
	}
	s := server.NewMCPServer("per-request", "1")
	for i := range 20 {
		s.AddTool(mcp.NewTool(fmt.Sprintf("tool_%d", i),
			mcp.WithString("owner", mcp.Required(), mcp.MinLength(1), mcp.MaxLength(39), mcp.Pattern("^[A-Za-z0-9-]+$")),
			mcp.WithString("repo", mcp.Required(), mcp.MinLength(1), mcp.MaxLength(100)),
			mcp.WithString("state", mcp.Enum("open", "closed", "all")),
			mcp.WithArray("labels", mcp.WithStringItems(), mcp.MaxItems(20)),
			mcp.WithString("sort", mcp.Enum("created", "updated", "comments")),
			mcp.WithString("direction", mcp.Enum("asc", "desc")),
			mcp.WithString("since"),
			mcp.WithNumber("page", mcp.Min(1)),
			mcp.WithNumber("perPage", mcp.Min(1), mcp.Max(100)),
			mcp.WithBoolean(fmt.Sprintf("tool%d", i)),
		), ok)
	}
	return s
}

// BenchmarkPerRequestHTTP is a server built for every HTTP request, served
// with HTTPHandler (mcp-go's Streamable HTTP server takes one server, so a
// server per request is a handler per request): "bare" without Validate,
// "validate" with Validate and one schemaerr.Cache shared by every server's
// Options, as Options.Cache says. They alternate in blocks of 100 requests
// over loopback HTTP (measure); the ratio is validate's CPU per request
// against bare's. The goal (issue 33): at most 1.10. In BENCHMARKS.md:
//
//	go test -run '^$' -bench PerRequestHTTP -benchtime 3000x -count 5 ./mcpgo
func BenchmarkPerRequestHTTP(b *testing.B) {
	cache := &schemaerr.Cache{}
	const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"tool_7","arguments":{"owner":"mcperr","repo":"mcperr","state":"open","perPage":30}}}`
	measure(b, []roundTrip{
		post(b, "bare", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mcpgo.HTTPHandler(perRequestServer(), nil).ServeHTTP(w, r)
		}), body, `"text":"[]"`),
		post(b, "validate", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			s := perRequestServer()
			v := mcpgo.Validate(s, &mcpgo.Options{Validation: mcpgo.Validation{Cache: cache}})
			mcpgo.HTTPHandler(s, &mcpgo.HTTPOptions{Validator: v}).ServeHTTP(w, r)
		}), body, `"text":"[]"`),
	})
}

// Package mcpgo puts mcperr into a server built on
// github.com/mark3labs/mcp-go, in the SDK's own idiom:
//
//   - [Validate] installs a tool handler middleware (MCPServer.Use) that
//     checks every tools/call's arguments against the called tool's input
//     schema with schemaerr, typed tools included, and words the refusal in
//     the MCP TypeScript SDK's text ([TypeScript], the default;
//     [TypeScriptV2] for its 2.x wording) or as a JSON-RPC -32602 error with
//     data.code ([Hint]);
//   - [Handle] and [Raw] turn a handler that returns a value or an error into
//     a tool result: the value as structuredContent and text, the error as
//     the JSON kind object, with the Go error kept for [Options].OnError and
//     for middleware ([ToolError]) (an error that is a [Renderer] keeps a
//     shape of the server's own instead);
//   - [HTTPHandler] serves the server over mcp-go's Streamable HTTP server
//     behind a front that answers every transport refusal with a JSON-RPC
//     body, answers the refusals mcp-go would word itself, and limits each
//     client by tool calls or by messages;
//   - [ServeStdio] serves it over stdio, in place of mcp-go's
//     server.ServeStdio: the same refusals answered in the chosen dialect,
//     every line checked before mcp-go reads it, every refused line answered
//     and the session kept;
//   - [Outcome] hands a client's (result, error) of a tool call to
//     errkind.Read, which gives the kind and the agent's move.
//
// A complete server that wraps an HTTP API, in 39 lines; the 7 marked
// // mcperr are all the glue it needs:
//
//	package main
//
//	import (
//		"context"
//		"log"
//		"net/http"
//		"net/url"
//
//		"github.com/mark3labs/mcp-go/mcp"
//		"github.com/mark3labs/mcp-go/server"
//		"github.com/mcperr/mcperr/envelope" // mcperr
//		"github.com/mcperr/mcperr/mcpgo"    // mcperr
//	)
//
//	type TraceIn struct {
//		ID string `json:"id" jsonschema_description:"the trace id"`
//	}
//
//	type Trace struct {
//		ID    string `json:"id"`
//		Spans int    `json:"spans"`
//	}
//
//	var upstream = &envelope.Reader{} // mcperr: error or data by the body's shape
//
//	func getTrace(ctx context.Context, _ mcp.CallToolRequest, in TraceIn) (t Trace, err error) {
//		req, err := http.NewRequestWithContext(ctx, "GET", "https://api.example/v1/traces/"+url.PathEscape(in.ID), nil)
//		if err != nil {
//			return t, err
//		}
//		return t, upstream.Do(req, &t) // mcperr
//	}
//
//	func main() {
//		s := server.NewMCPServer("traces", "1.0.0")
//		s.AddTool(mcp.NewTool("get_trace", mcp.WithDescription("Get a trace"), mcp.WithInputSchema[TraceIn]()), mcpgo.Handle(getTrace)) // mcperr
//		v := mcpgo.Validate(s, nil)                                                                                                     // mcperr
//		log.Fatal(http.ListenAndServe("127.0.0.1:8080", mcpgo.HTTPHandler(s, &mcpgo.HTTPOptions{Validator: v})))                        // mcperr
//	}
//
// (The example_test.go of this package runs this server against a fake
// upstream.) Over stdio, for a local server, main ends with
//
//	if err := mcpgo.ServeStdio(context.Background(), s, &mcpgo.StdioOptions{Validator: v}); err != nil { // mcperr
//		log.Fatal(err)
//	}
//
// (ServeStdio returns nil when the client closes the input.)
//
// # What it costs over stdio
//
// A server written as above, with two of the Vexlo example's tools and
// served with ServeStdio (mcpgo/internal/docserver), is measured against a
// server on the MCP TypeScript SDK and zod with the same tools in
// BENCHMARKS.md ("mcpgo over stdio"), which has the rows and the command
// (go run ./examples/interop/load -rows '^mcpgo'). Most of a successful call's CPU
// is the HTTP client's: a zero envelope.Reader uses http.DefaultClient,
// which keeps 2 idle connections to a host; a Client whose Transport keeps
// as many as the calls in flight makes a busy server cheaper.
//
// # What mcp-go decides before any middleware
//
// mcp-go v1.2.1 answers a tools/call naming a tool it does not have with its
// own JSON-RPC -32602 ("tool 'x' not found: tool not found") before any tool
// middleware runs, and sends every error a tool handler or middleware
// returns as -32603, keeping no data. So the TypeScript dialect's
// unknown-tool result and every hint-dialect -32602 with data.code need the
// message before mcp-go reads it. [HTTPHandler] and [ServeStdio] do that
// when their Validator is set, and [Validator.HandleMessage] does it for a
// transport of your own. mcp-go's own server.ServeStdio calls the server's
// HandleMessage itself, so over it an unknown tool keeps mcp-go's answer
// ("tool 'x' not found: tool not found"), and a hint-dialect refusal
// arrives as an isError tool result whose text is the JSON-RPC error object
// {"code":-32602,"message":...,"data":{"code":...}} (TypeScript-dialect
// refusals of arguments are exact on every transport).
//
// mcp-go's own server.WithInputSchemaValidation runs before tool middleware
// with its own wording: leave it off. mcp-go's results carry no Go error
// (the go-sdk's CallToolResult.SetError has no twin), so Handle and Raw
// record the handler's error in the call's context, where OnError and
// middleware added after Validate read it with [ToolError].
//
// # Install
//
//	go get github.com/mcperr/mcperr/mcpgo
package mcpgo

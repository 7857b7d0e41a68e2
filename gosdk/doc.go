// Package gosdk puts mcperr into a server built on the official MCP Go SDK
// (github.com/modelcontextprotocol/go-sdk), in the SDK's own idiom:
//
//   - [Validate] is a receiving middleware that checks every tools/call's
//     arguments against the called tool's InputSchema with schemaerr, typed
//     tools included, before the SDK's own validation runs, and words the
//     refusal in the MCP TypeScript SDK's text ([TypeScript], the default;
//     [TypeScriptV2] for its 2.x wording) or as a JSON-RPC -32602 error with
//     data.code ([Hint]);
//   - [AddTool] adds a typed tool whose arguments are validated once (by
//     Validate, or by AddTool itself when Validate did not see the call)
//     and decoded once, where mcp.AddTool validates and decodes them again;
//     it, [Handle] (for mcp.AddTool) and [Raw] (for Server.AddTool) turn a
//     handler that returns a value or an error into a tool result: the value as
//     structuredContent and text, the error as the JSON kind object, with the
//     Go error kept for the SDK's middleware (CallToolResult.GetError) and
//     for [Options].OnError (an error that is a [Renderer] keeps a shape of
//     the server's own instead, such as prose with _meta);
//   - [HTTPHandler] serves the server over the SDK's Streamable HTTP handler
//     behind a front that answers every transport refusal with a JSON-RPC
//     body, and limits each client by tool calls or by messages;
//   - [StdioTransport] serves it over stdio: every line a client sends is
//     answered and none ends the session, ids come back as sent, and the
//     answers in flight are written before the end of the input ends the
//     session. With its Server field set, it answers tools/call without the
//     SDK's JSON-RPC layer (see "Over stdio");
//   - [Outcome] hands a client's (result, error) of a tool call to
//     errkind.Read, which gives the kind and the agent's move.
//
// A complete server that wraps an HTTP API, in 39 lines; the 8 marked
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
//		"github.com/mcperr/mcperr/envelope" // mcperr
//		"github.com/mcperr/mcperr/gosdk"    // mcperr
//		"github.com/mcperr/mcperr/retry"    // mcperr
//		"github.com/modelcontextprotocol/go-sdk/mcp"
//	)
//
//	type TraceIn struct {
//		ID string `json:"id" jsonschema:"the trace id"`
//	}
//
//	type Trace struct {
//		ID    string `json:"id"`
//		Spans int    `json:"spans"`
//	}
//
//	var upstream = &envelope.Reader{Client: &http.Client{Transport: &retry.Transport{}}} // mcperr
//
//	func getTrace(ctx context.Context, _ *mcp.CallToolRequest, in TraceIn) (t Trace, err error) {
//		req, err := http.NewRequestWithContext(ctx, "GET", "https://vexlo.example/v1/traces/"+url.PathEscape(in.ID), nil)
//		if err != nil {
//			return t, err
//		}
//		return t, upstream.Do(req, &t) // mcperr
//	}
//
//	func main() {
//		s := mcp.NewServer(&mcp.Implementation{Name: "traces", Version: "1.0.0"}, nil)
//		gosdk.AddTool(s, &mcp.Tool{Name: "get_trace"}, getTrace)           // mcperr
//		s.AddReceivingMiddleware(gosdk.Validate(nil))                      // mcperr
//		log.Fatal(http.ListenAndServe(":8080", gosdk.HTTPHandler(s, nil))) // mcperr
//	}
//
// A call with bad arguments then gets the TypeScript SDK's text,
//
//	MCP error -32602: Input validation error: Invalid arguments for tool get_trace: Invalid input: expected string, received undefined at id
//
// and an upstream 404 the kind object an agent branches on:
//
//	{"kind":"not_found","code":"trace_not_found","message":"no trace abc"}
//
// (The example_test.go of this package runs this server against a fake
// upstream.) Over stdio, main's last line is instead
//
//	if err := s.Run(context.Background(), &gosdk.StdioTransport{Server: s}); err != nil { // mcperr
//		log.Fatal(err)
//	}
//
// (internal/traces is that server; its tests build it and drive it over
// pipes).
//
// # Where each check runs
//
// The SDK's typed tools (mcp.AddTool) validate their arguments inside the
// tool's handler, with the SDK's own wording; Validate runs before the
// handler, so the SDK's check only ever sees arguments schemaerr accepted.
// A tool of AddTool is not checked again after Validate (the differences
// from mcp.AddTool's answers are in AddTool's doc), and checks a call
// Validate did not see itself, with schemaerr in the TypeScript SDK's words.
// The SDK answers an unknown tool with a JSON-RPC error; Validate answers
// first, as the dialect says. A typed handler's error becomes a result with
// the error's text and no structuredContent (a result returned beside a nil
// error would carry the zero Out as structuredContent), so Handle returns an
// error whose text is the kind object.
//
// Over HTTP, the SDK answers 405 and 415 in plain text and a 429 of a limit
// wrapped around it reaches a go-sdk client as "rejected by transport"
// without the wait; HTTPHandler answers those before the SDK sees the
// request, and by default refuses an over-limit tool call with a
// rate_limited tool result that carries the wait.
//
// # Over stdio
//
// The go-sdk's own mcp.StdioTransport ends the session on the first line
// its decoder refuses (a line that is not JSON, one nested 1,001 deep, an id
// of 1e400), answers an id of 1.5 as 1, writes <, > and & as \u003c, \u003e
// and \u0026 (an id of "<&>" comes back changed), and drops the answers in
// flight when the input ends. [StdioTransport] answers each of those lines
// with a JSON-RPC error and carries on; its zero value serves os.Stdin and
// os.Stdout.
//
// With Server set to the server it runs, it also answers tools/call itself:
// the request is parsed once, run through the server's receiving middleware
// (whatever order they were added in, before or after the transport was
// made) and the tool's handler, and the result encoded once, where the SDK
// decodes a call three times, each time with a fresh 32 KiB buffer, and
// encodes its result three times (and a tool of mcp.AddTool decodes and
// validates the arguments twice more; a tool of AddTool, once). The answers
// are the SDK's byte for byte (the tests compare both paths on every shape
// of answer, cancellations included). With Server unset, the transport
// cannot learn the server Run is called on and serves every call on the
// SDK's path: write &gosdk.StdioTransport{Server: s}, as above. What still takes the SDK's path: a call sent before
// initialize, and one whose params carry _meta (a progress token, say) or
// members other than name and arguments; every other method. A handler's
// context on the direct path lacks the SDK's unexported request-id value,
// which only its Streamable HTTP transport reads; the session
// (req.Session) is the SDK's, so logging, progress and requests to the
// client work as on the SDK's path. The direct path is built on go-sdk
// v1.8.0's exported API and tested against it; on a go-sdk whose
// AddReceivingMiddleware no longer composes the chain when called, every
// call takes the SDK's path.
//
// What the server above costs over stdio, against the same server on the
// TypeScript SDK and over mcp.StdioTransport, is measured in BENCHMARKS.md
// (its summary's gosdk.StdioTransport row, and "Over stdio"), with the
// commands that take the figures again.
//
// # Install
//
//	go get github.com/mcperr/mcperr/gosdk
package gosdk

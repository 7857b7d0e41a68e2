package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"sync"
	"time"

	mgmcp "github.com/mark3labs/mcp-go/mcp"
	mgserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The servers without mcperr the tests audit, written as their SDKs'
// documentation shows: nothing added for failures. The test binary runs one
// over stdio when MCPERR_AUDIT_SERVER names it (see TestMain).

// orderSchema is a schema with every keyword the probes use.
const orderSchema = `{"type":"object","properties":{
	"sku":{"type":"string","minLength":3,"maxLength":12},
	"quantity":{"type":"integer","minimum":1,"maximum":100},
	"speed":{"type":"string","enum":["standard","express"]},
	"tags":{"type":"array","items":{"type":"string"},"maxItems":3},
	"address":{"type":"object","properties":{"city":{"type":"string"},"zip":{"type":"string"}},"required":["city"],"additionalProperties":false}
},"required":["sku","quantity"],"additionalProperties":false}`

type lookupIn struct {
	ID    string `json:"id" jsonschema:"the record id"`
	Limit int    `json:"limit,omitempty" jsonschema:"how many"`
}

// goSDKServer is a go-sdk server without mcperr: a typed tool (the SDK
// validates its arguments), a typed tool with a schema of its own, and a raw
// tool that validates nothing.
func goSDKServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "plain-gosdk", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "lookup", Description: "Look a record up"},
		func(ctx context.Context, _ *mcp.CallToolRequest, in lookupIn) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "record " + in.ID}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "order", Description: "Place an order", InputSchema: json.RawMessage(orderSchema)},
		func(ctx context.Context, _ *mcp.CallToolRequest, in map[string]any) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ordered"}}}, nil, nil
		})
	s.AddTool(&mcp.Tool{Name: "echo", Description: "Echo", InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(req.Params.Arguments)}}}, nil
		})
	return s
}

// mcpGoServer is an mcp-go server without mcperr, its tools declared with
// mcp-go's options and their handlers reading the arguments as its README
// shows.
func mcpGoServer() *mgserver.MCPServer {
	s := mgserver.NewMCPServer("plain-mcpgo", "1.0.0", mgserver.WithToolCapabilities(false))
	s.AddTool(mgmcp.NewTool("lookup",
		mgmcp.WithDescription("Look a record up"),
		mgmcp.WithString("id", mgmcp.Required(), mgmcp.Description("the record id")),
		mgmcp.WithNumber("limit", mgmcp.Min(1), mgmcp.Max(50)),
	), func(ctx context.Context, req mgmcp.CallToolRequest) (*mgmcp.CallToolResult, error) {
		id, err := req.RequireString("id")
		if err != nil {
			return mgmcp.NewToolResultError(err.Error()), nil
		}
		return mgmcp.NewToolResultText("record " + id), nil
	})
	s.AddTool(mgmcp.NewTool("order",
		mgmcp.WithString("sku", mgmcp.Required(), mgmcp.MinLength(3), mgmcp.MaxLength(12)),
		mgmcp.WithString("speed", mgmcp.Enum("standard", "express")),
	), func(ctx context.Context, req mgmcp.CallToolRequest) (*mgmcp.CallToolResult, error) {
		return mgmcp.NewToolResultText(fmt.Sprint(req.GetArguments())), nil
	})
	return s
}

// limitedServer answers every second call with a rate_limited kind object
// and a wait of one second, and validates its arguments as mcperr does.
func limitedServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "limited", Version: "1.0.0"}, nil)
	var mu sync.Mutex
	calls := 0
	s.AddTool(&mcp.Tool{Name: "get", InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			mu.Lock()
			calls++
			limited := calls%2 == 1
			mu.Unlock()
			if limited {
				return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: `{"kind":"rate_limited","retryAfterSeconds":1}`}}}, nil
			}
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "MCP error -32602: Input validation error: Invalid arguments for tool get: Invalid input: expected string, received undefined at id"}}}, nil
		})
	return s
}

// serveTestServer runs the named server over stdio, for TestMain, or over
// Streamable HTTP on MCPERR_AUDIT_ADDR when that is set (for the README's
// table).
func serveTestServer(name string) {
	var err error
	addr := os.Getenv("MCPERR_AUDIT_ADDR")
	switch {
	case addr != "" && name == "gosdk":
		err = http.ListenAndServe(addr, goSDKHandler())
	case addr != "" && name == "mcpgo":
		err = http.ListenAndServe(addr, mcpGoHandler())
	case addr != "":
		err = fmt.Errorf("no HTTP test server %q", name)
	case name == "gosdk":
		err = goSDKServer().Run(context.Background(), &mcp.StdioTransport{})
	case name == "mcpgo":
		err = mgserver.ServeStdio(mcpGoServer())
	case name == "limited":
		err = limitedServer().Run(context.Background(), &mcp.StdioTransport{})
	case name == "forker":
		err = forkerServer()
	case name == "sleeper":
		time.Sleep(40 * time.Second)
	case name == "cursorloop":
		err = cursorLoopServer(os.Stdin, os.Stdout, false)
	case name == "oldshape":
		err = cursorLoopServer(os.Stdin, os.Stdout, true)
	case name == "fetcher":
		err = fetcherServer().Run(context.Background(), &mcp.StdioTransport{})
	default:
		err = fmt.Errorf("no test server %q", name)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// goSDKHandler serves the go-sdk server over the SDK's own Streamable HTTP handler.
func goSDKHandler() http.Handler {
	s := goSDKServer()
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
}

// mcpGoHandler serves the mcp-go server over mcp-go's own Streamable HTTP server.
func mcpGoHandler() http.Handler {
	return mgserver.NewStreamableHTTPServer(mcpGoServer())
}

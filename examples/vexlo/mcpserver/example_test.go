package mcpserver_test

import (
	"context"
	"fmt"
	"net/http/httptest"

	"github.com/mcperr/mcperr/examples/vexlo/demoapi"
	"github.com/mcperr/mcperr/examples/vexlo/mcpserver"
)

// The two shapes of a failed call: the server's JSON kind object, and the
// MCP layer's text for arguments outside the schema.
func ExampleServer_Call() {
	api := demoapi.New(nil)
	up := httptest.NewServer(api)
	defer up.Close()
	s, err := mcpserver.New(mcpserver.Config{BaseURL: up.URL, Token: api.DemoToken().Secret})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	for _, c := range []struct{ tool, args string }{
		{"vexlo_get_trace", `{"traceId":"deadbeefdeadbeefdeadbeefdeadbeef"}`},
		{"vexlo_get_trace", `{"traceId":"0f1a2b3c4d5e6f"}`},
		{"vexlo_search_traces", `{"limit":101}`},
		{"vexlo_get_values", `{"traceId":"0f1a2b3c4d5e6f708192a3b4c5d6e7f8","path":["AA","AE"]}`},
	} {
		res := s.Call(ctx, c.tool, []byte(c.args))
		fmt.Println(res.IsError, res.Content[0].Text)
	}
	// Output:
	// true {"kind":"not_found","code":"trace_not_found","message":"no trace with id deadbeefdeadbeefdeadbeefdeadbeef","details":{"trace_id":"deadbeefdeadbeefdeadbeefdeadbeef"}}
	// true {"kind":"invalid_arguments","code":"invalid_request","message":"trace_id must be 32 lowercase hex characters, got 14"}
	// true MCP error -32602: Input validation error: Invalid arguments for tool vexlo_search_traces: Too big: expected number to be <=100 at limit
	// false {"unknown_paths":["AE"],"values":{"AA":{"args":{"request_id":"req-1000"},"return":{"status":"ok"}}}}
}

// The startup check refuses a token whose role is not read.
func ExampleServer_CheckToken() {
	api := demoapi.New(nil)
	up := httptest.NewServer(api)
	defer up.Close()
	write := api.AddToken(demoapi.RoleWrite, "web")
	s, _ := mcpserver.New(mcpserver.Config{BaseURL: up.URL, Token: write.Secret})
	fmt.Println("vexlo-mcp:", s.CheckToken(context.Background()))
	// Output:
	// vexlo-mcp: token role "write" is not allowed; use a read token
}

package gosdk_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/gosdk"
)

// A piped session: the line that is not JSON and the id of 1.5 are answered
// with errors and the session carries on; the call still in flight when the
// input ends is answered, with <, > and & as themselves. A server on the
// process's stdio runs with s.Run(ctx, &gosdk.StdioTransport{Server: s}).
func ExampleStdioTransport() {
	s := mcp.NewServer(&mcp.Implementation{Name: "example", Version: "0"}, nil)
	s.AddTool(&mcp.Tool{Name: "greet", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hello <world>"}}}, nil
	})
	input := strings.Join([]string{
		`not json`,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"0"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"\u0041","method":"tools/call","params":{"name":"greet","arguments":{}}}`,
	}, "\n") + "\n"
	var out strings.Builder
	err := s.Run(context.Background(), &gosdk.StdioTransport{In: strings.NewReader(input), Out: &out, Server: s})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
	for _, line := range strings.SplitAfter(out.String(), "\n") {
		if !strings.Contains(line, `"serverInfo"`) { // initialize's answer
			fmt.Print(line)
		}
	}
	// Output:
	// {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}
	// {"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: the id must be a string or an integer of at most 2^53 in magnitude"}}
	// {"jsonrpc":"2.0","id":"\u0041","result":{"content":[{"type":"text","text":"hello <world>"}]}}
}

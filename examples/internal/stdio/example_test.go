package stdio_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/mcperr/mcperr/examples/internal/stdio"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A piped session: the line that is not JSON is answered with a parse
// error, and the ping still in flight when the input ends is answered.
func ExampleTransport() {
	server := mcp.NewServer(&mcp.Implementation{Name: "example", Version: "0"}, nil)
	input := strings.Join([]string{
		`not json`,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"0"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"ping"}`,
	}, "\n") + "\n"
	var out strings.Builder
	err := server.Run(context.Background(), &stdio.Transport{In: strings.NewReader(input), Out: &out})
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
	// {"jsonrpc":"2.0","id":2,"result":{}}
}

// A server whose tools/call requests the transport answers itself, with
// the answer the SDK would write. NewServer comes after the server's own
// middleware.
func ExampleServer() {
	server := mcp.NewServer(&mcp.Implementation{Name: "example", Version: "0"}, nil)
	server.AddTool(&mcp.Tool{Name: "greet", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hello <world>"}}}, nil
	})
	s := stdio.NewServer(server)
	input := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"0"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"greet","arguments":{}}}`,
	}, "\n") + "\n"
	var out strings.Builder
	if err := s.Run(context.Background(), &stdio.Transport{In: strings.NewReader(input), Out: &out}); err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
	for _, line := range strings.SplitAfter(out.String(), "\n") {
		if !strings.Contains(line, `"serverInfo"`) {
			fmt.Print(line)
		}
	}
	// Output:
	// {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"hello <world>"}]}}
}

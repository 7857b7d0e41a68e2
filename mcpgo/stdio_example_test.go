package mcpgo_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/mcpgo"
)

// ServeStdio serves the package doc's server over a piped input: a line
// that is not JSON, an id no stack can echo, a call to an unknown tool and
// refused arguments are each answered (the refusals in the Validator's
// dialect) and the session goes on to the last call, whose answer is
// written before the end of the input ends the session.
func ExampleServeStdio() {
	defer fakeAPI()()
	s, v := newServer()
	input := strings.Join([]string{
		`this is not JSON`,
		`{"jsonrpc":"2.0","id":1.5,"method":"tools/call","params":{"name":"get_trace","arguments":{"id":"abc"}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_span","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_trace","arguments":{"id":7}}}`,
		`{"jsonrpc":"2.0","id":"<&>","method":"tools/call","params":{"name":"get_trace","arguments":{"id":"abc"}}}`,
	}, "\n")
	err := mcpgo.ServeStdio(context.Background(), s, &mcpgo.StdioOptions{Validator: v, In: strings.NewReader(input), Out: os.Stdout})
	if err != nil {
		panic(err)
	}
	// Output:
	// {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}
	// {"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: the id must be a string or an integer of at most 2^53 in magnitude"}}
	// {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"MCP error -32602: Tool get_span not found"}],"isError":true}}
	// {"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"MCP error -32602: Input validation error: Invalid arguments for tool get_trace: Invalid input: expected string, received number at id"}],"isError":true}}
	// {"jsonrpc":"2.0","id":"<&>","result":{"content":[{"type":"text","text":"{\"id\":\"abc\",\"spans\":3}"}],"structuredContent":{"id":"abc","spans":3}}}
}

// Received tells a failure hook when ServeStdio read the line of the call
// the Validator refused, and RequestID its id: what a hook needs to time
// the refusal (package telemetry records its duration from it).
func ExampleReceived() {
	s := server.NewMCPServer("traces", "1.0.0")
	s.AddTool(mcp.NewTool("get_trace"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("ok"), nil
	})
	var begin time.Time // when ServeStdio began, before it read the line
	hook := func(ctx context.Context, f adapter.Failure) {
		read, ok := mcpgo.Received(ctx)
		id, _ := mcpgo.RequestID(ctx)
		fmt.Printf("%s of %s, id %v: read by ServeStdio: %v, since it began: %v\n",
			f.Stage, f.Tool, id.Value(), ok, !read.Before(begin) && !read.After(time.Now()))
	}
	v := mcpgo.Validate(s, &mcpgo.Options{Validation: mcpgo.Validation{OnFailure: hook}})
	input := `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"get_span","arguments":{}}}`
	begin = time.Now()
	mcpgo.ServeStdio(context.Background(), s, &mcpgo.StdioOptions{Validator: v, In: strings.NewReader(input), Out: io.Discard})
	// Output:
	// unknown_tool of get_span, id 4: read by ServeStdio: true, since it began: true
}

package mcpserver_test

import (
	"context"
	"fmt"
	"log"

	"github.com/mcperr/mcperr/examples/news/mcpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The local server over in-memory transports: an undeclared argument is a
// JSON-RPC -32602 with a hint, a watch tool is the tool error unsupported.
func Example() {
	ctx := context.Background()
	s, err := mcpserver.New(mcpserver.Config{})
	if err != nil {
		log.Fatal(err)
	}
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()

	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_stories", Arguments: map[string]any{"query": "wind", "langauge": "en"}})
	fmt.Println(err)

	res, _ := cs.CallTool(ctx, &mcp.CallToolParams{Name: "create_watch", Arguments: map[string]any{"query": "wind"}})
	fmt.Println(res.IsError, res.Content[0].(*mcp.TextContent).Text)

	res, _ = cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_article", Arguments: map[string]any{"id": "a-00001"}})
	fmt.Println(res.StructuredContent.(map[string]any)["credits_charged"])
	// Output:
	// calling "tools/call": Unknown parameter 'langauge'. Did you mean 'language'?
	// true {"error":"unsupported","code":"unsupported","detail":"create_watch needs a watch store; this server has none (the local stdio server keeps no watches). Make the call on the hosted endpoint"}
	// 1
}

// The tour: one line for each failure shape of seed 004.
func ExampleTour() {
	lines, err := mcpserver.Tour(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	for _, l := range lines {
		fmt.Printf("%-15s %-22s %s\n", l.Shape, l.Code, l.Move)
	}
	// Output:
	// HTTP 401        unauthorized           stop
	// HTTP 429        message_rate_limited   wait_then_retry
	// JSON-RPC -32601 unknown_tool           fix_argument
	// JSON-RPC -32602 unknown_parameter      fix_argument
	// JSON-RPC -32602 unknown_signal         fix_argument
	// JSON-RPC -32602 invalid_parameter      fix_argument
	// tool error      suspended              stop
	// tool error      insufficient_credits   wait_then_retry
	// tool error      credit_rate_limited    wait_then_retry
	// tool error      credit_budget_exceeded fix_argument
	// tool error      upstream_unavailable   wait_then_retry
	// tool error      not_found              try_another_id
	// tool error      watch_limit            stop
	// tool error      unsupported            stop
	// result          partial                wait_then_retry
	// REST 400        unknown_parameter      fix_argument
}

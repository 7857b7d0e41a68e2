package mcpserver_test

import (
	"context"
	"fmt"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/examples/news/mcpserver"
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

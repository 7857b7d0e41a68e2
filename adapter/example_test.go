package adapter_test

import (
	"encoding/json"
	"fmt"

	"github.com/mcperr/mcperr/adapter"
)

// Each dialect answers a call to a tool the server does not have in its own
// way: the TypeScript SDK's text, or a JSON-RPC error.
func ExampleDialect_Unknown() {
	known := []string{"get_trace", "list_traces"}
	for _, d := range []adapter.Dialect{adapter.TypeScript, adapter.Hint, adapter.TypeScript2} {
		r := d.Unknown("get_trac", known)
		if r.Error != nil {
			b, _ := json.Marshal(r.Error)
			fmt.Printf("error: %s\n", b)
			continue
		}
		fmt.Println("result:", r.Text)
	}
	// Output:
	// result: MCP error -32602: Tool get_trac not found
	// error: {"code":-32602,"message":"Unknown tool 'get_trac'. Did you mean 'get_trace'?","data":{"code":"unknown_tool"}}
	// error: {"code":-32602,"message":"Tool get_trac not found"}
}

package gosdk_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/gosdk"
	"github.com/mcperr/mcperr/schemaerr"
)

// perRequestSchema is a tool schema of the size real servers publish: a
// dozen properties with types, enums, patterns and bounds.
func perRequestSchema(i int) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"type":"object","properties":{
		"owner":{"type":"string","minLength":1,"maxLength":39,"pattern":"^[A-Za-z0-9-]+$"},
		"repo":{"type":"string","minLength":1,"maxLength":100},
		"state":{"type":"string","enum":["open","closed","all"]},
		"labels":{"type":"array","items":{"type":"string"},"maxItems":20},
		"sort":{"type":"string","enum":["created","updated","comments"]},
		"direction":{"type":"string","enum":["asc","desc"]},
		"since":{"type":"string","format":"date-time"},
		"page":{"type":"integer","minimum":1},
		"perPage":{"type":"integer","minimum":1,"maximum":100},
		"tool%d":{"type":"boolean"}},
		"required":["owner","repo"],"additionalProperties":false}`, i))
}

// BenchmarkPerRequest is a 20-tool server built anew for one tools/call,
// as github-mcp-server builds one per HTTP request, connected over the SDK's
// in-memory transports (initialize, then the call): bare (the SDK alone),
// with gosdk.Validate compiling every schema it is asked for, and with
// Validate sharing one schemaerr.Cache across the servers, as the
// Options.Cache doc says such a server does. They alternate in blocks of 20
// (interleave), and each reports its CPU per request; the ratio is the last
// one's against bare, whose goal is at most 1.1. In BENCHMARKS.md:
//
//	go test -run '^$' -bench 'PerRequest$' -benchtime 3000x -count 5 ./gosdk
func BenchmarkPerRequest(b *testing.B) {
	cache := &schemaerr.Cache{}
	ok := func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "[]"}}}, nil
	}
	args := map[string]any{"owner": "mcperr", "repo": "mcperr", "state": "open", "perPage": 30}
	call := func(opts *gosdk.Options) func() error {
		return func() error {
			s := mcp.NewServer(&mcp.Implementation{Name: "per-request", Version: "1"}, nil)
			for i := range 20 {
				s.AddTool(&mcp.Tool{Name: fmt.Sprintf("tool_%d", i), InputSchema: perRequestSchema(i)}, ok)
			}
			if opts != nil {
				s.AddReceivingMiddleware(gosdk.Validate(opts))
			}
			ct, st := mcp.NewInMemoryTransports()
			ss, err := s.Connect(context.Background(), st, nil)
			if err != nil {
				return err
			}
			defer ss.Close()
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(context.Background(), ct, nil)
			if err != nil {
				return err
			}
			defer cs.Close()
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "tool_7", Arguments: args})
			if err == nil && res.IsError {
				err = fmt.Errorf("isError: %+v", res.Content)
			}
			return err
		}
	}
	interleave(b, []string{"bare", "validate", "validate+cache"}, []func() error{call(nil), call(&gosdk.Options{}), call(&gosdk.Options{Validation: gosdk.Validation{Cache: cache}})})
}

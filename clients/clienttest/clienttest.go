package clienttest

import (
	"context"
	"encoding/json"
	"fmt"

	mcpgoclient "github.com/mark3labs/mcp-go/client"
	mcpgomcp "github.com/mark3labs/mcp-go/mcp"
	mcpgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/gosdk"
	"github.com/mcperr/mcperr/mcpgo"
)

// A Handler is the body of a tool: it calls the upstream and returns the
// client library's error as it got it, or wrapped.
type Handler func(ctx context.Context) error

// A Reply is what an agent got from one call of the tool on one server.
type Reply struct {
	SDK     string          // the server's SDK: "gosdk" or "mcpgo"
	Outcome errkind.Outcome // the call's answer, as the adapter's Outcome gives it
	Object  *errkind.Object // the kind object the text holds; nil when it holds none
}

// Call runs h as the handler of a tool named "call" on a go-sdk server
// (gosdk.Handle) and on an mcp-go server (mcpgo.Handle), calls the tool once
// on each, and returns the two answers, in the order of SDKs. An error is
// one of the SDKs' own (a server that did not start, a call that did not
// reach it), never the handler's.
func Call(ctx context.Context, h Handler) ([]Reply, error) {
	g, err := callGosdk(ctx, h)
	if err != nil {
		return nil, fmt.Errorf("clienttest: go-sdk: %w", err)
	}
	m, err := callMcpgo(ctx, h)
	if err != nil {
		return nil, fmt.Errorf("clienttest: mcp-go: %w", err)
	}
	return []Reply{reply("gosdk", g), reply("mcpgo", m)}, nil
}

// reply decodes the kind object o's text holds, if it holds one.
func reply(sdk string, o errkind.Outcome) Reply {
	a := Reply{SDK: sdk, Outcome: o}
	var obj errkind.Object
	if o.IsError && json.Unmarshal([]byte(o.Text), &obj) == nil && obj.Kind != "" {
		a.Object = &obj
	}
	return a
}

// empty is the tool's input and output: the handler needs no argument.
type empty struct{}

func callGosdk(ctx context.Context, h Handler) (errkind.Outcome, error) {
	s := mcp.NewServer(&mcp.Implementation{Name: "clienttest", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "call"}, gosdk.Handle(func(ctx context.Context, _ *mcp.CallToolRequest, _ empty) (empty, error) {
		return empty{}, h(ctx)
	}))
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		return errkind.Outcome{}, err
	}
	defer ss.Wait()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "clienttest", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		ss.Close()
		return errkind.Outcome{}, err
	}
	defer cs.Close()
	return gosdk.Outcome(cs.CallTool(ctx, &mcp.CallToolParams{Name: "call", Arguments: map[string]any{}})), nil
}

func callMcpgo(ctx context.Context, h Handler) (errkind.Outcome, error) {
	s := mcpgoserver.NewMCPServer("clienttest", "1")
	mcpgo.Validate(s, nil)
	s.AddTool(mcpgomcp.NewTool("call"), mcpgo.Handle(func(ctx context.Context, _ mcpgomcp.CallToolRequest, _ empty) (empty, error) {
		return empty{}, h(ctx)
	}))
	c, err := mcpgoclient.NewInProcessClient(s)
	if err != nil {
		return errkind.Outcome{}, err
	}
	defer c.Close()
	ir := mcpgomcp.InitializeRequest{}
	ir.Params.ProtocolVersion = mcpgomcp.LATEST_PROTOCOL_VERSION
	if _, err := c.Initialize(ctx, ir); err != nil {
		return errkind.Outcome{}, err
	}
	req := mcpgomcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = "call", map[string]any{}
	return mcpgo.Outcome(c.CallTool(ctx, req)), nil
}

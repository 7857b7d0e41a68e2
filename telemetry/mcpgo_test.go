package telemetry_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/mcpgo"
	"github.com/mcperr/mcperr/telemetry"
)

// mcpgoServer is an mcp-go server as mcpgo's package doc builds it,
// instrumented in one line.
func mcpgoServer(r *rig, api string) *server.MCPServer {
	upstream := &envelope.Reader{Client: &http.Client{Transport: &telemetry.Transport{TracerProvider: r.tp}}}
	s := server.NewMCPServer("traces", "1.0.0", telemetry.MCPGo(r.opts))
	s.AddTool(mcp.NewTool("get_trace", mcp.WithInputSchema[traceIn]()), mcpgo.Handle(func(ctx context.Context, _ mcp.CallToolRequest, in traceIn) (trace1, error) {
		var t trace1
		req, _ := http.NewRequestWithContext(ctx, "GET", api+"/v1/traces/"+in.ID, nil)
		return t, upstream.Do(req, &t)
	}))
	mcpgo.Validate(s, nil)
	return s
}

// TestMCPGoSpans: the same calls as TestGoSDKSpans, on mcp-go, give the
// same failures, spans named "tools/call <tool>" for the calls that reach
// the handler (the refusals are counted, with no span: TestRefusalSpans),
// and a span for the other requests (initialize, tools/list) from the
// server's hooks.
func TestMCPGoSpans(t *testing.T) {
	r := newRig()
	var parents []string
	s := mcpgoServer(r, fakeAPI(t, &parents).URL)
	c, err := client.NewInProcessClient(s)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{ProtocolVersion: "2025-11-25"}}); err != nil {
		t.Fatal(err)
	}
	for _, args := range []map[string]any{{"id": "abc"}, {"id": "zzz"}, {"id": "boom"}, {"id": 7}} {
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = "get_trace", args
		c.CallTool(ctx, req)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = "get_trac"
	c.CallTool(ctx, req)

	names := map[string]int{}
	for _, s := range r.ended() {
		names[s.Name]++
	}
	if names["tools/call get_trace"] != 3 || names["tools/call get_trac"] != 0 || names["initialize"] != 1 {
		t.Errorf("span names %v, want 3 of tools/call get_trace, none of tools/call get_trac, and initialize", names)
	}
	want := map[string]int64{
		"get_trace not_found expected=true":         1,
		"get_trace server_error expected=false":     1,
		"get_trace invalid_arguments expected=true": 1,
		"get_trac invalid_arguments expected=true":  1, // mcp-go's own -32602 for an unknown tool
	}
	if diff := cmp.Diff(want, r.failures(t)); diff != "" {
		t.Errorf("failure counter (-want +got):\n%s", diff)
	}
	if len(parents) != 3 {
		t.Errorf("upstream got %d requests, want 3", len(parents))
	}
}

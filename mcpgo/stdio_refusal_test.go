package mcpgo_test

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/adapter/adaptertest"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/mcpgo"
)

// waitServer is a server with a tool "wait" that blocks until its call is
// cancelled.
func waitServer() *server.MCPServer {
	s := server.NewMCPServer("refusals", "0")
	s.AddTool(mcp.NewTool("wait"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		<-ctx.Done()
		return mcp.NewToolResultText("cancelled"), nil
	})
	return s
}

// TestServeStdioRefusals: every refusal ServeStdio writes itself (a line
// that is not JSON, too long, a batch, an id no SDK echoes, an id in
// flight, a request past MaxInFlight) takes its code from the code table
// of the session's protocol revision (the in-flight bound's -32000 becomes
// -31000 on 2026-07-28) and reaches the failure hook as Stage Protocol, on
// each revision: StdioOptions.OnFailure, or when it is nil the
// Validator's Options.OnFailure, so that a hook set once hears them.
func TestServeStdioRefusals(t *testing.T) {
	for _, c := range []struct {
		name string
		opts func(s *server.MCPServer, hook func(context.Context, adapter.Failure)) *mcpgo.StdioOptions
	}{
		{"StdioOptions.OnFailure", func(_ *server.MCPServer, hook func(context.Context, adapter.Failure)) *mcpgo.StdioOptions {
			return &mcpgo.StdioOptions{OnFailure: hook}
		}},
		{"the Validator's OnFailure", func(s *server.MCPServer, hook func(context.Context, adapter.Failure)) *mcpgo.StdioOptions {
			return &mcpgo.StdioOptions{Validator: mcpgo.Validate(s, &mcpgo.Options{Validation: mcpgo.Validation{OnFailure: hook}})}
		}},
	} {
		err := adaptertest.StdioRefusals(func(ctx context.Context, in io.Reader, out io.Writer, hook func(context.Context, adapter.Failure)) {
			s := waitServer()
			o := c.opts(s, hook)
			o.In, o.Out, o.MaxInFlight, o.MaxLine = in, out, 1, 512
			mcpgo.ServeStdio(ctx, s, o)
		})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// TestServeStdioInternalErrorReachesHook: the -32603 line ServeStdio
// writes itself for a handler's panic reaches the failure hook, as the
// lines it refuses do (Stage Protocol, the method and tool of the call),
// without the panic's value.
func TestServeStdioInternalErrorReachesHook(t *testing.T) {
	type seen struct {
		Stage        adapter.Stage
		Method, Tool string
		RPCCode      errkind.RPCCode
		Expected     bool
		Secret       bool // the panic's value reached the hook
	}
	got := make(chan seen, 4)
	hook := func(_ context.Context, f adapter.Failure) {
		got <- seen{f.Stage, f.Method, f.Tool, f.Reading.RPCCode, adapter.Expected(f.Reading.Kind),
			strings.Contains(fmt.Sprint(f), "secret detail")}
	}
	p := servePipes(t, stdioTestServer(), mcpgo.StdioOptions{OnFailure: hook})
	p.send(t, stdioInit)
	p.next(t)
	p.send(t, stdioInitialized)
	p.send(t, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"panic"}}`)
	if l := p.next(t); !strings.Contains(l, `"code":-32603`) {
		t.Fatalf("panicking handler answered %s, want -32603", l)
	}
	want := seen{Stage: adapter.Protocol, Method: "tools/call", Tool: "panic", RPCCode: errkind.InternalError}
	select {
	case s := <-got:
		if diff := cmp.Diff(want, s); diff != "" {
			t.Errorf("failure hook (-want +got):\n%s", diff)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the -32603 line did not reach the failure hook")
	}
}

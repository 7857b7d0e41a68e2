package gosdk_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/adapter/adaptertest"
	"github.com/mcperr/mcperr/gosdk"
)

// The bound on calls in flight (StdioTransport.MaxInFlight, 256 by
// default) never stops the reading: the client's answers to the server's
// own requests and its cancellations, which free the slots, are always
// read; on the SDK's path and on the direct path alike. The checks are
// adaptertest's Bound functions.

// rootsInit opens a session of a client that has roots.
const rootsInit = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{}},"clientInfo":{"name":"gosdk-test","version":"0"}}}`

// boundServer has a tool "roots" that asks the client for its roots and a
// tool "wait" that blocks until its call is cancelled.
func boundServer() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "bound", Version: "0"}, nil)
	schema := json.RawMessage(`{"type":"object"}`)
	srv.AddTool(&mcp.Tool{Name: "roots", InputSchema: schema}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		//lint:ignore SA1019 a server-to-client request is what the bound must not block; roots is one that clients still answer
		res, err := req.Session.ListRoots(ctx, nil)
		if err != nil {
			return nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: res.Roots[0].URI}}}, nil
	})
	srv.AddTool(&mcp.Tool{Name: "wait", InputSchema: schema}, func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		<-ctx.Done()
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "cancelled"}}}, nil
	})
	return srv
}

// boundPipe serves boundServer on the transport (on the direct path when
// direct).
func boundPipe(direct bool) adaptertest.StdioPipe {
	return func(ctx context.Context, in io.Reader, out io.Writer) error {
		srv := boundServer()
		tr := &gosdk.StdioTransport{In: in, Out: out}
		if direct {
			tr.Server = srv
		}
		return srv.Run(ctx, tr)
	}
}

// TestStdioBoundClientAnswers: 257 calls whose handlers ask the client for
// its roots all end: 256 are answered once the client answers roots/list,
// the one past the bound is refused at once.
func TestStdioBoundClientAnswers(t *testing.T) {
	for _, direct := range []bool{false, true} {
		t.Run(fmt.Sprint("direct=", direct), func(t *testing.T) {
			if err := adaptertest.BoundClientAnswers(boundPipe(direct), rootsInit); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestStdioBoundCancel: 257 long calls, then their cancellations, all end:
// the one past the bound is refused at once, the cancellations end the 256
// others (which get no answer, being cancelled), and a ping sent after
// them is answered.
func TestStdioBoundCancel(t *testing.T) {
	for _, direct := range []bool{false, true} {
		t.Run(fmt.Sprint("direct=", direct), func(t *testing.T) {
			if err := adaptertest.BoundCancel(boundPipe(direct), rootsInit); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestStdioBoundUnread: a client that sends 50,000 calls and never reads
// the output holds a bounded number of goroutines and bytes: the handlers
// of at most 256 calls wait to write, and then the reading waits too. (The
// go-sdk's own transport, and this one before the bound, held 50,000
// goroutines and 269 MiB.)
func TestStdioBoundUnread(t *testing.T) {
	var in strings.Builder
	in.WriteString(initLine + "\n" + initialized + "\n")
	for i := range 50000 {
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"wait"}}`+"\n", 10+i)
	}
	for _, direct := range []bool{false, true} {
		t.Run(fmt.Sprint("direct=", direct), func(t *testing.T) {
			srv := boundServer()
			most, err := adaptertest.BoundUnread(func(ctx context.Context, out io.Writer) {
				tr := &gosdk.StdioTransport{In: strings.NewReader(in.String()), Out: out, Drain: time.Millisecond}
				if direct {
					tr.Server = srv
				}
				srv.Run(ctx, tr)
			})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d goroutines more at most", most)
		})
	}
}

package mcpgo_test

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcperr/mcperr/mcpgo"
)

// TestServeStdioWorkersEnd: the goroutines that serve the requests serve
// one request after another, and end once ServeStdio has returned: after a
// session of 200 pipelined calls, every one answered (in any order: they
// are served concurrently), the process is back to the goroutines it had
// before.
func TestServeStdioWorkersEnd(t *testing.T) {
	s := server.NewMCPServer("traces", "1.0.0")
	s.AddTool(mcp.NewTool("get_trace", mcp.WithInputSchema[TraceIn]()), mcpgo.Handle(
		func(_ context.Context, _ mcp.CallToolRequest, in TraceIn) (Trace, error) {
			return Trace{ID: in.ID, Spans: 3}, nil
		}))
	v := mcpgo.Validate(s, nil)
	var in strings.Builder
	in.WriteString(stdioInit + "\n" + stdioInitialized + "\n")
	const calls = 200
	for i := range calls {
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"get_trace","arguments":{"id":"t%d"}}}`+"\n", 10+i, i)
	}
	base := runtime.NumGoroutine()
	var out bytes.Buffer
	if err := mcpgo.ServeStdio(context.Background(), s, &mcpgo.StdioOptions{Validator: v, In: strings.NewReader(in.String()), Out: &out}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 1+calls {
		t.Fatalf("%d lines written, want %d (initialize and every call)", len(lines), 1+calls)
	}
	results := 0
	for _, l := range lines {
		if strings.Contains(l, `"structuredContent":{"id":"t`) {
			results++
		}
	}
	if results != calls {
		t.Fatalf("%d results, want %d; the lines:\n%s", results, calls, out.String())
	}
	// The workers see the session end after ServeStdio returns: wait for
	// them, a while at most.
	for deadline := time.Now().Add(10 * time.Second); runtime.NumGoroutine() > base; {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines 10 s after ServeStdio returned, %d before it began", runtime.NumGoroutine(), base)
		}
		time.Sleep(time.Millisecond)
	}
}

package gosdk_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/gosdk"
	"github.com/mcperr/mcperr/retry"
)

// The README's "Start here" section, compiled and run: the lines between
// the markers are the section's code block, line for line
// (TestStartHereIsTheReadme checks it). The server is served in memory here
// instead of on stdio or HTTP, and api points at a fake upstream.
func Example_startHere() {
	defer fakeAPI()()
	ctx := context.Background()
	var cs *mcp.ClientSession
	connectTo := func(s *mcp.Server) { cs, _ = connect(s) }

	// start here
	// A server: read the upstream, send its failures as kind objects, check arguments.
	upstream := &envelope.Reader{Client: &http.Client{Transport: &retry.Transport{}}} // one short retry of a 429
	getTrace := func(ctx context.Context, _ *mcp.CallToolRequest, in TraceIn) (Trace, error) {
		var t Trace
		req, _ := http.NewRequestWithContext(ctx, "GET", api+"/v1/traces/"+url.PathEscape(in.ID), nil)
		return t, upstream.Do(req, &t) // a failure is an *envelope.Error: its kind object is what the agent gets
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "traces", Version: "1.0.0"}, nil)
	gosdk.AddTool(s, &mcp.Tool{Name: "get_trace"}, getTrace) // arguments checked once, a Go error becomes the kind object
	s.AddReceivingMiddleware(gosdk.Validate(nil))            // bad arguments get the TypeScript SDK's text
	// Serve it on stdio, where no line ends the session:  s.Run(ctx, &gosdk.StdioTransport{Server: s})
	// or on Streamable HTTP behind the front:           http.ListenAndServe(addr, gosdk.HTTPHandler(s, nil))
	connectTo(s)

	// A client: one line reads any answer into a kind, the agent's move and the wait.
	for _, id := range []any{"abc", "zzz", 7} {
		r := errkind.Read(gosdk.Outcome(cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_trace", Arguments: map[string]any{"id": id}})))
		switch r.Move {
		case "": // data
			fmt.Println(id, "data")
		case errkind.WaitThenRetry: // r.Wait is a day at most: sleep on it (select on time.After(r.Wait) and ctx.Done()), call again
			fmt.Println(id, r.Kind, "wait", r.Wait)
		case errkind.Stop: // so is a wait beyond a day (r.Wait keeps it): tell the user when to come back, do not sleep
			fmt.Println(id, r.Kind, "stop", r.Wait)
		default: // errkind.FixArgument (r.Args names what to fix), errkind.TryAnotherID, ...
			fmt.Println(id, r.Kind, r.Move, r.Args)
		}
	}
	// end
	cs.Close()
	// Output:
	// abc data
	// zzz not_found try_another_id []
	// 7 invalid_arguments fix_argument [id]
}

// The README's "Start here" code block is the code of Example_startHere, line
// for line, so the section a newcomer copies compiles and runs.
func TestStartHereIsTheReadme(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)## Start here\n.*?```go\n(.*?)```").FindSubmatch(readme)
	if m == nil {
		t.Fatal("README.md has no Go code block under \"## Start here\"")
	}
	src, err := os.ReadFile("starthere_test.go")
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	from := strings.Index(s, "\t// start here\n") + len("\t// start here\n")
	to := strings.Index(s, "\t// end\n")
	var want strings.Builder
	for _, line := range strings.SplitAfter(s[from:to], "\n") {
		if line == "\tconnectTo(s)\n" || line == "\tconnectTo(s)\n\n" {
			continue // the in-memory connection stands in for serving
		}
		want.WriteString(strings.TrimPrefix(line, "\t"))
	}
	if got := string(m[1]); got != want.String() {
		t.Errorf("README's Start here block differs from Example_startHere:\n--- README\n%s\n--- Example\n%s", got, want.String())
	}
}

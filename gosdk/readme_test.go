package gosdk_test

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReadmeQuickStart: the README's quick start is the server that Example
// runs: its declarations from TraceIn to getTrace are example_test.go's,
// byte for byte, and its main makes the calls newServer makes.
func TestReadmeQuickStart(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Skip("no README beside the module:", err)
	}
	example, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	_, quick, ok := strings.Cut(string(readme), "## Quick start")
	if !ok {
		t.Fatal("the README has no quick start")
	}
	_, quick, _ = strings.Cut(quick, "```go\n")
	quick, _, _ = strings.Cut(quick, "```")
	decls := func(src string) string {
		_, s, _ := strings.Cut(src, "type TraceIn struct")
		s, _, _ = strings.Cut(s, "\nfunc main()")
		s, _, _ = strings.Cut(s, "\nfunc newServer()")
		return s
	}
	if d := cmp.Diff(decls(string(example)), decls(quick)); d != "" {
		t.Errorf("README quick start and example_test.go differ (-example +README)\n%s", d)
	}
	for _, call := range []string{
		`gosdk.AddTool(s, &mcp.Tool{Name: "get_trace", Description: "Get a trace"}, getTrace)`,
		`s.AddReceivingMiddleware(gosdk.Validate(nil))`,
		`gosdk.HTTPHandler(newServer(), nil)`,
	} {
		if !strings.Contains(string(example), call) {
			t.Errorf("example_test.go lacks %s", call)
		}
		if !strings.Contains(quick, strings.Replace(call, "newServer()", "s", 1)) {
			t.Errorf("the README's quick start lacks %s", call)
		}
	}
}

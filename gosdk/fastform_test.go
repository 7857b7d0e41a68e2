package gosdk_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// zeroOnPurpose are the zero StdioTransports the repository writes on
// purpose, by file: each is either found by AddTool's server or given its
// Server before it serves.
var zeroOnPurpose = map[string]int{
	"gosdk/internal/traces/main.go": 1, // the traces-zero row of the load driver: its tools are AddTool's
	"examples/news/main.go":         1, // RunStdio sets Server
}

// TestDocsShowTheFastForm: every StdioTransport the repository's code and
// documents write (but the tests', and BENCHMARKS.md's and CHANGELOG.md's
// history) sets Server, so that no one copies a server onto the SDK's
// path; and the servers README.md and the package doc show add their
// tools with AddTool, not mcp.AddTool, and serve stdio on
// gosdk.StdioTransport, not mcp.StdioTransport.
func TestDocsShowTheFastForm(t *testing.T) {
	literal := regexp.MustCompile(`gosdk\.StdioTransport\{[^}]*\}`)
	zeros := map[string]int{}
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == ".git" || n == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		name := d.Name()
		if strings.HasSuffix(name, "_test.go") || name == "BENCHMARKS.md" || name == "CHANGELOG.md" ||
			!strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, ".md") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, "../"))
		for _, m := range literal.FindAll(b, -1) {
			if !strings.Contains(string(m), "Server:") {
				zeros[rel]++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for file, n := range zeros {
		if zeroOnPurpose[file] != n {
			t.Errorf("%s writes %d StdioTransport without Server (%d on purpose): write &gosdk.StdioTransport{Server: s}", file, n, zeroOnPurpose[file])
		}
	}

	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, start, _ := strings.Cut(string(readme), "## Start here")
	start, _, _ = strings.Cut(start, "## The packages")
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"README.md's Start here and Quick start": start, "the package doc": string(doc)} {
		for _, slow := range []string{"mcp.AddTool(", "mcp.StdioTransport{"} {
			if strings.Contains(text, slow) {
				t.Errorf("%s shows %s: show gosdk.AddTool and gosdk.StdioTransport{Server: s}", name, slow)
			}
		}
		if !strings.Contains(text, "gosdk.AddTool(s, ") || !strings.Contains(text, "gosdk.StdioTransport{Server: s}") {
			t.Errorf("%s does not show gosdk.AddTool(s, ...) and gosdk.StdioTransport{Server: s}", name)
		}
	}
}

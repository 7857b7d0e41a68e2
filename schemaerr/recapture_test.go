package schemaerr

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// harnessFiles are the files of testdata/zod the re-capture runs.
var harnessFiles = []string{"package.json", "package-lock.json", "server.mjs", "drive.mjs", "derived-server.mjs", "derived.mjs", "differential.mjs", "undecidable.mjs"}

// sdk is a release of the TypeScript SDK that the scripts of testdata/zod run against, and
// schemaerr's wording of it.
type sdk struct {
	name  string // the release, in test names
	dir   string // under testdata: its package.json and package-lock.json, and its captures
	cache string // the harness's directory in the user cache directory
	// text words issues as the release does.
	text func(tool string, issues []Issue) string
	// unknown is the release's answer to a call to a tool it does not have: the golden Result
	// ("isError", or "rpcError" for a JSON-RPC error) and the text.
	unknown func(tool string) (result, text string)
	// imports maps the scripts' imports of @modelcontextprotocol/sdk 1.x onto the release's
	// packages; nil runs them as written.
	imports *strings.Replacer
}

var (
	// sdk1 is @modelcontextprotocol/sdk 1.32.2 with zod 4.6.7 (testdata/zod), the default dialect.
	sdk1 = &sdk{name: "1.32.2", dir: "zod", cache: "mcperr-zod", text: TypeScript.textOf,
		unknown: func(tool string) (string, string) { return "isError", TypeScript.RefuseTool(tool, nil).Text }}
	// sdk2 is @modelcontextprotocol/server and client 2.x with zod 4.6.7 (testdata/zod2), which
	// run the same scripts with their imports mapped.
	sdk2 = &sdk{name: "2.x", dir: "zod2", cache: "mcperr-zod2", text: TypeScriptV2.textOf,
		unknown: func(tool string) (string, string) {
			return "rpcError", TypeScriptV2.RefuseTool(tool, nil).Error.Message
		},
		imports: strings.NewReplacer(
			"'@modelcontextprotocol/sdk/server/mcp.js'", "'@modelcontextprotocol/server'",
			"'@modelcontextprotocol/sdk/server/stdio.js'", "'@modelcontextprotocol/server/stdio'",
			"'@modelcontextprotocol/sdk/client/index.js'", "'@modelcontextprotocol/client'",
			"'@modelcontextprotocol/sdk/inMemory.js'", "'@modelcontextprotocol/server'",
		)}
)

// TestRecapture runs the reference harness (testdata/zod: @modelcontextprotocol/sdk 1.32.2 and
// zod 4.6.7) with node, captures every case again, and checks that the SDK still says what the
// golden files say and that schemaerr says the same. It installs the harness with npm ci into
// the user cache directory (mcperr-zod), once per package-lock.json, and is skipped when node or
// npm is absent, when the install fails (offline), or with -short. It takes 5 to 30 seconds
// (node starts three SDK servers), so it runs only when MCPERR_NODE=1:
//
//	MCPERR_NODE=1 go test -run TestRecapture ./schemaerr
func TestRecapture(t *testing.T) { recapture(t, sdk1) }

// TestRecapture2 is TestRecapture for the TypeScript SDK 2.x (testdata/zod2:
// @modelcontextprotocol/server and client 2.4.0, zod 4.6.7) and its dialect, [TypeScriptV2]: the same
// scripts, their imports mapped onto the 2.x packages, installed into mcperr-zod2.
//
//	MCPERR_NODE=1 go test -run TestRecapture2 ./schemaerr
func TestRecapture2(t *testing.T) { recapture(t, sdk2) }

func recapture(t *testing.T, sdk *sdk) {
	if os.Getenv("MCPERR_NODE") != "1" {
		t.Skip("set MCPERR_NODE=1 to re-capture the golden cases from the TypeScript SDK with node (5-30 s)")
	}
	if testing.Short() {
		t.Skip("-short: not running the TypeScript SDK harness")
	}
	node, dir := zodHarness(t, sdk)
	for _, set := range goldenSets {
		if set.sdk != sdk {
			continue
		}
		script := map[string]string{"cases.json": "drive.mjs", "derived-cases.json": "derived.mjs"}[set.capture]
		t.Run(set.name, func(t *testing.T) {
			os.Remove(filepath.Join(dir, set.capture))
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, node, script)
			cmd.Dir = dir
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Run(); err != nil {
				var ee *exec.ExitError
				if errors.As(err, &ee) || ctx.Err() != nil {
					t.Fatalf("node %s: %v\n%s", script, err, stderr.Bytes())
				}
				t.Skipf("cannot run node: %v", err)
			}
			raw, err := os.ReadFile(filepath.Join(dir, set.capture))
			if err != nil {
				t.Fatal(err)
			}
			freshTools, fresh := convertCaptures(t, raw)
			goldenTools, golden := readGolden(t, set.name)
			if diff := cmp.Diff(normTools(t, goldenTools), normTools(t, freshTools)); diff != "" {
				t.Errorf("the SDK publishes other schemas now (-golden +fresh):\n%s", diff)
			}
			if diff := cmp.Diff(golden, fresh, cmp.Comparer(jsonEqual)); diff != "" {
				t.Errorf("the SDK answers differently now (-golden +fresh):\n%s", diff)
			}
			schemas := compileAll(t, freshTools)
			for _, c := range fresh {
				if c.Result == "skip" {
					continue
				}
				if diff := cmp.Diff(c, answer(t, schemas, c, sdk)); diff != "" {
					t.Errorf("%s (-sdk +schemaerr):\n%s", c.Name, diff)
				}
			}
		})
	}
}

// zodHarness installs the scripts of testdata/zod, with sdk's package.json and package-lock.json
// and its imports, into sdk's directory of the user cache directory with npm ci, once per
// package-lock.json, and returns node's path and that directory. It skips the test when node or
// npm is absent or the install fails (offline).
func zodHarness(t *testing.T, sdk *sdk) (node, dir string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: cannot re-capture from the TypeScript SDK (the golden files are still checked by TestGolden)")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not installed: cannot install the TypeScript SDK harness")
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Skipf("no cache directory for the harness: %v", err)
	}
	dir = filepath.Join(cache, sdk.cache)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Skipf("cannot create %s: %v", dir, err)
	}
	lockChanged := false
	for _, name := range harnessFiles {
		from := "zod"
		if name == "package.json" || name == "package-lock.json" {
			from = sdk.dir
		}
		src, err := os.ReadFile(filepath.Join("testdata", from, name))
		if err != nil {
			t.Fatal(err)
		}
		if sdk.imports != nil && strings.HasSuffix(name, ".mjs") {
			src = []byte(sdk.imports.Replace(string(src)))
		}
		dst := filepath.Join(dir, name)
		if old, err := os.ReadFile(dst); err == nil && bytes.Equal(old, src) {
			continue
		}
		if name == "package-lock.json" || name == "package.json" {
			lockChanged = true
		}
		if err := os.WriteFile(dst, src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "zod", "package.json")); err != nil || lockChanged {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, npm, "ci", "--no-audit", "--no-fund")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			os.Remove(filepath.Join(dir, "package-lock.json")) // install again next time
			t.Skipf("npm ci in %s failed (offline?): %v\n%s", dir, err, out)
		}
	}
	return node, dir
}

// textOf is d's refusal of issues in the arguments of a call to tool as the text of an isError
// tool result, for the dialects whose refusal is one.
func (d Dialect) textOf(tool string, issues []Issue) string { return d.Refuse(tool, issues).Text }

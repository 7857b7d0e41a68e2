// Package interop holds the Go side of the interop suite's long-call
// check: TestLongNode runs long.mjs, the TypeScript SDK's Client, against
// a server of each adapter whose tool takes long.
package interop

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcperr/mcperr/errkind"
)

// TestLongNode (MCPERR_NODE=1, packages from ./setup.sh): against the
// TypeScript SDK 1.x Client's timeout, a tool served through Handle with a
// Long of progress every 200 ms, a 2 s deadline and a 30 s wait, on both
// adapters over stdio:
//   - progress with resetTimeoutOnProgress keeps a 1.5 s call alive past
//     the client's 1 s timeout, and the tool's answer arrives;
//   - without the reset the same call times out on the client (-32001), so
//     the progress is what kept it alive;
//   - a call past the deadline is answered unavailable with the 30 s wait
//     at 2 s, before the client's 4 s timeout fires;
//   - progress does not keep a call alive past the deadline.
func TestLongNode(t *testing.T) {
	if os.Getenv("MCPERR_NODE") != "1" {
		t.Skip("set MCPERR_NODE=1 (and run ./setup.sh) to run the TypeScript client")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	if _, err := os.Stat(filepath.Join("node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		t.Skip("the TypeScript SDK is not installed here: run ./setup.sh")
	}
	type line struct {
		Name     string
		RPC      bool
		Code     int
		Message  string
		Data     json.RawMessage
		IsError  bool
		Text     string
		Progress int
		MS       int
	}
	type want struct {
		kind        errkind.Kind // "" for data
		wait        time.Duration
		code        errkind.RPCCode // the client's own error, when RPC
		minProgress int
		minMS       int
		maxMS       int
	}
	wants := []want{
		{"", 0, 0, 3, 1400, 1900},
		{"", 0, -32001, 1, 950, 1400},
		{errkind.Unavailable, 30 * time.Second, 0, 0, 1950, 3500},
		{errkind.Unavailable, 30 * time.Second, 0, 5, 1950, 3500},
	}
	dir := t.TempDir()
	for _, mod := range []string{"gosdk", "mcpgo"} {
		t.Run(mod, func(t *testing.T) {
			bin := filepath.Join(dir, mod+"-longserver")
			build := exec.Command("go", "build", "-o", bin, "./testdata/longserver")
			build.Dir = filepath.Join("..", "..", mod)
			if out, err := build.CombinedOutput(); err != nil {
				t.Fatalf("go build: %v\n%s", err, out)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, node, "long.mjs", bin, "-interval", "200ms", "-deadline", "2s", "-wait", "30s")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("node long.mjs: %v\n%s", err, stderr.Bytes())
			}
			var lines []line
			sc := bufio.NewScanner(bytes.NewReader(out))
			for sc.Scan() {
				var l line
				if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
					t.Fatalf("%v: %s", err, sc.Bytes())
				}
				lines = append(lines, l)
			}
			if len(lines) != len(wants) {
				t.Fatalf("%d lines, want %d:\n%s\n%s", len(lines), len(wants), out, stderr.Bytes())
			}
			for i, l := range lines {
				w := wants[i]
				if l.RPC {
					if errkind.RPCCode(l.Code) != w.code || w.code == 0 {
						t.Errorf("%s: the client's error %d %s, want code %d", l.Name, l.Code, l.Message, w.code)
					}
				} else {
					r := errkind.Read(errkind.Outcome{IsError: l.IsError, Text: l.Text})
					if w.code != 0 || r.Kind != w.kind || r.Wait != w.wait {
						t.Errorf("%s: read kind %q wait %v (%s), want kind %q wait %v, code %d", l.Name, r.Kind, r.Wait, l.Text, w.kind, w.wait, w.code)
					}
				}
				if l.Progress < w.minProgress || l.MS < w.minMS || l.MS > w.maxMS {
					t.Errorf("%s: %d progress notifications in %d ms, want at least %d in %d to %d ms", l.Name, l.Progress, l.MS, w.minProgress, w.minMS, w.maxMS)
				}
			}
		})
	}
}

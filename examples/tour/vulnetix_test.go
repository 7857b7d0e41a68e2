package main

import (
	"context"
	"flag"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/examples/internal/proc"
	"github.com/mcperr/mcperr/examples/vulnetix/mcpserver"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// msRE masks the upstream's timings, which vary from run to run.
var msRE = regexp.MustCompile(`"ms":[0-9]+`)

// TestVulnetixSection: the vulnetix section meets every shape once, each
// line complete, and golden in testdata/vulnetix.golden.
func TestVulnetixSection(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	lines, err := vulnetixRun(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	kinds := map[string]bool{}
	for _, l := range lines {
		if l.Shape == "" || l.Kind == "" || l.Move == "" || l.Text == "" {
			t.Errorf("incomplete line %+v", l)
		}
		kinds[l.Kind] = true
		text := msRE.ReplaceAllString(l.Text, `"ms":0`)
		if len(text) > 200 {
			text = text[:200] + "..."
		}
		b.WriteString(l.Shape + " | " + l.Kind + " | " + l.Move + " | " + text + "\n")
	}
	for _, s := range mcpserver.Shapes() {
		switch s.Kind {
		case mcpserver.TooLarge, mcpserver.Malformed, mcpserver.NetworkFailure:
			continue // not met against the demo
		case mcpserver.LoginUsed:
			continue // a second poll after the approval; the server's TestLoginSingleUse meets it
		}
		if !kinds[string(s.Kind)] {
			t.Errorf("the tour never meets kind %s", s.Kind)
		}
	}
	for _, k := range []string{"HTTP 403", "HTTP 404 -32601", "HTTP 405 -32600", "HTTP 415 -32600", "HTTP 400 -32700", "HTTP 400 -32602", "HTTP 400 -32020", "HTTP 400 -32022", "HTTP 429 -32000", "HTTP 200 -32603", "degraded"} {
		if !kinds[k] {
			t.Errorf("the tour never shows %s", k)
		}
	}
	proc.Golden(t, filepath.Join("testdata", "vulnetix.golden"), b.String(), *update)
}

// TestRetryGuidance: beside each protocol error the vulnetix section gives
// the Vulnetix error contract's retry words: fix the request, except an
// unsupported version (once, with a supported one) and the edge guard's
// 429 (after a few seconds).
func TestRetryGuidance(t *testing.T) {
	tests := []struct {
		row  string
		code errkind.RPCCode
		want string
	}{
		{"-32602", errkind.InvalidParams, "No. Fix the request."},
		{"-32020", errkind.HeaderMismatch, "No. Fix the request."},
		{"405, 415 (-32600)", errkind.InvalidRequest, "No. Fix the request."},
		{"-32022", errkind.UnsupportedVersion, "Once, with a version from data.supported."},
		{"Edge 429 (-32000)", errkind.ImplementationDefined, "Yes, after a few seconds."},
	}
	for _, tt := range tests {
		if got := retryGuidance(tt.code); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.row, got, tt.want)
		}
	}
}

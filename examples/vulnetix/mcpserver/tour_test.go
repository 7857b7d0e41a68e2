package mcpserver

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestTour: the tour meets every shape once, each line complete, and
// golden in testdata/tour.golden.
func TestTour(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	lines, err := Tour(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	kinds := map[string]bool{}
	for _, l := range lines {
		if l.Call == "" || l.Kind == "" || l.Move == "" || l.Text == "" {
			t.Errorf("incomplete line %+v", l)
		}
		kinds[l.Kind] = true
		text := msRE.ReplaceAllString(l.Text, `"ms":0`)
		if len(text) > 200 {
			text = text[:200] + "..."
		}
		b.WriteString(l.Call + " | " + l.Kind + " | " + l.Move + " | " + text + "\n")
	}
	for _, s := range Shapes() {
		if s.Kind == TooLarge || s.Kind == Malformed || s.Kind == NetworkFailure {
			continue // not met against the demo
		}
		if s.Kind == LoginUsed {
			continue // a second poll after the approval; TestLoginSingleUse meets it
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
	golden(t, "tour.golden", b.String())
}

func TestKindOf(t *testing.T) {
	tests := []struct {
		text string
		want string
	}{
		{"Vulnetix returned HTTP 500: Trend store unavailable.", string(UpstreamStatus)},
		{"Vulnetix returned HTTP 200: the body is not the JSON this tool expects (x).", string(Malformed)},
		{"Vulnetix request failed: the request timed out.", string(NetworkFailure)},
		{fail(NoCredential).Message, string(NoCredential)},
		{"Not found in the Vulnetix VDB: CVE-1. Try an alias (a GHSA id for a CVE, or the reverse).", string(NotFound)},
		{"MCP error -32602: Input validation error: Invalid arguments for tool x: y", string(InvalidArguments)},
		{"something else", ""},
	}
	for _, tt := range tests {
		k, _ := KindOf(tt.text)
		if diff := cmp.Diff(tt.want, string(k)); diff != "" {
			t.Errorf("KindOf(%q) (-want +got):\n%s", tt.text, diff)
		}
	}
}

package mcpserver

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestKindOf: a tool error's text reads back to the kind of the shape that
// words it; a text no shape words reads as none.
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

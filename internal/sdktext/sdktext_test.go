package sdktext

import "testing"

// The unknown-tool text is the TypeScript SDK's, with the tool's name between
// its two halves.
func TestUnknownTool(t *testing.T) {
	if got, want := UnknownTool("vexlo_nope"), "MCP error -32602: Tool vexlo_nope not found"; got != want {
		t.Errorf("UnknownTool = %q, want %q", got, want)
	}
}

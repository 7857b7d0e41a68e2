package sdktext

import "testing"

// The unknown-tool text is the TypeScript SDK's, with the tool's name between
// its two halves.
func TestUnknownTool(t *testing.T) {
	if got, want := UnknownTool("vexlo_nope"), "MCP error -32602: Tool vexlo_nope not found"; got != want {
		t.Errorf("UnknownTool = %q, want %q", got, want)
	}
}

// The 2.x frames are 1.32.2's without the McpError's "MCP error -32602: ".
func TestFrames2(t *testing.T) {
	const rpc = "MCP error -32602: "
	for _, tt := range []struct{ v1, v2 string }{
		{InvalidArgumentsPrefix, InvalidArgumentsPrefix2},
		{ArgumentsRefusedPrefix, ArgumentsRefusedPrefix2},
		{UnknownToolPrefix, UnknownToolPrefix2},
	} {
		if tt.v1 != rpc+tt.v2 {
			t.Errorf("%q is not %q after %q", tt.v2, tt.v1, rpc)
		}
	}
}

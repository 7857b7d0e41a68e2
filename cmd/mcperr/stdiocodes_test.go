package main

import (
	"encoding/json"
	"testing"

	"github.com/mcperr/mcperr/adapter/stdio"
	"github.com/mcperr/mcperr/errkind"
)

// The audit does not flag the codes the adapters' stdio transports answer
// their own refusals with, on any revision it probes: each line of
// adapter/stdio (a line not JSON or too long, a batch, an id in flight, a
// request past the in-flight bound, a server failure) carries the code
// errkind's code table gives on the revision. Before the table, Busy's
// -32000 under 2026-07-28 was a finding ("legacy").
func TestStdioCodesNotFlagged(t *testing.T) {
	for _, rev := range revisions {
		_, notJSON := stdio.Check([]byte("not json"), rev)
		_, batch := stdio.Check([]byte(`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`), rev)
		_, badID := stdio.Check([]byte(`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`), rev)
		lines := map[string][]byte{
			"too long":    stdio.ParseError,
			"not JSON":    notJSON,
			"batch":       batch,
			"bad id":      badID,
			"in flight":   stdio.InFlight(json.RawMessage(`1`), rev),
			"busy":        stdio.Busy(json.RawMessage(`1`), 256, rev),
			"server fail": stdio.ErrorLine(json.RawMessage(`1`), errkind.InternalError, "Internal error", rev),
		}
		var checks []check
		for name, line := range lines {
			var a struct {
				Error struct{ Code int }
			}
			if err := json.Unmarshal(line, &a); err != nil || a.Error.Code == 0 {
				t.Fatalf("%s under %s: %s is no error answer (%v)", name, rev, line, err)
			}
			checks = append(checks, check{Probe: name, Code: a.Error.Code, Revision: rev})
		}
		if f := codeFindings(rev, checks); len(f) > 0 {
			t.Errorf("under %s the audit flags the stdio refusals: %q", rev, f)
		}
	}
}

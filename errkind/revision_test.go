package errkind_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/errkind"
)

// TestOnTable: every catalogue code answers the same on every revision
// but ImplementationDefined, which leaves the JSON-RPC reserved range
// (-32768 to -32000) from revision 2026-07-28 on; no code On returns for
// 2026-07-28 is in the legacy range (-32000 to -32019) or an undefined
// code of the reserved one (-32020 to -32099).
func TestOnTable(t *testing.T) {
	codes := []errkind.RPCCode{errkind.ParseError, errkind.InvalidRequest, errkind.MethodNotFound, errkind.InvalidParams,
		errkind.InternalError, errkind.ImplementationDefined, errkind.HeaderMismatch, errkind.MissingCapability, errkind.UnsupportedVersion}
	revisions := []string{"", "2025-06-18", "2025-11-25", "2026-07-28", "2027-01-01"}
	want := map[string][]errkind.RPCCode{
		"":           {-32700, -32600, -32601, -32602, -32603, -32000, -32020, -32021, -32022},
		"2025-06-18": {-32700, -32600, -32601, -32602, -32603, -32000, -32020, -32021, -32022},
		"2025-11-25": {-32700, -32600, -32601, -32602, -32603, -32000, -32020, -32021, -32022},
		"2026-07-28": {-32700, -32600, -32601, -32602, -32603, -31000, -32020, -32021, -32022},
		"2027-01-01": {-32700, -32600, -32601, -32602, -32603, -31000, -32020, -32021, -32022},
	}
	defined := map[errkind.RPCCode]bool{errkind.HeaderMismatch: true, errkind.MissingCapability: true, errkind.UnsupportedVersion: true}
	for _, v := range revisions {
		var got []errkind.RPCCode
		for _, c := range codes {
			o := c.On(v)
			got = append(got, o)
			if v >= "2026-07-28" && (o >= -32019 && o <= -32000 || o >= -32099 && o <= -32020 && !defined[o]) {
				t.Errorf("revision %s: %v answers %d, a code the revision forbids", v, c, o)
			}
		}
		if d := cmp.Diff(want[v], got); d != "" {
			t.Errorf("revision %q (-want +got):\n%s", v, d)
		}
	}
	if got := errkind.RPCCode(-32029).On("2026-07-28"); got != -32029 {
		t.Errorf("a code outside the catalogue is not the library's to move: got %d", got)
	}
}

// TestOnReadBack: the limit refusal under 2026-07-28 (code -31000, the
// kind object in data) reads back as the same kind, move and wait as the
// -32000 one earlier revisions get.
func TestOnReadBack(t *testing.T) {
	data := json.RawMessage(`{"kind":"rate_limited","retryAfterSeconds":5}`)
	old := errkind.Read(errkind.Outcome{RPCCode: errkind.ImplementationDefined.On("2025-11-25"), Message: "Rate limited: retry after 5 seconds.", Data: data})
	modern := errkind.Read(errkind.Outcome{RPCCode: errkind.ImplementationDefined.On("2026-07-28"), Message: "Rate limited: retry after 5 seconds.", Data: data})
	old.RPCCode = modern.RPCCode // the one field that differs: the code as sent
	if d := cmp.Diff(old, modern); d != "" {
		t.Errorf("readings differ (-2025-11-25 +2026-07-28):\n%s", d)
	}
	if modern.Kind != errkind.RateLimited || !modern.HasWait || modern.Wait != 5*time.Second {
		t.Errorf("got %+v, want rate_limited with a 5 s wait", modern)
	}
}

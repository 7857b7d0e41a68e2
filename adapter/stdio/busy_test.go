package stdio

import (
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/errkind"
)

// TestBusyReadAsUnavailable: Busy keeps the code table's code and its
// message on every revision, and its data is the kind object of an
// unavailable server, so errkind.Read reads a wait of 1 s and a retry, not
// a server's failure to report.
func TestBusyReadAsUnavailable(t *testing.T) {
	const msg = "Server busy: 256 requests are in flight; send it again once one is answered"
	const data = `{"kind":"unavailable","code":"server_busy","message":"` + msg + `","retryAfterSeconds":1}`
	type read struct {
		Kind    errkind.Kind
		Move    errkind.Move
		Wait    time.Duration
		RPCCode errkind.RPCCode
	}
	for _, tc := range []struct {
		version string
		code    errkind.RPCCode
	}{
		{"", -32000},
		{"2025-11-25", -32000},
		{"2026-07-28", -31000},
	} {
		t.Run("revision "+tc.version, func(t *testing.T) {
			line := Busy(json.RawMessage(`"p"`), 256, tc.version)
			want := `{"jsonrpc":"2.0","id":"p","error":{"code":` + strconv.Itoa(int(tc.code)) + `,"message":"` + msg + `","data":` + data + "}}\n"
			if diff := cmp.Diff(want, string(line)); diff != "" {
				t.Errorf("the line (-want +got):\n%s", diff)
			}
			var a struct {
				Error struct {
					Code    errkind.RPCCode
					Message string
					Data    json.RawMessage
				}
			}
			if err := json.Unmarshal(line, &a); err != nil {
				t.Fatal(err)
			}
			r := errkind.Read(errkind.Outcome{RPCCode: a.Error.Code, Message: a.Error.Message, Data: a.Error.Data})
			got := read{r.Kind, r.Move, r.Wait, r.RPCCode}
			if diff := cmp.Diff(read{errkind.Unavailable, errkind.WaitThenRetry, time.Second, tc.code}, got); diff != "" {
				t.Errorf("errkind.Read of the line (-want +got):\n%s", diff)
			}
		})
	}
}

package mcpserver

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestResetTimeBounded: the daily quota's reset is believed only when it
// is bounded. X-RateLimit-Reset: 9223372036854775807 once printed "resets
// at 292277026596-12-04T15:30:07Z", and 1000000000 a time in 2001; both
// now read as absent, so the message names the next UTC midnight.
func TestResetTimeBounded(t *testing.T) {
	now := time.Date(2026, 11, 30, 15, 30, 7, 0, time.UTC)
	clock := func() time.Time { return now }
	midnight := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		reset string
		want  time.Time
	}{
		{"9223372036854775807", midnight},
		{"1000000000", midnight},
		{"99999999999999999999", midnight},
		{"", midnight},
		{"soon", midnight},
		{"3600", now.Add(time.Hour)},
		{"1796140800", time.Unix(1796140800, 0).UTC()},
	}
	for _, tt := range tests {
		got := resetTime(http.Header{"X-Ratelimit-Reset": {tt.reset}}, clock)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("X-RateLimit-Reset %q (-want +got):\n%s", tt.reset, diff)
		}
	}
}

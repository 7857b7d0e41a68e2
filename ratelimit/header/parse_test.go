package header_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/ratelimit/header"
)

// hdrNow is 2026-11-30 06:00:00 UTC, Unix 1796018400.
var hdrNow = time.Date(2026, time.November, 30, 6, 0, 0, 0, time.UTC)

func hdr(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i < len(kv); i += 2 {
		h.Add(kv[i], kv[i+1])
	}
	return h
}

func TestParse(t *testing.T) {
	if hdrNow.Unix() != 1796018400 {
		t.Fatalf("hdrNow is %d", hdrNow.Unix())
	}
	tests := []struct {
		name string
		h    http.Header
		want header.Info
	}{
		{"empty", hdr(), header.Info{}},
		{"a 429 with Retry-After and the X-RateLimit figures", hdr(
			"Retry-After", "1",
			"X-RateLimit-Limit", "20",
			"X-RateLimit-Remaining", "0",
			"X-RateLimit-Reset", "1",
		), header.Info{
			RetryAfter: time.Second, HasRetryAfter: true,
			Limits: header.Limits{Limit: 20, Remaining: 0, Reset: time.Second, HasLimit: true, HasRemaining: true, HasReset: true},
		}},
		{"reset as epoch seconds", hdr("X-RateLimit-Reset", "1796018430"), header.Info{
			Limits: header.Limits{Reset: 30 * time.Second, HasReset: true},
		}},
		{"reset as epoch milliseconds", hdr("X-RateLimit-Reset", "1796018430500"), header.Info{
			Limits: header.Limits{Reset: 30500 * time.Millisecond, HasReset: true},
		}},
		{"reset as fractional epoch", hdr("X-RateLimit-Reset", "1796018401.25"), header.Info{
			Limits: header.Limits{Reset: 1250 * time.Millisecond, HasReset: true},
		}},
		{"reset as fractional seconds", hdr("X-RateLimit-Reset", "1.5"), header.Info{
			Limits: header.Limits{Reset: 1500 * time.Millisecond, HasReset: true},
		}},
		{"an epoch in the past is no reset", hdr("X-RateLimit-Reset", "1700000000"), header.Info{}},
		{"epoch against Date", hdr("X-RateLimit-Reset", "1796018430", "Date", "Mon, 30 Nov 2026 05:00:00 GMT"), header.Info{
			Limits: header.Limits{Reset: time.Hour + 30*time.Second, HasReset: true},
		}},
		{"a huge limit saturates; a huge reset is no reset", hdr(
			"X-RateLimit-Limit", "99999999999999999999999",
			"X-RateLimit-Reset", "99999999999999999999999",
		), header.Info{
			Limits: header.Limits{Limit: 1<<63 - 1, HasLimit: true},
		}},
		{"malformed X-RateLimit figures are ignored", hdr(
			"X-RateLimit-Limit", "-5",
			"X-RateLimit-Remaining", "1.0",
			"X-RateLimit-Reset", "soon",
		), header.Info{}},
		{"one malformed figure leaves the others", hdr(
			"X-RateLimit-Limit", "20",
			"X-RateLimit-Remaining", "x",
		), header.Info{Limits: header.Limits{Limit: 20, HasLimit: true}}},
		{"older draft fields", hdr(
			"RateLimit-Limit", "100",
			"RateLimit-Remaining", "7",
			"RateLimit-Reset", "30",
		), header.Info{
			Limits: header.Limits{Limit: 100, Remaining: 7, Reset: 30 * time.Second, HasLimit: true, HasRemaining: true, HasReset: true},
		}},
		{"draft 03 list in RateLimit-Limit", hdr("RateLimit-Limit", "10, 10;w=1, 50;w=60"), header.Info{
			Limits: header.Limits{Limit: 10, HasLimit: true},
		}},
		{"draft 11 fields", hdr(
			"RateLimit-Policy", `"burst";q=100;w=60, "daily";q=1000;w=86400;qu="requests";pk=:cHJvamVjdDEyMw==:`,
			"RateLimit", `"burst";r=50;t=30, "daily";r=3;t=3600`,
		), header.Info{
			Limits: header.Limits{Limit: 1000, Remaining: 3, Reset: time.Hour, HasLimit: true, HasRemaining: true, HasReset: true},
			Policies: []header.QuotaPolicy{
				{Name: "burst", Quota: 100, Window: time.Minute},
				{Name: "daily", Quota: 1000, Window: 24 * time.Hour, Unit: "requests", PartitionKey: []byte("project123")},
			},
			Current: []header.ServiceLimit{
				{Policy: "burst", Remaining: 50, Reset: 30 * time.Second, HasReset: true},
				{Policy: "daily", Remaining: 3, Reset: time.Hour, HasReset: true},
			},
		}},
		{"draft 11 fields over several lines", hdr(
			"RateLimit", `"a";r=5`,
			"RateLimit", `"b";r=4;unknown=?1;t=2`,
		), header.Info{
			Limits: header.Limits{Remaining: 4, Reset: 2 * time.Second, HasRemaining: true, HasReset: true},
			Current: []header.ServiceLimit{
				{Policy: "a", Remaining: 5},
				{Policy: "b", Remaining: 4, Reset: 2 * time.Second, HasReset: true},
			},
		}},
		{"draft 11 items without their required parameter are left out", hdr(
			"RateLimit-Policy", `"nop";w=10, "ok";q=5, "neg";q=-1, "dec";q=1.5, "str";q="5", 7;q=1, (1 2);q=3, "esc\"aped";q=9`,
			"RateLimit", `"x";t=1, "y";r=2;pk=:!!:`,
		), header.Info{
			Policies: []header.QuotaPolicy{{Name: "ok", Quota: 5}, {Name: `esc"aped`, Quota: 9}},
		}},
		{"a malformed line drops the whole field", hdr(
			"RateLimit", `"a";r=5`,
			"RateLimit", `"b";r=4,`,
		), header.Info{}},
		{"malformed draft 11 fields are ignored", hdr(
			"RateLimit-Policy", `"burst";q=100;W=60`,
			"RateLimit", `burst;r=50;t=30 "x"`,
		), header.Info{}},
		{"X-RateLimit wins over the other sources", hdr(
			"X-RateLimit-Remaining", "9",
			"RateLimit-Limit", "100",
			"RateLimit", `"a";r=5`,
		), header.Info{
			Limits:  header.Limits{Remaining: 9, HasRemaining: true},
			Current: []header.ServiceLimit{{Policy: "a", Remaining: 5}},
		}},
		{"token names", hdr("RateLimit", `default;r=1`), header.Info{
			Limits:  header.Limits{Remaining: 1, HasRemaining: true},
			Current: []header.ServiceLimit{{Policy: "default", Remaining: 1}},
		}},
	}
	for _, tt := range tests {
		got := header.Parse(tt.h, hdrNow)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: Parse (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestResetBounded: a reset in the past, more than a year away, or too
// large to count is absent, never a date thousands of years ahead (an
// upstream sent X-RateLimit-Reset: 9223372036854775807 and a reader
// printed year 292277026596; 1000000000 is 2001, in the past).
func TestResetBounded(t *testing.T) {
	for _, v := range []string{"9223372036854775807", "9223372036854775808", "1000000000", "1000000000000", "99999999999999999999999"} {
		if d, ok := header.ParseReset(v, hdrNow); ok {
			t.Errorf("ParseReset(%q) = %v, true; want absent", v, d)
		}
		info := header.Parse(hdr("X-RateLimit-Remaining", "0", "X-RateLimit-Reset", v), hdrNow)
		if info.Limits.HasReset {
			t.Errorf("X-RateLimit-Reset %q read as %v", v, info.Limits.Reset)
		}
		if d, ok := info.Wait(); ok {
			t.Errorf("X-RateLimit-Reset %q: Wait = %v", v, d)
		}
	}
	// The RateLimit field's t and the draft RateLimit-Reset: beyond a year
	// is no reset, and the rest of the field stays.
	info := header.Parse(hdr("RateLimit", `"q";r=0;t=999999999999999`, "RateLimit-Policy", `"q";q=10`), hdrNow)
	want := []header.ServiceLimit{{Policy: "q", Remaining: 0}}
	if diff := cmp.Diff(want, info.Current); diff != "" {
		t.Errorf("RateLimit t beyond a year (-want +got):\n%s", diff)
	}
	if info.Limits.HasReset {
		t.Errorf("RateLimit t beyond a year: Limits %+v", info.Limits)
	}
	info = header.Parse(hdr("RateLimit-Remaining", "0", "RateLimit-Reset", "40000000"), hdrNow)
	if info.Limits.HasReset || !info.Limits.HasRemaining {
		t.Errorf("RateLimit-Reset beyond a year: Limits %+v", info.Limits)
	}
	info = header.Parse(hdr("RateLimit", `"q";r=0;t=31536000`), hdrNow)
	if !info.Limits.HasReset || info.Limits.Reset != (365*24*time.Hour) {
		t.Errorf("RateLimit t of a year: Limits %+v", info.Limits)
	}
}

func TestInfoWait(t *testing.T) {
	tests := []struct {
		name string
		h    http.Header
		want raResult
	}{
		{"nothing", hdr(), raResult{}},
		{"Retry-After wins", hdr("Retry-After", "2", "X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "30"), raResult{2 * time.Second, true}},
		{"reset when nothing remains", hdr("X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "30"), raResult{30 * time.Second, true}},
		{"no wait while some remain", hdr("X-RateLimit-Remaining", "1", "X-RateLimit-Reset", "30"), raResult{}},
		{"RateLimit field", hdr("RateLimit", `"a";r=0;t=7`), raResult{7 * time.Second, true}},
		{"malformed Retry-After falls back", hdr("Retry-After", "soon", "RateLimit", `"a";r=0;t=7`), raResult{7 * time.Second, true}},
		{"Retry-After in decimal seconds", hdr("Retry-After", "2.0"), raResult{2 * time.Second, true}},
		{"a fraction of a second", hdr("Retry-After", "1.5"), raResult{1500 * time.Millisecond, true}},
		{"Retry-After-Ms", hdr("Retry-After-Ms", "1500"), raResult{1500 * time.Millisecond, true}},
		{"x-ms-retry-after-ms with a fraction", hdr("x-ms-retry-after-ms", "0.5"), raResult{500 * time.Microsecond, true}},
		{"the longest of the three", hdr("Retry-After", "1", "Retry-After-Ms", "2500", "X-Ms-Retry-After-Ms", "2000"), raResult{2500 * time.Millisecond, true}},
		{"a malformed millisecond field is absent", hdr("Retry-After-Ms", "-5", "Retry-After", "3"), raResult{3 * time.Second, true}},
		{"a huge millisecond field saturates", hdr("Retry-After-Ms", "99999999999999999999"), raResult{header.MaxRetryAfter, true}},
		{"the X-Rate-Limit spelling", hdr("x-rate-limit-remaining", "0", "x-rate-limit-reset", "900"), raResult{900 * time.Second, true}},
	}
	for _, tt := range tests {
		d, ok := header.Parse(tt.h, hdrNow).Wait()
		if diff := cmp.Diff(tt.want, raResult{d, ok}); diff != "" {
			t.Errorf("%s: Wait (-want +got):\n%s", tt.name, diff)
		}
	}
}

func TestParseXRateLimitAllocs(t *testing.T) {
	h := hdr("Retry-After", "1", "X-RateLimit-Limit", "20", "X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "1")
	if n := testing.AllocsPerRun(100, func() { header.Parse(h, hdrNow) }); n != 0 {
		t.Errorf("Parse of a 429 with Retry-After and X-RateLimit fields: %v allocations, want 0", n)
	}
}

func BenchmarkParse(b *testing.B) {
	for _, bc := range []struct {
		name string
		h    http.Header
	}{
		{"XRateLimit", hdr("Retry-After", "1", "X-RateLimit-Limit", "20", "X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "1")},
		{"Draft11", hdr(
			"RateLimit-Policy", `"burst";q=100;w=60, "daily";q=1000;w=86400`,
			"RateLimit", `"burst";r=50;t=30, "daily";r=3;t=3600`,
		)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				header.Parse(bc.h, hdrNow)
			}
		})
	}
}

func TestParsePartitionKeys(t *testing.T) {
	got := header.Parse(hdr("RateLimit", `"a";r=1;pk=:cHJvamVjdDEyMw:, "b";r=2;pk=:abcde:, "c";r=3;pk=::`), hdrNow).Current
	want := []header.ServiceLimit{
		{Policy: "a", Remaining: 1, PartitionKey: []byte("project123")}, // padding may be left out
		{Policy: "c", Remaining: 3, PartitionKey: []byte{}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

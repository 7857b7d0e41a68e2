package gcbudget

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestSet: the limit applies and the proportional collector is off when
// the environment sets neither; a GOGC or GOMEMLIMIT in the environment
// wins; with no limit in force the collector stays proportional.
func TestSet(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	for _, c := range []struct {
		name          string
		gogc, memlim  string
		limit         int64
		wantLimit     int64
		wantGCPercent int
	}{
		{"neither set", "", "", 24 << 20, 24 << 20, -1},
		{"GOGC set", "200", "", 24 << 20, 24 << 20, 200},
		{"GOMEMLIMIT set", "", "x", 24 << 20, 64 << 20, -1},
		{"GOMEMLIMIT=off", "", "x", math.MaxInt64, math.MaxInt64, 100},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("GOGC", c.gogc)
			t.Setenv("GOMEMLIMIT", c.memlim)
			// What the runtime read from the environment at start.
			debug.SetGCPercent(100)
			if c.gogc != "" {
				debug.SetGCPercent(200)
			}
			debug.SetMemoryLimit(math.MaxInt64)
			if c.memlim != "" {
				debug.SetMemoryLimit(c.wantLimit)
			}
			if got := Set(c.limit); got != c.wantLimit {
				t.Errorf("Set(%d) = %d, want %d", c.limit, got, c.wantLimit)
			}
			if got := debug.SetGCPercent(100); got != c.wantGCPercent {
				t.Errorf("GC percent %d, want %d", got, c.wantGCPercent)
			}
		})
	}
}

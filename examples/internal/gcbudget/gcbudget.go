// Package gcbudget is the garbage-collector setting the example servers
// share: collect against a memory budget rather than after every doubling
// of the live heap.
//
// A tools/call through the go-sdk makes about 170 KB of short-lived garbage
// (mostly the SDK's JSON decoder buffers) over a live heap of a few MB, so
// with the default GOGC=100 the collector ran every few dozen calls and was
// the largest single cost of a call. With a budget, it runs only when the
// heap reaches the memory limit, which each server's command sets to a size
// its README states. GOGC and GOMEMLIMIT in the environment still decide
// when set.
//
// The limit must stay well above the live heap: a live heap near it makes
// the collector run after every few calls (the runtime caps it at about
// half the CPU rather than exceed the limit by much). A deployment that
// holds more, such as a larger index, raises GOMEMLIMIT.
package gcbudget

import (
	"math"
	"os"
	"runtime/debug"
)

// Set sets the memory limit to limit bytes unless GOMEMLIMIT is set, and
// turns the proportional collector off (GOGC=off) unless GOGC is set. When
// no memory limit is in force (GOMEMLIMIT=off), GOGC is left alone, so the
// heap never grows without a bound. It returns the memory limit in force.
func Set(limit int64) int64 {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(limit)
	}
	current := debug.SetMemoryLimit(-1)
	if os.Getenv("GOGC") == "" && current != math.MaxInt64 {
		debug.SetGCPercent(-1)
	}
	return current
}

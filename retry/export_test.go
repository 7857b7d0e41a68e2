package retry

import "net/http"

// MaxDrainForTest is maxDrain, for the test of the drain bound.
const MaxDrainForTest = maxDrain

// DefaultBaseIdle is the idle-connection pool per host of the base a zero
// Transport sends with.
func DefaultBaseIdle() int {
	if t, ok := defaultBase().(interface{ Clone() *http.Transport }); ok {
		return t.Clone().MaxIdleConnsPerHost
	}
	return -1
}

//go:build !unix

package adaptertest

import "time"

// cpuTime is not known here.
func cpuTime() (time.Duration, bool) { return 0, false }

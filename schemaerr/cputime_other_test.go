//go:build !unix

package schemaerr

import "time"

var processStart = time.Now()

// cpuTime stands in for the process's CPU time where getrusage is missing: the time since start.
func cpuTime() time.Duration { return time.Since(processStart) }

//go:build unix

package schemaerr

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used, so that timing tests hold on a loaded machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

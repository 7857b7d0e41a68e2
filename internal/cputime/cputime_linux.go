//go:build linux

package cputime

import (
	"syscall"
	"time"
	"unsafe"
)

// Process is the process's CPU time (CLOCK_PROCESS_CPUTIME_ID, precise to
// the nanosecond), the garbage collector's threads included.
func Process() time.Duration {
	var ts syscall.Timespec
	const clockProcessCPUTimeID = 2
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockProcessCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	return time.Duration(ts.Nano())
}

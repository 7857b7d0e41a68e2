package errkind_test

import (
	"runtime"
	"syscall"
	"time"
)

// threadCPU runs f locked to one OS thread and returns the CPU time that
// thread spent in it: the work f did, whatever else the machine is doing.
func threadCPU(f func()) time.Duration {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	const rusageThread = 1 // RUSAGE_THREAD
	var before, after syscall.Rusage
	syscall.Getrusage(rusageThread, &before)
	f()
	syscall.Getrusage(rusageThread, &after)
	return time.Duration(after.Utime.Nano() + after.Stime.Nano() - before.Utime.Nano() - before.Stime.Nano())
}

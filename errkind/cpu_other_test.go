//go:build !linux

package errkind_test

import "time"

// threadCPU returns the wall-clock time f took; only Linux reports a
// thread's CPU time.
func threadCPU(f func()) time.Duration {
	start := time.Now()
	f()
	return time.Since(start)
}

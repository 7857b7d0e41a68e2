package cputime

import (
	"testing"
	"time"
)

// Process grows while this goroutine works, and never goes back: a busy
// loop reaches 10 ms of CPU time (within 10 s of wall time however loaded
// the machine), each read at least the one before.
func TestProcessCountsWork(t *testing.T) {
	start, deadline := Process(), time.Now().Add(10*time.Second)
	last := start
	for last-start < 10*time.Millisecond {
		now := Process()
		if now < last {
			t.Fatalf("CPU time went back from %v to %v", last, now)
		}
		last = now
		if time.Now().After(deadline) {
			t.Fatalf("10 s of a busy loop counted %v of CPU time", last-start)
		}
	}
}

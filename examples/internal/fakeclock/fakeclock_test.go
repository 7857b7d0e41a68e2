package fakeclock

import (
	"sync"
	"testing"
	"time"
)

// A Clock stays at its time until advanced, and advances from several
// goroutines add up.
func TestClock(t *testing.T) {
	start := time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)
	c := At(start)
	if got := c.Now(); !got.Equal(start) {
		t.Fatalf("Now = %v, want %v", got, start)
	}
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() { c.Advance(time.Second) })
	}
	wg.Wait()
	if got, want := c.Now(), start.Add(10*time.Second); !got.Equal(want) {
		t.Errorf("after ten advances of 1 s: Now = %v, want %v", got, want)
	}
}

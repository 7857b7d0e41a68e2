// Package fakeclock is a clock the example servers' tests inject and move
// by hand.
package fakeclock

import (
	"sync"
	"time"
)

// A Clock says the time it was set to until it is advanced; it is safe for
// use by several goroutines.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// At returns a Clock at t.
func At(t time.Time) *Clock { return &Clock{t: t} }

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock d forward.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

package adapter

import (
	"testing"
	"time"
)

// SetClock makes RunLong, until t ends, take its progress ticks from tick
// and its deadline from expire, whatever Interval and Deadline say: a test
// that sends on them decides how many ticks come before the deadline.
func SetClock(t testing.TB, tick, expire <-chan time.Time) {
	old := clock
	t.Cleanup(func() { clock = old })
	clock.every = func(time.Duration) (<-chan time.Time, func()) { return tick, func() {} }
	clock.after = func(time.Duration) (<-chan time.Time, func()) { return expire, func() {} }
}

//go:build !race

package proc

// RaceEnabled reports whether this program was built with the race
// detector; Build then builds the command under test with it too.
const RaceEnabled = false

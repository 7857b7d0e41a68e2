//go:build race

package errkind_test

const raceEnabled = true

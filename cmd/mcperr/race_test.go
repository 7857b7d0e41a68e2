//go:build race

package main

// raceSlowdown is how many times slower the race detector makes the code
// the time bounds of the tests measure.
const raceSlowdown = 10

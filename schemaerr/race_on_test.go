//go:build race

package schemaerr

// raceEnabled: the race detector slows every step some tenfold, which timing tests skip.
const raceEnabled = true

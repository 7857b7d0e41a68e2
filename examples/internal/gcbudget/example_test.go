package gcbudget_test

import (
	"fmt"
	"os"
	"runtime/debug"

	"github.com/mcperr/mcperr/examples/internal/gcbudget"
)

// A server's main sets its budget first thing; the environment can still
// override it (GOMEMLIMIT=64MiB, GOGC=100).
func ExampleSet() {
	os.Setenv("GOGC", "")
	os.Setenv("GOMEMLIMIT", "")
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	defer debug.SetGCPercent(debug.SetGCPercent(100))

	limit := gcbudget.Set(24 << 20)
	fmt.Printf("memory limit %d MiB, GOGC %d\n", limit>>20, debug.SetGCPercent(-1))
	// Output: memory limit 24 MiB, GOGC -1
}

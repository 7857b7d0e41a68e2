package proc_test

import (
	"fmt"
	"log/slog"

	"github.com/mcperr/mcperr/examples/internal/proc"
)

// A Buffer collects a server's log lines while the server runs, for a test
// to read at any moment.
func ExampleBuffer() {
	var logs proc.Buffer
	log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{} // keep the example's output stable
			}
			return a
		},
	}))
	log.Warn("edge guard store failed", "err", "timeout")
	fmt.Print(logs.String())
	// Output:
	// level=WARN msg="edge guard store failed" err=timeout
}

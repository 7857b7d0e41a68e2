package mcpgo_test

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/mcperr/mcperr/adapter/adaptertest"
	"github.com/mcperr/mcperr/mcpgo"
)

// The bound on calls in flight (StdioOptions.MaxInFlight, 256 by default)
// never stops the reading: the client's answers to the server's own
// requests and its cancellations, which free the slots, are always read.
// The checks are adaptertest's Bound functions.

// boundPipe serves stdioTestServer with ServeStdio.
func boundPipe(ctx context.Context, in io.Reader, out io.Writer) error {
	return mcpgo.ServeStdio(ctx, stdioTestServer(), &mcpgo.StdioOptions{In: in, Out: out})
}

// TestStdioBoundClientAnswers: 257 calls whose handlers ask the client for
// its roots all end: 256 are answered once the client answers roots/list,
// the one past the bound is refused at once, and the reading of the
// client's answers never waits for a slot.
func TestStdioBoundClientAnswers(t *testing.T) {
	if err := adaptertest.BoundClientAnswers(boundPipe, stdioInit); err != nil {
		t.Error(err)
	}
}

// TestStdioBoundCancel: 257 long calls, then their cancellations, all end:
// the one past the bound is refused at once, the cancellations are read
// and end the 256 others (which get no answer, being cancelled), and a
// ping sent after them is answered.
func TestStdioBoundCancel(t *testing.T) {
	if err := adaptertest.BoundCancel(boundPipe, stdioInit); err != nil {
		t.Error(err)
	}
}

// TestStdioBoundUnread: a client that sends 50,000 calls and never reads
// the output holds a bounded number of goroutines and bytes: the handlers
// of at most 256 calls wait to write, and then the reading waits too.
func TestStdioBoundUnread(t *testing.T) {
	var in strings.Builder
	in.WriteString(stdioInit + "\n" + stdioInitialized + "\n")
	for i := range 50000 {
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"ping"}`+"\n", 10+i)
	}
	most, err := adaptertest.BoundUnread(func(ctx context.Context, out io.Writer) {
		mcpgo.ServeStdio(ctx, stdioTestServer(), &mcpgo.StdioOptions{In: strings.NewReader(in.String()), Out: out})
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d goroutines more at most", most)
}

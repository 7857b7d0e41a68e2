package session_test

import (
	"fmt"
	"time"

	"github.com/mcperr/mcperr/adapter/session"
)

// An adapter holds a place before its SDK opens a session, records the
// session the SDK opened, and gives the place back; a client at its bound
// is refused, with the wait until one of its sessions can end idle, and
// keeps the sessions it has.
func ExampleTable_Reserve() {
	t := session.New(2, session.MaxTotal, 10*time.Minute)
	now := time.Unix(0, 0)
	for i := range 3 {
		end, err := t.Reserve("192.0.2.7", now) // end: sessions idle past the timeout, for the SDK to end
		if err != nil {
			fmt.Println("refused:", err, "wait", err.(*session.Full).Wait, "ended", len(end))
			continue
		}
		t.Open(fmt.Sprint("s", i), "192.0.2.7", now) // the session the SDK opened
		t.Release("192.0.2.7")
		now = now.Add(time.Minute)
	}
	fmt.Println("live:", t.Len())
	// Output:
	// refused: session: the client holds 2 sessions, its bound wait 8m0s ended 0
	// live: 2
}

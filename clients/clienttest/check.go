package clienttest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
)

// Op is the operation Check's wrapping names, as a handler writes it:
// fmt.Errorf(Op+": %w", err).
const Op = "failed to call the upstream"

// Check checks that err, the error a client library returned, reaches the
// agent as want: through envelope.ErrorOf, through ErrorOf on err wrapped
// with %w (the operation goes in front of the message: see Wrapped), and
// as the text of the kind object that a tool handler returning each of the
// two gets from a go-sdk server and an mcp-go server (Call). A wait is
// compared within two seconds, for one measured against the clock. No
// answer may hold secret (when not "").
func Check(t *testing.T, err error, want errkind.Object, secret string) {
	t.Helper()
	if err == nil {
		t.Fatal("the call did not fail")
	}
	wrapped := fmt.Errorf(Op+": %w", err)
	for _, c := range []struct {
		name string
		err  error
		want errkind.Object
	}{{"unchanged", err, want}, {"wrapped", wrapped, Wrapped(want, Op)}} {
		e, ok := envelope.ErrorOf(c.err)
		if !ok {
			t.Fatalf("ErrorOf(%s %T) found no upstream failure", c.name, err)
		}
		if diff := cmp.Diff(c.want, Object(e), ApproxWait(2)); diff != "" {
			t.Errorf("ErrorOf, %s: kind object (-want +got):\n%s", c.name, diff)
		}
		if secret != "" && strings.Contains(e.Error(), secret) {
			t.Errorf("ErrorOf, %s: the secret is in %q", c.name, e.Error())
		}
		replies, aerr := Call(context.Background(), func(context.Context) error { return c.err })
		if aerr != nil {
			t.Fatal(aerr)
		}
		for _, a := range replies {
			if a.Object == nil {
				t.Errorf("%s, %s: the agent got %+v, no kind object", a.SDK, c.name, a.Outcome)
				continue
			}
			if diff := cmp.Diff(c.want, *a.Object, ApproxWait(2)); diff != "" {
				t.Errorf("%s, %s: kind object (-want +got):\n%s", a.SDK, c.name, diff)
			}
			if secret != "" && strings.Contains(a.Outcome.Text, secret) {
				t.Errorf("%s, %s: the secret is in %q", a.SDK, c.name, a.Outcome.Text)
			}
		}
	}
}

// Object returns the kind object an agent reads of e: its JSON, in the
// layout of its kind, decoded.
func Object(e *envelope.Error) errkind.Object {
	var o errkind.Object
	b, err := e.MarshalJSON()
	if err == nil {
		err = json.Unmarshal(b, &o)
	}
	if err != nil {
		return errkind.Object{Message: "clienttest: " + err.Error()}
	}
	return o
}

// Wrapped returns the kind object of want's error wrapped by
// fmt.Errorf(op+": %w"): the operation goes in front of the upstream's
// message, or is the message when the upstream gave none, in each kind
// whose layout shows a message (rate_limited's shows the wait alone).
func Wrapped(want errkind.Object, op string) errkind.Object {
	switch {
	case want.Kind == errkind.RateLimited:
	case want.Message == "":
		want.Message = op
	default:
		want.Message = op + ": " + want.Message
	}
	return want
}

// ApproxWait is a cmp option that takes two waits (or reset times) in
// seconds as equal when they are at most slack seconds apart: one measured
// against the clock moves while a test runs.
func ApproxWait(slack int64) cmp.Option {
	return cmp.FilterPath(func(p cmp.Path) bool {
		switch p.Last().String() {
		case ".RetryAfterSeconds", ".ResetSeconds":
			return true
		}
		return false
	}, cmp.Comparer(func(a, b *int64) bool {
		if a == nil || b == nil {
			return a == b
		}
		d := *a - *b
		return -slack <= d && d <= slack
	}))
}

// N returns a pointer to v, for the numbers of an errkind.Object.
func N(v int64) *int64 { return &v }

// CheckRead checks that read, a clients/NAME module's Read, finds in err
// the failure want (a wait within two seconds), and then that err reaches
// the agent as want (Check).
func CheckRead(t *testing.T, read func(error) (*envelope.Error, bool), err error, want errkind.Object, secret string) {
	t.Helper()
	e, ok := read(err)
	if !ok {
		t.Fatalf("Read(%T %v) found no upstream failure", err, err)
	}
	if diff := cmp.Diff(want, Object(e), ApproxWait(2)); diff != "" {
		t.Errorf("Read: kind object (-want +got):\n%s", diff)
	}
	Check(t, err, want, secret)
}

// CheckTimeout checks that a call that gets no answer in time (call,
// made with a context of a 100 ms deadline against an Upstream that holds
// every request) fails with an error that errors.Is finds
// context.DeadlineExceeded in, which read, a clients/NAME module's Read,
// leaves alone, and which reaches the agent of both servers as
// network_error.
func CheckTimeout(t *testing.T, read func(error) (*envelope.Error, bool), call func(ctx context.Context, u *Upstream) error) {
	t.Helper()
	u := Serve(t, Answer{Status: 200, Body: `{}`})
	u.Stall(5 * time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	err := call(ctx, u)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want a deadline", err)
	}
	if e, ok := read(err); ok {
		t.Errorf("Read took a call that got no answer: %v", e)
	}
	replies, cerr := Call(context.Background(), func(context.Context) error { return err })
	if cerr != nil {
		t.Fatal(cerr)
	}
	for _, r := range replies {
		if r.Object == nil || r.Object.Kind != errkind.NetworkError {
			t.Errorf("%s: the agent got %+v, want network_error", r.SDK, r.Outcome)
		}
	}
}

package failures

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// A List keeps the last Max failures, and Attach gives the error back as
// it was when nothing was kept or there is no List.
func TestList(t *testing.T) {
	ctx, l := With(context.Background())
	if From(ctx) != l || From(context.Background()) != nil {
		t.Fatal("From does not find the call's List")
	}
	err := errors.New("boom")
	if got := l.Attach(err); got != err {
		t.Errorf("Attach with nothing kept = %v", got)
	}
	if got := (*List)(nil).Attach(err); got != err {
		t.Errorf("Attach of no List = %v", got)
	}
	for i := range Max + 3 {
		l.Keep(Kept{Err: fmt.Errorf("failure %d", i), Status: i})
	}
	kept := l.Kept()
	if len(kept) != Max || kept[0].Status != 3 || kept[Max-1].Status != Max+2 {
		t.Errorf("kept %d failures, %d to %d", len(kept), kept[0].Status, kept[len(kept)-1].Status)
	}
	a, ok := l.Attach(err).(*Attached)
	if !ok || !errors.Is(a, err) || a.Error() != "boom" || len(a.Kept) != Max {
		t.Errorf("Attach = %#v", a)
	}
}

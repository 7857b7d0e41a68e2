package clienttest_test

import (
	"context"
	"fmt"
	"log"

	"github.com/mcperr/mcperr/clients/clienttest"
	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
)

// A handler's error, wrapped with %w, reaches the agent of either server as
// the same kind object.
func ExampleCall() {
	replies, err := clienttest.Call(context.Background(), func(ctx context.Context) error {
		return fmt.Errorf("get trace: %w", &envelope.Error{Kind: errkind.NotFound, Code: "trace_not_found", Message: "no trace zzz"})
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, a := range replies {
		fmt.Println(a.SDK, a.Object.Kind, a.Object.Code)
	}
	// Output:
	// gosdk not_found trace_not_found
	// mcpgo not_found trace_not_found
}

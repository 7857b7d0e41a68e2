package grpc_test

import (
	"fmt"
	"log"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	_ "github.com/mcperr/mcperr/clients/grpc" // gRPC statuses, for envelope.ErrorOf and the adapters
	"github.com/mcperr/mcperr/envelope"
)

// A handler returns a gRPC client's error wrapped with %w; the import is
// all the setup. RESOURCE_EXHAUSTED is rate_limited, and its RetryInfo is
// the agent's wait.
func Example() {
	st, err := status.New(codes.ResourceExhausted, "Quota exceeded.").WithDetails(&errdetails.RetryInfo{RetryDelay: durationpb.New(12 * time.Second)})
	if err != nil {
		log.Fatal(err)
	}
	e, ok := envelope.ErrorOf(fmt.Errorf("failed to access secret: %w", st.Err()))
	if !ok {
		log.Fatal("no upstream failure")
	}
	b, _ := e.MarshalJSON()
	fmt.Println(string(b))
	// Output:
	// {"kind":"rate_limited","retryAfterSeconds":12}
}

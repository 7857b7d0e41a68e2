package adaptertest_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/adapter/adaptertest"
	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/wire"
)

// An adapter's Handle runs a tool's handler in a context that keeps the
// call's upstream failures (envelope.Track) and answers the kind object of
// the failure its error stands for. Each Case is such a handler's body,
// calling the fake API Server starts; an adapter's test registers one tool
// per Case on its SDK's server and runs them with RunCases, which wants
// each Case's Want, here compared by hand.
func Example() {
	api := adaptertest.Server()
	defer api.Close()
	handle := func(body func(ctx context.Context, api string) error) string {
		ctx, find := envelope.Track(adapter.Enter(context.Background()))
		err := body(ctx, api.URL)
		return wire.ErrorResult(find(err)).Content[0].Text
	}
	host := strings.TrimPrefix(api.URL, "http://")
	for _, c := range adaptertest.Cases() {
		got := strings.ReplaceAll(handle(c.Call), host, "API")
		fmt.Printf("%s: %v\n", c.Name, got == c.Want)
	}
	fmt.Println(strings.ReplaceAll(handle(adaptertest.Cases()[1].Call), host, "API"))
	// Output:
	// a GraphQL client's prose error, wrapped: true
	// a GraphQL RATE_LIMITED: true
	// a client that dropped the 429's headers: true
	// a typed error that kept only its status, among parallel failures: true
	// an *envelope.Error wrapped with %w: true
	// a POST that timed out after it was sent: true
	// {"kind":"rate_limited","retryAfterSeconds":60}
}

// Two adapters' results of one tool compare equal in their canonical form,
// though the go-sdk escapes <, > and & in the JSON a text block holds
// (\u003c) and adds _meta, and the keys come in another order.
func ExampleCanonicalResult() {
	gosdk := `{"content":[{"type":"text","text":"{\"q\":\"a\\u003cb\"}"}],"_meta":{"x":1},"isError":false}`
	mcpgo := `{"isError":false,"content":[{"type":"text","text":"{\"q\":\"a<b\"}"}]}`
	a, _ := adaptertest.CanonicalResult([]byte(gosdk))
	b, _ := adaptertest.CanonicalResult([]byte(mcpgo))
	fmt.Println(a)
	fmt.Println(a == b)
	// Output:
	// {"content":[{"text":"{\"q\":\"a<b\"}","type":"text"}],"isError":false}
	// true
}

package stdio_test

import (
	"fmt"

	"github.com/mcperr/mcperr/adapter/stdio"
)

// A transport checks each line before its SDK sees it: a valid request
// passes as a message, a line that is not JSON gets its answer at once.
func ExampleCheck() {
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":7,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":8,`,
	} {
		m, refusal := stdio.Check([]byte(line), "2025-11-25")
		if refusal != nil {
			fmt.Printf("refused: %s", refusal)
			continue
		}
		fmt.Printf("passed: %s %s\n", m.Method, m.ID)
	}
	// Output:
	// passed: tools/list 7
	// refused: {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}
}

// A request read while the bound is reached is refused with a wait the
// client can read; the code follows the session's protocol revision.
func ExampleBusy() {
	fmt.Printf("%s", stdio.Busy([]byte(`"a-1"`), 256, "2025-11-25"))
	fmt.Printf("%s", stdio.Busy([]byte(`"a-1"`), 256, "2026-07-28"))
	// Output:
	// {"jsonrpc":"2.0","id":"a-1","error":{"code":-32000,"message":"Server busy: 256 requests are in flight; send it again once one is answered","data":{"kind":"unavailable","code":"server_busy","message":"Server busy: 256 requests are in flight; send it again once one is answered","retryAfterSeconds":1}}}
	// {"jsonrpc":"2.0","id":"a-1","error":{"code":-31000,"message":"Server busy: 256 requests are in flight; send it again once one is answered","data":{"kind":"unavailable","code":"server_busy","message":"Server busy: 256 requests are in flight; send it again once one is answered","retryAfterSeconds":1}}}
}

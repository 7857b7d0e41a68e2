package wire_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mcperr/mcperr/wire"
)

// A transport checks each message once, before its SDK sees it: a request
// goes on with its id as sent; an id no stack echoes exactly, or a message
// nested past maxDepth, is answered here and the session carries on.
func ExampleCheckMessage() {
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":"a\u0041","method":"tools/call","params":{"name":"search"}}`,
		`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":9,"method":"ping","params":{"a":` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + `}}`,
		`{"jsonrpc":"2.0","id":2,`,
	} {
		m, err := wire.CheckMessage([]byte(line))
		var me *wire.MessageError
		switch {
		case errors.As(err, &me):
			id := string(me.ID)
			if id == "" {
				id = "null"
			}
			fmt.Printf("refuse: %d, id %s: %s\n", me.Code, id, me.Reason)
		case m.Type == wire.RequestMessage:
			fmt.Printf("request %s, id %s\n", m.Method, m.ID)
		}
	}
	// Output:
	// request tools/call, id "a\u0041"
	// refuse: -32600, id null: the id must be a string or an integer of at most 2^53 in magnitude
	// refuse: -32600, id 9: objects and arrays nest deeper than 128 levels
	// refuse: -32700, id null: the message is not valid JSON
}

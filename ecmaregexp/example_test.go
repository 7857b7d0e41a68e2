package ecmaregexp_test

import (
	"encoding/json"
	"fmt"

	"github.com/mcperr/mcperr/ecmaregexp"
	"github.com/mcperr/mcperr/schemaerr"
)

// A password rule with lookahead, as the TypeScript SDK serves it: schemaerr alone refuses the
// schema; with the engine it validates it and words the failure as zod does.
func Example() {
	schema := []byte(`{"type":"object","properties":{"password":{"type":"string","pattern":"^(?=.*[A-Z])(?=.*\\d).{8,}$"}}}`)
	s, err := schemaerr.Compile(schema, &schemaerr.Options{Patterns: ecmaregexp.Engine{}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(schemaerr.TypeScript.Refuse("signup", s.Validate(json.RawMessage(`{"password":"password1"}`))).Text)
	fmt.Println(s.Validate(json.RawMessage(`{"password":"Password1"}`)) == nil)
	// Output:
	// MCP error -32602: Input validation error: Invalid arguments for tool signup: Invalid string: must match pattern /^(?=.*[A-Z])(?=.*\d).{8,}$/ at password
	// true
}

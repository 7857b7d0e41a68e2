package schemaerr_test

import (
	"fmt"

	"github.com/mcperr/mcperr/schemaerr"
)

// An adapter keeps one Set for a server's tools: a tool's schema is compiled
// on its first call, and again only when the tool is replaced (here its
// version counts up).
func ExampleSet() {
	type tool struct {
		name    string
		version int
		schema  string
	}
	compiles := 0
	var set schemaerr.Set[int]
	call := func(t tool, args string) {
		s, err := set.Schema(t.name, t.version, func() ([]byte, error) {
			compiles++
			return []byte(t.schema), nil
		})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s v%d %s: %d issues, %d compiled\n", t.name, t.version, args, len(s.Validate([]byte(args))), compiles)
	}
	v1 := tool{"search", 1, `{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`}
	call(v1, `{"q":"go"}`)
	call(v1, `{}`)
	v2 := tool{"search", 2, `{"type":"object","properties":{"q":{"type":"string","minLength":3}}}`}
	call(v2, `{"q":"go"}`)
	// Output:
	// search v1 {"q":"go"}: 0 issues, 1 compiled
	// search v1 {}: 1 issues, 1 compiled
	// search v2 {"q":"go"}: 1 issues, 2 compiled
}

package schemaerr_test

import (
	"fmt"

	"github.com/mcperr/mcperr/schemaerr"
)

// A refusal lists at most Bounds.MaxIssues issues (100 by default) and counts the rest, in
// every dialect.
func ExampleBounds_maxIssues() {
	s, err := schemaerr.Compile([]byte(`{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string"}}}}`), &schemaerr.Options{Bounds: schemaerr.Bounds{MaxIssues: 2}})
	if err != nil {
		panic(err)
	}
	issues := s.Validate([]byte(`{"tags":[1,2,3,4]}`))
	fmt.Println(schemaerr.TypeScript.Refuse("tag_items", issues).Text)
	fmt.Println(schemaerr.TypeScriptV2.Refuse("tag_items", issues).Text)
	// Output:
	// MCP error -32602: Input validation error: Invalid arguments for tool tag_items: Invalid input: expected string, received number at tags[0]
	// Invalid input: expected string, received number at tags[1]
	// and 2 more issues
	// Input validation error: Invalid arguments for tool tag_items: tags.0: Invalid input: expected string, received number, tags.1: Invalid input: expected string, received number, and 2 more issues
}

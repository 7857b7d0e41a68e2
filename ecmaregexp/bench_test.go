package ecmaregexp

import (
	"testing"

	"github.com/mcperr/mcperr/schemaerr"
)

// The engine's cost: the same arguments against a schema whose pattern needs the engine
// (lookahead) and one whose pattern RE2 runs.
var (
	benchEngineSchema = []byte(`{"type":"object","properties":{"user":{"type":"string","minLength":3},"password":{"type":"string","pattern":"^(?=.*[A-Z])(?=.*\\d).{8,}$"}},"required":["user","password"]}`)
	benchRE2Schema    = []byte(`{"type":"object","properties":{"user":{"type":"string","minLength":3},"password":{"type":"string","pattern":"^[A-Za-z\\d]*[A-Z][A-Za-z\\d]*$"}},"required":["user","password"]}`)
	benchValid        = []byte(`{"user":"ada","password":"Correct1horse"}`)
	benchInvalid      = []byte(`{"user":"ada","password":"correcthorse"}`)
)

func benchValidate(b *testing.B, schema, args []byte, valid bool) {
	s, err := schemaerr.Compile(schema, schemaerr.WithPatterns(Engine{}))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if issues := s.Validate(args); (issues == nil) != valid {
			b.Fatalf("valid = %v, issues %v", valid, issues)
		}
	}
}

func BenchmarkEngineValid(b *testing.B)   { benchValidate(b, benchEngineSchema, benchValid, true) }
func BenchmarkRE2Valid(b *testing.B)      { benchValidate(b, benchRE2Schema, benchValid, true) }
func BenchmarkEngineInvalid(b *testing.B) { benchValidate(b, benchEngineSchema, benchInvalid, false) }
func BenchmarkRE2Invalid(b *testing.B)    { benchValidate(b, benchRE2Schema, benchInvalid, false) }

package ecmaregexp

import (
	"testing"
	"time"

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
	s, err := schemaerr.Compile(schema, &schemaerr.Options{Patterns: Engine{}})
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

// BenchmarkEngineRatio interleaves batches of the engine's schema and RE2's on the same
// arguments, so that both see the same machine load, and reports engine-valid-x and
// engine-invalid-x: the engine's time over RE2's.
func BenchmarkEngineRatio(b *testing.B) {
	eng, err := schemaerr.Compile(benchEngineSchema, &schemaerr.Options{Patterns: Engine{}})
	if err != nil {
		b.Fatal(err)
	}
	re2, err := schemaerr.Compile(benchRE2Schema, nil)
	if err != nil {
		b.Fatal(err)
	}
	const batch = 200
	var tEngValid, tRE2Valid, tEngInvalid, tRE2Invalid time.Duration
	for b.Loop() {
		t0 := time.Now()
		for range batch {
			_ = re2.Validate(benchValid)
		}
		t1 := time.Now()
		for range batch {
			_ = eng.Validate(benchValid)
		}
		t2 := time.Now()
		for range batch {
			_ = schemaerr.TypeScript.Refuse("t", re2.Validate(benchInvalid)).Text
		}
		t3 := time.Now()
		for range batch {
			_ = schemaerr.TypeScript.Refuse("t", eng.Validate(benchInvalid)).Text
		}
		t4 := time.Now()
		tRE2Valid += t1.Sub(t0)
		tEngValid += t2.Sub(t1)
		tRE2Invalid += t3.Sub(t2)
		tEngInvalid += t4.Sub(t3)
	}
	b.ReportMetric(float64(tEngValid)/float64(tRE2Valid), "engine-valid-x")
	b.ReportMetric(float64(tEngInvalid)/float64(tRE2Invalid), "engine-invalid-x")
}

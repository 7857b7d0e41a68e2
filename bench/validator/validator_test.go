package validator

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/mcperr/mcperr/schemaerr"
)

// searchSchema is vexlo_search's input schema as the TypeScript SDK publishes it (zod's JSON
// Schema, schemaerr/testdata/golden/zod.tools.json).
const searchSchema = `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"query":{"type":"string","minLength":3,"maxLength":20},"service":{"type":"string","pattern":"^[a-z][a-z0-9-]*$"},"order":{"type":"string","enum":["asc","desc"]},"environment":{"anyOf":[{"type":"object","properties":{"named":{"type":"array","items":{"type":"string"}}},"required":["named"],"additionalProperties":false},{"type":"object","properties":{"unset":{"type":"boolean","const":true}},"required":["unset"],"additionalProperties":false}]},"filter":{"type":"object","properties":{"window":{"type":"object","properties":{"hours":{"type":"number","maximum":168}},"required":["hours"]}},"required":["window"]},"limit":{"type":"integer","minimum":1,"maximum":100},"exact":{"type":"boolean","const":true},"ratio":{"type":"number","minimum":0.5,"maximum":2.5},"tags":{"minItems":1,"type":"array","items":{"type":"string","minLength":2}},"slug":{"type":"string","maxLength":5,"pattern":"^[a-z]+$"}},"required":["query"]}`

var (
	valid   = []byte(`{"query":"hello","service":"api-1","order":"asc","environment":{"named":["prod"]},"filter":{"window":{"hours":24}},"limit":10,"tags":["ab","cd"]}`)
	invalid = []byte(`{"query":"ab","order":"up","limit":1.5,"filter":{"window":{"hours":200}},"tags":["ab","cd"]}`)
)

// resolved compiles the schema as go-sdk v1.8.0 does for a tool with an explicit input schema
// (mcp/server.go setSchema): unmarshal into *jsonschema.Schema, then Resolve.
func resolved(tb testing.TB) *jsonschema.Resolved {
	tb.Helper()
	var s jsonschema.Schema
	if err := json.Unmarshal([]byte(searchSchema), &s); err != nil {
		tb.Fatal(err)
	}
	// go-sdk resolves with ValidateDefaults; draft-07's $schema is not one jsonschema-go takes, so
	// it is dropped here, as a go-sdk server would have to.
	s.Schema = ""
	r, err := s.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

func compiled(tb testing.TB) *schemaerr.Schema {
	tb.Helper()
	s, err := schemaerr.Compile([]byte(searchSchema), nil)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// goSDK is go-sdk v1.8.0's per-call work on tool arguments (mcp/tool.go applySchema): unmarshal
// into a map, apply defaults, validate, and marshal again.
func goSDK(r *jsonschema.Resolved, data []byte) error {
	var v any = map[string]any{}
	m := map[string]any{}
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	v = m
	if err := r.ApplyDefaults(&v); err != nil {
		return err
	}
	if err := r.Validate(&v); err != nil {
		return err
	}
	_, err := json.Marshal(v)
	return err
}

// TestSameVerdicts checks the two validators agree on the benchmark inputs.
func TestSameVerdicts(t *testing.T) {
	r, s := resolved(t), compiled(t)
	if err := goSDK(r, valid); err != nil {
		t.Errorf("jsonschema-go rejects the valid arguments: %v", err)
	}
	if issues := s.Validate(valid); issues != nil {
		t.Errorf("schemaerr rejects the valid arguments: %v", issues)
	}
	if err := goSDK(r, invalid); err == nil {
		t.Error("jsonschema-go accepts the invalid arguments")
	}
	if issues := s.Validate(invalid); len(issues) != 4 {
		t.Errorf("schemaerr: %d issues, want 4: %v", len(issues), issues)
	}
}

func BenchmarkValid(b *testing.B) {
	b.Run("schemaerr", func(b *testing.B) {
		s := compiled(b)
		b.ReportAllocs()
		for b.Loop() {
			if s.Validate(valid) != nil {
				b.Fatal("rejected")
			}
		}
	})
	b.Run("jsonschema-go/go-sdk-path", func(b *testing.B) {
		r := resolved(b)
		b.ReportAllocs()
		for b.Loop() {
			if err := goSDK(r, valid); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("jsonschema-go/unmarshal+validate", func(b *testing.B) {
		r := resolved(b)
		b.ReportAllocs()
		for b.Loop() {
			var v any
			if err := json.Unmarshal(valid, &v); err != nil {
				b.Fatal(err)
			}
			if err := r.Validate(v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("jsonschema-go/validate-only", func(b *testing.B) {
		r := resolved(b)
		var v any
		if err := json.Unmarshal(valid, &v); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if err := r.Validate(v); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkInvalid(b *testing.B) {
	b.Run("schemaerr+text", func(b *testing.B) {
		s := compiled(b)
		b.ReportAllocs()
		for b.Loop() {
			issues := s.Validate(invalid)
			if issues == nil {
				b.Fatal("accepted")
			}
			_ = schemaerr.TypeScript.Refuse("vexlo_search", issues).Text
		}
	})
	b.Run("jsonschema-go/go-sdk-path", func(b *testing.B) {
		r := resolved(b)
		b.ReportAllocs()
		for b.Loop() {
			if err := goSDK(r, invalid); err == nil {
				b.Fatal("accepted")
			} else {
				_ = err.Error()
			}
		}
	})
	b.Run("jsonschema-go/unmarshal+validate", func(b *testing.B) {
		r := resolved(b)
		b.ReportAllocs()
		for b.Loop() {
			var v any
			if err := json.Unmarshal(invalid, &v); err != nil {
				b.Fatal(err)
			}
			if err := r.Validate(v); err == nil {
				b.Fatal("accepted")
			} else {
				_ = err.Error()
			}
		}
	})
	b.Run("jsonschema-go/validate-only", func(b *testing.B) {
		r := resolved(b)
		var v any
		if err := json.Unmarshal(invalid, &v); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if err := r.Validate(v); err == nil {
				b.Fatal("accepted")
			} else {
				_ = err.Error()
			}
		}
	})
}

// BenchmarkRatio runs schemaerr and jsonschema-go in alternating batches, so both see the same
// machine load, and reports schemaerr's time over jsonschema-go's (below 1: schemaerr is faster).
// schemaerr always starts from the raw bytes; "sdk" is go-sdk's whole per-call path, "validate"
// is jsonschema-go's Validate alone on an already decoded value.
func BenchmarkRatio(b *testing.B) {
	s, r := compiled(b), resolved(b)
	var dv, di any
	if err := json.Unmarshal(valid, &dv); err != nil {
		b.Fatal(err)
	}
	if err := json.Unmarshal(invalid, &di); err != nil {
		b.Fatal(err)
	}
	const batch = 100
	var ours, sdk, only [2]time.Duration // [valid, invalid]
	for b.Loop() {
		for k, data := range [][]byte{valid, invalid} {
			decoded := []any{dv, di}[k]
			t0 := time.Now()
			for range batch {
				if issues := s.Validate(data); issues != nil {
					_ = schemaerr.TypeScript.Refuse("vexlo_search", issues).Text
				}
			}
			t1 := time.Now()
			for range batch {
				if err := goSDK(r, data); err != nil {
					_ = err.Error()
				}
			}
			t2 := time.Now()
			for range batch {
				if err := r.Validate(decoded); err != nil {
					_ = err.Error()
				}
			}
			t3 := time.Now()
			ours[k] += t1.Sub(t0)
			sdk[k] += t2.Sub(t1)
			only[k] += t3.Sub(t2)
		}
	}
	b.ReportMetric(float64(ours[0])/float64(sdk[0]), "valid/sdk")
	b.ReportMetric(float64(ours[0])/float64(only[0]), "valid/validate")
	b.ReportMetric(float64(ours[1])/float64(sdk[1]), "invalid/sdk")
	b.ReportMetric(float64(ours[1])/float64(only[1]), "invalid/validate")
}

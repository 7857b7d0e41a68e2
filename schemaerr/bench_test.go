package schemaerr

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The benchmarks compare schemaerr on raw argument bytes with the anchor named in the issue:
// json.Unmarshal of the same bytes into map[string]any.
var (
	benchValid   = []byte(`{"query":"hello","service":"api-1","order":"asc","environment":{"named":["prod"]},"filter":{"window":{"hours":24}},"limit":10,"tags":["ab","cd"]}`)
	benchInvalid = []byte(`{"query":"ab","order":"up","limit":1.5,"filter":{"window":{"hours":200}},"tags":["ab","cd"]}`)
)

func benchSchema(b *testing.B) *Schema {
	b.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "golden", "zod.tools.json"))
	if err != nil {
		b.Fatal(err)
	}
	var tools map[string]json.RawMessage
	if err := json.Unmarshal(raw, &tools); err != nil {
		b.Fatal(err)
	}
	s, err := Compile(tools["vexlo_search"], nil)
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// benchUnmarshal measures the anchor: encoding/json decoding data into a
// map, as a server that validates after decoding does.
func benchUnmarshal(b *testing.B, data []byte) {
	b.ReportAllocs()
	for b.Loop() {
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkUnmarshalValid(b *testing.B) { benchUnmarshal(b, benchValid) }

func BenchmarkValidateValid(b *testing.B) {
	s := benchSchema(b)
	b.ReportAllocs()
	for b.Loop() {
		if issues := s.Validate(benchValid); issues != nil {
			b.Fatal(issues)
		}
	}
}

func BenchmarkUnmarshalInvalid(b *testing.B) { benchUnmarshal(b, benchInvalid) }

// BenchmarkRejectFourIssues validates arguments with four issues and builds the text.
func BenchmarkRejectFourIssues(b *testing.B) {
	s := benchSchema(b)
	b.ReportAllocs()
	for b.Loop() {
		issues := s.Validate(benchInvalid)
		if len(issues) != 4 {
			b.Fatal(issues)
		}
		_ = TypeScript.Refuse("vexlo_search", issues).Text
	}
}

// BenchmarkRatio runs each operation and its anchor in alternating batches, so both see the same
// machine load, and reports the ratios the issue sets: valid-x (Validate of valid arguments over
// json.Unmarshal of them, at most 1.5) and reject-x (Validate of arguments with four issues plus
// Text, over json.Unmarshal of them, at most 3).
func BenchmarkRatio(b *testing.B) {
	s := benchSchema(b)
	const batch = 200
	var tValid, tUnValid, tReject, tUnInvalid time.Duration
	for b.Loop() {
		t0 := time.Now()
		for range batch {
			var m map[string]any
			_ = json.Unmarshal(benchValid, &m)
		}
		t1 := time.Now()
		for range batch {
			_ = s.Validate(benchValid)
		}
		t2 := time.Now()
		for range batch {
			var m map[string]any
			_ = json.Unmarshal(benchInvalid, &m)
		}
		t3 := time.Now()
		for range batch {
			_ = TypeScript.Refuse("vexlo_search", s.Validate(benchInvalid)).Text
		}
		t4 := time.Now()
		tUnValid += t1.Sub(t0)
		tValid += t2.Sub(t1)
		tUnInvalid += t3.Sub(t2)
		tReject += t4.Sub(t3)
	}
	b.ReportMetric(float64(tValid)/float64(tUnValid), "valid-x")
	b.ReportMetric(float64(tReject)/float64(tUnInvalid), "reject-x")
}

// BenchmarkJSONSchemaV6Valid is jsonschema/v6's own decode and Validate on the same schema and
// arguments, for comparison: schemaerr compiles with jsonschema/v6 but validates with its own walk.
func BenchmarkJSONSchemaV6Valid(b *testing.B) {
	raw, err := os.ReadFile(filepath.Join("testdata", "golden", "zod.tools.json"))
	if err != nil {
		b.Fatal(err)
	}
	var tools map[string]json.RawMessage
	if err := json.Unmarshal(raw, &tools); err != nil {
		b.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(tools["vexlo_search"]))
	if err != nil {
		b.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("s.json", doc); err != nil {
		b.Fatal(err)
	}
	sch, err := c.Compile("s.json")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(benchValid))
		if err != nil {
			b.Fatal(err)
		}
		if err := sch.Validate(v); err != nil {
			b.Fatal(err)
		}
	}
}

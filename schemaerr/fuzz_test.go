package schemaerr

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// fuzzSchemas are the schemas FuzzValidate runs every input against.
var fuzzSchemas = []string{"vexlo_get_values", "vexlo_search", "vexlo_union_max", "vexlo_strict", "vexlo_loose_object"}

const recursiveSchema = `{"$defs":{"t":{"type":"object","properties":{"v":{"type":"number","maximum":3},"kids":{"type":"array","maxItems":4,"items":{"$ref":"#/$defs/t"}}},"additionalProperties":false}},"$ref":"#/$defs/t"}`

// FuzzValidate feeds arbitrary bytes as arguments to several schemas: Validate must not panic,
// must give the same text twice, and must agree with jsonschema/v6's own validator on whether
// the arguments are valid, wherever JSON Schema and zod agree (plain numbers, UTF-8, within the
// limits).
func FuzzValidate(f *testing.F) {
	tools, cases := readGolden(f, "zod")
	for _, c := range cases {
		f.Add([]byte(c.Args))
	}
	_, derived := readGolden(f, "derived")
	for _, c := range derived {
		f.Add([]byte(c.Args))
	}
	for _, s := range []string{``, `null`, `[]`, `{"a":`, strings.Repeat("[", 100), `{"query":"\ud800"}`, `{"kids":[{"kids":[{"v":4}]}]}`, `{"n":1e400}`} {
		f.Add([]byte(s))
	}
	type pair struct {
		name string
		ours *Schema
		ref  *jsonschema.Schema
	}
	var pairs []pair
	raws := map[string]string{"recursive": recursiveSchema}
	for _, name := range fuzzSchemas {
		raws[name] = string(tools[name])
	}
	for name, raw := range raws {
		ours, err := Compile([]byte(raw), nil)
		if err != nil {
			f.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(raw))
		if err != nil {
			f.Fatal(err)
		}
		c := jsonschema.NewCompiler()
		c.UseRegexpEngine(func(s string) (jsonschema.Regexp, error) { return compileECMA(s) })
		if err := c.AddResource("s.json", doc); err != nil {
			f.Fatal(err)
		}
		ref, err := c.Compile("s.json")
		if err != nil {
			f.Fatal(err)
		}
		pairs = append(pairs, pair{name, ours, ref})
	}
	// the derived tools' formats and zod-only rules are not JSON Schema's: no cross-check
	dtools, _ := readGolden(f, "derived")
	for name, raw := range dtools {
		ours, err := Compile(raw, nil)
		if err != nil {
			f.Fatal(err)
		}
		pairs = append(pairs, pair{name, ours, nil})
	}
	slices.SortFunc(pairs, func(a, b pair) int { return strings.Compare(a.name, b.name) })
	f.Fuzz(func(t *testing.T, args []byte) {
		for _, p := range pairs {
			first := TypeScript.Refuse(p.name, p.ours.Validate(args)).Text
			if second := TypeScript.Refuse(p.name, p.ours.Validate(args)).Text; first != second {
				t.Fatalf("%s: two texts for one input:\n%s\n%s", p.name, first, second)
			}
			if p.ref == nil || !comparableArgs(args) {
				continue
			}
			v, err := jsonschema.UnmarshalJSON(bytes.NewReader(args))
			if err != nil {
				continue
			}
			refOK := p.ref.Validate(v) == nil
			if oursOK := first == ""; oursOK != refOK {
				t.Fatalf("%s: schemaerr valid=%v, jsonschema/v6 valid=%v for %s\n%s", p.name, oursOK, refOK, args, first)
			}
		}
	})
}

// comparableArgs reports whether JSON Schema and zod read args alike: valid UTF-8 JSON within the
// default limits, an object, whose numbers are all plain safe integers (zod reads numbers as
// float64 and refuses unsafe integers and Infinity; JSON Schema reads them exactly).
func comparableArgs(args []byte) bool {
	if !utf8.Valid(args) || !json.Valid(args) || len(args) > defaultMaxBytes {
		return false
	}
	t := bytes.TrimSpace(args)
	if len(t) == 0 || t[0] != '{' {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	depth, maxDepth := 0, 0
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch tok := tok.(type) {
		case json.Delim:
			if tok == '{' || tok == '[' {
				depth++
				maxDepth = max(maxDepth, depth)
			} else {
				depth--
			}
		case json.Number:
			s := strings.TrimPrefix(tok.String(), "-")
			if strings.ContainsAny(s, ".eE") || len(s) > 15 {
				return false
			}
		case string:
			if strings.ContainsRune(tok, utf8.RuneError) {
				return false // a lone surrogate: JSON Schema and JavaScript count it differently
			}
		}
	}
	return maxDepth <= defaultMaxDepth
}

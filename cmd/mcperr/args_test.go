package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/schemaerr"
)

// Each probe changes one thing in arguments the schema otherwise accepts,
// and only arguments the schema forbids are kept.
func TestArgProbes(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		want   []string // name -> args
	}{
		{
			name:   "required string with bounds, closed object",
			schema: `{"type":"object","properties":{"q":{"type":"string","minLength":2,"maxLength":3}},"required":["q"],"additionalProperties":false}`,
			want: []string{
				`missing required: q {}`,
				`wrong type: q {"q":12345}`,
				`null: q {"q":null}`,
				`too short: q {"q":"a"}`,
				`too long: q {"q":"aaaa"}`,
				`unknown property {"mcperrAuditUnknown":1,"q":"aa"}`,
			},
		},
		{
			name:   "an open object gets no unknown property; an optional one no missing",
			schema: `{"type":"object","properties":{"n":{"type":"integer","minimum":1,"maximum":5}}}`,
			want: []string{
				`wrong type: n {"n":"not-a-number"}`,
				`null: n {"n":null}`,
				`below minimum: n {"n":0}`,
				`above maximum: n {"n":6}`,
			},
		},
		{
			name:   "enum, const, a nullable property and exclusive bounds",
			schema: `{"type":"object","properties":{"o":{"type":"string","enum":["asc","desc"]},"k":{"const":"v"},"x":{"type":["number","null"],"exclusiveMinimum":0}}}`,
			want: []string{
				`wrong type: k {"k":12345}`,
				`null: k {"k":null}`,
				`not the const: k {"k":"v-not-an-option"}`,
				`wrong type: o {"o":12345}`,
				`null: o {"o":null}`,
				`not in enum: o {"o":"asc-not-an-option"}`,
				`wrong type: x {"x":"not-a-number"}`,
				`below minimum: x {"x":0}`,
			},
		},
		{
			name:   "arrays, and a nested mistake through $ref",
			schema: `{"type":"object","$defs":{"p":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}},"properties":{"tags":{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":2},"addr":{"$ref":"#/$defs/p"}},"required":["tags"]}`,
			want: []string{
				`wrong type: addr {"addr":12345,"tags":["a"]}`,
				`null: addr {"addr":null,"tags":["a"]}`,
				`nested wrong type: addr.city {"addr":{"city":12345},"tags":["a"]}`,
				`missing required: tags {}`,
				`wrong type: tags {"tags":12345}`,
				`null: tags {"tags":null}`,
				`too few items: tags {"tags":[]}`,
				`too many items: tags {"tags":["a","a","a"]}`,
			},
		},
		{
			name:   "a mistake in the first element of an array of objects",
			schema: `{"type":"object","properties":{"items":{"type":"array","items":{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"]}}}}`,
			want: []string{
				`wrong type: items {"items":12345}`,
				`null: items {"items":null}`,
				`nested missing required: items[0].id {"items":[{}]}`,
			},
		},
		{
			name:   "a schema that allows anything gets no probe",
			schema: `{"type":"object"}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := argProbes("t", []byte(tt.schema))
			if err != nil {
				t.Fatal(err)
			}
			probes := p.probes
			var got []string
			for _, p := range probes {
				got = append(got, p.name+" "+string(p.args))
				if !strings.HasPrefix(p.expected, "MCP error -32602: ") {
					t.Errorf("%s: expected text %q", p.name, p.expected)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("probes (-want +got):\n%s", diff)
			}
		})
	}
}

// The expected text is schemaerr's: the TypeScript SDK's, byte for byte.
func TestArgProbeExpectedText(t *testing.T) {
	p, err := argProbes("get_values", []byte(`{"type":"object","properties":{"path":{"type":"array","items":{"type":"string"},"maxItems":1}},"required":["path"]}`))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range p.probes {
		got = append(got, p.expected)
	}
	want := []string{
		"MCP error -32602: Input validation error: Invalid arguments for tool get_values: Invalid input: expected array, received undefined at path",
		"MCP error -32602: Input validation error: Invalid arguments for tool get_values: Invalid input: expected array, received number at path",
		"MCP error -32602: Input validation error: Invalid arguments for tool get_values: Invalid input: expected array, received null at path",
		"MCP error -32602: Input validation error: Invalid arguments for tool get_values: Too big: expected array to have <=1 items at path",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("expected texts (-want +got):\n%s", diff)
	}
}

// A schema schemaerr cannot compile is reported, not probed.
func TestArgProbesBadSchema(t *testing.T) {
	if _, err := argProbes("t", []byte(`{"type":"object","properties":{"a":{"type":"nope"}}}`)); err == nil {
		t.Error("no error for a schema that does not compile")
	}
}

// Whatever the schema, argProbes does not panic, stays bounded, and every
// probe it returns is refused by the schema.
func FuzzArgProbes(f *testing.F) {
	for _, s := range []string{
		`{"type":"object","properties":{"q":{"type":"string","minLength":2}},"required":["q"],"additionalProperties":false}`,
		`{"type":"object","properties":{"a":{"type":"array","items":{"type":"object","properties":{"b":{"enum":[1,2]}}},"maxItems":2}}}`,
		`{"type":"object","$defs":{"x":{"$ref":"#/$defs/x"}},"properties":{"x":{"$ref":"#/$defs/x"}}}`,
		`{"type":"object","properties":{"n":{"anyOf":[{"type":"integer","maximum":3},{"type":"null"}]}}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, schema string) {
		p, err := argProbes("t", []byte(schema))
		if err != nil {
			return
		}
		probes := p.probes
		if len(probes) > maxProbes {
			t.Fatalf("%d probes, more than %d", len(probes), maxProbes)
		}
		s, err := schemaerr.Compile([]byte(schema), nil)
		if err != nil {
			return // compiles only with the ECMAScript engine
		}
		for _, p := range probes {
			if !json.Valid(p.args) {
				t.Fatalf("%s: arguments %s are not JSON", p.name, p.args)
			}
			if len(s.Validate(p.args)) == 0 {
				t.Fatalf("%s: arguments %s are allowed by the schema", p.name, p.args)
			}
		}
	})
}

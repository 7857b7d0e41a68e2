package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/mcperr/mcperr/ecmaregexp"
	"github.com/mcperr/mcperr/schemaerr"
)

// unknownKey is the property an "unknown property" probe adds.
const unknownKey = "mcperrAuditUnknown"

// maxProbes bounds the bad-argument probes of one tool.
const maxProbes = 40

// argProbe is one set of arguments a tool's schema forbids.
type argProbe struct {
	name     string          // "wrong type: limit"
	field    string          // the argument at fault: "limit", "filter.window.hours", "tags[0]"
	args     json.RawMessage // what is sent
	expected string          // the TypeScript SDK's text for it, from schemaerr
}

// schemaDoc is a decoded JSON Schema with what resolving its local
// references needs.
type schemaDoc struct {
	root map[string]any
}

// argProbes returns the bad-argument probes of a tool: each mistake the
// schema lets us build, kept only when schemaerr refuses the arguments
// (so only arguments the schema forbids are ever sent), with the text the
// TypeScript SDK answers for them.
func argProbes(tool string, schema []byte) ([]argProbe, error) {
	compiled, err := schemaerr.Compile(schema, schemaerr.WithPatterns(ecmaregexp.Engine{}))
	if err != nil {
		return nil, fmt.Errorf("its input schema does not compile: %w", err)
	}
	var root map[string]any
	dec := json.NewDecoder(bytes.NewReader(schema))
	dec.UseNumber()
	if err := dec.Decode(&root); err != nil {
		return nil, fmt.Errorf("its input schema is not a JSON object: %w", err)
	}
	d := &schemaDoc{root: root}
	base, _ := d.example(root, 0).(map[string]any)
	if base == nil {
		base = map[string]any{}
	}

	var out []argProbe
	seen := map[string]bool{}
	add := func(name, field string, args map[string]any) {
		if len(out) >= maxProbes {
			return
		}
		raw, err := json.Marshal(args)
		if err != nil || seen[string(raw)] {
			return
		}
		seen[string(raw)] = true
		issues := compiled.Validate(raw)
		if len(issues) == 0 {
			return // the schema allows it: never sent
		}
		out = append(out, argProbe{name: name, field: field, args: raw, expected: schemaerr.Text(tool, issues)})
	}

	obj := d.resolve(root, 0)
	for _, m := range d.objectMistakes(obj, base, "", 0) {
		add(m.name, m.field, m.apply(cloneMap(base)))
	}
	// An unknown property, refused only where the schema closes the object.
	args := cloneMap(base)
	args[unknownKey] = 1
	add("unknown property", unknownKey, args)
	return out, nil
}

// mistake is one change to valid arguments that the schema forbids.
type mistake struct {
	name, field string
	apply       func(args map[string]any) map[string]any
}

// objectMistakes lists the mistakes of an object schema's properties, in the
// order of their names; base is the object's valid example, prefix its path.
// Below the top level, only the first mistake of each nested object is kept:
// one nested mistake per property is what the probe needs.
func (d *schemaDoc) objectMistakes(obj map[string]any, base map[string]any, prefix string, depth int) []mistake {
	props, _ := obj["properties"].(map[string]any)
	names := make([]string, 0, len(props))
	for k := range props {
		names = append(names, k)
	}
	slices.Sort(names)
	required := map[string]bool{}
	if req, ok := obj["required"].([]any); ok {
		for _, r := range req {
			if s, ok := r.(string); ok {
				required[s] = true
			}
		}
	}
	var out []mistake
	for _, name := range names {
		ps, _ := props[name].(map[string]any)
		ps = d.resolve(ps, 0)
		if ps == nil {
			continue
		}
		field := joinPath(prefix, name)
		set := func(v any) func(map[string]any) map[string]any {
			return func(args map[string]any) map[string]any {
				args[name] = v
				return args
			}
		}
		if required[name] {
			out = append(out, mistake{"missing required: " + field, field, func(args map[string]any) map[string]any {
				delete(args, name)
				return args
			}})
		}
		for _, v := range d.valueMistakes(ps) {
			out = append(out, mistake{v.name + ": " + field, field, set(v.value)})
		}
		if depth > 0 {
			continue
		}
		// A nested mistake: inside an object property, or inside the first element of an array of objects.
		types := d.types(ps)
		if types["object"] {
			child, _ := d.example(ps, 1).(map[string]any)
			if child == nil {
				child = map[string]any{}
			}
			if nested := d.objectMistakes(ps, child, field, depth+1); len(nested) > 0 {
				m := nested[0]
				for _, n := range nested {
					if strings.HasPrefix(n.name, "wrong type") {
						m = n
						break
					}
				}
				out = append(out, mistake{"nested " + m.name, m.field, func(args map[string]any) map[string]any {
					args[name] = m.apply(cloneMap(child))
					return args
				}})
			}
		}
		if items, ok := ps["items"].(map[string]any); ok && types["array"] {
			items = d.resolve(items, 0)
			if d.types(items)["object"] {
				child, _ := d.example(items, 1).(map[string]any)
				if child == nil {
					child = map[string]any{}
				}
				elem := field + "[0]"
				if nested := d.objectMistakes(items, child, elem, depth+1); len(nested) > 0 {
					m := nested[0]
					arr, _ := d.example(ps, 1).([]any)
					out = append(out, mistake{"nested " + m.name, m.field, func(args map[string]any) map[string]any {
						a := slices.Clone(arr)
						if len(a) == 0 {
							a = []any{nil}
						}
						a[0] = m.apply(cloneMap(child))
						args[name] = a
						return args
					}})
				}
			}
		}
	}
	return out
}

// badValue is a value a property's schema refuses, and why.
type badValue struct {
	name  string
	value any
}

// valueMistakes lists the values a property's schema refuses: a wrong type,
// null, an enum or const violated, a number out of range, a string or array
// too short or too long.
func (d *schemaDoc) valueMistakes(s map[string]any) []badValue {
	var out []badValue
	types := d.types(s)
	if len(types) > 0 {
		// The first candidate of a JSON type the property does not take.
		for _, c := range []struct {
			t string
			v any
		}{{"number", 12345}, {"string", "not-a-number"}, {"boolean", true}, {"array", []any{}}, {"object", map[string]any{}}} {
			if types[c.t] || (c.t == "number" && types["integer"]) {
				continue
			}
			out = append(out, badValue{"wrong type", c.v})
			break
		}
		if !types["null"] {
			out = append(out, badValue{"null", nil})
		}
	}
	if enum, ok := s["enum"].([]any); ok && len(enum) > 0 {
		out = append(out, badValue{"not in enum", notIn(enum)})
	}
	if c, ok := s["const"]; ok {
		out = append(out, badValue{"not the const", notIn([]any{c})})
	}
	integer := types["integer"] && !types["number"]
	step := 1.0
	if !integer {
		step = 0.5
	}
	if f, ok := num(s["minimum"]); ok {
		if b, _ := s["exclusiveMinimum"].(bool); b {
			out = append(out, badValue{"below minimum", numValue(f, integer)})
		} else {
			out = append(out, badValue{"below minimum", numValue(f-step, integer)})
		}
	} else if f, ok := num(s["exclusiveMinimum"]); ok {
		out = append(out, badValue{"below minimum", numValue(f, integer)})
	}
	if f, ok := num(s["maximum"]); ok {
		if b, _ := s["exclusiveMaximum"].(bool); b {
			out = append(out, badValue{"above maximum", numValue(f, integer)})
		} else {
			out = append(out, badValue{"above maximum", numValue(f+step, integer)})
		}
	} else if f, ok := num(s["exclusiveMaximum"]); ok {
		out = append(out, badValue{"above maximum", numValue(f, integer)})
	}
	if n, ok := count(s["minLength"]); ok && n > 0 && n <= 10_000 {
		out = append(out, badValue{"too short", strings.Repeat("a", n-1)})
	}
	if n, ok := count(s["maxLength"]); ok && n < 10_000 {
		out = append(out, badValue{"too long", strings.Repeat("a", n+1)})
	}
	if items, ok := s["items"].(map[string]any); ok || s["items"] == nil {
		item := d.example(d.resolve(items, 0), 1)
		if n, ok := count(s["minItems"]); ok && n > 0 && n <= 1_000 {
			out = append(out, badValue{"too few items", repeat(item, n-1)})
		}
		if n, ok := count(s["maxItems"]); ok && n < 1_000 {
			out = append(out, badValue{"too many items", repeat(item, n+1)})
		}
	}
	return out
}

// example returns a value the schema accepts, as far as its keywords tell:
// the default, the const, the first enum value or example, or a value of its
// first type within its bounds; an object holds its required properties.
func (d *schemaDoc) example(s map[string]any, depth int) any {
	s = d.resolve(s, 0)
	if s == nil || depth > 4 {
		return nil
	}
	if v, ok := s["default"]; ok {
		return v
	}
	if v, ok := s["const"]; ok {
		return v
	}
	if enum, ok := s["enum"].([]any); ok && len(enum) > 0 {
		return enum[0]
	}
	if ex, ok := s["examples"].([]any); ok && len(ex) > 0 {
		return ex[0]
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if alts, ok := s[k].([]any); ok && len(alts) > 0 {
			for _, a := range alts {
				if m, ok := a.(map[string]any); ok && !d.types(m)["null"] {
					return d.example(m, depth+1)
				}
			}
		}
	}
	types := d.types(s)
	switch {
	case types["object"]:
		obj := map[string]any{}
		props, _ := s["properties"].(map[string]any)
		if req, ok := s["required"].([]any); ok {
			for _, r := range req {
				name, _ := r.(string)
				ps, _ := props[name].(map[string]any)
				obj[name] = d.example(ps, depth+1)
			}
		}
		return obj
	case types["array"]:
		items, _ := s["items"].(map[string]any)
		n, _ := count(s["minItems"])
		return repeat(d.example(d.resolve(items, 0), depth+1), min(n, 16))
	case types["string"]:
		n, _ := count(s["minLength"])
		n = min(max(n, 1), 10_000)
		if f, _ := s["format"].(string); f != "" {
			switch f {
			case "uri", "url":
				return "https://example.com/"
			case "email":
				return "audit@example.com"
			case "date-time":
				return "2026-01-01T00:00:00Z"
			case "date":
				return "2026-01-01"
			case "uuid":
				return "00000000-0000-4000-8000-000000000000"
			}
		}
		return strings.Repeat("a", n)
	case types["integer"], types["number"]:
		if f, ok := num(s["minimum"]); ok {
			return numValue(math.Ceil(f), true)
		}
		if f, ok := num(s["exclusiveMinimum"]); ok {
			return numValue(math.Floor(f)+1, true)
		}
		if f, ok := num(s["maximum"]); ok && f < 1 {
			return numValue(math.Floor(f), true)
		}
		return 1
	case types["boolean"]:
		return false
	}
	return nil
}

// types returns the JSON types a schema takes: its "type" keyword, or those
// its anyOf/oneOf branches, enum or const take.
func (d *schemaDoc) types(s map[string]any) map[string]bool {
	out := map[string]bool{}
	s = d.resolve(s, 0)
	if s == nil {
		return out
	}
	switch t := s["type"].(type) {
	case string:
		out[t] = true
		return out
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok {
				out[s] = true
			}
		}
		return out
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if alts, ok := s[k].([]any); ok {
			for _, a := range alts {
				m, _ := a.(map[string]any)
				sub := d.types(m)
				if len(sub) == 0 {
					return map[string]bool{} // a branch of any type: no wrong type to send
				}
				for t := range sub {
					out[t] = true
				}
			}
			return out
		}
	}
	var vals []any
	if enum, ok := s["enum"].([]any); ok {
		vals = enum
	}
	if c, ok := s["const"]; ok {
		vals = append(vals, c)
	}
	for _, v := range vals {
		out[jsonType(v)] = true
	}
	if len(vals) == 0 {
		if _, ok := s["properties"]; ok {
			out["object"] = true
		}
	}
	return out
}

// resolve follows a local $ref ("#/$defs/x", "#/definitions/x"), a few
// levels deep at most.
func (d *schemaDoc) resolve(s map[string]any, depth int) map[string]any {
	ref, ok := s["$ref"].(string)
	if !ok || depth > 8 {
		return s
	}
	node := any(d.root)
	for _, part := range strings.Split(strings.TrimPrefix(ref, "#"), "/") {
		if part == "" {
			continue
		}
		part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
		m, ok := node.(map[string]any)
		if !ok {
			return s
		}
		node = m[part]
	}
	m, ok := node.(map[string]any)
	if !ok {
		return s
	}
	return d.resolve(m, depth+1)
}

// notIn returns a value of the first value's type that none of vals is.
func notIn(vals []any) any {
	switch v := vals[0].(type) {
	case string:
		return v + "-not-an-option"
	case json.Number:
		hi := math.Inf(-1)
		for _, x := range vals {
			if f, ok := num(x); ok && f > hi {
				hi = f
			}
		}
		return numValue(math.Floor(hi)+1, true)
	case bool:
		return !v
	}
	return "not-an-option"
}

func jsonType(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		if _, err := strconv.ParseInt(string(v), 10, 64); err == nil {
			return "integer"
		}
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	}
	return "object"
}

func num(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil && !math.IsInf(f, 0)
}

func count(v any) (int, bool) {
	f, ok := num(v)
	if !ok || f < 0 || f > math.MaxInt32 {
		return 0, false
	}
	return int(f), true
}

// numValue writes f as a JSON number: an integer when whole.
func numValue(f float64, integer bool) json.Number {
	if integer || f == math.Trunc(f) {
		if math.Abs(f) < 1<<53 {
			return json.Number(strconv.FormatInt(int64(f), 10))
		}
	}
	return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
}

func repeat(v any, n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = v
	}
	return out
}

func cloneMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}

func joinPath(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

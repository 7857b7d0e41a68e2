package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
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

// maxTries bounds the mistakes one tool's probes are built from: each costs
// a copy and a validation of the arguments, so a schema of thousands of
// properties costs the audit a bounded multiple of its size, not its square.
const maxTries = 4 * maxProbes

// maxProbeBytes bounds the bytes of arguments one tool's probes are built
// and validated from: a base of 100 KB gets 80 tries, not 160.
const maxProbeBytes = 8 << 20

// plan is what the audit sends one tool: the valid base arguments (the
// control call) and the probes, each the base with one mistake.
type plan struct {
	base   json.RawMessage
	probes []argProbe
}

// noBaseError reports a schema for which no valid base arguments could be
// built: the tool is reported, not probed with arguments that carry more
// than one mistake.
type noBaseError struct {
	issues []schemaerr.Issue
}

func (e *noBaseError) Error() string {
	msg := "no arguments it allows could be built from its schema"
	if len(e.issues) > 0 {
		msg += ": " + e.issues[0].String()
	}
	return msg
}

// argProbes returns a tool's plan: valid base arguments, checked with
// schemaerr, and the bad-argument probes, each mistake made in that base and
// kept only when schemaerr refuses the arguments (so only arguments the
// schema forbids are ever sent), with the text the TypeScript SDK answers for
// them.
func argProbes(tool string, schema []byte) (*plan, error) {
	compiled, err := schemaerr.Compile(schema, &schemaerr.Options{Patterns: ecmaregexp.Engine{}})
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
	base, err := d.validBase(compiled)
	if err != nil {
		return nil, err
	}
	raw, _ := json.Marshal(base)
	p := &plan{base: raw}
	seen := map[string]bool{string(raw): true}
	tries := 0
	spent := 0
	add := func(name, field string, apply func(map[string]any) map[string]any) {
		if len(p.probes) >= maxProbes || tries >= maxTries || spent >= maxProbeBytes {
			return
		}
		tries++
		spent += len(p.base)
		raw, err := json.Marshal(apply(cloneMap(base)))
		if err != nil || seen[string(raw)] {
			return
		}
		seen[string(raw)] = true
		issues := compiled.Validate(raw)
		if len(issues) == 0 {
			return // the schema allows it: never sent
		}
		p.probes = append(p.probes, argProbe{name: name, field: field, args: raw, expected: schemaerr.TypeScript.Refuse(tool, issues).Text})
	}

	obj := d.resolve(root, 0)
	for _, m := range d.objectMistakes(obj, base, "", 0) {
		add(m.name, m.field, m.apply)
	}
	// An unknown property, refused only where the schema closes the object.
	add("unknown property", unknownKey, func(args map[string]any) map[string]any {
		args[unknownKey] = 1
		return args
	})
	return p, nil
}

// maxRepairs bounds the rounds validBase spends fixing its first guess.
const maxRepairs = 8

// validBase builds the arguments a typical client sends (the required
// properties, each the first of its candidates) and repairs them until the
// schema allows them: each value schemaerr refuses is replaced by its next
// candidate, each property a rule requires (if/then, dependentRequired) is
// added. It fails when no round leaves the schema satisfied.
func (d *schemaDoc) validBase(compiled *schemaerr.Schema) (map[string]any, error) {
	base, _ := d.example(d.root, 0).(map[string]any)
	if base == nil {
		base = map[string]any{}
	}
	tried := map[string]int{} // the candidate last tried at a path
	var issues []schemaerr.Issue
	for round := 0; round <= maxRepairs; round++ {
		raw, err := json.Marshal(base)
		if err != nil {
			return nil, &noBaseError{}
		}
		issues = compiled.Validate(raw)
		if len(issues) == 0 {
			return base, nil
		}
		fixed := false
		for _, is := range issues {
			if d.repair(base, is, tried) {
				fixed = true
			}
		}
		if !fixed {
			break
		}
	}
	return nil, &noBaseError{issues: issues}
}

// repair changes the value at an issue's path to the next candidate its
// schema offers; false when there is none left, or the path is not one it
// can follow.
func (d *schemaDoc) repair(base map[string]any, is schemaerr.Issue, tried map[string]int) bool {
	if len(is.Path) == 0 {
		return false
	}
	key := fmt.Sprint(is.Path...)
	var parent any = base
	s := d.root
	for i, part := range is.Path {
		last := i == len(is.Path)-1
		switch part := part.(type) {
		case string:
			obj, ok := parent.(map[string]any)
			if !ok {
				return false
			}
			s = d.propSchema(s, part, 0)
			if s == nil {
				return false
			}
			if last {
				cands := d.candidates(s, i)
				_, present := obj[part]
				n := 0
				if present {
					n = tried[key] + 1
				}
				if n >= len(cands) {
					return false
				}
				tried[key] = n
				obj[part] = cands[n]
				return true
			}
			parent = obj[part]
		case int:
			arr, ok := parent.([]any)
			if !ok || part >= len(arr) {
				return false
			}
			items, _ := d.resolve(s, 0)["items"].(map[string]any)
			s = d.resolve(items, 0)
			if s == nil {
				return false
			}
			if last {
				cands := d.candidates(s, i)
				n := tried[key] + 1
				if n >= len(cands) {
					return false
				}
				tried[key] = n
				arr[part] = cands[n]
				return true
			}
			parent = arr[part]
		default:
			return false
		}
	}
	return false
}

// propSchema finds the schema of an object's property: in its properties,
// or in the subschemas that add properties (allOf, anyOf, oneOf, then,
// else, dependentSchemas).
func (d *schemaDoc) propSchema(s map[string]any, name string, depth int) map[string]any {
	s = d.resolve(s, 0)
	if s == nil || depth > 6 {
		return nil
	}
	if props, ok := s["properties"].(map[string]any); ok {
		if ps, ok := props[name].(map[string]any); ok {
			return d.resolve(ps, 0)
		}
	}
	var subs []any
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		if alts, ok := s[k].([]any); ok {
			subs = append(subs, alts...)
		}
	}
	for _, k := range []string{"then", "else"} {
		subs = append(subs, s[k])
	}
	if deps, ok := s["dependentSchemas"].(map[string]any); ok {
		for _, k := range slices.Sorted(maps.Keys(deps)) {
			subs = append(subs, deps[k])
		}
	}
	for _, sub := range subs {
		if m, ok := sub.(map[string]any); ok {
			if ps := d.propSchema(m, name, depth+1); ps != nil {
				return ps
			}
		}
	}
	if ap, ok := s["additionalProperties"].(map[string]any); ok {
		return d.resolve(ap, 0)
	}
	return map[string]any{} // any value: its candidates are the typical ones
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
			child, _ := base[name].(map[string]any)
			if child == nil {
				child, _ = d.example(ps, 1).(map[string]any)
			}
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
				var child map[string]any
				if arr, _ := base[name].([]any); len(arr) > 0 {
					child, _ = arr[0].(map[string]any)
				}
				if child == nil {
					child, _ = d.example(items, 1).(map[string]any)
				}
				if child == nil {
					child = map[string]any{}
				}
				elem := field + "[0]"
				if nested := d.objectMistakes(items, child, elem, depth+1); len(nested) > 0 {
					m := nested[0]
					arr, _ := base[name].([]any)
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

// example returns the value a typical client sends for a schema: the first
// of its candidates.
func (d *schemaDoc) example(s map[string]any, depth int) any {
	c := d.candidates(s, depth)
	if len(c) == 0 {
		return nil
	}
	return c[0]
}

// maxCandidates bounds the values candidates offers for one schema.
const maxCandidates = 12

// typeOrder is the order in which a union's types are tried: the most
// specific first, as a client that fills a form sends them (a zod
// preprocess that reads "true" as a boolean refuses the string "a").
var typeOrder = []string{"boolean", "integer", "number", "string", "object", "array", "null"}

// candidates returns values the schema may accept, the most typical first:
// the default, the const, the enum's values, the examples; then, for each
// type it takes in typeOrder, a value of that type within its bounds, its
// format and its pattern; a union's branches likewise. An object holds its
// required properties. validBase tries them in turn where schemaerr
// refuses the first.
func (d *schemaDoc) candidates(s map[string]any, depth int) []any {
	s = d.resolve(s, 0)
	if s == nil || depth > 4 {
		return []any{nil}
	}
	var out []any
	push := func(v ...any) {
		for _, x := range v {
			if len(out) < maxCandidates {
				out = append(out, x)
			}
		}
	}
	if v, ok := s["default"]; ok {
		push(v)
	}
	if v, ok := s["const"]; ok {
		push(v)
	}
	if enum, ok := s["enum"].([]any); ok {
		push(enum...)
	}
	if ex, ok := s["examples"].([]any); ok {
		push(ex...)
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		alts, _ := s[k].([]any)
		var branches []map[string]any
		for _, a := range alts {
			if m, ok := a.(map[string]any); ok {
				branches = append(branches, m)
			}
		}
		slices.SortStableFunc(branches, func(a, b map[string]any) int { return d.rank(a) - d.rank(b) })
		for _, m := range branches {
			push(d.candidates(m, depth+1)...)
		}
	}
	if _, ok := s["type"]; !ok {
		if all, ok := s["allOf"].([]any); ok {
			for _, a := range all {
				if m, ok := a.(map[string]any); ok && len(d.types(m)) > 0 {
					push(d.candidates(m, depth+1)...)
					break
				}
			}
		}
	}
	types := d.types(s)
	if len(types) == 0 && len(out) == 0 {
		push("a", 1, true)
		return out
	}
	for _, t := range typeOrder {
		if !types[t] || t == "null" && len(types) > 1 {
			continue
		}
		push(d.typed(s, t, depth)...)
	}
	if types["null"] {
		push(nil)
	}
	return out
}

// rank is the place of a schema's most specific type in typeOrder: a
// branch of a union with a lower rank is tried first.
func (d *schemaDoc) rank(s map[string]any) int {
	types := d.types(s)
	for i, t := range typeOrder {
		if types[t] {
			return i
		}
	}
	return len(typeOrder)
}

// typed returns values of one JSON type within the schema's bounds.
func (d *schemaDoc) typed(s map[string]any, t string, depth int) []any {
	switch t {
	case "boolean":
		return []any{false, true}
	case "integer", "number":
		v := json.Number("1")
		switch {
		case hasNum(s, "minimum"):
			f, _ := num(s["minimum"])
			v = numValue(math.Ceil(f), true)
		case hasNum(s, "exclusiveMinimum"):
			f, _ := num(s["exclusiveMinimum"])
			v = numValue(math.Floor(f)+1, true)
		case hasNum(s, "maximum"):
			if f, _ := num(s["maximum"]); f < 1 {
				v = numValue(math.Floor(f), true)
			}
		}
		out := []any{v}
		if m, ok := num(s["multipleOf"]); ok && m > 0 {
			f, _ := num(v)
			out = append([]any{numValue(math.Ceil(f/m)*m, t == "integer")}, out...)
		}
		return append(out, json.Number("0"))
	case "string":
		return d.strings(s)
	case "object":
		obj := map[string]any{}
		props, _ := s["properties"].(map[string]any)
		if req, ok := s["required"].([]any); ok {
			for _, r := range req {
				name, _ := r.(string)
				ps, _ := props[name].(map[string]any)
				obj[name] = d.example(ps, depth+1)
			}
		}
		return []any{obj}
	case "array":
		items, _ := s["items"].(map[string]any)
		n, _ := count(s["minItems"])
		n = min(n, 16)
		item := d.candidates(items, depth+1)
		arr := make([]any, n)
		for i := range arr {
			arr[i] = item[0]
			if b, _ := s["uniqueItems"].(bool); b {
				arr[i] = item[i%len(item)]
			}
		}
		return []any{arr}
	}
	return nil
}

func hasNum(s map[string]any, k string) bool {
	_, ok := num(s[k])
	return ok
}

// formats are the values a string of a well-known format takes.
var formats = map[string]string{
	"uri": "https://example.com/", "url": "https://example.com/", "iri": "https://example.com/",
	"uri-reference": "https://example.com/", "iri-reference": "https://example.com/",
	"email": "audit@example.com", "idn-email": "audit@example.com",
	"date-time": "2026-01-01T00:00:00Z", "date": "2026-01-01", "time": "00:00:00Z",
	"duration": "PT1S", "uuid": "00000000-0000-4000-8000-000000000000",
	"ipv4": "192.0.2.1", "ipv6": "2001:db8::1", "hostname": "example.com", "idn-hostname": "example.com",
	"regex": "a", "json-pointer": "/a", "relative-json-pointer": "0", "uri-template": "https://example.com/",
}

// strings returns strings within the schema's length, format and pattern:
// the format's value, one built from the pattern, then common shapes, each
// kept only when the pattern (run as JavaScript runs it) takes it.
func (d *schemaDoc) strings(s map[string]any) []any {
	lo, _ := count(s["minLength"])
	hi, ok := count(s["maxLength"])
	if !ok {
		hi = math.MaxInt32
	}
	lo = min(lo, 10_000)
	var cands []string
	if f, _ := s["format"].(string); formats[f] != "" {
		cands = append(cands, formats[f])
	}
	pattern, _ := s["pattern"].(string)
	if pattern != "" {
		cands = append(cands, fromPattern(pattern))
	}
	cands = append(cands, strings.Repeat("a", max(lo, 1)), "abc", "a1", "A", "1", "0", "example", "abc-123", "2026-01-01", "https://example.com/")
	var match func(string) bool
	if pattern != "" {
		if m, err := (ecmaregexp.Engine{}).Compile(pattern, strings.Contains(pattern, `\p{`) || strings.Contains(pattern, `\u{`)); err == nil {
			match = m.MatchString
		}
	}
	var out []any
	for _, c := range cands {
		n := len([]rune(c))
		if n < lo || n > hi || match != nil && !match(c) || slices.Contains(out, any(c)) {
			continue
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		out = append(out, strings.Repeat("a", max(lo, 1)))
	}
	return out
}

// fromPattern builds a string a simple pattern matches: each literal as
// written, a class's first member, an escape's typical character, a group's
// first alternative, each quantifier's least count (one for +). It reads a
// pattern no further than it understands; the caller checks the result.
func fromPattern(p string) string {
	var b strings.Builder
	var last string // what the last atom wrote, for a quantifier
	rs := []rune(p)
	for i := 0; i < len(rs) && b.Len() < 1024; i++ {
		r := rs[i]
		atom := ""
		switch r {
		case '^', '$':
			continue
		case '|':
			// the first alternative is enough: skip to the end of this group or pattern
			depth := 0
			for ; i < len(rs); i++ {
				if rs[i] == '(' {
					depth++
				} else if rs[i] == ')' {
					if depth == 0 {
						break
					}
					depth--
				}
			}
			continue
		case '(':
			if i+2 < len(rs) && rs[i+1] == '?' && rs[i+2] == ':' {
				i += 2
			}
			continue
		case ')':
			continue
		case '.':
			atom = "a"
		case '\\':
			if i+1 >= len(rs) {
				continue
			}
			i++
			switch rs[i] {
			case 'd':
				atom = "1"
			case 'w':
				atom = "a"
			case 's':
				atom = " "
			case 'D', 'W', 'S':
				atom = "-"
			case 'b', 'B':
				continue
			default:
				atom = string(rs[i])
			}
		case '[':
			j := i + 1
			neg := j < len(rs) && rs[j] == '^'
			if neg {
				j++
			}
			first := rune(0)
			for ; j < len(rs) && rs[j] != ']'; j++ {
				if first == 0 {
					first = rs[j]
					if first == '\\' && j+1 < len(rs) {
						j++
						switch rs[j] {
						case 'd':
							first = '1'
						case 'w':
							first = 'a'
						case 's':
							first = ' '
						default:
							first = rs[j]
						}
					}
				}
			}
			i = j
			switch {
			case neg:
				atom = "~"
			case first != 0:
				atom = string(first)
			}
		case '*', '?':
			s := b.String()
			b.Reset()
			b.WriteString(strings.TrimSuffix(s, last))
			last = ""
			if i+1 < len(rs) && rs[i+1] == '?' {
				i++
			}
			continue
		case '+':
			continue
		case '{':
			j := i + 1
			for j < len(rs) && rs[j] != '}' {
				j++
			}
			spec := string(rs[i+1 : min(j, len(rs))])
			lo, _, _ := strings.Cut(spec, ",")
			n, err := strconv.Atoi(lo)
			i = j
			if err != nil || n > 256 {
				continue
			}
			s := strings.TrimSuffix(b.String(), last)
			b.Reset()
			b.WriteString(s + strings.Repeat(last, n))
			continue
		default:
			atom = string(r)
		}
		b.WriteString(atom)
		last = atom
	}
	return b.String()
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

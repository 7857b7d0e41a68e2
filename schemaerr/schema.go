package schemaerr

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemaURL is the name the compiler gives the one schema document.
const schemaURL = "urn:mcperr:schemaerr:input"

// Schema is a tool's compiled input schema. Create it with [Compile]; its [Bounds] are fixed
// there. Its methods are safe for concurrent use.
type Schema struct {
	limits Bounds // with defaults filled in
	root   *node
	pool   sync.Pool // *decoder
}

// node is one compiled schema, in the form the evaluator walks.
type node struct {
	src     *jsonschema.Schema
	boolean int8 // 1: the schema true, -1: the schema false
	types   uint8
	format  string // the format keyword, when zod knows its words
	word    string // the zod check the pattern came from: "" (a regex), "starts_with", "email", ...

	enum     []any // enum values, numbers as float64; nil when absent
	hasConst bool

	ref      *node
	refOnly  bool // draft-07 and older: $ref hides its siblings
	allOf    []*node
	anyOf    []*node
	oneOf    []*node
	nullable *node // anyOf [X, {type:null}]: zod's X.nullable()
	not      *node
	ifN      *node
	thenN    *node
	elseN    *node

	// number
	min, max, xmin, xmax *float64
	multipleOf           float64

	// string
	minLen, maxLen int // -1 when absent
	pattern        jsonschema.Regexp
	assert         func(string) bool // a format zod checks that comes without a pattern

	// array
	minItems, maxItems int // -1 when absent
	prefix             []*node
	items              *node // every element after prefix
	noMoreItems        bool  // additionalItems/items false after prefix
	uniqueItems        bool
	contains           *node

	// object
	props        []prop
	propIndex    map[string]int
	required     []string // required names that are not in props
	strict       bool     // additionalProperties: false
	additional   *node    // additionalProperties schema
	patternProp  []patternProp
	propNames    *node
	record       bool     // zod's z.record: propertyNames and no properties
	recordKeys   []string // z.record(z.enum(...), V): the keys zod walks, in the enum's order
	recordKeySet map[string]bool
	keyEnum      bool // the record's keys are an enum: a key outside it is unrecognized
	minProps     int  // -1 when absent
	maxProps     int
	depReq       []depReq
	depSchemas   []depSchema

	// oneOf of objects told apart by one property's const: zod's discriminatedUnion
	discKey  string
	discName any   // discKey, boxed for issue paths
	discVals []any // each branch's const

	msg messages // the issue texts of this schema, written once at compile time
}

// messages are the texts of the issues a schema can raise, prepared by Compile so that a
// rejection builds no strings beyond its paths.
type messages struct {
	enum                       string
	disc                       string
	typ                        [kObject + 1]string // by received kind
	min, xmin, max, xmax, mult string
	minLen, maxLen             string
	minItems, maxItems         string
	pattern                    string
	format                     string // a format checked without a pattern (zod's url, jwt)
}

func (n *node) prepare() {
	m := &n.msg
	if n.discKey != "" {
		opts := make([]string, len(n.discVals))
		for i, v := range n.discVals {
			opts[i] = "'" + jsString(v) + "'"
		}
		m.disc = "Invalid discriminator value. Expected " + strings.Join(opts, " | ")
	}
	if n.enum != nil {
		m.enum = enumMessage(n.enum)
	}
	if name := n.typeName(expectedName(n.types)); name != "" {
		for k := range m.typ {
			m.typ[k] = "Invalid input: expected " + name + ", received " + received[k]
		}
	}
	if n.min != nil {
		m.min = "Too small: expected number to be >=" + jsNumber(*n.min)
	}
	if n.xmin != nil {
		m.xmin = "Too small: expected number to be >" + jsNumber(*n.xmin)
	}
	if n.max != nil {
		m.max = "Too big: expected number to be <=" + jsNumber(*n.max)
	}
	if n.xmax != nil {
		m.xmax = "Too big: expected number to be <" + jsNumber(*n.xmax)
	}
	if n.multipleOf > 0 {
		m.mult = "Invalid number: must be a multiple of " + jsNumber(n.multipleOf)
	}
	m.minLen, m.maxLen = lengthMessages("string", "characters", n.minLen, n.maxLen, n.minLen == n.maxLen)
	max := n.maxItems
	if n.noMoreItems && (max < 0 || len(n.prefix) < max) {
		max = len(n.prefix)
	}
	m.minItems, m.maxItems = lengthMessages("array", "items", n.minItems, max, n.minItems == n.maxItems && len(n.prefix) == 0)
	if n.pattern != nil {
		m.pattern = wordMessage(n.word, n.pattern.String())
	}
	if n.assert != nil {
		m.format = wordMessage(n.format, "")
		if n.pattern == nil {
			m.pattern = m.format
		}
	}
}

// typeName is zod's name for the type n wants, given the JSON type's: a record or a tuple says so.
func (n *node) typeName(name string) string {
	switch {
	case name == "object" && n.record:
		return "record"
	case name == "array" && len(n.prefix) > 0:
		return "tuple"
	}
	return name
}

// lengthMessages are zod's texts for a length below min and above max; equal bounds are zod's
// .length(n), "exactly n".
func lengthMessages(origin, unit string, min, max int, exact bool) (small, big string) {
	lo, hi := ">=", "<="
	if exact {
		lo, hi = "exactly ", "exactly "
	}
	if min >= 0 {
		small = "Too small: expected " + origin + " to have " + lo + strconv.Itoa(min) + " " + unit
	}
	if max >= 0 {
		big = "Too big: expected " + origin + " to have " + hi + strconv.Itoa(max) + " " + unit
	}
	return small, big
}

type prop struct {
	name     string
	key      any // name, boxed once for issue paths
	n        *node
	required bool
}

type patternProp struct {
	re jsonschema.Regexp
	n  *node
}

type depReq struct {
	if_  string
	then []string
}

// type bits
const (
	tNull uint8 = 1 << iota
	tBool
	tNumber
	tInteger
	tString
	tArray
	tObject
)

// PatternError is a pattern in a schema that cannot run on Go's regexp engine, such as one with
// lookahead or a backreference. Its Reason names the module whose engine runs it
// (github.com/mcperr/mcperr/ecmaregexp, through [Options].Patterns).
type PatternError struct {
	Pattern string // the pattern as the schema writes it
	Reason  string
}

// Error names the pattern and what Go's RE2 cannot do with it.
func (e *PatternError) Error() string {
	return fmt.Sprintf("schemaerr: pattern %q: %s", e.Pattern, e.Reason)
}

// needsEngine marks the reasons an ECMAScript engine (ecmaModule) removes.
func needsEngine(pe *PatternError) *PatternError {
	return &PatternError{Pattern: pe.Pattern, Reason: pe.Reason + "; to run it, import " + ecmaModule +
		" and compile with schemaerr.Options{Patterns: ecmaregexp.Engine{}}"}
}

// Compile compiles a tool's input schema (JSON Schema 2020-12, or the draft its $schema names:
// draft-07, 2019-09, draft-06, draft-04; 2020-12 when $schema is absent). Patterns are ECMAScript
// regular expressions, translated to Go's RE2; a pattern RE2 cannot run (lookaround,
// backreferences) fails here with a *PatternError, unless o.Patterns gives Compile an
// ECMAScript engine to run it. References must stay inside the document: a schema that loads
// another URL fails. The schema bounds the arguments it validates by o.Bounds; a nil o is every
// default.
func Compile(schema []byte, o *Options) (*Schema, error) {
	var cfg Options
	if o != nil {
		cfg = *o
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, fmt.Errorf("schemaerr: schema is not JSON: %w", err)
	}
	orders, formats, err := scanSchema(schema)
	if err != nil {
		return nil, fmt.Errorf("schemaerr: schema is not JSON: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noLoader{})
	// A pattern RE2 cannot run compiles to a stand-in, so that the schema's own check of its
	// patterns passes (JavaScript would run them); build then replaces it with a Go check of the
	// format it comes with, or fails with its *PatternError.
	c.UseRegexpEngine(func(src string) (jsonschema.Regexp, error) {
		re, err := compileECMA(src)
		if err != nil {
			var pe *PatternError
			if !errors.As(err, &pe) {
				return nil, err
			}
			if cfg.Patterns != nil {
				unicode := needsUnicode(src)
				m, err := cfg.Patterns.Compile(src, unicode)
				if err != nil {
					return &unsupported{src: src, err: &PatternError{Pattern: src, Reason: "the ECMAScript engine cannot compile it: " + err.Error()}}, nil
				}
				return &engineRegexp{src: src, m: m}, nil
			}
			return &unsupported{src: src, err: needsEngine(pe)}, nil
		}
		return re, nil
	})
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("schemaerr: %w", err)
	}
	sch, err := c.Compile(schemaURL)
	if err != nil {
		return nil, fmt.Errorf("schemaerr: invalid schema: %w", err)
	}
	b := builder{memo: map[*jsonschema.Schema]*node{}, orders: orders, formats: formats}
	root := b.build(sch)
	if b.err != nil {
		return nil, b.err
	}
	if err := checkLoops(root); err != nil {
		return nil, err
	}
	for _, n := range b.memo {
		n.discriminate()
	}
	for _, n := range b.memo {
		n.prepare()
	}
	return &Schema{root: root, limits: cfg.Bounds.orDefaults()}, nil
}

type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("schemaerr: refusing to load %s: references must stay inside the schema", url)
}

type builder struct {
	err     *PatternError // the first pattern neither RE2 nor a format check can run
	memo    map[*jsonschema.Schema]*node
	orders  map[string][]string // JSON pointer of a schema -> its properties as written
	formats map[string]string   // JSON pointer of a schema -> its format
}

func (b *builder) build(s *jsonschema.Schema) *node {
	if s == nil {
		return nil
	}
	if n, ok := b.memo[s]; ok {
		return n
	}
	n := &node{src: s, minLen: -1, maxLen: -1, minItems: -1, maxItems: -1, minProps: -1, maxProps: -1}
	b.memo[s] = n
	if s.Bool != nil {
		n.boolean = -1
		if *s.Bool {
			n.boolean = 1
		}
		return n
	}
	ptr := pointerOf(s.Location)
	n.format = b.formats[ptr]
	if s.Types != nil {
		for _, t := range s.Types.ToStrings() {
			switch t {
			case "null":
				n.types |= tNull
			case "boolean":
				n.types |= tBool
			case "number":
				n.types |= tNumber
			case "integer":
				n.types |= tInteger
			case "string":
				n.types |= tString
			case "array":
				n.types |= tArray
			case "object":
				n.types |= tObject
			}
		}
	}
	if s.Enum != nil {
		n.enum = make([]any, len(s.Enum.Values))
		for i, v := range s.Enum.Values {
			n.enum[i] = normalize(v)
		}
	}
	if s.Const != nil {
		n.hasConst = true
		n.enum = []any{normalize(*s.Const)}
	}
	n.ref = b.build(s.Ref)
	n.refOnly = n.ref != nil && s.DraftVersion < 2019
	for _, x := range s.AllOf {
		n.allOf = append(n.allOf, b.build(x))
	}
	for _, x := range s.AnyOf {
		n.anyOf = append(n.anyOf, b.build(x))
	}
	if len(n.anyOf) == 2 {
		for i, x := range n.anyOf {
			if isNullOnly(x.src) {
				n.nullable = n.anyOf[1-i]
			}
		}
	}
	for _, x := range s.OneOf {
		n.oneOf = append(n.oneOf, b.build(x))
	}
	n.not = b.build(s.Not)
	n.ifN, n.thenN, n.elseN = b.build(s.If), b.build(s.Then), b.build(s.Else)

	n.min, n.max = ratPtr(s.Minimum), ratPtr(s.Maximum)
	n.xmin, n.xmax = ratPtr(s.ExclusiveMinimum), ratPtr(s.ExclusiveMaximum)
	if s.MultipleOf != nil {
		n.multipleOf, _ = s.MultipleOf.Float64()
	}

	n.minLen, n.maxLen = intOr(s.MinLength), intOr(s.MaxLength)
	n.pattern = s.Pattern
	if u, ok := s.Pattern.(*unsupported); ok {
		if check, ok := formatChecks[n.format]; ok {
			n.pattern = &formatRegexp{src: u.src, match: check}
		} else if b.err == nil {
			b.err = u.err
		}
	}
	n.assert = formatAsserts[n.format]
	n.wordPatterns()

	n.minItems, n.maxItems = intOr(s.MinItems), intOr(s.MaxItems)
	n.uniqueItems = s.UniqueItems
	n.contains = b.build(s.Contains)
	if s.DraftVersion >= 2020 {
		for _, x := range s.PrefixItems {
			n.prefix = append(n.prefix, b.build(x))
		}
		n.items = b.build(s.Items2020)
	} else {
		switch items := s.Items.(type) {
		case *jsonschema.Schema:
			n.items = b.build(items)
		case []*jsonschema.Schema:
			for _, x := range items {
				n.prefix = append(n.prefix, b.build(x))
			}
			switch add := s.AdditionalItems.(type) {
			case bool:
				n.noMoreItems = !add
			case *jsonschema.Schema:
				n.items = b.build(add)
			}
		}
	}
	if n.items != nil && n.items.boolean == -1 {
		n.items, n.noMoreItems = nil, true
	}

	names := orderProps(s.Properties, b.orders[ptr])
	if len(names) > 0 {
		n.propIndex = make(map[string]int, len(names))
	}
	for i, name := range names {
		n.props = append(n.props, prop{name: name, key: name, n: b.build(s.Properties[name])})
		n.propIndex[name] = i
	}
	for _, r := range s.Required {
		if i, ok := n.propIndex[r]; ok {
			n.props[i].required = true
		} else if !slices.Contains(n.required, r) {
			n.required = append(n.required, r)
		}
	}
	switch add := s.AdditionalProperties.(type) {
	case bool:
		n.strict = !add
	case *jsonschema.Schema:
		if add.Bool != nil {
			n.strict = !*add.Bool
		} else {
			n.additional = b.build(add)
		}
	}
	if len(s.PatternProperties) > 0 {
		for re, x := range s.PatternProperties {
			if u, ok := re.(*unsupported); ok && b.err == nil {
				b.err = u.err
			}
			n.patternProp = append(n.patternProp, patternProp{re: re, n: b.build(x)})
		}
		slices.SortFunc(n.patternProp, func(a, b patternProp) int { return strings.Compare(a.re.String(), b.re.String()) })
	}
	n.propNames = b.build(s.PropertyNames)
	n.minProps, n.maxProps = intOr(s.MinProperties), intOr(s.MaxProperties)
	dep := s.DependentRequired
	if dep == nil && len(s.Dependencies) > 0 {
		dep = map[string][]string{}
		for k, v := range s.Dependencies {
			switch v := v.(type) {
			case []string:
				dep[k] = v
			case *jsonschema.Schema:
				// a schema dependency applies in place when its property is present
				n.depSchemas = append(n.depSchemas, depSchema{if_: k, n: b.build(v)})
			}
		}
	}
	for k, v := range s.DependentSchemas {
		n.depSchemas = append(n.depSchemas, depSchema{if_: k, n: b.build(v)})
	}
	slices.SortFunc(n.depSchemas, func(a, b depSchema) int { return strings.Compare(a.if_, b.if_) })
	for k, v := range dep {
		n.depReq = append(n.depReq, depReq{if_: k, then: v})
	}
	slices.SortFunc(n.depReq, func(a, b depReq) int { return strings.Compare(a.if_, b.if_) })
	n.recognizeRecord()
	return n
}

// recognizeRecord marks the object schema zod publishes for z.record: propertyNames, a value
// schema in additionalProperties, and no properties; keyed by an enum, required lists every key
// (z.partialRecord: none).
func (n *node) recognizeRecord() {
	if n.propNames == nil || len(n.props) > 0 || len(n.patternProp) > 0 || n.strict ||
		len(n.depReq) > 0 || len(n.depSchemas) > 0 {
		return
	}
	keys, isEnum := stringEnum(n.propNames)
	switch {
	case isEnum && len(n.required) == len(keys):
		for i, k := range keys {
			if n.required[i] != k {
				return
			}
		}
		n.recordKeys = keys
		n.recordKeySet = make(map[string]bool, len(keys))
		for _, k := range keys {
			n.recordKeySet[k] = true
		}
	case len(n.required) > 0:
		return
	}
	n.record, n.keyEnum = true, isEnum
}

// stringEnum is the values of a schema that is an enum of strings.
func stringEnum(n *node) ([]string, bool) {
	if n.enum == nil || n.hasConst {
		return nil, false
	}
	keys := make([]string, len(n.enum))
	for i, v := range n.enum {
		s, ok := v.(string)
		if !ok {
			return nil, false
		}
		keys[i] = s
	}
	return keys, true
}

type depSchema struct {
	if_ string
	n   *node
}

func isNullOnly(s *jsonschema.Schema) bool {
	if s == nil || s.Bool != nil || s.Types == nil {
		return false
	}
	t := s.Types.ToStrings()
	return len(t) == 1 && t[0] == "null" && s.Enum == nil && s.Const == nil && s.Ref == nil &&
		s.AllOf == nil && s.AnyOf == nil && s.OneOf == nil && s.Not == nil && s.If == nil
}

// orderProps lists the declared properties in the order the schema writes them; names the raw
// scan did not see (it can miss schemas under a nested $id) follow in sorted order.
func orderProps(props map[string]*jsonschema.Schema, written []string) []string {
	if len(props) == 0 {
		return nil
	}
	names := make([]string, 0, len(props))
	seen := make(map[string]bool, len(props))
	for _, name := range written {
		if _, ok := props[name]; ok && !seen[name] {
			names = append(names, name)
			seen[name] = true
		}
	}
	var rest []string
	for name := range props {
		if !seen[name] {
			rest = append(rest, name)
		}
	}
	slices.Sort(rest)
	return append(names, rest...)
}

// pointerOf is the JSON pointer of a schema location. The compiler writes the fragment
// percent-escaped (a property "a b" is at #/properties/a%20b); the raw scan keys by the pointer
// itself.
func pointerOf(loc string) string {
	i := strings.IndexByte(loc, '#')
	if i < 0 {
		return ""
	}
	frag := loc[i+1:]
	if strings.IndexByte(frag, '%') >= 0 {
		if u, err := url.PathUnescape(frag); err == nil {
			return u
		}
	}
	return frag
}

func ratPtr(r *big.Rat) *float64 {
	if r == nil {
		return nil
	}
	f, _ := r.Float64()
	return &f
}

func intOr(p *int) int {
	if p == nil {
		return -1
	}
	return *p
}

// normalize turns a decoded schema value into the form value comparison uses: numbers as float64.
func normalize(v any) any {
	switch v := v.(type) {
	case json.Number:
		f, err := v.Float64()
		if err != nil && !math.IsInf(f, 0) {
			return v.String()
		}
		return f
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = normalize(x)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = normalize(x)
		}
		return out
	}
	return v
}

// scanSchema walks the raw schema once, recording for every object the order its "properties"
// are written in and its "format", keyed by JSON pointer.
func scanSchema(raw []byte) (orders map[string][]string, formats map[string]string, err error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	orders = map[string][]string{}
	formats = map[string]string{}
	var walk func(ptr string, depth int) error
	walk = func(ptr string, depth int) error {
		if depth > 512 {
			return errors.New("schema nests too deep")
		}
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'):
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return err
				}
				k, _ := kt.(string)
				child := ptr + "/" + escapePointer(k)
				if k == "properties" {
					var keys []string
					// record the keys of the properties object in order
					t, err := dec.Token()
					if err != nil {
						return err
					}
					if t != json.Delim('{') {
						if d, ok := t.(json.Delim); ok {
							if err := skipRest(dec, d); err != nil {
								return err
							}
						}
						continue
					}
					for dec.More() {
						pk, err := dec.Token()
						if err != nil {
							return err
						}
						name, _ := pk.(string)
						keys = append(keys, name)
						if err := walk(child+"/"+escapePointer(name), depth+2); err != nil {
							return err
						}
					}
					if _, err := dec.Token(); err != nil {
						return err
					}
					orders[ptr] = keys
					continue
				}
				if k == "format" && dec.More() {
					t, err := dec.Token()
					if err != nil {
						return err
					}
					switch t := t.(type) {
					case string:
						formats[ptr] = t
					case json.Delim:
						if err := skipRest(dec, t); err != nil {
							return err
						}
					}
					continue
				}
				if err := walk(child, depth+1); err != nil {
					return err
				}
			}
			_, err = dec.Token()
			return err
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				if err := walk(fmt.Sprintf("%s/%d", ptr, i), depth+1); err != nil {
					return err
				}
			}
			_, err = dec.Token()
			return err
		}
		return nil
	}
	if err := walk("", 0); err != nil {
		return nil, nil, err
	}
	return orders, formats, nil
}

// skipRest skips to the end of a container whose opening delimiter was just read.
func skipRest(dec *json.Decoder, open json.Delim) error {
	if open != '{' && open != '[' {
		return nil
	}
	for depth := 1; depth > 0; {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		if d, ok := t.(json.Delim); ok {
			if d == '{' || d == '[' {
				depth++
			} else {
				depth--
			}
		}
	}
	return nil
}

func escapePointer(tok string) string {
	if !strings.ContainsAny(tok, "~/") {
		return tok
	}
	tok = strings.ReplaceAll(tok, "~", "~0")
	return strings.ReplaceAll(tok, "/", "~1")
}

// checkLoops refuses a schema that applies itself to the same value without end, such as
// {"$ref": "#"}: evaluation would never reach the value's children.
func checkLoops(root *node) error {
	const (
		white = iota
		grey
		black
	)
	color := map[*node]int{}
	var visit func(n *node) error
	var descend func(n *node) error
	inPlace := func(n *node) []*node {
		out := []*node{n.ref, n.not, n.ifN, n.thenN, n.elseN}
		out = append(out, n.allOf...)
		out = append(out, n.anyOf...)
		out = append(out, n.oneOf...)
		for _, d := range n.depSchemas {
			out = append(out, d.n)
		}
		return out
	}
	children := func(n *node) []*node {
		out := []*node{n.items, n.contains, n.additional, n.propNames}
		out = append(out, n.prefix...)
		for _, p := range n.props {
			out = append(out, p.n)
		}
		for _, p := range n.patternProp {
			out = append(out, p.n)
		}
		return out
	}
	visited := map[*node]bool{}
	// visit checks the in-place graph from n for a cycle.
	visit = func(n *node) error {
		if n == nil {
			return nil
		}
		switch color[n] {
		case grey:
			return fmt.Errorf("schemaerr: schema %s applies itself to the same value without end", n.src.Location)
		case black:
			return nil
		}
		color[n] = grey
		for _, x := range inPlace(n) {
			if err := visit(x); err != nil {
				return err
			}
		}
		color[n] = black
		return nil
	}
	descend = func(n *node) error {
		if n == nil || visited[n] {
			return nil
		}
		visited[n] = true
		clear(color)
		if err := visit(n); err != nil {
			return err
		}
		for _, x := range append(inPlace(n), children(n)...) {
			if err := descend(x); err != nil {
				return err
			}
		}
		return nil
	}
	return descend(root)
}

// discriminate recognizes zod's discriminatedUnion: a oneOf whose branches are objects that all
// require one property with a const (or one-value enum) primitive, a different one each.
func (n *node) discriminate() {
	if len(n.oneOf) < 2 {
		return
	}
	for _, p := range n.oneOf[0].props {
		if !p.required || len(p.n.enum) != 1 {
			continue
		}
		vals := make([]any, 0, len(n.oneOf))
		seen := map[any]bool{}
		ok := true
		for _, br := range n.oneOf {
			if br.types != tObject {
				return
			}
			i, has := br.propIndex[p.name]
			if !has || !br.props[i].required || len(br.props[i].n.enum) != 1 {
				ok = false
				break
			}
			v := br.props[i].n.enum[0]
			switch v.(type) {
			case string, float64, bool:
			default:
				ok = false
			}
			if !ok || seen[v] {
				ok = false
				break
			}
			seen[v] = true
			vals = append(vals, v)
		}
		if ok {
			n.discKey, n.discName, n.discVals = p.name, p.name, vals
			return
		}
	}
}

// jsString is String(v) in JavaScript for a primitive.
func jsString(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return jsPrimitive(v)
}

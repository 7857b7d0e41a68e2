package schemaerr

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcperr/mcperr/wire"
)

func mustCompile(t testing.TB, schema string) *Schema {
	t.Helper()
	s, err := Compile([]byte(schema), nil)
	if err != nil {
		t.Fatalf("Compile(%s, nil): %v", schema, err)
	}
	return s
}

// lines validates args and returns the issues as the SDK prints them.
func lines(s *Schema, args string) []string {
	var out []string
	for _, is := range s.Validate(json.RawMessage(args)) {
		out = append(out, is.String())
	}
	return out
}

var point1, point2 = 0.1, 0.2
var point3 = point1 + point2

func TestJSNumber(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "0"}, {100, "100"}, {2.5, "2.5"}, {0.5, "0.5"}, {-2.5, "-2.5"},
		{9007199254740991, "9007199254740991"}, {1e21, "1e+21"}, {1e22, "1e+22"}, {123456789012345680000, "123456789012345680000"},
		{0.000001, "0.000001"}, {1e-7, "1e-7"}, {1.5e-7, "1.5e-7"}, {point3, "0.30000000000000004"},
		{1e300, "1e+300"}, {-1e300, "-1e+300"}, {math.Inf(1), "Infinity"}, {math.Inf(-1), "-Infinity"},
		{math.NaN(), "NaN"}, {168, "168"}, {1.7976931348623157e308, "1.7976931348623157e+308"}, {5e-324, "5e-324"},
		{123.456, "123.456"}, {1e20, "100000000000000000000"},
	}
	for _, tt := range tests {
		if got := jsNumber(tt.in); got != tt.want {
			t.Errorf("jsNumber(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestDotPath(t *testing.T) {
	tests := []struct {
		path []any
		want string
	}{
		{nil, ""},
		{[]any{"filter", "window", "hours"}, "filter.window.hours"},
		{[]any{"tags", 2}, "tags[2]"},
		{[]any{"rows", 1, "a"}, "rows[1].a"},
		{[]any{"0"}, "0"},
		{[]any{"m", "0"}, "m.0"},
	}
	for _, tt := range tests {
		if got := dotPath(tt.path); got != tt.want {
			t.Errorf("dotPath(%v) = %q, want %q", tt.path, got, tt.want)
		}
	}
}

// Each pattern of a string schema is worded as the zod check that wrote it: the format names the
// last check with a format, a regex removes it, and the others are read by their shape.
func TestPatternWord(t *testing.T) {
	email := `^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$`
	tests := []struct {
		src, format string
		last        bool
		want        string
	}{
		{`^[a-z]+$`, "", true, ""},
		{`^sk-.*`, "", true, ""}, // the last check was a regex that looks like startsWith
		{`^sk-.*`, "starts_with", true, "starts_with"},
		{`^sk-.*`, "ends_with", false, "starts_with"},
		{`.*\.json$`, "", false, "ends_with"},
		{`@`, "ends_with", false, "includes"},
		{`^a.*b`, "", false, ""},
		{email, "starts_with", false, "email"},
		{email, "", true, "email"},
		{`^https.*`, "uri", true, "starts_with"}, // url has no pattern: the last pattern is an earlier check
	}
	for _, tt := range tests {
		if got := patternWord(tt.src, tt.format, tt.last); got != tt.want {
			t.Errorf("patternWord(%q, %q, %v) = %q, want %q", tt.src, tt.format, tt.last, got, tt.want)
		}
	}
}

// A hand-written object with propertyNames is a record only when zod could have published it.
func TestRecordRecognition(t *testing.T) {
	tests := []struct {
		schema, args, want string
	}{
		{`{"type":"object","propertyNames":{"pattern":"^[a-z]+$"},"additionalProperties":{"type":"number"}}`, `{"A":"x","b":"y"}`,
			"Invalid key in record at A\nInvalid input: expected number, received string at b"},
		{`{"type":"object","propertyNames":{"pattern":"^[a-z]+$"},"additionalProperties":{"type":"number"}}`, `[]`,
			"Invalid input: expected record, received array"},
		// strict: not zod's record, unknown keys still reported
		{`{"type":"object","propertyNames":{"pattern":"^[a-z]+$"},"additionalProperties":false}`, `{"a":1}`,
			`Unrecognized key: "a"`},
		// a required name that is not an enum key: an object, and the name is required
		{`{"type":"object","propertyNames":{"pattern":"^[a-z]+$"},"required":["a"]}`, `{}`,
			"Invalid input: expected nonoptional, received undefined at a"},
		{`{"type":"object","propertyNames":{"enum":["x","y"]},"additionalProperties":{"type":"number"},"required":["x","y"]}`, `{"y":"s","z":1}`,
			"Invalid input: expected number, received undefined at x\nInvalid input: expected number, received string at y\nUnrecognized key: \"z\""},
	}
	for _, tt := range tests {
		s, err := Compile([]byte(tt.schema), nil)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.TrimPrefix(TypeScript.Refuse("t", s.Validate([]byte(tt.args))).Text, textPrefix+"t: ")
		if got != tt.want {
			t.Errorf("%s %s:\n got %q\nwant %q", tt.schema, tt.args, got, tt.want)
		}
	}
}

func TestTranslateECMA(t *testing.T) {
	tests := []struct {
		pattern string
		match   []string
		nomatch []string
	}{
		{`^[a-z][a-z0-9-]*$`, []string{"api-1"}, []string{"Bad_Svc"}},
		{`^\d{3}$`, []string{"123"}, []string{"12", "1234"}},
		{`^a\/b$`, []string{"a/b"}, []string{"ab"}},
		{`^\u00e9$`, []string{"é"}, []string{"e"}},
		{`^\u{1F600}$`, []string{"😀"}, []string{"x"}},
		{`^\uD83D\uDE00$`, []string{"😀"}, []string{"x"}},
		{`^\s$`, []string{" ", "\u00a0", "\u2028", "\ufeff"}, []string{"x"}},
		{`^\S+$`, []string{"abc"}, []string{"a\u00a0b"}},
		{`^[\s,]+$`, []string{" ,\u3000"}, []string{"x"}},
		{`^.$`, []string{"a"}, []string{"\n", "\r", "\u2028"}},
		{`^[^]$`, []string{"\n"}, []string{""}},
		{`^a[]`, nil, []string{"a", "ab"}},
		{`^\cJ$`, []string{"\n"}, []string{"J"}},
		{`^\0$`, []string{"\x00"}, []string{"0"}},
		{`^[\b]$`, []string{"\b"}, []string{"b"}},
		{`^\a$`, []string{"a"}, []string{"\a"}},
		{`^[[:a]+$`, []string{"[:a"}, []string{"b"}},
		{`^a{2}$`, []string{"aa"}, []string{"a"}},
		{`^a{$`, []string{"a{"}, []string{"a"}},
		{`^{}$`, []string{"{}"}, nil},
		{`^(?<year>\d{4})$`, []string{"2026"}, []string{"26"}},
		{`^\p{Script=Greek}+$`, []string{"αβ"}, []string{"ab"}},
		{`^\p{L}+$`, []string{"héllo"}, []string{"1"}},
		{`^\x41$`, []string{"A"}, []string{"x41"}},
		{``, []string{"", "x"}, nil},
		// without the u flag JavaScript matches UTF-16 code units: an emoji is two
		{`^.$`, []string{"é"}, []string{"😀"}},
		{`^..$`, []string{"😀", "ab"}, []string{"a"}},
		{`^😀$`, []string{"😀"}, []string{"x"}},
		{`^[😀]$`, nil, []string{"😀"}},
		{`^[^a]{2}$`, []string{"😀"}, []string{"a😀"}},
		// with it (\p{...} or \u{...} needs it), code points
		{`^\p{L}.$`, []string{"a😀"}, []string{"a😀😀"}},
	}
	for _, tt := range tests {
		re, err := compileECMA(tt.pattern)
		if err != nil {
			t.Errorf("compileECMA(%q): %v", tt.pattern, err)
			continue
		}
		for _, s := range tt.match {
			if !re.MatchString(s) {
				t.Errorf("%q does not match %q", tt.pattern, s)
			}
		}
		for _, s := range tt.nomatch {
			if re.MatchString(s) {
				t.Errorf("%q matches %q", tt.pattern, s)
			}
		}
	}
}

func TestPatternErrors(t *testing.T) {
	for _, p := range []string{`^(?=a)`, `^(?!a)`, `(?<=a)b`, `(?<!a)b`, `(a)\1`, `(?<x>a)\k<x>`, `a{1001}`, `[a`} {
		_, err := Compile([]byte(`{"type":"object","properties":{"s":{"type":"string","pattern":`+jsonString(p)+`}}}`), nil)
		var pe *PatternError
		if !errors.As(err, &pe) {
			t.Errorf("pattern %q: err = %v, want a *PatternError", p, err)
			continue
		}
		if pe.Pattern != p || !strings.Contains(err.Error(), strconv.Quote(p)) {
			t.Errorf("pattern %q: error %q does not name it", p, err)
		}
	}
	// also in patternProperties
	_, err := Compile([]byte(`{"type":"object","patternProperties":{"^(?=x)":{}}}`), nil)
	var pe *PatternError
	if !errors.As(err, &pe) {
		t.Errorf("patternProperties lookahead: err = %v, want a *PatternError", err)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestJSSource(t *testing.T) {
	tests := map[string]string{
		"":          "(?:)",
		"^a/b$":     `^a\/b$`,
		`^a\/b$`:    `^a\/b$`,
		"[/]":       "[/]",
		"a\nb":      `a\nb`,
		"^[a-z]+$":  "^[a-z]+$",
		"a\u2028b":  `a\u2028b`,
		`\\/`:       `\\\/`,
		"[a/]/[/]/": `[a/]\/[/]\/`,
	}
	for in, want := range tests {
		if got := jsSource(in); got != want {
			t.Errorf("jsSource(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSemantics covers what the captures do not: other drafts, combinators, refs, and limits.
func TestSemantics(t *testing.T) {
	tests := []struct {
		name, schema, args string
		want               []string
	}{
		// a zod tuple checks the items of an array too long for it
		{"2020-12 is the default draft: prefixItems", `{"type":"object","properties":{"p":{"type":"array","prefixItems":[{"type":"string"}],"items":false}}}`,
			`{"p":[1,2]}`, []string{"Too big: expected array to have <=1 items at p", "Invalid input: expected string, received number at p[0]"}},
		// and refuses one too short alone
		{"tuple too short", `{"type":"object","properties":{"p":{"type":"array","prefixItems":[{"type":"string"},{"type":"string"}],"minItems":2}}}`,
			`{"p":[1]}`, []string{"Too small: expected array to have >=2 items at p"}},
		{"tuple of the wrong type", `{"type":"object","properties":{"p":{"type":"array","prefixItems":[{"type":"string"}]}}}`,
			`{"p":1}`, []string{"Invalid input: expected tuple, received number at p"}},
		{"2020-12 prefixItems element", `{"type":"object","properties":{"p":{"type":"array","prefixItems":[{"type":"string"},{"type":"number"}]}}}`,
			`{"p":["a","b"]}`, []string{"Invalid input: expected number, received string at p[1]"}},
		{"$ref into $defs", `{"$defs":{"n":{"type":"number","maximum":3}},"type":"object","properties":{"a":{"$ref":"#/$defs/n"},"b":{"$ref":"#/$defs/n"}}}`,
			`{"b":4,"a":"x"}`, []string{"Invalid input: expected number, received string at a", "Too big: expected number to be <=3 at b"}},
		{"recursive $ref", `{"$defs":{"t":{"type":"object","properties":{"v":{"type":"number"},"kids":{"type":"array","items":{"$ref":"#/$defs/t"}}}}},"$ref":"#/$defs/t"}`,
			`{"kids":[{"v":1},{"kids":[{"v":"x"}]}]}`, []string{"Invalid input: expected number, received string at kids[1].kids[0].v"}},
		{"draft-07 definitions", `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"s":{"type":"string"}},"type":"object","properties":{"a":{"$ref":"#/definitions/s"}}}`,
			`{"a":1}`, []string{"Invalid input: expected string, received number at a"}},
		{"allOf adds issues", `{"type":"object","allOf":[{"properties":{"a":{"type":"string"}}},{"properties":{"b":{"type":"number"}}}]}`,
			`{"a":1,"b":"x"}`, []string{"Invalid input: expected string, received number at a", "Invalid input: expected number, received string at b"}},
		{"oneOf two match", `{"type":"object","properties":{"x":{"oneOf":[{"type":"number"},{"type":"integer"}]}}}`,
			`{"x":1}`, []string{"Invalid input: more than one option matched at x"}},
		{"oneOf one matches", `{"type":"object","properties":{"x":{"oneOf":[{"type":"number"},{"type":"integer"}]}}}`,
			`{"x":1.5}`, nil},
		{"not", `{"type":"object","properties":{"x":{"not":{"type":"string"}}}}`,
			`{"x":"s"}`, []string{"Invalid input at x"}},
		{"if then", `{"type":"object","if":{"properties":{"k":{"const":"a"}}},"then":{"required":["v"]}}`,
			`{"k":"a"}`, []string{"Invalid input: expected nonoptional, received undefined at v"}},
		{"false schema property", `{"type":"object","properties":{"x":false}}`,
			`{"x":1}`, []string{"Invalid input: expected never, received number at x"}},
		{"required without a property schema", `{"type":"object","required":["a"]}`,
			`{}`, []string{"Invalid input: expected nonoptional, received undefined at a"}},
		{"missing enum property", `{"type":"object","properties":{"o":{"enum":["a","b"]}},"required":["o"]}`,
			`{}`, []string{`Invalid option: expected one of "a"|"b" at o`}},
		{"additionalProperties schema", `{"type":"object","properties":{"a":{}},"additionalProperties":{"type":"number"}}`,
			`{"z":"x","a":"ok","y":1}`, []string{"Invalid input: expected number, received string at z"}},
		{"patternProperties", `{"type":"object","patternProperties":{"^n_":{"type":"number"}},"additionalProperties":false}`,
			`{"n_a":"x","other":1}`, []string{"Invalid input: expected number, received string at n_a", `Unrecognized key: "other"`}},
		{"propertyNames", `{"type":"object","propertyNames":{"maxLength":3}}`,
			`{"abcd":1}`, []string{"Invalid key in record at abcd"}},
		{"min and max properties", `{"type":"object","minProperties":2}`,
			`{"a":1}`, []string{"Too small: expected object to have >=2 properties"}},
		{"dependentRequired", `{"type":"object","dependentRequired":{"a":["b"]}}`,
			`{"a":1}`, []string{"Invalid input: expected nonoptional, received undefined at b"}},
		{"uniqueItems", `{"type":"object","properties":{"u":{"type":"array","uniqueItems":true}}}`,
			`{"u":[1,{"a":[1]},2,{"a":[1]}]}`, []string{"Invalid input: expected unique items, items 1 and 3 are equal at u"}},
		{"contains", `{"type":"object","properties":{"c":{"type":"array","contains":{"type":"string"}}}}`,
			`{"c":[1,2]}`, []string{"Too small: expected array to have >=1 matching items at c"}},
		{"type list with null", `{"type":"object","properties":{"x":{"type":["integer","null"]}}}`,
			`{"x":"s"}`, []string{"Invalid input: expected number, received string at x"}},
		{"nullable anyOf", `{"type":"object","properties":{"x":{"anyOf":[{"type":"string","minLength":2},{"type":"null"}]}}}`,
			`{"x":"a"}`, []string{"Too small: expected string to have >=2 characters at x"}},
		{"nullable anyOf null", `{"type":"object","properties":{"x":{"anyOf":[{"type":"string","minLength":2},{"type":"null"}]}}}`,
			`{"x":null}`, nil},
		{"const object", `{"type":"object","properties":{"x":{"const":{"a":1}}}}`,
			`{"x":{"a":2}}`, []string{"Invalid input: expected [object Object] at x"}},
		{"const object equal", `{"type":"object","properties":{"x":{"const":{"a":1,"b":[1,"2"]}}}}`,
			`{"x":{"b":[1,"2"],"a":1.0}}`, nil},
		{"enum with null and numbers", `{"type":"object","properties":{"x":{"enum":[null,1,"a"]}}}`,
			`{"x":2}`, []string{`Invalid option: expected one of null|1|"a" at x`}},
		{"escaped keys and strings", `{"type":"object","properties":{"é":{"type":"string","maxLength":1}},"additionalProperties":false}`,
			`{"\u00e9":"\u00e9\u00e9","\u0078":1}`, []string{`Too big: expected string to have <=1 characters at é`, `Unrecognized key: "x"`}},
		{"surrogate pair counts once", `{"type":"object","properties":{"s":{"type":"string","maxLength":1}}}`,
			`{"s":"\ud83d\ude00"}`, nil},
		{"duplicate key: the last value counts", `{"type":"object","properties":{"n":{"type":"number"}}}`,
			`{"n":"x","n":1}`, nil},
		{"root not an object", `{"type":"object"}`,
			`[1]`, []string{"Invalid input: expected object, received array"}},
		{"null arguments are {}", `{"type":"object","required":["a"],"properties":{"a":{"type":"string"}}}`,
			`null`, []string{"Invalid input: expected string, received undefined at a"}},
		{"absent arguments are {}", `{"type":"object","required":["a"],"properties":{"a":{"type":"string"}}}`,
			``, []string{"Invalid input: expected string, received undefined at a"}},
		{"integer 3.0 is an integer", `{"type":"object","properties":{"i":{"type":"integer"}}}`,
			`{"i":3.0}`, nil},
		{"exclusive bounds, draft-04", `{"$schema":"http://json-schema.org/draft-04/schema#","type":"object","properties":{"x":{"type":"number","maximum":5,"exclusiveMaximum":true}}}`,
			`{"x":5}`, []string{"Too big: expected number to be <5 at x"}},
		{"array length exactly", `{"type":"object","properties":{"a":{"type":"array","minItems":2,"maxItems":2}}}`,
			`{"a":[1]}`, []string{"Too small: expected array to have exactly 2 items at a"}},
		{"format word replaces the pattern", `{"type":"object","properties":{"e":{"type":"string","format":"email","pattern":"@"}}}`,
			`{"e":"x"}`, []string{"Invalid email address at e"}},
		{"format alone is an annotation", `{"type":"object","properties":{"e":{"type":"string","format":"email"}}}`,
			`{"e":"x"}`, nil},
		{"property order as written, not sorted", `{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"string"},"m":{"type":"string"}},"required":["a","m","z"]}`,
			`{}`, []string{"Invalid input: expected string, received undefined at z", "Invalid input: expected string, received undefined at a", "Invalid input: expected string, received undefined at m"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustCompile(t, tt.schema)
			if diff := cmp.Diff(tt.want, lines(s, tt.args)); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tt.args, diff)
			}
		})
	}
}

func TestCompileErrors(t *testing.T) {
	for _, schema := range []string{
		`{`,
		`{"type":"nonsense"}`,
		`{"$ref":"#"}`,
		`{"allOf":[{"$ref":"#"}]}`,
		`{"$ref":"https://example.com/schema.json"}`,
		`{"minLength":-1}`,
	} {
		if _, err := Compile([]byte(schema), nil); err == nil {
			t.Errorf("Compile(%s, nil) succeeded, want an error", schema)
		}
	}
}

func TestBounds(t *testing.T) {
	s := mustCompile(t, `{"type":"object"}`)
	deep := strings.Repeat(`{"a":`, 100) + "1" + strings.Repeat("}", 100)
	huge := `{"a":"` + strings.Repeat("x", defaultMaxBytes) + `"}`
	tests := []struct {
		name, args string
		max        int
		want       []Issue
	}{
		{"too deep", deep, 0, []Issue{{Code: "too_deep", Message: "arguments nest deeper than the maximum of 64 levels"}}},
		{"too large", huge, 0, []Issue{{Code: "too_large", Message: "arguments are larger than the maximum of 1048576 bytes"}}},
		{"too many elements", `{"a":[1,2,3],"b":4}`, 4, []Issue{{Code: "too_many_elements", Message: "arguments contain more than the maximum of 4 elements"}}},
		{"exactly the elements", `{"a":[1,2],"b":4}`, 4, nil},
		{"not JSON", `{"a":}`, 0, []Issue{{Code: "invalid_json", Message: "arguments are not valid JSON: invalid character '}' at byte 5"}}},
		{"trailing data", `{} {}`, 0, []Issue{{Code: "invalid_json", Message: "arguments are not valid JSON: unexpected data after the top-level value at byte 3"}}},
	}
	for _, tt := range tests {
		s := *s.root
		sch := &Schema{root: &s, limits: Bounds{MaxElements: tt.max}}
		got := sch.Validate(json.RawMessage(tt.args))
		if diff := cmp.Diff(tt.want, got, cmpopts.IgnoreUnexported(Issue{})); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
	// a refusal gets the SDK's frame for refused calls
	got := TypeScript.Refuse("t", []Issue{refusal(&limitError{code: codeTooManyElements, limit: 5})}).Text
	if want := "MCP error -32602: Invalid arguments for tool t: arguments contain more than the maximum of 5 elements"; got != want {
		t.Errorf("Text = %q, want %q", got, want)
	}
}

func TestDecoderRejects(t *testing.T) {
	s := mustCompile(t, `{}`)
	for _, bad := range []string{`{"a"}`, `{"a":1,}`, `[1,]`, `01`, `1.`, `-`, `1e`, `"\x"`, "\"\x01\"", `"\u12"`, `tru`, `{"a":1`, `"abc`, `{1:2}`, `nul`, `[`, `{"a":1}x`} {
		issues := s.Validate(json.RawMessage(bad))
		if len(issues) != 1 || issues[0].Code != codeInvalidJSON {
			t.Errorf("Validate(%q) = %v, want one invalid_json issue", bad, issues)
		}
		if json.Valid([]byte(bad)) {
			t.Errorf("test input %q is valid JSON", bad)
		}
	}
	for _, good := range []string{`{}`, ` { "a" : [ 1 , -0.5e+3 , "\u00e9\ud83d\ude00\n" , true , false , null ] } `, `"x"`, `-0`, `1E5`} {
		if issues := s.Validate(json.RawMessage(good)); issues != nil {
			t.Errorf("Validate(%q) = %v, want nil", good, issues)
		}
	}
}

func TestConcurrentDeterministic(t *testing.T) {
	_, cases := readGolden(t, "zod")
	tools, _ := readGolden(t, "zod")
	schemas := compileAll(t, tools)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				for _, c := range cases {
					if c.Result == "skip" {
						continue
					}
					if got := answer(t, schemas, c, sdk1); got.Text != c.Text {
						t.Errorf("%s: run %d: %q, want %q", c.Name, i, got.Text, c.Text)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}

func TestWireShapes(t *testing.T) {
	res, err := json.Marshal(wire.TextError("MCP error -32602: Tool x not found"))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"content":[{"type":"text","text":"MCP error -32602: Tool x not found"}],"isError":true}`; string(res) != want {
		t.Errorf("TextError JSON = %s, want %s", res, want)
	}
	rpc, err := json.Marshal(Unknown(UnknownParameter, "parameter", "langauge", []string{"query", "language"}))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"code":-32602,"message":"Unknown parameter 'langauge'. Did you mean 'language'?","data":{"code":"unknown_parameter"}}`; string(rpc) != want {
		t.Errorf("RPCError JSON = %s, want %s", rpc, want)
	}
	var e error = Invalid("unknown_signal", "Unknown signal 'x'.")
	var re *wire.RPCError
	if !errors.As(e, &re) || re.DataCode() != "unknown_signal" {
		t.Errorf("errors.As: %v", e)
	}
}

func TestSuggest(t *testing.T) {
	known := []string{"query", "language", "limit", "from", "to", "sort_by"}
	tests := []struct {
		name, want string
		ok         bool
	}{
		{"langauge", "language", true},
		{"Language", "language", true},
		{"lmit", "limit", true},
		{"qurey", "query", true},
		{"sortby", "sort_by", true},
		{"xyz", "", false},
		{"too", "to", true},
		{"zz", "", false},
		{"pagination", "", false},
	}
	for _, tt := range tests {
		got, ok := Suggest(tt.name, known)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Suggest(%q) = %q, %v; want %q, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

func TestHint(t *testing.T) {
	s := mustCompile(t, `{"type":"object","additionalProperties":false,"required":["query"],"properties":{
		"query":{"type":"string","minLength":3,"maxLength":20},
		"language":{"type":"string","enum":["en","de"]},
		"limit":{"type":"integer","minimum":1,"maximum":50},
		"offset":{"type":"integer","minimum":0},
		"score":{"type":"number","exclusiveMinimum":0},
		"tags":{"type":"array","maxItems":3,"items":{"type":"string"}},
		"slug":{"type":"string","pattern":"^[a-z]+$"},
		"exact":{"const":true},
		"code":{"type":"string","minLength":4,"maxLength":4},
		"filter":{"type":"object","additionalProperties":false,"properties":{"window":{"type":"number"}}}}}`)
	signals := []string{"cpu_usage", "mem_usage"}
	checkSignal := func(args json.RawMessage) error {
		var a struct{ Query string }
		if err := json.Unmarshal(args, &a); err != nil {
			return Invalid(InvalidParameter, err.Error())
		}
		if strings.HasPrefix(a.Query, "signal:") {
			name := strings.TrimPrefix(a.Query, "signal:")
			for _, s := range signals {
				if s == name {
					return nil
				}
			}
			return Unknown("unknown_signal", "signal", name, signals)
		}
		return nil
	}
	tests := []struct {
		args string
		want error
	}{
		{`{"query":"hello"}`, nil},
		{`{"query":"hello","langauge":"en"}`, Invalid(UnknownParameter, "Unknown parameter 'langauge'. Did you mean 'language'?")},
		{`{"query":"hello","xyz":1}`, Invalid(UnknownParameter, "Unknown parameter 'xyz'.")},
		{`{"query":"hello","filter":{"windw":1}}`, Invalid(UnknownParameter, "Unknown parameter 'filter.windw'. Did you mean 'filter.window'?")},
		{`{"langauge":"en","limit":0}`, Invalid(UnknownParameter, "Unknown parameter 'langauge'. Did you mean 'language'? Missing required parameter 'query'. Invalid value for 'limit': must be between 1 and 50.")},
		{`{"query":"hello","limit":51}`, Invalid(InvalidParameter, "Invalid value for 'limit': must be between 1 and 50.")},
		{`{"query":"hello","limit":2.5}`, Invalid(InvalidParameter, "Invalid value for 'limit': must be an integer.")},
		{`{"query":"hello","limit":"2"}`, Invalid(InvalidParameter, "Invalid value for 'limit': must be an integer.")},
		{`{"query":"hello","offset":-1}`, Invalid(InvalidParameter, "Invalid value for 'offset': must be at least 0.")},
		{`{"query":"hello","score":0}`, Invalid(InvalidParameter, "Invalid value for 'score': must be greater than 0.")},
		{`{"query":"hello","language":"fr"}`, Invalid(InvalidParameter, "Invalid value for 'language': must be one of 'en', 'de'.")},
		{`{"query":"hi"}`, Invalid(InvalidParameter, "Invalid value for 'query': must be between 3 and 20 characters long.")},
		{`{"query":"hello","code":"abc"}`, Invalid(InvalidParameter, "Invalid value for 'code': must be exactly 4 characters long.")},
		{`{"query":"hello","tags":["a","b","c","d"]}`, Invalid(InvalidParameter, "Invalid value for 'tags': must have at most 3 items.")},
		{`{"query":"hello","tags":["a",1]}`, Invalid(InvalidParameter, "Invalid value for 'tags[1]': must be a string.")},
		{`{"query":"hello","slug":"A"}`, Invalid(InvalidParameter, "Invalid value for 'slug': must match the pattern /^[a-z]+$/.")},
		{`{"query":"hello","exact":false}`, Invalid(InvalidParameter, "Invalid value for 'exact': must be true.")},
		{`{"query":"hello","filter":{}}`, nil},
		{`{"query":"hello","filter":{"window":"x"}}`, Invalid(InvalidParameter, "Invalid value for 'filter.window': must be a number.")},
		{`[]`, Invalid(InvalidParameter, "Invalid arguments: invalid input: expected object, received array.")},
		{`{"query":"signal:cpu_usge"}`, Invalid("unknown_signal", "Unknown signal 'cpu_usge'. Did you mean 'cpu_usage'?")},
		{`{"query":"signal:disk"}`, Invalid("unknown_signal", "Unknown signal 'disk'.")},
		{`{"query":"signal:mem_usage"}`, nil},
	}
	for _, tt := range tests {
		got := s.Check(json.RawMessage(tt.args), checkSignal)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Check(%s) (-want +got):\n%s", tt.args, diff)
		}
	}
}

func TestReject(t *testing.T) {
	s := mustCompile(t, `{"type":"object","properties":{"n":{"type":"number"}}}`)
	if r := s.Reject("t", json.RawMessage(`{"n":1}`)); r != nil {
		t.Errorf("Reject(valid) = %v, want nil", r)
	}
	want := &wire.ToolResult{Content: []wire.Content{{Type: "text", Text: "MCP error -32602: Input validation error: Invalid arguments for tool t: Invalid input: expected number, received string at n"}}, IsError: true}
	if diff := cmp.Diff(want, s.Reject("t", json.RawMessage(`{"n":"x"}`))); diff != "" {
		t.Errorf("Reject (-want +got):\n%s", diff)
	}
	if got := TypeScript.Refuse("t", nil).Text; got != "" {
		t.Errorf("Text of no issues = %q", got)
	}
}

func TestHintMissing(t *testing.T) {
	s := mustCompile(t, `{"type":"object","required":["order","env"],"properties":{"order":{"enum":["a","b"]},"env":{"anyOf":[{"type":"string"},{"type":"number"}]}}}`)
	want := Invalid(InvalidParameter, "Missing required parameter 'order'. Missing required parameter 'env'.")
	if diff := cmp.Diff(want, s.Check(nil)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestManyProperties covers schemas with more properties than the evaluator keeps on its stack.
func TestManyProperties(t *testing.T) {
	props := func(inner string) string {
		var b strings.Builder
		for i := 25; i >= 0; i-- {
			if i < 25 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"p%d":{"type":"number"}`, i)
		}
		if inner != "" {
			b.WriteString(`,"inner":` + inner)
		}
		return `{"type":"object","additionalProperties":false,"properties":{` + b.String() + `}}`
	}
	s := mustCompile(t, props(props("")))
	got := lines(s, `{"p3":"x","inner":{"p20":"y","p0":1,"zz":1},"p24":"z","extra":1}`)
	want := []string{
		"Invalid input: expected number, received string at p24",
		"Invalid input: expected number, received string at p3",
		"Invalid input: expected number, received string at inner.p20",
		`Unrecognized key: "zz" at inner`,
		`Unrecognized key: "extra"`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := lines(s, `{"p3":1,"inner":{"p20":2}}`); got != nil {
		t.Errorf("valid arguments: %v", got)
	}
}

func TestFormatChecks(t *testing.T) {
	tests := []struct {
		check func(string) bool
		in    string
		want  bool
	}{
		{isDuration, "P1Y2M3DT4H5M6S", true},
		{isDuration, "P1.5D", false},
		{isDuration, "PT1.5S", true},
		{isDuration, "P1W", true},
		{isDuration, "PT1H", true},
		{isDuration, "P1DT1H", true},
		{isDuration, "P1DTH", false},
		{isURL, "https://example.com/a?b#c", true},
		{isURL, "http://[::1]:8080/", true},
		{isURL, "HTTP://user@host:1/", true},
		{isURL, "https:///x", true}, // new URL() skips the extra slash
		{isURL, "1http://x", false},
		{isJWT, "eyJhbGciOiJub25lIn0.e30.", true},
		{isJWT, "eyJhbGciOiIifQ.e30.x", false},
		{isJWT, "bnVsbA.e30.x", false},
		{isJWT, "a.b", false},
	}
	for _, tt := range tests {
		if got := tt.check(tt.in); got != tt.want {
			t.Errorf("check(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
	if lit, ok := regexpLiteral(`a\.b\*`); !ok || lit != "a.b*" {
		t.Errorf("regexpLiteral = %q, %v", lit, ok)
	}
}

func TestHintDiscriminator(t *testing.T) {
	s := mustCompile(t, `{"type":"object","properties":{"t":{"oneOf":[
		{"type":"object","properties":{"kind":{"const":"a"},"x":{"type":"number"}},"required":["kind"]},
		{"type":"object","properties":{"kind":{"const":"b"}},"required":["kind"]}]}}}`)
	want := Invalid(InvalidParameter, "Invalid value for 't.kind': must be one of 'a', 'b'.")
	if diff := cmp.Diff(want, s.Check(json.RawMessage(`{"t":{"kind":"c"}}`))); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := lines(s, `{"t":{"kind":"a","x":"y"}}`); !cmp.Equal(got, []string{"Invalid input: expected number, received string at t.x"}) {
		t.Errorf("branch issues: %q", got)
	}
}

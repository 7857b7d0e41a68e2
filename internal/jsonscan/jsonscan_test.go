package jsonscan

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// valid reports whether b is one JSON value with white space around it, by
// the scanner.
func valid[T Text](b T) bool {
	end, ok := Value(b, Space(b, 0), 0, nil)
	return ok && Space(b, end) == len(b)
}

// The scanner accepts exactly what encoding/json accepts, escapes and
// number forms included, on strings and byte slices alike.
func TestValueAgreesWithEncodingJSON(t *testing.T) {
	for _, s := range []string{
		`{}`, `[]`, `{"a":1}`, ` {"a" : [1, 2.5e-3, -0, "x\u00e9\n"] } `, `"\ud83d\ude00"`, `true`, `false`, `null`,
		`{"a":1,}`, `[1,]`, `01`, `-`, `1.`, `1e`, `.5`, `"\x"`, `"\u12"`, "\"a\tb\"", `"abc`, `{"a"}`, `{"a":}`,
		`[1 2]`, `{"a":1 "b":2}`, `tru`, `nul`, `{"a":1}}`, `1 2`, ``, ` `, `"\\"`, `"\\\""`, `"\/"`, `[[[[]]]]`,
		`{"\"":"\\"}`, `1e400`, `-1E+2`, `"` + "\xff" + `"`,
	} {
		want := json.Valid([]byte(s))
		if got := valid(s); got != want {
			t.Errorf("string %q: scanner says %v, encoding/json %v", s, got, want)
		}
		if got := valid([]byte(s)); got != want {
			t.Errorf("bytes %q: scanner says %v, encoding/json %v", s, got, want)
		}
	}
}

// Stats records the deepest nesting and a number past a float64's range,
// and neither stops the scan.
func TestValueStats(t *testing.T) {
	tests := []struct {
		in   string
		want Stats
	}{
		{`1`, Stats{}},
		{`[1e400]`, Stats{Depth: 1, Huge: true}},
		{`{"a":[{"b":[]}]}`, Stats{Depth: 4}},
		{strings.Repeat("[", 40) + strings.Repeat("]", 40), Stats{Depth: 40}},
		{`[1e-400, 123]`, Stats{Depth: 1}},
		{"[" + strings.Repeat("9", 309) + "]", Stats{Depth: 1, Huge: true}},
	}
	for _, tt := range tests {
		var st Stats
		if _, ok := Value(tt.in, 0, 0, &st); !ok {
			t.Errorf("%.40q: not valid", tt.in)
		}
		if diff := cmp.Diff(tt.want, st); diff != "" {
			t.Errorf("%.40q: stats (-want +got):\n%s", tt.in, diff)
		}
	}
}

type member struct {
	Name, Value string
	Esc         bool
}

// Members yields each member's raw name and value in order, and stops at the
// first byte that is not JSON.
func TestMembers(t *testing.T) {
	tests := []struct {
		in   string
		want []member
		ok   bool
	}{
		{`{}`, nil, true},
		{`{"a":1,"b\n":{"c":[2]} , "d" : "x"}`, []member{{"a", "1", false}, {`b\n`, `{"c":[2]}`, true}, {"d", `"x"`, false}}, true},
		{`{"a":1,"b":}`, []member{{"a", "1", false}}, false},
		{`{"a":1,}`, []member{{"a", "1", false}}, false},
		{`[1]`, nil, false},
	}
	for _, tt := range tests {
		var got []member
		_, ok := Members(tt.in, 0, func(name, value string, esc bool) bool {
			got = append(got, member{name, value, esc})
			return true
		})
		if ok != tt.ok {
			t.Errorf("%q: ok %v, want %v", tt.in, ok, tt.ok)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%q: members (-want +got):\n%s", tt.in, diff)
		}
	}
}

// A scan allocates nothing for nesting up to 32 containers.
func TestValueAllocs(t *testing.T) {
	b := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"a":[1,2,{"b":"c\u00e9"}]}}}`)
	if n := testing.AllocsPerRun(100, func() { Value(b, 0, 0, nil) }); n != 0 {
		t.Errorf("Value allocates %v times", n)
	}
}

// FuzzValue: the scanner and encoding/json agree on what is JSON, for any
// bytes, and the scanner never reads past the text.
func FuzzValue(f *testing.F) {
	for _, s := range []string{`{"a":[1,"b",{"c":null}]}`, `"\u00e9"`, `1e400`, `[1,]`, `{"a"}`, "\"\xff\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := valid(b), json.Valid(b); got != want {
			t.Fatalf("%q: scanner says %v, encoding/json %v", b, got, want)
		}
		if got := valid(string(b)); got != json.Valid(b) {
			t.Fatalf("%q: string scan disagrees with the byte scan", b)
		}
	})
}

package header

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

type sfSeen struct {
	Kind   sfKind
	Num    int64
	Str    string
	Params string
}

func TestSFParseList(t *testing.T) {
	tests := []struct {
		in   string
		ok   bool
		want []sfSeen
	}{
		{"", true, nil},
		{"1", true, []sfSeen{{sfInteger, 1, "", ""}}},
		{"-999999999999999", true, []sfSeen{{sfInteger, -999999999999999, "", ""}}},
		{"1000000000000000", false, nil}, // 16 digits
		{"1.5, 123456789012.123", true, []sfSeen{{Kind: sfDecimal}, {Kind: sfDecimal}}},
		{"1.", false, nil},
		{"1.1234", false, nil},
		{"1234567890123.1", false, nil},
		{"-", false, nil},
		{`"a b", "\"q\\"`, true, []sfSeen{{sfString, 0, "a b", ""}, {sfString, 0, `\"q\\`, ""}}},
		{`"\a"`, false, nil},
		{`"unterminated`, false, nil},
		{"\"tab\there\"", false, nil},
		{"tok*en/x:y, *star", true, []sfSeen{{sfToken, 0, "tok*en/x:y", ""}, {sfToken, 0, "*star", ""}}},
		{":aGk=:, ::", true, []sfSeen{{sfBytes, 0, "aGk=", ""}, {sfBytes, 0, "", ""}}},
		{":a b:", false, nil},
		{"?1, ?0", true, []sfSeen{{sfBoolean, 1, "", ""}, {sfBoolean, 0, "", ""}}},
		{"?2", false, nil},
		{"@1659578233, @-1", true, []sfSeen{{sfDate, 1659578233, "", ""}, {sfDate, -1, "", ""}}},
		{"@1.5", false, nil},
		{"@", false, nil},
		{"@-", false, nil},
		{`%"f%c3%bc"`, true, []sfSeen{{Kind: sfDisplayString}}},
		{`%"f%C3"`, false, nil},
		{`%"f%c"`, false, nil},
		{"(1 2);a, ()", true, []sfSeen{{sfInnerList, 0, "", ";a"}, {sfInnerList, 0, "", ""}}},
		{"(1  2 )", true, []sfSeen{{Kind: sfInnerList}}},
		{"(1,2)", false, nil},
		{"(1", false, nil},
		{`"p";q=100;w=60;pk=:aGk=:;x`, true, []sfSeen{{sfString, 0, "p", ";q=100;w=60;pk=:aGk=:;x"}}},
		{`"p"; q=1`, true, []sfSeen{{sfString, 0, "p", "; q=1"}}},
		{`"p" ;q=1`, false, nil},
		{`"p";Q=1`, false, nil},
		{`"p";q=`, false, nil},
		{`"p";=1`, false, nil},
		{"  1 ,\t2  ", true, []sfSeen{{sfInteger, 1, "", ""}, {sfInteger, 2, "", ""}}},
		{"1,", false, nil},
		{",1", false, nil},
		{"1,,2", false, nil},
		{"1 2", false, nil},
		{"\t1", false, nil},
		{"a;b=?1;c", true, []sfSeen{{sfToken, 0, "a", ";b=?1;c"}}},
		{"é", false, nil},
		{"1\x00", false, nil},
	}
	for _, tt := range tests {
		var got []sfSeen
		ok := sfParseList(tt.in, func(v sfValue, params string) {
			got = append(got, sfSeen{v.kind, v.num, v.str, params})
		})
		if ok != tt.ok {
			t.Errorf("sfParseList(%q) = %v, want %v", tt.in, ok, tt.ok)
			continue
		}
		if !ok {
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("sfParseList(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestSFEachParam(t *testing.T) {
	type kv struct {
		Key  string
		Kind sfKind
		Num  int64
		Str  string
	}
	var got []kv
	sfEachParam(`;q=100; w=60;pk=:aGk=:;x;qu="r\"s";q=-2`, func(key string, v sfValue) {
		got = append(got, kv{key, v.kind, v.num, v.text()})
	})
	want := []kv{
		{"q", sfInteger, 100, ""},
		{"w", sfInteger, 60, ""},
		{"pk", sfBytes, 0, "aGk="},
		{"x", sfBoolean, 1, ""},
		{"qu", sfString, 0, `r"s`},
		{"q", sfInteger, -2, ""},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestSFParseListAllocs(t *testing.T) {
	in := `"burst";q=100;w=60, "daily";q=1000;w=86400;pk=:aGk=:, (1 2);a=?1`
	if n := testing.AllocsPerRun(100, func() { sfParseList(in, nil) }); n != 0 {
		t.Errorf("sfParseList: %v allocations, want 0", n)
	}
}

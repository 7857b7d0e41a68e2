package wire_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/wire"
)

// TestPrintable: text echoed in a message keeps what prints, escapes
// control and non-printing characters, turns bytes that are not UTF-8 into
// U+FFFD, and is
// cut to 200 bytes with "..." after.
func TestPrintable(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"plain text as it is", "tools/call", "tools/call"},
		{"printable Unicode as it is", "café ✓", "café ✓"},
		{"a newline cannot forge a line", "a\nlevel=ERROR", `a\nlevel=ERROR`},
		{"control characters escaped", "\x00\x1b[31m\t", `\x00\x1b[31m\t`},
		{"line separator escaped", "a\u2028b", `a\u2028b`},
		{"a byte that is not UTF-8 becomes U+FFFD", "a\xffb", "a\ufffdb"},
		{"U+FFFD as sent stays U+FFFD", "a\ufffdb", "a\ufffdb"},
		{"a control character after printable Unicode", "é\n", `é\n`},
		{"200 bytes kept whole", strings.Repeat("x", 200), strings.Repeat("x", 200)},
		{"201 bytes cut to 200", strings.Repeat("x", 201), strings.Repeat("x", 200) + "..."},
		{"empty", "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if diff := cmp.Diff(c.want, wire.Printable(c.in)); diff != "" {
				t.Errorf("Printable(%q) (-want +got):\n%s", c.in, diff)
			}
		})
	}
}

// TestPrintableNoAllocation: text that needs no escaping and no cut, such as
// a method name or a path logged for every request, is returned as it is
// without allocating.
func TestPrintableNoAllocation(t *testing.T) {
	for _, s := range []string{"tools/call", "/mcp", strings.Repeat("x", 200), ""} {
		if got := wire.Printable(s); got != s {
			t.Errorf("Printable(%q) = %q; want it as it is", s, got)
		}
		if n := testing.AllocsPerRun(100, func() { wire.Printable(s) }); n != 0 {
			t.Errorf("Printable(%q) allocates %v times; want 0", s, n)
		}
	}
}

// FuzzPrintable: whatever it is given, Printable's answer is valid UTF-8
// without a control character, and bounded: 200 bytes of text, each escaped
// to at most 6 bytes, and "...".
func FuzzPrintable(f *testing.F) {
	f.Add("a\nb")
	f.Add("\xff\xfe")
	f.Add(strings.Repeat("é", 150))
	f.Fuzz(func(t *testing.T, s string) {
		got := wire.Printable(s)
		if strings.ContainsFunc(got, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			t.Errorf("Printable(%q) = %q holds a control character", s, got)
		}
		if !utf8.ValidString(got) {
			t.Errorf("Printable(%q) = %q is not valid UTF-8", s, got)
		}
		if len(got) > 6*200+len("...") {
			t.Errorf("Printable(%q) is %d bytes long", s, len(got))
		}
	})
}

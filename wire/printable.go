package wire

import (
	"strconv"
	"strings"
	"unicode"
)

// printableMax is the most bytes of the text Printable keeps.
const printableMax = 200

// Printable returns s fit to echo in an error message, error data or a log
// line: cut to at most 200 bytes (then "..." follows), with control and
// other non-printing characters escaped as Go writes them in a quoted string
// (\n, \x00, \u2028) and each byte that is not UTF-8 turned into U+FFFD, so
// that text a client sent cannot forge lines or flood the message. Text that
// needs none of this, such as a method name or a path, is returned as it is,
// without allocating.
func Printable(s string) string {
	cut := false
	if len(s) > printableMax {
		s, cut = s[:printableMax], true
	}
	i := 0
	for i < len(s) && ' ' <= s[i] && s[i] < 0x7f { // printable ASCII
		i++
	}
	if i == len(s) && !cut {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len("..."))
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		// A byte that is not UTF-8 ranges as U+FFFD, which prints.
		if !unicode.IsPrint(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	if cut {
		b.WriteString("...")
	}
	return b.String()
}

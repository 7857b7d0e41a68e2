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
// that text a client sent cannot forge lines or flood the message.
func Printable(s string) string {
	cut := false
	if len(s) > printableMax {
		s, cut = s[:printableMax], true
	}
	var b strings.Builder
	for _, r := range s {
		if r == unicode.ReplacementChar || !unicode.IsPrint(r) {
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

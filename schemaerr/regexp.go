package schemaerr

import (
	"fmt"
	"io"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// ecmaRegexp is a JSON Schema pattern (an ECMAScript regular expression) running on Go's RE2.
type ecmaRegexp struct {
	src string
	re  *regexp.Regexp
	// units: the pattern has no u flag, so JavaScript matches it against UTF-16 code units: "."
	// is half of an emoji. A string with characters beyond U+FFFF is matched unit by unit.
	units bool
	// cost is the work of matching 16 bytes, in steps: RE2's time is linear in the string,
	// times the size of the pattern's program
	cost int
}

func (r *ecmaRegexp) String() string { return r.src }

func (r *ecmaRegexp) MatchString(s string) bool {
	if r.units && hasAstral(s) {
		return r.re.MatchReader(&utf16Reader{s: s})
	}
	return r.re.MatchString(s)
}

func (r *ecmaRegexp) match(b []byte) bool {
	if r.units && hasAstral(b) {
		return r.re.MatchReader(&utf16Reader{s: string(b)})
	}
	return r.re.Match(b)
}

// hasAstral reports whether s has a character beyond U+FFFF (four bytes in UTF-8).
func hasAstral[S string | []byte](s S) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0xf0 {
			return true
		}
	}
	return false
}

// utf16Reader reads a string as JavaScript sees it without the u flag: one rune per UTF-16
// code unit, a character beyond U+FFFF as its two surrogates.
type utf16Reader struct {
	s   string
	low rune // the low surrogate still to read, or 0
}

func (r *utf16Reader) ReadRune() (rune, int, error) {
	if r.low != 0 {
		c := r.low
		r.low = 0
		return c, 3, nil // the surrogates share the character's four bytes; a width of 0 would end the input
	}
	if r.s == "" {
		return 0, 0, io.EOF
	}
	c, size := utf8.DecodeRuneInString(r.s)
	r.s = r.s[size:]
	if c > 0xffff {
		hi, lo := utf16.EncodeRune(c)
		r.low = lo
		return hi, 1, nil
	}
	return c, size, nil
}

// jsSpace is the body of a character class matching what ECMAScript's \s matches.
const jsSpace = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

// compileECMA compiles an ECMAScript pattern for RE2, or fails with a *PatternError.
func compileECMA(src string) (*ecmaRegexp, error) {
	unicode := needsUnicode(src)
	tr, err := translateECMA(src, unicode)
	if err != nil {
		return nil, err
	}
	re, err := regexp.Compile(tr)
	if err != nil {
		return nil, &PatternError{Pattern: src, Reason: "Go's RE2 engine cannot compile it: " + err.Error()}
	}
	return &ecmaRegexp{src: src, re: re, units: !unicode, cost: matchCost(tr)}, nil
}

// matchCost is the work, in steps, of matching 16 bytes against the RE2 pattern tr: one step
// for every 16 instructions of its program, at least one.
func matchCost(tr string) int {
	re, err := syntax.Parse(tr, syntax.Perl)
	if err != nil {
		return 1
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return 1
	}
	return 1 + len(prog.Inst)/16
}

// translateECMA rewrites the ECMAScript-only syntax of a pattern into RE2 syntax: \s and . with
// their ECMAScript meaning, \uXXXX and \u{X}, \cX, \0, [^] and [], identity escapes, and property
// names such as \p{Script=Greek}. What RE2 cannot do (lookaround, backreferences) is an error.
// Without the u flag (unicode false) a character beyond U+FFFF, written or escaped, is its two
// UTF-16 surrogates, as the input is then read (see utf16Reader).
func translateECMA(src string, unicode bool) (string, error) {
	fail := func(reason string) (string, error) {
		return "", &PatternError{Pattern: src, Reason: reason}
	}
	var b strings.Builder
	inClass := false
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\\':
			if i+1 >= len(src) {
				return fail("it ends with a lone backslash")
			}
			e := src[i+1]
			i += 2
			switch e {
			case 'd', 'D', 'w', 'W', 'f', 'n', 'r', 't', 'v':
				b.WriteByte('\\')
				b.WriteByte(e)
			case 'b':
				if inClass {
					b.WriteString(`\x08`)
				} else {
					b.WriteString(`\b`)
				}
			case 'B':
				if inClass {
					b.WriteByte('B')
				} else {
					b.WriteString(`\B`)
				}
			case 's':
				if inClass {
					b.WriteString(jsSpace)
				} else {
					b.WriteString("[" + jsSpace + "]")
				}
			case 'S':
				if inClass {
					b.WriteString(`\S`) // RE2's ASCII \S: the nearest RE2 can say inside a class
				} else {
					b.WriteString("[^" + jsSpace + "]")
				}
			case '0':
				if i < len(src) && src[i] >= '0' && src[i] <= '9' {
					return fail("octal escapes are not supported")
				}
				b.WriteString(`\x00`)
			case '1', '2', '3', '4', '5', '6', '7', '8', '9':
				if inClass {
					return fail("octal escapes are not supported")
				}
				return fail(`backreferences (\` + string(e) + `) are not supported by Go's RE2 engine`)
			case 'k':
				if i < len(src) && src[i] == '<' {
					return fail(`named backreferences (\k<name>) are not supported by Go's RE2 engine`)
				}
				b.WriteByte('k')
			case 'c':
				if i < len(src) && isASCIILetter(src[i]) {
					fmt.Fprintf(&b, `\x{%x}`, src[i]%32)
					i++
				} else {
					b.WriteString(`\\c`)
				}
			case 'x':
				if i+1 < len(src) && isHex(src[i]) && isHex(src[i+1]) {
					b.WriteString(`\x` + src[i:i+2])
					i += 2
				} else {
					b.WriteByte('x')
				}
			case 'u':
				r, n, ok := parseUnicodeEscape(src[i:])
				if !ok {
					b.WriteByte('u')
					break
				}
				i += n
				if utf16.IsSurrogate(r) && unicode {
					if r2, n2, ok := parseUnicodeEscape(strings.TrimPrefix(src[i:], `\u`)); ok && strings.HasPrefix(src[i:], `\u`) {
						if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
							r = d
							i += 2 + n2
						}
					}
				}
				fmt.Fprintf(&b, `\x{%x}`, r)
			case 'p', 'P':
				end := strings.IndexByte(src[i:], '}')
				if i >= len(src) || src[i] != '{' || end < 0 {
					b.WriteByte(e)
					break
				}
				name := src[i+1 : i+end]
				for _, pre := range []string{"Script=", "sc=", "Script_Extensions=", "scx=", "General_Category=", "gc="} {
					name = strings.TrimPrefix(name, pre)
				}
				b.WriteString(`\` + string(e) + "{" + name + "}")
				i += end + 1
			default:
				r, n := utf8.DecodeRuneInString(src[i-1:])
				i += n - 1
				if r < utf8.RuneSelf && !isASCIILetter(byte(r)) && !(r >= '0' && r <= '9') {
					b.WriteByte('\\')
					b.WriteRune(r)
				} else {
					b.WriteString(regexp.QuoteMeta(string(r))) // an identity escape: the character itself
				}
			}
		case inClass:
			switch c {
			case ']':
				inClass = false
				b.WriteByte(c)
			case '[':
				b.WriteString(`\[`) // RE2 would read [: as a POSIX class
			default:
				if r, size := utf8.DecodeRuneInString(src[i:]); r > 0xffff && !unicode {
					hi, lo := utf16.EncodeRune(r)
					fmt.Fprintf(&b, `\x{%x}\x{%x}`, hi, lo)
					i += size
					continue
				}
				b.WriteByte(c)
			}
			i++
		case c == '[':
			switch {
			case strings.HasPrefix(src[i:], "[^]"):
				b.WriteString(`(?s:.)`)
				i += 3
			case strings.HasPrefix(src[i:], "[]"):
				b.WriteString(`[^\x00-\x{10FFFF}]`)
				i += 2
			default:
				inClass = true
				b.WriteByte('[')
				i++
				if i < len(src) && src[i] == '^' {
					b.WriteByte('^')
					i++
				}
			}
		case c == '(':
			switch {
			case strings.HasPrefix(src[i:], "(?="), strings.HasPrefix(src[i:], "(?!"):
				return fail("lookahead (?= and (?! is not supported by Go's RE2 engine")
			case strings.HasPrefix(src[i:], "(?<="), strings.HasPrefix(src[i:], "(?<!"):
				return fail("lookbehind (?<= and (?<! is not supported by Go's RE2 engine")
			}
			b.WriteByte(c)
			i++
		case c == '.':
			b.WriteString(`[^\n\r\x{2028}\x{2029}]`)
			i++
		case c == '{':
			if n, lo, hi, ok := parseQuantifier(src[i:]); ok {
				if lo > 1000 || hi > 1000 {
					return fail("a repetition count above 1000 is not supported by Go's RE2 engine")
				}
				b.WriteString(src[i : i+n])
				i += n
			} else {
				b.WriteString(`\{`)
				i++
			}
		case c == '}':
			b.WriteString(`\}`)
			i++
		case c >= 0xf0 && !unicode:
			r, size := utf8.DecodeRuneInString(src[i:])
			if r > 0xffff {
				hi, lo := utf16.EncodeRune(r)
				fmt.Fprintf(&b, `\x{%x}\x{%x}`, hi, lo)
			} else {
				b.WriteString(src[i : i+size])
			}
			i += size
		default:
			b.WriteByte(c)
			i++
		}
	}
	if inClass {
		return fail("a character class is not closed")
	}
	return b.String(), nil
}

func isASCIILetter(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }

// parseUnicodeEscape reads XXXX or {X...} after \u.
func parseUnicodeEscape(s string) (rune, int, bool) {
	if strings.HasPrefix(s, "{") {
		end := strings.IndexByte(s, '}')
		if end < 2 || end > 9 {
			return 0, 0, false
		}
		v, err := strconv.ParseUint(s[1:end], 16, 32)
		if err != nil || v > utf8.MaxRune {
			return 0, 0, false
		}
		return rune(v), end + 1, true
	}
	if len(s) < 4 {
		return 0, 0, false
	}
	for i := 0; i < 4; i++ {
		if !isHex(s[i]) {
			return 0, 0, false
		}
	}
	return hex4([]byte(s[:4])), 4, true
}

// parseQuantifier reads {n}, {n,} or {n,m}; hi is -1 for {n,}.
func parseQuantifier(s string) (n, lo, hi int, ok bool) {
	end := strings.IndexByte(s, '}')
	if end < 2 {
		return 0, 0, 0, false
	}
	body := s[1:end]
	a, bs, comma := strings.Cut(body, ",")
	lo, err := strconv.Atoi(a)
	if err != nil || a == "" || a[0] == '+' || a[0] == '-' {
		return 0, 0, 0, false
	}
	hi = lo
	if comma {
		hi = -1
		if bs != "" {
			if hi, err = strconv.Atoi(bs); err != nil || bs[0] == '+' || bs[0] == '-' {
				return 0, 0, 0, false
			}
		}
	}
	return end + 1, lo, hi, true
}

// jsSource is the pattern as JavaScript's RegExp.prototype.source shows it: "/" outside a class
// and line terminators escaped, "(?:)" for the empty pattern.
func jsSource(src string) string {
	if src == "" {
		return "(?:)"
	}
	var b strings.Builder
	inClass := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\\':
			b.WriteByte(c)
			if i+1 < len(src) {
				i++
				switch src[i] {
				case '\n':
					b.WriteString("n")
				case '\r':
					b.WriteString("r")
				default:
					b.WriteByte(src[i])
				}
			}
			continue
		case c == '[':
			inClass = true
		case c == ']':
			inClass = false
		case c == '/' && !inClass:
			b.WriteString(`\/`)
			continue
		case c == '\n':
			b.WriteString(`\n`)
			continue
		case c == '\r':
			b.WriteString(`\r`)
			continue
		case strings.HasPrefix(src[i:], "\u2028"):
			b.WriteString(`\u2028`)
			i += 2
			continue
		case strings.HasPrefix(src[i:], "\u2029"):
			b.WriteString(`\u2029`)
			i += 2
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

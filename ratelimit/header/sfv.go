package header

// A small, strict parser for the Structured Field Lists of RFC 9651 (which
// obsoletes RFC 8941), enough for the RateLimit and RateLimit-Policy
// fields. It follows the parsing algorithm of RFC 9651 section 4.2: any
// deviation fails the whole field, which the caller then ignores. Inner
// lists, Decimals, Booleans, Dates and Display Strings are checked for
// syntax and handed to the caller with their kind, so a valid field that
// uses them is not rejected, but their values are not decoded.
//
// Parsing does not allocate: members are handed to a callback with their
// parameters as a raw span that sfEachParam walks again. Callers parse
// once to validate and once to use.

type sfKind uint8

const (
	sfInvalid sfKind = iota
	sfInteger
	sfDecimal
	sfString // str holds the raw content between the quotes, escapes included
	sfToken
	sfBytes // str holds the base64 text between the colons
	sfBoolean
	sfDate
	sfDisplayString
	sfInnerList
)

type sfValue struct {
	kind sfKind
	num  int64 // Integer, Date; 1 or 0 for Boolean
	str  string
}

// text reports a String's or Token's content, with String escapes
// removed (which allocates only when there are escapes).
func (v sfValue) text() string {
	if v.kind != sfString {
		return v.str
	}
	for i := 0; i < len(v.str); i++ {
		if v.str[i] == '\\' {
			b := make([]byte, 0, len(v.str))
			for j := 0; j < len(v.str); j++ {
				if v.str[j] == '\\' {
					j++
				}
				b = append(b, v.str[j])
			}
			return string(b)
		}
	}
	return v.str
}

type sfParser struct {
	s string
	i int
}

// sfParseList parses one field line as a List and calls visit, when it is
// not nil, for every member with its value and raw parameters. It reports
// whether the whole line is valid; members already visited when it fails
// are not undone, so validate first with a nil visit.
func sfParseList(s string, visit func(v sfValue, params string)) bool {
	p := sfParser{s: s}
	p.skipSP()
	for p.i < len(p.s) {
		var v sfValue
		if p.s[p.i] == '(' {
			if !p.innerList() {
				return false
			}
			v = sfValue{kind: sfInnerList}
		} else {
			var ok bool
			if v, ok = p.bareItem(); !ok {
				return false
			}
		}
		start := p.i
		if !p.params() {
			return false
		}
		if visit != nil {
			visit(v, p.s[start:p.i])
		}
		p.skipOWS()
		if p.i >= len(p.s) {
			return true
		}
		if p.s[p.i] != ',' {
			return false
		}
		p.i++
		p.skipOWS()
		if p.i >= len(p.s) {
			return false // trailing comma
		}
	}
	return true // empty field: an empty list
}

// sfEachParam walks parameters already validated by sfParseList.
func sfEachParam(raw string, fn func(key string, v sfValue)) {
	p := sfParser{s: raw}
	for p.i < len(p.s) && p.s[p.i] == ';' {
		p.i++
		p.skipSP()
		key, _ := p.key()
		v := sfValue{kind: sfBoolean, num: 1}
		if p.i < len(p.s) && p.s[p.i] == '=' {
			p.i++
			v, _ = p.bareItem()
		}
		fn(key, v)
	}
}

func (p *sfParser) skipSP() {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
}

func (p *sfParser) skipOWS() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *sfParser) innerList() bool {
	p.i++ // '('
	for p.i < len(p.s) {
		p.skipSP()
		if p.i >= len(p.s) {
			return false
		}
		if p.s[p.i] == ')' {
			p.i++
			return true
		}
		if _, ok := p.bareItem(); !ok {
			return false
		}
		if !p.params() {
			return false
		}
		if p.i >= len(p.s) || (p.s[p.i] != ' ' && p.s[p.i] != ')') {
			return false
		}
	}
	return false
}

func (p *sfParser) params() bool {
	for p.i < len(p.s) && p.s[p.i] == ';' {
		p.i++
		p.skipSP()
		if _, ok := p.key(); !ok {
			return false
		}
		if p.i < len(p.s) && p.s[p.i] == '=' {
			p.i++
			if _, ok := p.bareItem(); !ok {
				return false
			}
		}
	}
	return true
}

func (p *sfParser) key() (string, bool) {
	start := p.i
	if p.i >= len(p.s) || !(isLCAlpha(p.s[p.i]) || p.s[p.i] == '*') {
		return "", false
	}
	p.i++
	for p.i < len(p.s) {
		c := p.s[p.i]
		if !(isLCAlpha(c) || isASCIIDigit(c) || c == '_' || c == '-' || c == '.' || c == '*') {
			break
		}
		p.i++
	}
	return p.s[start:p.i], true
}

func (p *sfParser) bareItem() (sfValue, bool) {
	if p.i >= len(p.s) {
		return sfValue{}, false
	}
	switch c := p.s[p.i]; {
	case c == '-' || isASCIIDigit(c):
		return p.number()
	case c == '"':
		return p.str()
	case c == '*' || isAlpha(c):
		return p.token()
	case c == ':':
		return p.bytes()
	case c == '?':
		if p.i+1 < len(p.s) && (p.s[p.i+1] == '0' || p.s[p.i+1] == '1') {
			v := sfValue{kind: sfBoolean, num: int64(p.s[p.i+1] - '0')}
			p.i += 2
			return v, true
		}
	case c == '@':
		p.i++
		if v, ok := p.number(); ok && v.kind == sfInteger {
			return sfValue{kind: sfDate, num: v.num}, true
		}
	case c == '%':
		return p.displayString()
	}
	return sfValue{}, false
}

// number parses an Integer (at most 15 digits) or a Decimal (at most 12
// integer digits and 1 to 3 fractional digits).
func (p *sfParser) number() (sfValue, bool) {
	neg := false
	if p.i < len(p.s) && p.s[p.i] == '-' {
		neg = true
		p.i++
	}
	if p.i >= len(p.s) || !isASCIIDigit(p.s[p.i]) {
		return sfValue{}, false
	}
	var n int64
	digits := 0
	for p.i < len(p.s) && isASCIIDigit(p.s[p.i]) {
		digits++
		if digits > 15 {
			return sfValue{}, false
		}
		n = n*10 + int64(p.s[p.i]-'0')
		p.i++
	}
	if p.i < len(p.s) && p.s[p.i] == '.' {
		if digits > 12 {
			return sfValue{}, false
		}
		p.i++
		frac := 0
		for p.i < len(p.s) && isASCIIDigit(p.s[p.i]) {
			frac++
			p.i++
		}
		if frac < 1 || frac > 3 {
			return sfValue{}, false
		}
		return sfValue{kind: sfDecimal}, true
	}
	if neg {
		n = -n
	}
	return sfValue{kind: sfInteger, num: n}, true
}

func (p *sfParser) str() (sfValue, bool) {
	p.i++ // '"'
	start := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '\\':
			if p.i+1 >= len(p.s) || (p.s[p.i+1] != '"' && p.s[p.i+1] != '\\') {
				return sfValue{}, false
			}
			p.i += 2
		case c == '"':
			v := sfValue{kind: sfString, str: p.s[start:p.i]}
			p.i++
			return v, true
		case c < 0x20 || c > 0x7e:
			return sfValue{}, false
		default:
			p.i++
		}
	}
	return sfValue{}, false
}

func (p *sfParser) token() (sfValue, bool) {
	start := p.i
	p.i++
	for p.i < len(p.s) && (isTchar(p.s[p.i]) || p.s[p.i] == ':' || p.s[p.i] == '/') {
		p.i++
	}
	return sfValue{kind: sfToken, str: p.s[start:p.i]}, true
}

func (p *sfParser) bytes() (sfValue, bool) {
	p.i++ // ':'
	start := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == ':' {
			v := sfValue{kind: sfBytes, str: p.s[start:p.i]}
			p.i++
			return v, true
		}
		if !(isAlpha(c) || isASCIIDigit(c) || c == '+' || c == '/' || c == '=') {
			return sfValue{}, false
		}
		p.i++
	}
	return sfValue{}, false
}

// displayString checks %"..." with lowercase percent-encoding. The decoded
// bytes are not checked for valid UTF-8.
func (p *sfParser) displayString() (sfValue, bool) {
	if p.i+1 >= len(p.s) || p.s[p.i+1] != '"' {
		return sfValue{}, false
	}
	p.i += 2
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '%':
			if p.i+2 >= len(p.s) || !isLCHex(p.s[p.i+1]) || !isLCHex(p.s[p.i+2]) {
				return sfValue{}, false
			}
			p.i += 3
		case c == '"':
			p.i++
			return sfValue{kind: sfDisplayString}, true
		case c < 0x20 || c > 0x7e:
			return sfValue{}, false
		default:
			p.i++
		}
	}
	return sfValue{}, false
}

func isLCAlpha(c byte) bool { return 'a' <= c && c <= 'z' }

func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func isLCHex(c byte) bool { return isASCIIDigit(c) || 'a' <= c && c <= 'f' }

// isTchar reports whether c is a tchar of RFC 9110 section 5.6.2.
func isTchar(c byte) bool {
	switch c {
	case '!', '#', '$', '%', '&', '\'', '*', '+', '-', '.', '^', '_', '`', '|', '~':
		return true
	}
	return isAlpha(c) || isASCIIDigit(c)
}

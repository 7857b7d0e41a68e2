package schemaerr

import (
	"bytes"
	"strconv"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/mcperr/mcperr/internal/jsonscan"
)

// vkind is the JSON type of a decoded value, plus undefined for a property that is absent.
type vkind uint8

const (
	kUndefined vkind = iota
	kNull
	kBool
	kNumber
	kString
	kArray
	kObject
)

// received is zod's name for each kind, as it appears after "received".
var received = [...]string{
	kUndefined: "undefined",
	kNull:      "null",
	kBool:      "boolean",
	kNumber:    "number",
	kString:    "string",
	kArray:     "array",
	kObject:    "object",
}

// value is one node of a decoded document. The values of a document live in one slice in document
// order, so the first child of a container is the next value and siblings are chained by next.
// Strings and keys are kept as spans of the input and unescaped only when a check needs them.
type value struct {
	kind   vkind
	esc    bool // the string has escapes
	kesc   bool // the key has escapes
	b      bool
	num    float64
	s, e   int32 // string content span
	ks, ke int32 // key span, for object members
	n      int32 // number of children
	next   int32 // next sibling, or -1
}

// limitError is a document the decoder refused for its size or its shape.
type limitError struct {
	code  string // codeTooLarge, codeTooDeep, codeTooManyElements, codeInvalidJSON
	limit int
	off   int
	what  string
}

// decoder parses JSON into a flat slice of values. It is strict (RFC 8259), iterative in
// everything but nesting, and refuses input deeper than maxDepth or with more than maxElems
// array elements and object members.
type decoder struct {
	data     []byte
	pos      int
	vals     []value
	maxDepth int
	maxElems int // 0: no limit
	elems    int
	err      *limitError
	path     []pathSeg // the evaluator's path stack, kept between calls
	scratch  []int32   // property slots of schemas with many properties

	// the budget of one call (see tick)
	maxWork         int           // steps
	work, nextCheck int           // steps done; when to look at the clock next
	deadline        time.Time     // Bounds.MaxTime from the start, when it is set
	engineTime      time.Duration // the time a call's matches on a PatternEngine may take
	engineSpent     time.Duration // the time they took
	late            bool          // out of the budget
	timedOut        bool          // out of time, not of work

	// what one call has learnt, so that no check runs twice on the same value
	matches map[matchKey]bool        // pattern results by pattern and string span
	probes  map[probeKey]probeResult // check-mode results of a schema on a container
	hashes  []uint64                 // uniqueItems' canonical hashes by value, 0 when not computed
	keys    map[int32]any            // the keys of members in issues' paths, unquoted and boxed once
}

func (d *decoder) reset(data []byte) {
	d.data = data
	d.pos = 0
	d.vals = d.vals[:0]
	d.elems = 0
	d.err = nil
	d.deadline, d.work, d.nextCheck, d.late, d.timedOut, d.engineSpent = time.Time{}, 0, checkEvery, false, false, 0
	if len(d.keys) > 0 {
		clear(d.keys)
	}
	if len(d.matches) > 0 {
		clear(d.matches)
	}
	if len(d.probes) > 0 {
		clear(d.probes)
	}
	d.hashes = d.hashes[:0]
}

// decode parses the whole input; on success the root is d.vals[0].
func (d *decoder) decode() bool {
	if len(d.data) > presizeFrom {
		// at most one value per comma, colon-free opening bracket or brace, and the first: a
		// count costs a pass at memory speed, and saves copying the values as they grow
		n := bytes.Count(d.data, comma) + bytes.Count(d.data, openArray) + bytes.Count(d.data, openObject) + 1
		if cap(d.vals) < n {
			d.vals = make([]value, 0, n)
		}
	}
	d.skipSpace()
	if !d.parse(0) {
		return false
	}
	d.skipSpace()
	if d.pos != len(d.data) {
		return d.syntax("unexpected data after the top-level value")
	}
	return true
}

// presizeFrom is the size of arguments whose values are counted before they are decoded.
const presizeFrom = 4 << 10

var comma, openArray, openObject = []byte(","), []byte("["), []byte("{")

func (d *decoder) syntax(what string) bool {
	if d.err == nil {
		d.err = &limitError{code: codeInvalidJSON, off: d.pos, what: what}
	}
	return false
}

func (d *decoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *decoder) add(v value) int32 {
	v.next = -1
	d.vals = append(d.vals, v)
	return int32(len(d.vals) - 1)
}

func (d *decoder) parse(depth int) bool {
	if d.pos >= len(d.data) {
		return d.syntax("unexpected end of input")
	}
	switch c := d.data[d.pos]; c {
	case '{':
		return d.parseObject(depth + 1)
	case '[':
		return d.parseArray(depth + 1)
	case '"':
		s, e, esc, ok := d.parseString()
		if !ok {
			return false
		}
		d.add(value{kind: kString, s: s, e: e, esc: esc})
		return true
	case 't':
		return d.literal("true", value{kind: kBool, b: true})
	case 'f':
		return d.literal("false", value{kind: kBool})
	case 'n':
		return d.literal("null", value{kind: kNull})
	default:
		if c == '-' || (c >= '0' && c <= '9') {
			return d.parseNumber()
		}
		return d.syntax("invalid character " + strconv.QuoteRune(rune(c)))
	}
}

func (d *decoder) literal(lit string, v value) bool {
	if len(d.data)-d.pos < len(lit) || string(d.data[d.pos:d.pos+len(lit)]) != lit {
		return d.syntax("invalid literal")
	}
	d.pos += len(lit)
	d.add(v)
	return true
}

func (d *decoder) enter(depth int) bool {
	if depth > d.maxDepth {
		if d.err == nil {
			d.err = &limitError{code: codeTooDeep, limit: d.maxDepth, off: d.pos}
		}
		return false
	}
	return true
}

func (d *decoder) count() bool {
	d.elems++
	if d.maxElems > 0 && d.elems > d.maxElems {
		if d.err == nil {
			d.err = &limitError{code: codeTooManyElements, limit: d.maxElems, off: d.pos}
		}
		return false
	}
	return true
}

func (d *decoder) parseArray(depth int) bool {
	self, done, ok := d.open(depth, kArray, ']')
	if done || !ok {
		return ok
	}
	prev := int32(-1)
	for {
		if !d.count() {
			return false
		}
		idx := int32(len(d.vals))
		if !d.parse(depth) {
			return false
		}
		if done, ok := d.link(self, idx, &prev, ']', "array"); done || !ok {
			return ok
		}
	}
}

func (d *decoder) parseObject(depth int) bool {
	self, done, ok := d.open(depth, kObject, '}')
	if done || !ok {
		return ok
	}
	prev := int32(-1)
	for {
		if !d.count() {
			return false
		}
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			return d.syntax("expected a string key in object")
		}
		ks, ke, kesc, ok := d.parseString()
		if !ok {
			return false
		}
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return d.syntax("expected ':' after object key")
		}
		d.pos++
		d.skipSpace()
		idx := int32(len(d.vals))
		if !d.parse(depth) {
			return false
		}
		m := &d.vals[idx]
		m.ks, m.ke, m.kesc = ks, ke, kesc
		if done, ok := d.link(self, idx, &prev, '}', "object"); done || !ok {
			return ok
		}
	}
}

// open starts the array or object of kind k whose opening byte is at
// d.pos: it adds the container's value and steps past the byte. done
// reports a container closed at once by end.
func (d *decoder) open(depth int, k vkind, end byte) (self int32, done, ok bool) {
	if !d.enter(depth) {
		return 0, false, false
	}
	self = d.add(value{kind: k})
	d.pos++ // [ or {
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == end {
		d.pos++
		return self, true, true
	}
	return self, false, true
}

// link makes the element just parsed at idx the next one of container
// self after *prev, then consumes the ',' or the closing end after it;
// done reports the close. in names the container in a syntax error.
func (d *decoder) link(self, idx int32, prev *int32, end byte, in string) (done, ok bool) {
	if *prev >= 0 {
		d.vals[*prev].next = idx
	}
	*prev = idx
	d.vals[self].n++
	d.skipSpace()
	if d.pos >= len(d.data) {
		return false, d.syntax("unexpected end of input in " + in)
	}
	switch d.data[d.pos] {
	case ',':
		d.pos++
		d.skipSpace()
		return false, true
	case end:
		d.pos++
		return true, true
	}
	return false, d.syntax("expected ',' or '" + string(end) + "' in " + in)
}

// parseString scans a string token at d.pos with the one JSON scanner
// (internal/jsonscan) and returns the span of its content; a string the
// scanner refuses is a syntax error that says what is wrong at the byte it
// stopped on.
func (d *decoder) parseString() (s, e int32, esc, ok bool) {
	data := d.data
	start := d.pos + 1
	end, esc, ok := jsonscan.String(data, d.pos)
	if ok {
		d.pos = end
		return int32(start), int32(end - 1), esc, true
	}
	d.pos = end
	switch {
	case end >= len(data):
		return 0, 0, false, d.syntax("unexpected end of input in string")
	case data[end] < 0x20:
		return 0, 0, false, d.syntax("control character in string")
	case end+1 < len(data) && data[end+1] == 'u':
		if end+6 > len(data) {
			return 0, 0, false, d.syntax("unexpected end of input in string escape")
		}
		return 0, 0, false, d.syntax("invalid \\u escape in string")
	case end+1 >= len(data):
		return 0, 0, false, d.syntax("unexpected end of input in string")
	}
	return 0, 0, false, d.syntax("invalid escape in string")
}

// parseNumber scans a number at d.pos with the one JSON scanner
// (internal/jsonscan) and adds its value: integers of up to 15 digits
// exactly and at once, anything else through strconv (out-of-range values
// become ±Inf, as JSON.parse makes them Infinity).
func (d *decoder) parseNumber() bool {
	data := d.data
	start := d.pos
	i, _, ok := jsonscan.Number(data, start)
	if !ok {
		d.pos = i
		if i >= len(data) && i == start+1 {
			return d.syntax("unexpected end of input in number") // a lone "-"
		}
		return d.syntax("invalid number")
	}
	d.pos = i
	intStart := start
	if data[start] == '-' {
		intStart++
	}
	digits := intStart
	for digits < i && data[digits] >= '0' && data[digits] <= '9' {
		digits++
	}
	var f float64
	if digits == i && i-intStart <= 15 {
		var n int64
		for _, c := range data[intStart:i] {
			n = n*10 + int64(c-'0')
		}
		f = float64(n)
		if data[start] == '-' {
			f = -f
		}
	} else {
		f, _ = strconv.ParseFloat(string(data[start:i]), 64)
	}
	d.add(value{kind: kNumber, num: f, s: int32(start), e: int32(i)})
	return true
}

// str returns the unescaped string of a string value.
func (d *decoder) str(v *value) string {
	return unquote(d.data[v.s:v.e], v.esc)
}

// key returns the unescaped key of an object member.
func (d *decoder) key(v *value) string {
	return unquote(d.data[v.ks:v.ke], v.kesc)
}

// runeLen is the length of a string value in code points, as zod counts it.
func (d *decoder) runeLen(v *value) int {
	if !v.esc {
		return utf8.RuneCount(d.data[v.s:v.e])
	}
	return utf8.RuneCountInString(d.str(v))
}

// unquote unescapes the content of a JSON string already checked by parseString. A lone
// surrogate becomes U+FFFD.
func unquote(raw []byte, esc bool) string {
	if !esc {
		return string(raw)
	}
	b := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' {
			b = append(b, c)
			continue
		}
		i++
		switch raw[i] {
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r := hex4(raw[i+1 : i+5])
			i += 4
			if utf16.IsSurrogate(r) {
				if i+6 < len(raw) && raw[i+1] == '\\' && raw[i+2] == 'u' {
					r2 := hex4(raw[i+3 : i+7])
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						b = utf8.AppendRune(b, dec)
						i += 6
						continue
					}
				}
				r = utf8.RuneError
			}
			b = utf8.AppendRune(b, r)
		default: // " \ /
			b = append(b, raw[i])
		}
	}
	return string(b)
}

func hex4(h []byte) rune {
	var r rune
	for _, c := range h {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c-'a') + 10
		default:
			r |= rune(c-'A') + 10
		}
	}
	return r
}

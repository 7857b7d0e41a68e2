// Package jsonscan is the one JSON scanner of mcperr's packages: it walks
// JSON text in place, without decoding it, and accepts exactly the grammar
// of RFC 8259 that encoding/json accepts (strings with their escapes checked,
// numbers in their strict form, no trailing commas), so that every package
// that scans agrees on where a value ends.
//
// Every function takes the text as a string or a byte slice, reads from an
// index and returns the index just past what it read; none allocates
// (Value allocates only for nesting beyond 32 open containers). Time is
// linear in the bytes read.
package jsonscan

import (
	"math"
	"strconv"
)

// Text is the JSON text a scan reads: a string or a byte slice.
type Text interface{ ~string | ~[]byte }

// Space returns the index of the first byte at or after i that is not JSON
// white space (space, tab, line feed, carriage return).
func Space[T Text](b T, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// String scans the string at b[i] == '"' and returns the index just past its
// closing quote, and whether it holds escapes. ok is false for a string that
// is not closed, holds a control character, or an escape JSON does not have.
func String[T Text](b T, i int) (end int, esc, ok bool) {
	for i++; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			return i + 1, esc, true
		case c < 0x20:
			return i, esc, false
		case c == '\\':
			esc = true
			if i+1 >= len(b) {
				return i, esc, false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				if i+6 > len(b) {
					return i, esc, false
				}
				for k := i + 2; k < i+6; k++ {
					if !isHex(b[k]) {
						return i, esc, false
					}
				}
				i += 5
			default:
				return i, esc, false
			}
		}
	}
	return i, esc, false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// Number scans the number at b[i] in JSON's strict form (an optional minus,
// no leading zero, a fraction and an exponent each with digits) and returns
// the index just past it. huge reports a number beyond a float64's range
// (underflow reads as 0 everywhere and is not huge).
func Number[T Text](b T, i int) (end int, huge, ok bool) {
	start := i
	if i < len(b) && b[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
			n++
		}
		return n
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case digits() == 0:
		return i, false, false
	}
	intEnd := i
	exp := false
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			return i, false, false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		exp = true
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return i, false, false
		}
	}
	// Only an exponent or more than 308 integer digits can overflow.
	if exp || intEnd-start > 308 {
		if f, err := strconv.ParseFloat(string(b[start:i]), 64); err != nil && math.IsInf(f, 0) {
			huge = true
		}
	}
	return i, huge, true
}

// Key scans a member's name and its colon at b[i] == '"', and the white
// space after them; it returns the index of the member's value and the
// name's end (just past its closing quote).
func Key[T Text](b T, i int) (value, nameEnd int, esc, ok bool) {
	if i >= len(b) || b[i] != '"' {
		return i, i, false, false
	}
	end, esc, ok := String(b, i)
	if !ok {
		return i, i, esc, false
	}
	j := Space(b, end)
	if j >= len(b) || b[j] != ':' {
		return j, end, esc, false
	}
	return Space(b, j+1), end, esc, true
}

// Stats is what a Value scan records as it goes on: the deepest nesting of
// objects and arrays, and whether a number is beyond a float64's range.
// Neither stops the scan, so a caller can still read what follows.
type Stats struct {
	Depth int  // the deepest nesting seen, counting from the depth Value was given
	Huge  bool // a number overflows a float64
}

// Value scans the one value at b[i], nested at depth (the containers
// already open around it), and returns the index just past it. It walks
// nested values without recursion; st, when not nil, records the nesting
// and the numbers. ok is false when the value is not valid JSON.
func Value[T Text](b T, i, depth int, st *Stats) (end int, ok bool) {
	var inline [32]byte
	stack := inline[:0] // '{' or '[' per open container
	for {
		// A value starts at i.
		if i >= len(b) {
			return i, false
		}
		switch c := b[i]; {
		case c == '{' || c == '[':
			stack = append(stack, c)
			if st != nil && depth+len(stack) > st.Depth {
				st.Depth = depth + len(stack)
			}
			i = Space(b, i+1)
			if i < len(b) && b[i] == c+2 { // '}' or ']'
				stack = stack[:len(stack)-1]
				i++
				break
			}
			if c == '{' {
				if i, _, _, ok = Key(b, i); !ok {
					return i, false
				}
			}
			continue
		case c == '"':
			if i, _, ok = String(b, i); !ok {
				return i, false
			}
		case c == '-' || c >= '0' && c <= '9':
			var huge bool
			if i, huge, ok = Number(b, i); !ok {
				return i, false
			}
			if huge && st != nil {
				st.Huge = true
			}
		case c == 't':
			if i, ok = literal(b, i, "true"); !ok {
				return i, false
			}
		case c == 'f':
			if i, ok = literal(b, i, "false"); !ok {
				return i, false
			}
		case c == 'n':
			if i, ok = literal(b, i, "null"); !ok {
				return i, false
			}
		default:
			return i, false
		}
		// A value ended at i: close containers, or go on to the next
		// element or member.
		for {
			if len(stack) == 0 {
				return i, true
			}
			i = Space(b, i)
			if i >= len(b) {
				return i, false
			}
			top := stack[len(stack)-1]
			if b[i] == top+2 {
				stack = stack[:len(stack)-1]
				i++
				continue
			}
			if b[i] != ',' {
				return i, false
			}
			i = Space(b, i+1)
			if top == '{' {
				if i, _, _, ok = Key(b, i); !ok {
					return i, false
				}
			}
			break
		}
	}
}

func literal[T Text](b T, i int, lit string) (int, bool) {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return i, false
	}
	return i + len(lit), true
}

// Members calls f with the name (its raw bytes between the quotes, escapes
// as written) and the raw value of each member of the object at b[i], in
// order, and returns the index just past the object. It stops, returning
// ok false, at the first byte that is not valid JSON; f has then seen the
// members before it. f returning false stops the walk early, with ok true.
func Members[T Text](b T, i int, f func(name, value T, esc bool) bool) (end int, ok bool) {
	if i >= len(b) || b[i] != '{' {
		return i, false
	}
	i = Space(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, true
	}
	for {
		v, nameEnd, esc, ok := Key(b, i)
		if !ok {
			return v, false
		}
		end, ok := Value(b, v, 1, nil)
		if !ok {
			return end, false
		}
		if !f(b[i+1:nameEnd-1], b[v:end], esc) {
			return end, true
		}
		i = Space(b, end)
		if i >= len(b) {
			return i, false
		}
		switch b[i] {
		case '}':
			return i + 1, true
		case ',':
			i = Space(b, i+1)
		default:
			return i, false
		}
	}
}

package schemaerr

import (
	"encoding/json"
	"hash/maphash"
	"slices"
	"strings"
)

// inEnum reports whether value vi is one of the enum (or const) values of n.
func (ev *evaluator) inEnum(n *node, vi int32) bool {
	if vi < 0 || ev.d.tick(len(n.enum)>>3) { // a comparison is about an eighth of a step
		return false
	}
	for _, want := range n.enum {
		if ev.equal(vi, want) {
			return true
		}
	}
	return false
}

// equal compares a decoded value with a schema value (numbers as float64).
func (ev *evaluator) equal(vi int32, want any) bool {
	d := ev.d
	v := &d.vals[vi]
	switch w := want.(type) {
	case nil:
		return v.kind == kNull
	case bool:
		return v.kind == kBool && v.b == w
	case float64:
		return v.kind == kNumber && v.num == w
	case string:
		if v.kind != kString {
			return false
		}
		if !v.esc {
			return string(d.data[v.s:v.e]) == w
		}
		return d.str(v) == w
	case []any:
		if v.kind != kArray || int(v.n) != len(w) {
			return false
		}
		i := 0
		for m := vi + 1; v.n > 0 && m >= 0; m = d.vals[m].next {
			if !ev.equal(m, w[i]) {
				return false
			}
			i++
		}
		return true
	case map[string]any:
		if v.kind != kObject {
			return false
		}
		ms := ev.members(vi)
		if len(ms) != len(w) {
			return false
		}
		for _, m := range ms {
			x, ok := w[d.key(&d.vals[m])]
			if !ok || !ev.equal(m, x) {
				return false
			}
		}
		return true
	}
	return false
}

func (ev *evaluator) members(vi int32) []int32 {
	var ms []int32
	if ev.d.vals[vi].n > 0 {
		for m := vi + 1; m >= 0; m = ev.d.vals[m].next {
			ms = append(ms, m)
		}
	}
	return ev.dedupe(ms)
}

// duplicate finds the first two equal elements of array vi, as a loop over every pair would:
// i is the first element equal to a later one, j the first later one. Elements are grouped by
// a canonical hash (numbers as float64, object members in any order, a repeated key's last
// value), and only elements of the same hash are compared, so the time is linear in the array.
func (ev *evaluator) duplicate(vi int32) (i, j int, ok bool) {
	d := ev.d
	n := int(d.vals[vi].n)
	// distinct elements, chained by hash: first[h] is the latest distinct element of hash h,
	// chain[k] the one before it; twin[k] is the first later element equal to element k
	first := make(map[uint64]int32, n)
	els := make([]int32, 0, n)
	chain := make([]int32, 0, n)
	twin := make([]int32, n)
	i, j = -1, -1
	for m := vi + 1; m >= 0; m = d.vals[m].next {
		if d.tick(1) {
			return 0, 0, false
		}
		k := int32(len(els))
		els = append(els, m)
		twin[k] = -1
		h := ev.hash(m)
		prev, seen := first[h]
		if !seen {
			prev = -1
		}
		chain = append(chain, prev)
		for c := prev; c >= 0; c = chain[c] {
			if ev.sameValue(els[c], m) {
				if twin[c] < 0 {
					twin[c] = k
					if i < 0 || int(c) < i {
						i, j = int(c), int(k)
					}
				}
				chain[k] = -2 // a repeat, not a distinct element
				break
			}
		}
		if chain[k] != -2 {
			first[h] = k
		}
	}
	return i, j, i >= 0
}

// hash is the canonical hash of value vi: equal values (as sameValue compares them) hash alike.
// A value's hash is computed once per call.
func (ev *evaluator) hash(vi int32) uint64 {
	d := ev.d
	if len(d.hashes) < len(d.vals) {
		d.hashes = slices.Grow(d.hashes[:0], len(d.vals))[:len(d.vals)]
		clear(d.hashes)
	}
	if h := d.hashes[vi]; h != 0 {
		return h
	}
	v := &d.vals[vi]
	h := uint64(v.kind)
	switch v.kind {
	case kBool:
		if v.b {
			h = mix(h, 1)
		}
	case kNumber:
		f := v.num
		if f == 0 {
			f = 0 // -0 equals 0
		}
		h = mix(h, maphash.Comparable(hashSeed, f))
	case kString:
		if v.esc {
			h = mix(h, maphash.String(hashSeed, d.str(v)))
		} else {
			h = mix(h, maphash.Bytes(hashSeed, d.data[v.s:v.e]))
		}
	case kArray:
		if v.n > 0 {
			for m := vi + 1; m >= 0; m = d.vals[m].next {
				h = mix(h, ev.hash(m))
			}
		}
	case kObject:
		// members in any order: the sum of each member's hash of key and value
		var sum uint64
		for _, m := range ev.members(vi) {
			mv := &d.vals[m]
			var kh uint64
			if mv.kesc {
				kh = maphash.String(hashSeed, d.key(mv))
			} else {
				kh = maphash.Bytes(hashSeed, d.data[mv.ks:mv.ke])
			}
			sum += mix(kh, ev.hash(m))
		}
		h = mix(h, sum)
	}
	h |= 1 // never 0, which marks a hash not computed
	d.hashes[vi] = h
	return h
}

// mix folds x into the hash h.
func mix(h, x uint64) uint64 {
	h = (h ^ x) * 0x9e3779b97f4a7c15
	return h ^ h>>29
}

// hashSeed seeds the canonical hashes of uniqueItems; random per process, so that no arguments
// can be built to collide.
var hashSeed = maphash.MakeSeed()

// sameValue compares two decoded values as JSON values, in time linear in their size.
func (ev *evaluator) sameValue(a, b int32) bool {
	d := ev.d
	va, vb := &d.vals[a], &d.vals[b]
	if va.kind != vb.kind {
		return false
	}
	switch va.kind {
	case kNull:
		return true
	case kBool:
		return va.b == vb.b
	case kNumber:
		return va.num == vb.num
	case kString:
		if !va.esc && !vb.esc {
			return string(d.data[va.s:va.e]) == string(d.data[vb.s:vb.e])
		}
		return d.str(va) == d.str(vb)
	case kArray:
		if va.n != vb.n {
			return false
		}
		if va.n == 0 {
			return true
		}
		for x, y := a+1, b+1; x >= 0 && y >= 0; x, y = d.vals[x].next, d.vals[y].next {
			if !ev.sameValue(x, y) {
				return false
			}
		}
		return true
	case kObject:
		ma, mb := ev.members(a), ev.members(b)
		if len(ma) != len(mb) {
			return false
		}
		byKey := make(map[string]int32, len(mb))
		for _, y := range mb {
			byKey[d.key(&d.vals[y])] = y
		}
		for _, x := range ma {
			y, ok := byKey[d.key(&d.vals[x])]
			if !ok || !ev.sameValue(x, y) {
				return false
			}
		}
		return true
	}
	return false
}

// enumMessage is zod's text for a value outside an enum: "Invalid option: expected one of
// "asc"|"desc"", or for a single value (a const, a literal) "Invalid input: expected true".
func enumMessage(values []any) string {
	if len(values) == 1 {
		return "Invalid input: expected " + jsPrimitive(values[0])
	}
	var b strings.Builder
	b.WriteString("Invalid option: expected one of ")
	for i, v := range values {
		if i > 0 {
			b.WriteByte('|')
		}
		b.WriteString(jsPrimitive(v))
	}
	return b.String()
}

// jsPrimitive writes a value as zod's stringifyPrimitive does: strings in double quotes (not
// escaped), everything else as JavaScript's String() would.
func jsPrimitive(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return `"` + v + `"`
	case bool:
		if v {
			return "true"
		}
		return "false"
	case float64:
		return jsNumber(v)
	case json.Number:
		return v.String()
	case []any:
		parts := make([]string, len(v))
		for i, x := range v {
			if x != nil {
				if s, ok := x.(string); ok {
					parts[i] = s
				} else {
					parts[i] = jsPrimitive(x)
				}
			}
		}
		return strings.Join(parts, ",")
	case map[string]any:
		return "[object Object]"
	}
	return ""
}

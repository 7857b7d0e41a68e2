package schemaerr

import (
	"encoding/json"
	"strings"
)

// inEnum reports whether value vi is one of the enum (or const) values of n.
func (ev *evaluator) inEnum(n *node, vi int32) bool {
	if vi < 0 {
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

// sameValue compares two decoded values as JSON values.
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
		for _, x := range ma {
			k := d.key(&d.vals[x])
			found := false
			for _, y := range mb {
				if d.key(&d.vals[y]) == k {
					if !ev.sameValue(x, y) {
						return false
					}
					found = true
					break
				}
			}
			if !found {
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

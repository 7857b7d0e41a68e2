package errkind

import (
	"encoding/json"
	"github.com/mcperr/mcperr/internal/jsonscan"
	"math"
	"strconv"
	"strings"
)

// members calls f with the key and the raw value of each member of the JSON
// object s, in order, and reports whether s is one object and nothing
// else; f may have seen the members before a byte that is not JSON. A key
// is compared as written, so a key spelt with escapes matches no member
// name. The time is linear in len(s).
func members(s string, f func(key, value string)) bool {
	end, ok := jsonscan.Members(s, jsonscan.Space(s, 0), func(key, value string, _ bool) bool {
		f(key, value)
		return true
	})
	return ok && jsonscan.Space(s, end) == len(s)
}

// str reads a raw JSON string value; ok is false for any other value.
func str(raw string) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	if !strings.Contains(raw, `\`) {
		return raw[1 : len(raw)-1], true
	}
	var s string
	if json.Unmarshal([]byte(raw), &s) != nil {
		return "", false
	}
	return s, true
}

// num reads a raw JSON number as whole units, rounded up; ok is false for
// anything else, and for a number an int64 cannot hold.
func num(raw string) (n int64, ok bool) {
	if raw == "" || raw[0] != '-' && (raw[0] < '0' || raw[0] > '9') {
		return 0, false
	}
	if n, err := strconv.ParseInt(raw, 10, 64); err == nil {
		return n, true
	}
	f, err := strconv.ParseFloat(raw, 64)
	if err != nil || f >= math.MaxInt64 || f <= math.MinInt64 {
		return 0, false
	}
	return int64(math.Ceil(f)), true
}

// numPtr is num as a pointer, nil when absent.
func numPtr(raw string) *int64 {
	n, ok := num(raw)
	if !ok {
		return nil
	}
	p := new(int64)
	*p = n
	return p
}

// rawJSON returns a raw value as a RawMessage of its own; nil for an
// absent value.
func rawJSON(raw string) json.RawMessage {
	if raw == "" {
		return nil
	}
	return json.RawMessage(raw)
}

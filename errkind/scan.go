package errkind

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// members calls f with the key and the raw value of each member of the JSON
// object s, in order. s must be valid JSON (see json.Valid); members
// reports false when it is not an object. A key is compared as written, so
// a key spelt with escapes matches no member name. The time is linear in
// len(s).
func members(s string, f func(key, value string)) bool {
	i := skipSpace(s, 0)
	if i >= len(s) || s[i] != '{' {
		return false
	}
	i = skipSpace(s, i+1)
	if i < len(s) && s[i] == '}' {
		return true
	}
	for i < len(s) {
		end := skipValue(s, i) // the key, a string
		key := s[i+1 : end-1]
		i = skipSpace(s, end)
		i = skipSpace(s, i+1) // past ':'
		end = skipValue(s, i)
		f(key, s[i:end])
		i = skipSpace(s, end)
		if i >= len(s) || s[i] == '}' {
			return true
		}
		i = skipSpace(s, i+1) // past ','
	}
	return true
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the index just past the JSON value that starts at
// s[i], in valid JSON.
func skipValue(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '"':
		return skipString(s, i)
	case '{', '[':
		depth := 0
		for i < len(s) {
			switch s[i] {
			case '"':
				i = skipString(s, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	}
	for i < len(s) {
		switch s[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}

// skipString returns the index just past the JSON string at s[i].
func skipString(s string, i int) int {
	for i++; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return i
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

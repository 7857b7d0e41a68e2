package envelope

import "strings"

// challengeError reads the error and error_description parameters of a
// WWW-Authenticate field (RFC 6750 section 3: Bearer realm="example",
// error="invalid_token", error_description="The access token expired"),
// in any of its challenges; "" for one it does not carry. Parameter names
// match in any case; a value is a token or a quoted-string, whose escapes
// are removed. The work is linear in the field's length, and a malformed
// field gives what was read before the fault.
func challengeError(v string) (code, desc string) {
	for i := 0; i < len(v); {
		// A scheme, a token68 or a parameter's name.
		for i < len(v) && (v[i] == ' ' || v[i] == '\t' || v[i] == ',') {
			i++
		}
		start := i
		for i < len(v) && v[i] != ' ' && v[i] != '\t' && v[i] != ',' && v[i] != '=' {
			i++
		}
		name := v[start:i]
		j := i
		for j < len(v) && (v[j] == ' ' || v[j] == '\t') {
			j++
		}
		if j >= len(v) || v[j] != '=' || name == "" {
			if i == start {
				i++ // a stray '=': step over it
			}
			continue
		}
		// name=value: a parameter.
		i = j + 1
		for i < len(v) && (v[i] == ' ' || v[i] == '\t') {
			i++
		}
		var value string
		if i < len(v) && v[i] == '"' {
			var b strings.Builder
			for i++; i < len(v) && v[i] != '"'; i++ {
				if v[i] == '\\' && i+1 < len(v) {
					i++
				}
				b.WriteByte(v[i])
			}
			i++ // the closing quote
			value = b.String()
		} else {
			start := i
			for i < len(v) && v[i] != ',' && v[i] != ' ' && v[i] != '\t' {
				i++
			}
			value = v[start:i]
		}
		switch {
		case code == "" && strings.EqualFold(name, "error"):
			code = value
		case desc == "" && strings.EqualFold(name, "error_description"):
			desc = value
		}
	}
	return code, desc
}

package schemaerr

import (
	"encoding/base64"
	"encoding/json"
	"regexp"
	"strings"
)

// zodFormats are the words zod uses for a string format it checks, keyed by the JSON Schema
// format its schemas carry. A format zod does not name is "Invalid <format>", as zod words it.
var zodFormats = map[string]string{
	"email":     "email address",
	"uri":       "URL",
	"uuid":      "UUID",
	"date-time": "ISO datetime",
	"date":      "ISO date",
	"time":      "ISO time",
	"duration":  "ISO duration",
	"ipv4":      "IPv4 address",
	"ipv6":      "IPv6 address",
	"cidrv4":    "IPv4 range",
	"cidrv6":    "IPv6 range",
	"base64":    "base64-encoded string",
	"base64url": "base64url-encoded string",
	"e164":      "E.164 number",
	"jwt":       "JWT",
	"emoji":     "emoji",
	"nanoid":    "nanoid",
	"cuid":      "cuid",
	"cuid2":     "cuid2",
	"ulid":      "ULID",
	"xid":       "XID",
	"ksuid":     "KSUID",
	"guid":      "GUID",
	"mac":       "MAC address",
}

// wordMessage is zod's text for a string that fails the check named word ("" for a regex,
// "starts_with", "email", ...) whose pattern is src.
func wordMessage(word, src string) string {
	switch word {
	case "":
		flags := ""
		if needsUnicode(src) {
			flags = "u"
		}
		return "Invalid string: must match pattern /" + jsSource(src) + "/" + flags
	case "starts_with":
		if lit, ok := regexpLiteral(strings.TrimSuffix(strings.TrimPrefix(src, "^"), ".*")); ok {
			return `Invalid string: must start with "` + lit + `"`
		}
	case "ends_with":
		if lit, ok := regexpLiteral(strings.TrimSuffix(strings.TrimPrefix(src, ".*"), "$")); ok {
			return `Invalid string: must end with "` + lit + `"`
		}
	case "includes":
		if lit, ok := regexpLiteral(src); ok {
			return `Invalid string: must include "` + lit + `"`
		}
	}
	if w, ok := zodFormats[word]; ok {
		return "Invalid " + w
	}
	return "Invalid " + word
}

// wordPatterns decides which zod check each of a string schema's patterns came from. zod
// publishes one check's pattern as "pattern" and several as an allOf of {"pattern"} entries in
// the order the checks were chained, and sets "format" to the last check that has a format (a
// regex has none, and removes it). So the last pattern is the format's when the format has a
// pattern, a regex when there is no format; any other pattern is read by its shape: zod's own
// format patterns, "^literal.*" (startsWith), ".*literal$" (endsWith), a bare literal (includes).
func (n *node) wordPatterns() {
	var pats []*node
	if n.pattern != nil {
		pats = []*node{n}
	} else {
		for _, x := range n.allOf {
			if x.pattern != nil && x.format == "" && len(x.allOf) == 0 && x.enum == nil && x.minLen < 0 && x.maxLen < 0 {
				pats = append(pats, x)
			}
		}
	}
	for i, p := range pats {
		p.word = patternWord(p.pattern.String(), n.format, i == len(pats)-1)
		if p != n {
			p.format = p.word // an allOf entry's issue names its own check
		}
	}
}

func patternWord(src, format string, last bool) string {
	if f, ok := zodPatterns[src]; ok {
		return f
	}
	if last {
		if format == "" {
			return ""
		}
		if _, patternless := formatAsserts[format]; !patternless {
			return format
		}
	}
	switch {
	case strings.HasPrefix(src, "^") && strings.HasSuffix(src, ".*"):
		if _, ok := regexpLiteral(src[1 : len(src)-2]); ok {
			return "starts_with"
		}
	case strings.HasPrefix(src, ".*") && strings.HasSuffix(src, "$"):
		if _, ok := regexpLiteral(src[2 : len(src)-1]); ok {
			return "ends_with"
		}
	case src != "":
		if _, ok := regexpLiteral(src); ok {
			return "includes"
		}
	}
	return ""
}

// needsUnicode reports whether an ECMAScript pattern can only have been written with the u flag:
// \p{...}, \P{...} and \u{...} mean something else without it. JavaScript prints the flag
// in zod's message; the JSON Schema keeps only the source.
func needsUnicode(src string) bool {
	return strings.Contains(src, `\p{`) || strings.Contains(src, `\P{`) || strings.Contains(src, `\u{`)
}

// zodPatterns are the patterns zod publishes for its string formats, to the format whose words
// a mismatch gets.
var zodPatterns = map[string]string{
	`^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$`: "email",

	`^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$`: "uuid",

	`^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$`: "guid",

	`^(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))T(?:(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z))$`: "date-time",

	`^(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))$`: "date",

	`^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])$`: "ipv4",

	`^[cC][0-9a-z]{6,}$`: "cuid",

	`^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{25}$`: "ulid",

	`^[a-zA-Z0-9_-]{21}$`: "nanoid",

	`^\+[1-9]\d{6,14}$`: "e164",

	`^$|^(?:[0-9a-zA-Z+/]{4})*(?:(?:[0-9a-zA-Z+/]{2}==)|(?:[0-9a-zA-Z+/]{3}=))?$`: "base64",

	`^(?:[A-Za-z0-9_-]{4})*(?:[A-Za-z0-9_-]{2,3})?$`: "base64url",

	`^[0-9a-vA-V]{20}$`: "xid",

	`^[A-Za-z0-9]{27}$`: "ksuid",
}

// regexpLiteral undoes the escaping zod gives a literal string in a pattern.
func regexpLiteral(src string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c == '\\' && i+1 < len(src) {
			i++
			b.WriteByte(src[i])
			continue
		}
		if strings.IndexByte(`.*+?^${}()|[]\`, c) >= 0 {
			return "", false
		}
		b.WriteByte(c)
	}
	return b.String(), true
}

// unsupported stands in for a pattern RE2 cannot run until build replaces it or fails.
type unsupported struct {
	src string
	err *PatternError
}

func (u *unsupported) String() string          { return u.src }
func (u *unsupported) MatchString(string) bool { return false }

// formatRegexp runs a Go check in place of a pattern RE2 cannot run.
type formatRegexp struct {
	src   string
	match func(string) bool
}

func (r *formatRegexp) String() string            { return r.src }
func (r *formatRegexp) MatchString(s string) bool { return r.match(s) }

// formatChecks replace the patterns, with lookaround, that zod emits for these formats.
var formatChecks = map[string]func(string) bool{
	"duration": isDuration,
}

// durationRE is zod's ISO 8601 duration pattern without its lookaheads, which isDuration checks.
var durationRE = regexp.MustCompile(`^P(?:\d+W|(?:\d+Y)?(?:\d+M)?(?:\d+D)?(?:T(?:\d+H)?(?:\d+M)?(?:\d+(?:[.,]\d+)?S)?)?)$`)

// isDuration matches zod's duration pattern:
// ^P(?:(\d+W)|(?!.*W)(?=\d|T\d)(\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+([.,]\d+)?S)?)?)$
func isDuration(s string) bool {
	if !durationRE.MatchString(s) {
		return false
	}
	if strings.HasSuffix(s, "W") {
		return true
	}
	rest := s[1:]
	isDigit := func(s string, i int) bool { return i < len(s) && s[i] >= '0' && s[i] <= '9' }
	if !isDigit(rest, 0) && !(strings.HasPrefix(rest, "T") && isDigit(rest, 1)) {
		return false
	}
	if t := strings.IndexByte(rest, 'T'); t >= 0 && !isDigit(rest, t+1) {
		return false
	}
	return true
}

// formatAsserts check the formats zod checks that its schemas publish without a pattern.
var formatAsserts = map[string]func(string) bool{
	"uri": isURL,
	"jwt": isJWT,
}

var schemeRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.\-]*:`)

// isURL approximates zod's z.url(), which takes what JavaScript's new URL() parses: a scheme,
// and for http, https, ws, wss and ftp a host without forbidden characters.
func isURL(s string) bool {
	s = strings.TrimSpace(s)
	m := schemeRE.FindString(s)
	if m == "" {
		return false
	}
	switch strings.ToLower(m) {
	case "http:", "https:", "ws:", "wss:", "ftp:":
	default:
		return true
	}
	rest := strings.TrimLeft(s[len(m):], `/\`)
	if i := strings.IndexAny(rest, `/?#\`); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.LastIndexByte(rest, '@'); i >= 0 {
		rest = rest[i+1:]
	}
	host := rest
	if strings.HasPrefix(host, "[") {
		end := strings.IndexByte(host, ']')
		return end > 1
	}
	if i := strings.LastIndexByte(host, ':'); i >= 0 {
		host = host[:i]
	}
	return host != "" && !strings.ContainsAny(host, " \t\n\r#%/:<>?@[\\]^|")
}

// isJWT is zod's isValidJWT: three dot-separated parts whose first is base64 (atob) of a JSON
// object with a truthy alg and, if it says, typ "JWT".
func isJWT(s string) bool {
	parts := strings.Split(s, ".")
	if len(parts) != 3 || parts[0] == "" {
		return false
	}
	h := strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\n' || r == '\f' || r == '\r' {
			return -1
		}
		return r
	}, parts[0])
	if len(h)%4 == 0 {
		h = strings.TrimSuffix(strings.TrimSuffix(h, "="), "=")
	}
	if len(h)%4 == 1 {
		return false
	}
	raw, err := base64.RawStdEncoding.DecodeString(h)
	if err != nil {
		return false
	}
	var header map[string]any
	if json.Unmarshal(raw, &header) != nil || header == nil {
		return false
	}
	if typ, ok := header["typ"]; ok && typ != "JWT" {
		return false
	}
	switch alg := header["alg"].(type) {
	case nil:
		return false
	case bool:
		return alg
	case string:
		return alg != ""
	case float64:
		return alg != 0
	}
	return true
}

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

// formatMessage is zod's text for a string that fails the schema's pattern or format check.
func formatMessage(n *node) string {
	src := ""
	if n.pattern != nil {
		src = n.pattern.String()
	}
	switch n.format {
	case "":
		return "Invalid string: must match pattern /" + jsSource(src) + "/"
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
	if word, ok := zodFormats[n.format]; ok {
		return "Invalid " + word
	}
	return "Invalid " + n.format
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

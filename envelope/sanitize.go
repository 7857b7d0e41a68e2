package envelope

import (
	"bytes"
	"encoding/json"
	"html"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The bounds of the upstream text an *Error carries (see the package doc).
const (
	maxMessage = 4 << 10  // bytes of Code and Message
	maxString  = 4 << 10  // bytes of each string inside Details
	maxDetails = 16 << 10 // bytes of Details as a whole
)

// sanitize makes the text an agent reads from e safe to show a model: the
// code, the message and every string (and member name) of the details,
// each with HTML reduced to text, control and invisible formatting
// characters removed, and a bound on its length. Body, Header and Err keep
// what the upstream sent, for the server's own code.
func sanitize(e *Error) {
	e.Code = cleanText(e.Code, maxMessage)
	e.Message = cleanText(e.Message, maxMessage)
	e.Details = cleanJSON(e.Details)
}

// cleanText is s with HTML reduced to text (tags dropped, the content of
// script and style elements too, entities decoded), tabs and line breaks
// turned into spaces (a CRLF is one line break, one space), every other control character and every
// bidirectional or invisible formatting character removed (see hidden),
// invalid UTF-8 replaced by U+FFFD, and at most max bytes kept, cut at a
// character and ended with "…". Text that needs none of it is s itself.
func cleanText(s string, max int) string {
	if s == "" || !needsCleaning(s, max) {
		return s
	}
	for hasMarkup(s) { // "<<b>b>" is a tag again once "<b>" goes; each pass shrinks s
		s = stripTags(s)
	}
	var b strings.Builder
	b.Grow(min(len(s), max+3))
	for i, r := range s {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(s[i:]); n == 1 {
				r = unicode.ReplacementChar
			}
		}
		switch {
		case r == '\r' && i+1 < len(s) && s[i+1] == '\n':
			continue // a CRLF is one line break: its LF gives the one space
		case r == '\t' || r == '\n' || r == '\r':
			r = ' '
		case hidden(r):
			continue
		}
		if b.Len()+utf8.RuneLen(r) > max {
			b.WriteString("…")
			break
		}
		b.WriteRune(r)
	}
	return b.String()
}

// needsCleaning reports whether cleanText would change s: it is over max,
// holds a byte below 0x20 or DEL, a '<' or a non-ASCII byte whose
// character is hidden or invalid.
func needsCleaning(s string, max int) bool {
	if len(s) > max {
		return true
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if plainByte[c] {
			continue // printable ASCII, the common case
		}
		switch {
		case c < 0x20 || c == 0x7f || c == '<':
			return true
		case c >= 0x80:
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 || hidden(r) {
				return true
			}
			i += n - 1
		}
	}
	return false
}

// hidden reports whether r is a character a reader does not see but a model
// reads: a control character (C0, DEL, C1), a bidirectional mark, embedding,
// override or isolate (U+061C, U+200E-U+200F, U+202A-U+202E, U+2066-U+2069),
// a zero-width or invisible formatting character (U+200B-U+200D, U+2060-U+2064,
// U+206A-U+206F, U+FEFF), an interlinear annotation (U+FFF9-U+FFFB), a line or
// paragraph separator (U+2028, U+2029) or a tag character (U+E0000-U+E007F).
// Tab, newline and carriage return are controls too; cleanText turns them
// into spaces before it asks.
func hidden(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r < 0xa0:
		return true
	case r < 0x600:
		return false
	case r == 0x061c, r >= 0x200b && r <= 0x200f, r >= 0x2028 && r <= 0x202e,
		r >= 0x2060 && r <= 0x2064, r >= 0x2066 && r <= 0x206f, r == 0xfeff,
		r >= 0xfff9 && r <= 0xfffb, r >= 0xe0000 && r <= 0xe007f:
		return true
	}
	return false
}

// htmlElements are the element names a tag must have to be taken for HTML:
// text such as "expected <string>" or "a < b > c" is kept as it is.
var htmlElements = []string{
	"a", "abbr", "address", "area", "article", "aside", "audio", "b", "base", "bdi", "bdo", "big",
	"blockquote", "body", "br", "button", "canvas", "caption", "center", "cite", "code", "col",
	"dd", "del", "details", "dialog", "div", "dl", "dt", "em", "embed", "fieldset", "figure",
	"font", "footer", "form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head",
	"header", "hr", "html", "i", "iframe", "img", "input", "ins", "kbd", "label", "legend", "li",
	"link", "main", "mark", "marquee", "math", "meta", "nav", "noscript", "object", "ol",
	"option", "p", "picture", "pre", "q", "s", "samp", "script", "section", "select", "small",
	"source", "span", "strike", "strong", "style", "sub", "summary", "sup", "svg", "table",
	"tbody", "td", "template", "textarea", "tfoot", "th", "thead", "title", "tr", "tt", "u",
	"ul", "var", "video", "wbr",
}

// tagAt reports whether s[i:] starts an HTML tag, comment or declaration
// (<!-- ... -->, <!DOCTYPE ...>), and returns its element name, lower case
// ("" for a comment or declaration).
func tagAt(s string, i int) (name string, ok bool) {
	rest := s[i+1:]
	if strings.HasPrefix(rest, "!") {
		return "", strings.Contains(rest, ">")
	}
	rest = strings.TrimPrefix(rest, "/")
	n := 0
	for n < len(rest) && (rest[n] >= 'a' && rest[n] <= 'z' || rest[n] >= 'A' && rest[n] <= 'Z' || rest[n] >= '0' && rest[n] <= '9') {
		n++
	}
	if n == 0 || n == len(rest) {
		return "", false
	}
	if c := rest[n]; c != '>' && c != '/' && c != ' ' && c != '\t' && c != '\n' && c != '\r' {
		return "", false
	}
	name = strings.ToLower(rest[:n])
	for _, e := range htmlElements {
		if e == name {
			return name, strings.IndexByte(rest[n:], '>') >= 0
		}
	}
	return "", false
}

// hasMarkup reports whether s holds an HTML tag.
func hasMarkup(s string) bool {
	for i := strings.IndexByte(s, '<'); i >= 0; {
		if _, ok := tagAt(s, i); ok {
			return true
		}
		j := strings.IndexByte(s[i+1:], '<')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// stripTags reduces HTML to its text: tags, comments and declarations go,
// with the content of script and style elements; a block or line-break
// tag leaves a space; entities are decoded; runs of spaces become one.
func stripTags(s string) string {
	var b strings.Builder
	skip := "" // the element whose content is dropped, until its end tag
	for i := 0; i < len(s); {
		if s[i] != '<' {
			if skip == "" {
				b.WriteByte(s[i])
			}
			i++
			continue
		}
		name, ok := tagAt(s, i)
		if !ok {
			if skip == "" {
				b.WriteByte('<')
			}
			i++
			continue
		}
		end := len(s)
		if strings.HasPrefix(s[i:], "<!--") {
			if k := strings.Index(s[i+4:], "-->"); k >= 0 {
				end = i + 4 + k + 3
			}
		} else if k := strings.IndexByte(s[i:], '>'); k >= 0 {
			end = i + k + 1
		}
		closing := strings.HasPrefix(s[i:], "</")
		switch {
		case skip != "":
			if closing && name == skip {
				skip = ""
			}
		case !closing && (name == "script" || name == "style") && !strings.HasSuffix(s[i:end], "/>"):
			skip = name
		default:
			b.WriteByte(' ')
		}
		i = end
	}
	return strings.Join(strings.Fields(html.UnescapeString(b.String())), " ")
}

// cleanJSON is raw with every string and member name cleaned as cleanText
// cleans them (each bounded at maxString), written again compact, in the
// same order; when the result is still over maxDetails, or raw is not JSON,
// it is nil. Details that need no cleaning are raw itself, as sent.
func cleanJSON(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || len(raw) <= maxDetails && !jsonNeedsCleaning(raw) {
		return raw
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	type open struct {
		object bool
		n      int // the tokens written in it
	}
	var stack []open
	for {
		t, err := d.Token()
		if err != nil {
			break
		}
		if v, ok := t.(json.Delim); ok && (v == '}' || v == ']') {
			out.WriteByte(byte(v))
			stack = stack[:len(stack)-1]
			continue
		}
		if k := len(stack) - 1; k >= 0 {
			switch top := &stack[k]; {
			case top.object && top.n%2 == 1:
				out.WriteByte(':')
			case top.n > 0:
				out.WriteByte(',')
			}
			stack[k].n++
		}
		switch v := t.(type) {
		case json.Delim:
			out.WriteByte(byte(v))
			stack = append(stack, open{object: v == '{'})
			continue
		case string:
			t = cleanText(v, maxString)
		}
		enc.Encode(t)
		out.Truncate(out.Len() - 1) // Encode's newline
	}
	if len(stack) > 0 || out.Len() > maxDetails || !json.Valid(out.Bytes()) {
		return nil
	}
	return out.Bytes()
}

// plainByte marks the bytes no check of needsCleaning and
// jsonNeedsCleaning stops at: printable ASCII but '<' and DEL.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '<'
	}
	return t
}()

// jsonNeedsCleaning reports whether raw JSON may hold a string cleanText
// would change: one with an escape other than \", \\ and \/ (which may write
// a control or hidden character), a '<', a non-ASCII character that is hidden or invalid, or
// more than maxString bytes.
func jsonNeedsCleaning(raw []byte) bool {
	in, start := false, 0
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if plainByte[c] && c != '"' && c != '\\' {
			continue // printable ASCII that neither opens nor escapes a string
		}
		switch {
		case c == '"':
			if in && i-start > maxString {
				return true
			}
			in, start = !in, i
		case c == '\\':
			if i+1 < len(raw) && (raw[i+1] == '"' || raw[i+1] == '\\' || raw[i+1] == '/') {
				i++
				continue
			}
			return true // \n, \t, \uXXXX...: may write what cleanText removes
		case c == '<' || c == 0x7f:
			return true
		case c < 0x20:
			if in || c != ' ' && c != '\t' && c != '\n' && c != '\r' {
				return true
			}
		case c >= 0x80:
			r, n := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && n == 1 || hidden(r) {
				return true
			}
			i += n - 1
		}
	}
	return false
}

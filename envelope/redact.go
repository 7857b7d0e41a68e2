package envelope

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
)

// redacted replaces a credential wherever an Error would otherwise show it.
const redacted = "[REDACTED]"

var defaultSecretHeaders = []string{"Authorization", "Proxy-Authorization", "X-Api-Key"}

// secrets returns the credentials req carries, which no Error shows: the
// values of its secret headers (the Reader's SecretHeaders, or their
// defaults, and every field whose name says it holds a credential, see
// isSecretHeader), each cookie's value, the userinfo of its URL, the
// values of its URL's secret query parameters (see isSecretParam), and the
// Reader's Secrets.
func (r *Reader) secrets(req *http.Request) []string {
	if req == nil && len(r.Secrets) == 0 {
		return nil
	}
	return r.allSecrets(req)
}

func (r *Reader) allSecrets(req *http.Request) []string {
	s := secretsOf(req, r.SecretHeaders)
	for _, v := range r.Secrets {
		if v != "" {
			s = append(s, v)
		}
	}
	return s
}

// secretsOf returns the credentials req carries in the given headers (nil:
// the defaults) and in the other places Reader.secrets lists, but for the
// Reader's Secrets: each header's whole value and, for a "<scheme>
// <credentials>" value such as "Bearer abc", the credentials alone.
func secretsOf(req *http.Request, headers []string) []string {
	if req == nil {
		return nil
	}
	if headers == nil {
		headers = defaultSecretHeaders
	}
	var secrets []string
	add := func(v string) {
		v = strings.TrimSpace(v)
		if v == "" {
			return
		}
		secrets = append(secrets, v)
		if _, cred, ok := strings.Cut(v, " "); ok {
			if cred = strings.TrimSpace(cred); cred != "" {
				secrets = append(secrets, cred)
			}
		}
	}
	for _, name := range headers {
		for _, v := range req.Header.Values(name) {
			add(v)
		}
	}
	for k, vs := range req.Header {
		if isSecretHeader(k) && !listed(k, headers) {
			for _, v := range vs {
				add(v)
			}
		}
	}
	if len(req.Header["Cookie"]) > 0 {
		for _, c := range req.Cookies() {
			if len(c.Value) >= minSecret {
				secrets = append(secrets, c.Value)
			}
		}
	}
	if u := req.URL; u != nil {
		if u.User != nil {
			if p, ok := u.User.Password(); ok && p != "" {
				secrets = append(secrets, p)
			}
			if n := u.User.Username(); len(n) >= minSecret {
				secrets = append(secrets, n)
			}
		}
		for q := u.RawQuery; q != ""; {
			var pair string
			pair, q, _ = strings.Cut(q, "&")
			k, v, _ := strings.Cut(pair, "=")
			if len(v) < minSecret || !isSecretParam(k) {
				continue
			}
			secrets = append(secrets, v) // as written, and decoded
			if d, err := url.QueryUnescape(v); err == nil && d != v {
				secrets = append(secrets, d)
			}
		}
	}
	return secrets
}

// minSecret is the shortest value taken as a secret where the request's
// form does not say it is one by itself (a cookie, a URL's user name or a
// query value): redacting a shorter one ("1", "en") would cut every word it
// occurs in.
const minSecret = 6

func listed(k string, names []string) bool {
	for _, n := range names {
		if len(k) == len(n) && strings.EqualFold(k, n) {
			return true
		}
	}
	return false
}

// secretHeaderSuffixes are the last words, '-'-separated, of the header
// names that say their field holds a credential (see isSecretHeader).
var secretHeaderSuffixes = []string{"key", "token", "secret", "password", "signature", "credential", "credentials", "auth", "apikey", "jwt"}

// isSecretHeader reports whether a request field's name says it holds a
// credential, beside the SecretHeaders: Cookie, Api-Key, Apikey, and any
// name whose last word is Key, Token, Secret, Password, Signature,
// Credential(s), Auth, Apikey or Jwt (X-Goog-Api-Key, X-Auth-Token,
// Private-Token, X-Amz-Security-Token, Ocp-Apim-Subscription-Key,
// X-Client-Secret), in any case. Idempotency-Key (and X-Idempotency-Key)
// is not a credential.
func isSecretHeader(k string) bool {
	if len(k) == 6 && strings.EqualFold(k, "cookie") || len(k) == 6 && strings.EqualFold(k, "apikey") {
		return true
	}
	i := strings.LastIndexByte(k, '-')
	if i < 0 {
		return false
	}
	last := k[i+1:]
	switch len(last) { // the lengths of secretHeaderSuffixes' words
	case 3, 4, 5, 6, 8, 9, 10, 11:
	default:
		return false
	}
	for _, s := range secretHeaderSuffixes {
		if len(last) == len(s) && strings.EqualFold(last, s) {
			return !strings.EqualFold(k, "Idempotency-Key") && !strings.EqualFold(k, "X-Idempotency-Key")
		}
	}
	return false
}

// responseHeaderDropped are the response fields an Error's Header leaves
// out besides the secret headers: the credentials an upstream hands out.
var responseHeaderDropped = []string{"Set-Cookie", "Set-Cookie2"}

// responseHeader returns the header an Error carries for a response with
// header h: h itself when it holds nothing to hide, else a copy without
// the fields that carry credentials (responseHeaderDropped, and the secret
// headers names, or their defaults, should the upstream echo them) and with
// secrets replaced in the other values. clean is what inspectHeader
// reported: h holds nothing to hide.
func responseHeader(h http.Header, names, secrets []string, clean bool) http.Header {
	if clean {
		return h
	}
	if names == nil {
		names = defaultSecretHeaders
	}
	out := make(http.Header, len(h))
	for k, vs := range h {
		if dropField(k, names) {
			continue
		}
		c := make([]string, len(vs))
		for i, v := range vs {
			c[i] = redactString(v, secrets)
		}
		out[k] = c
	}
	return out
}

// inspectHeader reads, in one pass over h, what the error path asks of
// its field names (see heard): whether h has a rate-limit field (see
// isRateField) or a field asking for a delay (see isWaitField), which
// field carries the upstream's code (see isCodeField), and whether h is
// clean: no field responseHeader drops, and no value holding a secret.
func inspectHeader(hd *heard, names, secrets []string) {
	if names == nil {
		names = defaultSecretHeaders
	}
	hd.clean = true
	for k, vs := range hd.h {
		if len(k) > 0 {
			switch k[0] {
			case 'r', 'R', 'x', 'X':
				hd.rate = hd.rate || isRateField(k)
				hd.wait = hd.wait || isWaitField(k)
				// Azure's field wins over AWS's should both come.
				if c := codeFieldOf(k); c != 0 && len(vs) > 0 && (c == msErrorCode || hd.codeField == "") {
					hd.codeField = vs[0]
				}
				if len(vs) > 0 && isMessageField(k) {
					hd.messageField = vs[0]
				}
			case 'w', 'W':
				if len(k) == 16 && strings.EqualFold(k, "www-authenticate") && len(vs) > 0 {
					hd.challenge = vs[0]
				}
			case 'g', 'G':
				if len(k) == 11 && strings.EqualFold(k, "grpc-status") && len(vs) > 0 {
					hd.grpcStatus = vs[0]
				}
			}
		}
		if hd.clean && (dropField(k, names) || holdsSecret(vs, secrets)) {
			hd.clean = false
		}
	}
}

// dropField reports whether an Error's Header leaves out the field k: a
// field of responseHeaderDropped or names, in any case, or one whose name
// says it holds a credential (see isSecretHeader). Field names are
// ASCII tokens, so a field of another length is none of them and costs no
// EqualFold.
func dropField(k string, names []string) bool {
	for _, n := range responseHeaderDropped {
		if len(k) == len(n) && strings.EqualFold(k, n) {
			return true
		}
	}
	return listed(k, names) || isSecretHeader(k)
}

func holdsSecret(vs, secrets []string) bool {
	if len(secrets) == 0 {
		return false
	}
	for _, v := range vs {
		if redactString(v, secrets) != v {
			return true
		}
	}
	return false
}

// redact removes every secret from the strings, raw JSON and cause e holds.
//
// Every URL e's message, details and body show has its userinfo and the
// values of its secret query parameters redacted too (see scrubURLs),
// whoever sent it.
func redact(e *Error, secrets []string) {
	if len(secrets) == 0 && noSlash(e) {
		return // no URL, no secret: the common error costs four byte searches
	}
	e.Code = scrubURLs(e.Code, secrets, false)
	e.Message = scrubURLs(e.Message, secrets, false)
	e.Details = scrubJSON(e.Details, secrets)
	e.Body = scrubJSON(e.Body, secrets)
	if len(secrets) == 0 {
		return
	}
	e.Code = redactString(e.Code, secrets)
	e.Message = redactString(e.Message, secrets)
	e.Details = redactJSON(e.Details, secrets)
	e.Body = redactJSON(e.Body, secrets)
	if e.Err != nil {
		e.Err = redactError(e.Err, secrets)
	}
}

// noSlash reports whether no text e shows holds a '/', so no URL.
func noSlash(e *Error) bool {
	return strings.IndexByte(e.Message, '/') < 0 && strings.IndexByte(e.Code, '/') < 0 &&
		bytes.IndexByte(e.Details, '/') < 0 && bytes.IndexByte(e.Body, '/') < 0
}

func redactString(s string, secrets []string) string {
	for _, sec := range secrets {
		if strings.Contains(s, sec) {
			s = strings.ReplaceAll(s, sec, redacted)
		}
	}
	return s
}

// redactJSON removes the secrets from raw JSON. A secret may be written with
// escapes inside a JSON string ("\/" or "\u0061"), so a value with any
// backslash is decoded, redacted string by string, and encoded again.
func redactJSON(raw json.RawMessage, secrets []string) json.RawMessage {
	if len(raw) == 0 {
		return raw
	}
	for _, sec := range secrets {
		if bytes.Contains(raw, []byte(sec)) {
			raw = bytes.ReplaceAll(raw, []byte(sec), []byte(redacted))
		}
	}
	if bytes.IndexByte(raw, '\\') < 0 {
		return raw
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return raw
	}
	changed := false
	v = redactValue(v, secrets, &changed)
	if !changed {
		return raw
	}
	out, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return out
}

func redactValue(v any, secrets []string, changed *bool) any {
	switch v := v.(type) {
	case string:
		r := redactString(v, secrets)
		if r != v {
			*changed = true
		}
		return r
	case []any:
		for i := range v {
			v[i] = redactValue(v[i], secrets, changed)
		}
	case map[string]any:
		for k, x := range v {
			nk := redactString(k, secrets)
			nv := redactValue(x, secrets, changed)
			if nk != k {
				*changed = true
				delete(v, k)
			}
			v[nk] = nv
		}
	}
	return v
}

// redactError returns err, or, when its text shows a secret, an error with
// the secret removed that still answers errors.Is for err's chain (so
// context.DeadlineExceeded is found) without exposing err itself.
func redactError(err error, secrets []string) error {
	text := err.Error()
	clean := redactString(text, secrets)
	if clean == text {
		return err
	}
	return &redactedError{text: clean, cause: err}
}

type redactedError struct {
	text  string
	cause error
}

func (e *redactedError) Error() string { return e.text }

// Is reports whether the hidden cause's chain holds target.
func (e *redactedError) Is(target error) bool { return errors.Is(e.cause, target) }

// secretParams are the query parameters whose values an Error never shows,
// by their names lowercased with '-' and '_' removed: API keys, tokens,
// passwords and signatures, as public APIs name them in a URL. A name that
// ends in one of secretSuffixes is secret too (client_secret, x-amz-signature,
// refresh_token, subscription-key).
var secretParams = []string{"key", "sig", "pwd", "passwd", "pass", "auth", "jwt", "credential", "credentials", "sessionid"}

var secretSuffixes = []string{"apikey", "token", "secret", "password", "signature", "credential", "accesskey", "privatekey", "subscriptionkey", "appkey", "authkey", "securitykey"}

// isSecretParam reports whether the query parameter name is one whose value
// an Error never shows (see secretParams).
func isSecretParam(name string) bool {
	var buf [48]byte
	n := buf[:0]
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '-' || c == '_' || c == '.':
			continue
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		if len(n) == cap(n) {
			return false // no name of the list is this long
		}
		n = append(n, c)
	}
	for _, p := range secretParams {
		if string(n) == p {
			return true
		}
	}
	for _, s := range secretSuffixes {
		if len(n) >= len(s) && string(n[len(n)-len(s):]) == s {
			return true
		}
	}
	return false
}

// scrubURLs returns s with every http or https URL in it redacted: its
// userinfo replaced by [REDACTED], and the value of each query parameter
// that is secret by its name (see secretParams) or holds one of secrets.
// With hostOnly, each URL is reduced to its host, for a message that must
// not show the upstream's paths. s is returned as it is when it holds no
// URL.
func scrubURLs(s string, secrets []string, hostOnly bool) string {
	first := urlAt(s)
	if first < 0 || !hostOnly && plainURLs(s, first) {
		return s
	}
	var b strings.Builder
	rest := s
	for {
		i := strings.Index(rest, "://")
		if i < 0 {
			break
		}
		end := i + 3
		for end < len(rest) && !isURLEnd(rest[end]) {
			// A URL ends where the scheme of the next one starts, so
			// the userinfo of a URL written inside another (a query
			// value, or "ws://https://u:p@h") is scrubbed as its own.
			if strings.HasPrefix(rest[end:], "://") {
				if p := schemeStart(rest[:end]); p >= i+3 {
					end = p
					break
				}
			}
			end++
		}
		start := schemeStart(rest[:i])
		if start < 0 { // not a URL scrubURLs reads: one may start inside it
			b.WriteString(rest[:i+3])
			rest = rest[i+3:]
			continue
		}
		b.WriteString(rest[:start])
		b.WriteString(scrubURL(rest[start:end], i-start, secrets, hostOnly))
		rest = rest[end:]
	}
	b.WriteString(rest)
	return b.String()
}

// schemeStart returns where the scheme that ends s starts, for the schemes
// whose URLs scrubURLs reads (http, https, ws, wss), in any case and
// whatever letters come before it; -1 for any other.
func schemeStart(s string) int {
	for _, sc := range []string{"https", "http", "wss", "ws"} {
		if len(s) >= len(sc) && strings.EqualFold(s[len(s)-len(sc):], sc) {
			return len(s) - len(sc)
		}
	}
	return -1
}

// isURLEnd reports whether c ends a URL written in prose or in quotes.
func isURLEnd(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '"', '\'', '<', '>', '`', '\\', '{', '}', '|', '^':
		return true
	}
	return c < 0x20 || c == 0x7f
}

// scrubURL is scrubURLs for one URL u whose "://" is at sep.
func scrubURL(u string, sep int, secrets []string, hostOnly bool) string {
	auth := u[sep+3:]
	pathAt := strings.IndexAny(auth, "/?#")
	if pathAt < 0 {
		pathAt = len(auth)
	}
	authority, tail := auth[:pathAt], auth[pathAt:]
	host := authority
	userinfo := false
	if at := strings.LastIndexByte(authority, '@'); at >= 0 {
		host, userinfo = authority[at+1:], true
	}
	if hostOnly {
		return host
	}
	var b strings.Builder
	b.WriteString(u[:sep+3])
	if userinfo {
		b.WriteString(redacted + "@")
	}
	b.WriteString(host)
	q := strings.IndexByte(tail, '?')
	if q < 0 {
		b.WriteString(tail)
		return b.String()
	}
	b.WriteString(tail[:q+1])
	query, frag := tail[q+1:], ""
	if h := strings.IndexByte(query, '#'); h >= 0 {
		query, frag = query[:h], query[h:]
	}
	for i, pair := range strings.Split(query, "&") {
		if i > 0 {
			b.WriteByte('&')
		}
		name, value, hasValue := strings.Cut(pair, "=")
		if hasValue && value != "" && (isSecretParam(name) || isSecretValue(value, secrets)) {
			b.WriteString(name + "=" + redacted)
			continue
		}
		b.WriteString(pair)
	}
	b.WriteString(frag)
	return b.String()
}

// isSecretValue reports whether a query value, decoded or as written,
// is one of secrets.
func isSecretValue(v string, secrets []string) bool {
	if len(secrets) == 0 {
		return false
	}
	d, err := url.QueryUnescape(v)
	for _, s := range secrets {
		if v == s || err == nil && d == s {
			return true
		}
	}
	return false
}

// scrubJSON is scrubURLs for raw JSON; raw itself when it holds no URL
// with a userinfo or a query.
func scrubJSON(raw json.RawMessage, secrets []string) json.RawMessage {
	first := urlAtBytes(raw)
	if first < 0 || plainURLs(raw, first) {
		return raw
	}
	s := string(raw)
	if c := scrubURLs(s, secrets, false); c != s {
		return json.RawMessage(c)
	}
	return raw
}

// plainURLs reports whether no URL in s, whose first "://" is at first,
// has a userinfo or a query: nothing scrubURLs would change. It allocates
// nothing, so that an error whose text links to documentation costs no
// copy.
func plainURLs[T ~string | ~[]byte](s T, first int) bool {
	for i := first; i+2 < len(s); i++ {
		if s[i] != ':' || s[i+1] != '/' || s[i+2] != '/' {
			continue
		}
		for i += 3; i < len(s) && !isURLEnd(s[i]); i++ {
			if s[i] == '?' || s[i] == '@' {
				return false
			}
		}
	}
	return true
}

// urlAt is the index of the first "://" in s, -1 when none: found from the
// slashes, which are rare in error text, where ':' is everywhere in JSON.
func urlAt(s string) int {
	for off := 0; ; {
		i := strings.IndexByte(s[off:], '/')
		if i < 0 {
			return -1
		}
		i += off
		if i > 0 && s[i-1] == ':' && i+1 < len(s) && s[i+1] == '/' {
			return i - 1
		}
		off = i + 1
	}
}

// urlAtBytes is urlAt for raw JSON.
func urlAtBytes(b []byte) int {
	for off := 0; ; {
		i := bytes.IndexByte(b[off:], '/')
		if i < 0 {
			return -1
		}
		i += off
		if i > 0 && b[i-1] == ':' && i+1 < len(b) && b[i+1] == '/' {
			return i - 1
		}
		off = i + 1
	}
}

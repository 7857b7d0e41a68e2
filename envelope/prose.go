package envelope

import (
	"net/http"
	"strings"

	"github.com/mcperr/mcperr/errkind"
)

// This file reads the kind an error's message names in words, for a
// failure whose code and status say no more than that the request was
// refused: a 400 that says "Invalid session token", a 403 that says
// "Quota exceeded", a 200 whose error says "Please login first". Each
// phrase is one that APIs at large write, not one vendor's: the fresh
// batch alone holds each family in several APIs (an invalid key or token
// at 400 or 403: Parse, Didomi, Last.fm, Figma, Blockfrost, 3scale; a
// quota at 403: WeatherAPI, Tyk; a permission at 400: Zulip, and the
// "not authorized" of many; below 400, "hasn't authenticated", "login
// first", "could not be found": Milvus, Casdoor, Last.fm). A password is
// no credential noun here: "Invalid password" at a sign-up is an
// argument.

// prose is a family of phrases and the kind they name.
type prose struct {
	kind    errkind.Kind
	phrases []string
}

// proseKinds are the phrases, in lower case, in the order they are
// tried: a limit, the credential, a permission, a missing thing, a thing
// that already exists. A message that names two kinds names none.
var proseKinds = [...]prose{
	{errkind.RateLimited, []string{"rate limit", "rate-limit", "ratelimit", "too many requests", "throttl",
		"quota exceeded", "quota reached", "out of quota"}},
	{errkind.AuthenticationFailed, []string{"authentication failed", "authentication information", "not authenticated",
		"hasn't authenticated", "has not authenticated", "unauthenticated", "login first", "log in first",
		"sign in first", "login required", "authentication required", "token required", "token has expired",
		"token expired", "token is invalid", "key is invalid", "invalid credentials", "bad credentials"}},
	{errkind.PermissionDenied, []string{"not authorized", "permission denied", "insufficient permission",
		"have permission", "missing scope", "access denied",
		// A payment a person must make, whatever the status: the
		// caller's credits are spent (a balance or funds may be the
		// payer's, an argument of a payment API).
		"enough credit", "insufficient credit", "out of credits"}},
	{errkind.NotFound, []string{"not found", "not be found", "cannot be found", "does not exist", "doesn't exist",
		"do not exist", "not present", "no such ", "no matching "}},
	{errkind.Conflict, []string{"already exist", "already been added", "already been assigned", "already been created",
		"already in use", "already taken", "already been taken", "already registered"}},
}

// credentialAdjectives and credentialNouns make the phrases of a refused
// credential: an adjective, then within two words a noun ("Invalid API
// key", "Invalid project token", "expired access token", "Unknown API
// Key").
var (
	credentialAdjectives = [...]string{"invalid", "expired", "unknown", "revoked"}
	credentialNouns      = [...]string{"api key", "api-key", "apikey", "access key", "token", "credential",
		"session", "signature"}
)

// proseKind is the kind the words of msg name, and whether they name one.
func proseKind(msg string) (errkind.Kind, bool) {
	if len(msg) > maxPlainMessage {
		msg = msg[:maxPlainMessage]
	}
	low := strings.ToLower(msg)
	var kind errkind.Kind
	for i := range proseKinds {
		p := &proseKinds[i]
		if !p.says(low) || p.kind == kind {
			continue
		}
		if kind != "" {
			return "", false // "does not exist or not authorized" names no one kind
		}
		kind = p.kind
	}
	if kind == errkind.NotFound && namesArgument(low) {
		return errkind.InvalidArguments, true // "dst parameter not found": an argument is missing
	}
	return kind, kind != ""
}

// says reports whether low holds one of p's phrases.
func (p *prose) says(low string) bool {
	switch p.kind {
	case errkind.AuthenticationFailed:
		if refusedCredential(low) {
			return true
		}
	case errkind.RateLimited:
		// "API key has exceeded calls per month quota"; a quota alone
		// may be an argument ("quota must be positive").
		if strings.Contains(low, "quota") && strings.Contains(low, "exceed") {
			return true
		}
		// "You have exceeded the limit of 1 request every 5 seconds": a
		// limit exceeded, counted in requests over time (not a size).
		if strings.Contains(low, "exceed") && requestRate(low) {
			return true
		}
	}
	for _, ph := range p.phrases {
		if strings.Contains(low, ph) {
			return true
		}
	}
	return false
}

// requestRate reports whether low counts requests over time: "1 request
// every 5 seconds", "100 requests per minute", "calls per hour".
func requestRate(low string) bool {
	for _, c := range [...]string{"request", "call"} {
		for _, per := range [...]string{" every", "s every", " per", "s per"} {
			if strings.Contains(low, c+per) {
				return true
			}
		}
	}
	return false
}

// namesArgument reports whether low speaks of a request's argument: a
// parameter, a field, an argument.
func namesArgument(low string) bool {
	return strings.Contains(low, "param") || strings.Contains(low, "field") || strings.Contains(low, "argument")
}

// refusedCredential reports whether low names a credential refused: one
// of credentialAdjectives, then one of credentialNouns within the next
// two words.
func refusedCredential(low string) bool {
	for _, a := range credentialAdjectives {
		for rest := low; ; {
			i := strings.Index(rest, a)
			if i < 0 {
				break
			}
			rest = rest[i+len(a):]
			if at := len(low) - len(rest) - len(a); at > 0 && isLetter(low[at-1]) {
				continue // inside a word ("noninvalid")
			}
			next := rest
			for w := 0; w < 3; w++ {
				next = strings.TrimLeft(next, " -_:'\"")
				for _, n := range credentialNouns {
					if strings.HasPrefix(next, n) {
						return true
					}
				}
				j := strings.IndexAny(next, " -_")
				if j < 0 {
					break
				}
				next = next[j:]
			}
		}
	}
	return false
}

// refusedKey reports whether msg refuses a key by that bare word: one of
// credentialAdjectives, then "key" as a whole word ("Invalid key",
// "Unknown key - get one at ..."). Under a 403 the word can only be the
// caller's key; under a 400 it may name a member of the request ("invalid
// key in object"), so only a 403 reads it.
func refusedKey(msg string) bool {
	if len(msg) > maxPlainMessage {
		msg = msg[:maxPlainMessage]
	}
	low := strings.ToLower(msg)
	for _, a := range credentialAdjectives {
		i := strings.Index(low, a+" key")
		if i < 0 || i > 0 && isLetter(low[i-1]) {
			continue
		}
		if j := i + len(a) + len(" key"); j == len(low) || !isLetter(low[j]) {
			return true
		}
	}
	return false
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' }

// opaque reports whether code says nothing of its own: none, a number
// (Parse's 209, Sendbird's 400201), or an HTTP reason phrase. A code
// word of the API's own (OAuth's invalid_grant, mfa_required) is the
// API's own reading, which prose does not override.
func opaque(code string) bool {
	for i := 0; i < len(code); i++ {
		if c := code[i]; (c < '0' || c > '9') && c != '-' {
			return false
		}
	}
	return true
}

// proseOverrides reports whether a kind the message names (k) replaces
// the kind a 4xx status gave (byStatus): a credential, a limit or a
// permission replaces a generic invalid_arguments, the status that says
// no more than that the request was refused, and so does a thing that
// already exists at a 400 (Databricks, Mailchimp, Brevo, FusionAuth,
// Nium: not at a 422, which APIs write for a taken name as a validation
// failure as often); a credential or a limit
// replaces a 403's permission_denied, which APIs send for a bad key and
// a spent quota alike (a 403 "Invalid token", "Quota exceeded"), and so
// does a missing thing (a 403 "The specified resource was not found"
// names the id to change, not a refusal to stop at). "Not found" at a 400
// does not: APIs write it of an argument as often as of
// a thing (a table, an index, a channel type the request named), and a
// 402 says more than any words (a quota that a person must pay for).
func proseOverrides(k, byStatus errkind.Kind, status int) bool {
	switch {
	case byStatus == errkind.InvalidArguments:
		return k == errkind.AuthenticationFailed || k == errkind.RateLimited || k == errkind.PermissionDenied ||
			k == errkind.Conflict && status == http.StatusBadRequest
	case status == http.StatusForbidden:
		return k == errkind.AuthenticationFailed || k == errkind.RateLimited || k == errkind.NotFound
	}
	return false
}

// opensWithPhrase reports whether msg opens with the reason phrase of
// status ("Bad Request: chat not found"): the server named the status
// itself, and the words after it do not override it.
func opensWithPhrase(msg string, status int) bool {
	t := http.StatusText(status)
	return t != "" && len(msg) > len(t) && strings.EqualFold(msg[:len(t)], t)
}

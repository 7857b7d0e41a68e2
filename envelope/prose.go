package envelope

import (
	"net/http"
	"strconv"
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
// argument. Where a family is a word test rather than a phrase (a quota
// spent, too many of the caller's acts, credits lacking) the words were
// seen in several APIs of the batches (a quota out of or exhausted:
// Azure AI Vision, Tyk, WeatherAPI; too many visits, sessions, attempts:
// Bybit, Livy, Scayle, Laravel; points or a balance too few: SMSAPI,
// ShipEngine, DeepInfra, Jina).

// prose is a family of phrases, the kind they name and the code word
// they stand for: a Reader reads the words as its taxonomy reads that
// code (see Reader.wordKind), so a server's own taxonomy decides a
// message's words the way it decides a code.
type prose struct {
	kind    errkind.Kind
	code    string
	phrases []string
}

// credentialProse is the index in proseKinds of the refused credential's
// family, which the rules of a key not found and of a 403 "Invalid key"
// name.
const credentialProse = 1

// proseKinds are the phrases, in lower case, in the order they are
// tried: a limit, the credential, a permission, a missing thing, a thing
// that already exists. A message that names two kinds names none.
var proseKinds = [...]prose{
	{errkind.RateLimited, "rate_limited", []string{"rate limit", "rate-limit", "ratelimit", "throttl",
		"too frequent", "frequency limit", "over limit", "over the limit",
		"quota exceeded", "quota reached", "out of quota"}},
	{errkind.AuthenticationFailed, "unauthenticated", []string{"authentication failed", "authentication information",
		"not authenticated", "hasn't authenticated", "has not authenticated", "unauthenticated", "login first",
		"log in first", "sign in first", "login required", "authentication required", "token required",
		"token has expired", "token expired", "token is invalid", "key is invalid", "invalid credentials",
		"bad credentials",
		// A caller the server could not tell who it is ("Could not
		// authenticate", "Unable to authenticate you"), and a login
		// refused, whose two words are the credential ("Incorrect
		// username or password").
		"not authenticate", "unable to authenticate", "failed to authenticate", "username or password",
		"user name or password", "email or password", "account or password",
		// A request's signature refused: the caller's secret signs it
		// ("HMAC validation failure", "Signature verification failed").
		"hmac", "signature verification", "signature validation", "signature mismatch"}},
	{errkind.PermissionDenied, "permission_denied", []string{"not authorized", "authorization failed", "permission denied",
		"insufficient permission", "have permission", "missing scope", "access denied",
		// A caller known and kept out ("You can't access this resource").
		"can't access", "cannot access", "not allowed to access", "access restricted", "access is restricted",
		// A payment a person must make, whatever the status: the
		// caller's credits are spent (see says).
		"out of credits"}},
	{errkind.NotFound, "not_found", []string{"not found", "not be found", "cannot be found", "does not exist",
		"doesn't exist", "do not exist", "not present", "no such ", "no matching "}},
	{errkind.Conflict, "already_exists", []string{"already exist", "already been added", "already been assigned",
		"already been created", "already in use", "already taken", "already been taken", "already registered",
		// A thing sent twice ("Order ID is duplicated", "Duplicate
		// entry 'x' for key 'PRIMARY'"), RFC 9110's own words for a
		// 409, which servers write under other statuses too, and a
		// precondition of the request that the state no longer meets
		// (RFC 9110's 412; SpiceDB's "unable to satisfy write
		// precondition", Cloud Storage's "pre-conditions ... did not
		// hold", DynamoDB's "The conditional request failed").
		"duplicate", "conflict with the current state", "conflicts with the current state",
		"precondition", "pre-condition", "conditional request failed"}},
}

// argumentCode is the code word of a missing thing that is an argument
// ("dst parameter not found").
const argumentCode = "invalid_argument"

// credentialAdjectives and credentialNouns make the phrases of a refused
// credential: an adjective, then within two words a noun ("Invalid API
// key", "Invalid project token", "expired access token", "Unknown API
// Key", "Missing API key", "Wrong access token", "Old authorization
// key").
var (
	credentialAdjectives = [...]string{"invalid", "expired", "unknown", "revoked", "missing", "wrong", "incorrect",
		"bad", "malformed", "unrecognized", "old"}
	credentialNouns = [...]string{"api key", "api-key", "api_key", "apikey", "access key", "app key", "appkey",
		"application key", "credential", "token", "session", "signature", "authorization key"}
)

// keyNouns are the credential nouns that name nothing but a credential
// (the first of credentialNouns): one of them not found ("Provided API
// key could not be found", "The access key you provided does not exist")
// is a refused credential, where a session or a token not found may be a
// resource.
var keyNouns = credentialNouns[:9]

// namesCredential reports whether low names one of keyNouns.
func namesCredential(low string) bool {
	for _, n := range keyNouns {
		if strings.Contains(low, n) {
			return true
		}
	}
	return false
}

// refusedAfter are the words that refuse a credential named before them
// ("API token invalid", "This credential is not valid", "API key
// expired").
var refusedAfter = [...]string{" invalid", " is invalid", " is not valid", " not valid", " expired",
	" has expired", " is expired", " revoked", " has been revoked"}

// proseKind is the family of phrases the words of msg name (its kind,
// and the code word the taxonomy reads), and whether they name one.
func proseKind(msg string) (*prose, bool) {
	low := lowHead(msg)
	if !strings.Contains(low, " ") {
		// A message that is a code word in capitals or snake case
		// ("INVALID_USER_KEY", "quota_exceeded") is read by its words.
		low = strings.ReplaceAll(low, "_", " ")
	}
	var found *prose
	for i := range proseKinds {
		p := &proseKinds[i]
		if !p.says(low) || found != nil && p.kind == found.kind {
			continue
		}
		if found != nil {
			return nil, false // "does not exist or not authorized" names no one kind
		}
		found = p
	}
	if found == nil {
		return nil, false
	}
	if found.kind == errkind.NotFound {
		if refusedCredential(low) || namesCredential(low) {
			return &proseKinds[credentialProse], true // "API key could not be found": the credential is refused
		}
		if namesArgument(low) {
			return &argumentProse, true // "dst parameter not found": an argument is missing
		}
	}
	return found, true
}

// namesPart reports whether low names a part of the request or of what
// it queries rather than a thing it asks for by its id: a parameter, a
// field, an argument, a column, a table, an index, a type, a property,
// an attribute, a command, a definition.
func namesPart(low string) bool {
	if namesArgument(low) {
		return true
	}
	for _, w := range [...]string{"column", "table", "index", "type", "propert", "attribute", "command", "definition"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// otherCause reports whether low offers a cause besides the one it
// names first ("not found or not approved", "does not exist or you have
// no access"), as APIs write when they will not tell which.
func otherCause(low string) bool {
	for _, w := range [...]string{" or not ", " or is not ", " or you ", " or no "} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// argumentProse is the family of a missing thing that is an argument.
var argumentProse = prose{kind: errkind.InvalidArguments, code: argumentCode}

// says reports whether low holds one of p's phrases.
func (p *prose) says(low string) bool {
	switch p.kind {
	case errkind.AuthenticationFailed:
		if refusedCredential(low) || refusedNamedKey(low) {
			return true
		}
	case errkind.NotFound:
		if noneFound(low) {
			return true
		}
	case errkind.PermissionDenied:
		// The caller's credits, balance or points too few, a payment a
		// person must make ("Not enough credits", "Insufficient postage
		// balance", "Not enough points to perform this action": Genju,
		// Bounceler, ShipEngine, SMSAPI, DeepInfra, Jina). Funds are not
		// read: they may be a payer's, an argument of a payment API.
		if lacking(low) {
			return true
		}
	case errkind.RateLimited:
		// A quota spent, in any words ("API key has exceeded calls per
		// month quota", "Out of call volume quota", "daily quota
		// reached"); a quota alone may be an argument ("quota must be
		// positive").
		if strings.Contains(low, "quota") && spent(low) {
			return true
		}
		// "You have exceeded the limit of 1 request every 5 seconds": a
		// limit spent (exceeded, reached, ...), counted in requests over
		// time (not a size), or a number of requests spent ("The allowed
		// number of requests has been exceeded", "the daily threshold
		// for total number of requests ... has been reached").
		if spent(low) && (requestRate(low) || strings.Contains(low, "number of requests") ||
			strings.Contains(low, "number of calls")) {
			return true
		}
		// Too many of the caller's acts, in any words ("Too many
		// attempts", "Too many visits!", "too many sessions are being
		// created", "Too many concurrent queries"): not too many of
		// what one request carries ("Too many parameters", "too many
		// filtered rows").
		for rest := low; ; {
			i := strings.Index(rest, "too many ")
			if i < 0 {
				break
			}
			rest = rest[i+len("too many "):]
			if callerActs(rest) {
				return true
			}
		}
	}
	for _, ph := range p.phrases {
		if strings.Contains(low, ph) {
			return true
		}
	}
	return false
}

// callerActs reports whether one of the first two words of s is a noun
// of the caller's acts over time: requests, calls, attempts, visits,
// sessions, connections, logins, or anything concurrent ("requests",
// "API requests", "login attempts").
func callerActs(s string) bool {
	for w := 0; w < 2; w++ {
		for _, n := range [...]string{"request", "call", "attempt", "visit", "session", "connection", "login",
			"concurrent", "simultaneous"} {
			if strings.HasPrefix(s, n) {
				return true
			}
		}
		j := strings.IndexByte(s, ' ')
		if j < 0 {
			break
		}
		s = s[j+1:]
	}
	return false
}

// lacking reports whether low says the caller has too few credits, too
// little balance or too few points: "insufficient" or "enough", then
// credits or a balance within the next two words ("Insufficient
// postage balance", "enough API credits"), or points next ("Not enough
// points"; "not enough data points" is an argument).
func lacking(low string) bool {
	for _, a := range [...]string{"insufficient ", "enough "} {
		for rest := low; ; {
			i := strings.Index(rest, a)
			if i < 0 {
				break
			}
			rest = rest[i+len(a):]
			next := rest
			for w := 0; w < 3; w++ {
				if strings.HasPrefix(next, "credit") || strings.HasPrefix(next, "balance") ||
					w == 0 && strings.HasPrefix(next, "point") {
					return true
				}
				j := strings.IndexByte(next, ' ')
				if j < 0 {
					break
				}
				next = next[j+1:]
			}
		}
	}
	return false
}

// noneFound reports whether low says that none of a thing was found:
// "no", at most two words, then "found" ("No build found", "No matching
// location found", "No record found for id 42", "No data found"), as 24
// messages of the corpora's APIs say a thing is missing.
func noneFound(low string) bool {
	for rest := low; ; {
		i := strings.Index(rest, "no ")
		if i < 0 {
			return false
		}
		at := len(low) - len(rest) + i
		rest = rest[i+len("no "):]
		if at > 0 && isLetter(low[at-1]) {
			continue
		}
		next := rest
		for w := 0; w < 3; w++ {
			if after, ok := strings.CutPrefix(next, "found"); ok && (after == "" || !isLetter(after[0])) {
				return true
			}
			j := strings.IndexByte(next, ' ')
			if j < 0 {
				break
			}
			next = next[j+1:]
		}
	}
}

// spent reports whether low says an allowance ran out: exceeded,
// reached, out of, exhausted, used up, run out.
func spent(low string) bool {
	for _, w := range [...]string{"exceed", "reached", "out of", "exhausted", "used up", "run out", "ran out"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// requestRate reports whether low counts requests over time: "1 request
// every 5 seconds", "100 requests per minute", "calls per hour", "queries
// per day".
func requestRate(low string) bool {
	for _, c := range [...]string{"request", "call", "querie", "query"} {
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
// two words ("Invalid project token"), or one of credentialNouns then
// one of refusedAfter ("API token invalid").
func refusedCredential(low string) bool {
	for _, n := range credentialNouns {
		for rest := low; ; {
			i := strings.Index(rest, n)
			if i < 0 {
				break
			}
			at := len(low) - len(rest) + i
			rest = rest[i+len(n):]
			if at > 0 && isLetter(low[at-1]) {
				continue // inside a word ("possession")
			}
			after := strings.TrimPrefix(rest, "s") // "credentials are invalid"
			if refusedNext(after) || refusedNext(strings.TrimPrefix(after, " are")) {
				return true
			}
		}
	}
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

// refusedNext reports whether s opens with one of refusedAfter, as
// whole words.
func refusedNext(s string) bool {
	for _, w := range refusedAfter {
		if strings.HasPrefix(s, w) && (len(s) == len(w) || !isLetter(s[len(w)])) {
			return true
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
	low := lowHead(msg)
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

// refusedNamedKey reports whether low refuses a key that ends its
// phrase: one of credentialAdjectives, then at most one word, then "key"
// followed by the end or a mark that closes a phrase ("Invalid
// integration key", "Unknown publishable key.", "Wrong key!", "Invalid
// key - get one at ..."), as 65 messages of 66 in the corpora that say so
// are a credential refused, at any status. A key followed by more words
// or a name is a member of the request ("invalid key in object",
// "Invalid filter key \"foo\"", "Unknown sort key: rank").
func refusedNamedKey(low string) bool {
	if !strings.Contains(low, "key") {
		return false
	}
	for _, a := range credentialAdjectives {
		for rest := low; ; {
			i := strings.Index(rest, a+" ")
			if i < 0 {
				break
			}
			at := len(low) - len(rest) + i
			rest = rest[i+len(a)+1:]
			if at > 0 && isLetter(low[at-1]) {
				continue
			}
			next := rest
			if !strings.HasPrefix(next, "key") {
				j := strings.IndexByte(next, ' ')
				if j < 0 {
					continue
				}
				next = next[j+1:]
			}
			if after, ok := strings.CutPrefix(next, "key"); ok && closesPhrase(after) {
				return true
			}
		}
	}
	return false
}

// closesPhrase reports whether s, what follows a word, ends the word's
// phrase: nothing, a mark that ends a phrase, or a dash or a bracket after
// a space.
func closesPhrase(s string) bool {
	if s == "" {
		return true
	}
	if strings.IndexByte(".,!;)", s[0]) >= 0 {
		return true
	}
	return strings.HasPrefix(s, " -") || strings.HasPrefix(s, " (")
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' }

// lowHead is the part of a message or a code the prose rules read: its
// first maxPlainMessage bytes, in lower case.
func lowHead(s string) string {
	if len(s) > maxPlainMessage {
		s = s[:maxPlainMessage]
	}
	return strings.ToLower(s)
}

// opaque reports whether code says nothing of its own: none, a number
// (Parse's 209, Sendbird's 400201), or an entry of an API's catalogue
// that is a number with a few capitals run into it ("API0005",
// "BXNIM0415E", "A400IK", "E-1001"), which names the entry, not what
// happened, or one of bareWords. A code word of the API's own (OAuth's invalid_grant,
// mfa_required) is the API's own reading, which prose does not override.
func opaque(code string) bool {
	for _, w := range bareWords {
		if strings.EqualFold(code, w) {
			return true
		}
	}
	digit, run := false, 0
	for i := 0; i < len(code); i++ {
		switch c := code[i]; {
		case c >= '0' && c <= '9':
			digit, run = true, 0
		case c == '-' || c == '.':
			run = 0
		case c >= 'A' && c <= 'Z':
			if run++; run > 5 {
				return false // a word ("INVALID0")
			}
		default:
			return false
		}
	}
	return code == "" || digit
}

// bareWords are codes of one word that say no more than that the
// request failed ("invalid", "Exception"): the message says what. (The
// words of a failed status, "error", "failure", are read as no code at
// all.)
var bareWords = [...]string{"invalid", "exception"}

// proseOverrides reports whether a kind the message names (k) replaces
// the kind a 4xx status gave (byStatus): a credential, a limit or a
// permission replaces a generic invalid_arguments, the status that says
// no more than that the request was refused, and so does a thing that
// already exists or was sent twice at a 400 (Databricks, Mailchimp,
// Brevo, FusionAuth, Nium, dLocal) or at any other 4xx the status leaves
// generic (Midtrans's 406 in RFC 9110's words for a 409); not at a 422,
// which APIs write for a taken name as a validation failure as often,
// nor in a message that names the field it is about ("slug: Application
// with this slug already exists", a field's own validation); a credential or a limit replaces a 403's
// permission_denied, which APIs send for a bad key and a spent quota
// alike (a 403 "Invalid token", "Quota exceeded"), and so does a missing
// thing (a 403 "The specified resource was not found" names the id to
// change, not a refusal to stop at). A missing thing replaces a 400's
// invalid_arguments too, as errkind's litmus test reads it (a
// well-formed id that matches nothing is not_found: "Model does not
// exist", "\"Channel\" not found.", "No matching location found":
// SiliconFlow, Z.AI, Triton, Sendbird, WeatherAPI, QuickBooks, ksqlDB),
// unless the message names a part of the request or of what it queries
// (a parameter, a field, a column, a table, an index, a type: see
// namesPart), which is an argument to fix, or offers another cause ("not
// found or not approved"). A 402 says more than any words (a quota that
// a person must pay for).
func proseOverrides(k, byStatus errkind.Kind, status int, msg string) bool {
	switch {
	case byStatus == errkind.InvalidArguments:
		return k == errkind.AuthenticationFailed || k == errkind.RateLimited || k == errkind.PermissionDenied ||
			k == errkind.Conflict && status != http.StatusUnprocessableEntity && !namesField(msg) ||
			k == errkind.NotFound && status == http.StatusBadRequest && !namesPart(lowHead(msg)) && !otherCause(lowHead(msg))
	case status == http.StatusForbidden:
		return k == errkind.AuthenticationFailed || k == errkind.RateLimited || k == errkind.NotFound
	}
	return false
}

// namesField reports whether msg opens with the name of the field it is
// about, as frameworks write a field's error ("slug: ...", "user.email:
// ...", "/0/name: ..."): a name in lower case, without spaces, then ": ".
func namesField(msg string) bool {
	name, _, ok := strings.Cut(msg, ": ")
	if !ok || name == "" || len(name) > 40 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.IndexByte("._-/[]", c) >= 0) {
			return false
		}
	}
	return true
}

// opensWithPhrase reports whether msg opens with status, its reason
// phrase or its number ("Bad Request: chat not found", "400 File already
// exists"): the server named the status itself, and the words after it
// do not override it.
func opensWithPhrase(msg string, status int) bool {
	if n := strconv.Itoa(status); strings.HasPrefix(msg, n) && (len(msg) == len(n) || msg[len(n)] == ' ' || msg[len(n)] == ':') {
		return true
	}
	t := http.StatusText(status)
	return t != "" && len(msg) > len(t) && strings.EqualFold(msg[:len(t)], t)
}

// argumentWords are the words that say an argument of the request is
// wrong, in a message or a code: a value invalid or not valid, a
// parameter, a value required, missing or to be given ("Invalid IPv4
// address", "Parameters are invalid", "List ID is required", "Please
// specify a phone number", INVALID_DATE). The first codeArgumentWords
// of them are read in a code too; "missing" and the phrases after it
// only in a message: a code's "missing" names a missing thing as often
// (MediaWiki's missingtitle).
var argumentWords = [...]string{"invalid", "not valid", "incorrect", "param", "argument", "field", "required",
	"not supported", "unsupported", "syntax", "out of range",
	"missing", "must be", "should be", "please specify", "please provide", "please enter"}

// codeArgumentWords is how many of argumentWords a code's words are
// read against.
const codeArgumentWords = 11

// saysArgument reports whether s, a message or a code in any case
// style, holds one of words, "invalid" as a word of its own (not
// "invalidation", "invalidated").
func saysArgument(s string, words []string) bool {
	low := lowHead(s)
	for _, w := range words {
		for rest := low; ; {
			i := strings.Index(rest, w)
			if i < 0 {
				break
			}
			at := len(low) - len(rest) + i
			rest = rest[i+len(w):]
			if w == "invalid" && (at > 0 && isLetter(low[at-1]) || strings.HasPrefix(rest, "at")) {
				continue
			}
			return true
		}
	}
	return false
}

// wrongArgumentCode reports whether code or another code of the body (alts)
// says by its words that an argument of the request is wrong (see
// saysArgument).
func wrongArgumentCode(code string, alts []string) bool {
	words := argumentWords[:codeArgumentWords]
	if code != "" && saysArgument(code, words) {
		return true
	}
	for _, c := range alts {
		if saysArgument(c, words) {
			return true
		}
	}
	return false
}

// overLimit reports whether msg says a limit or a quota was reached or
// exceeded, the caller's own, not only that requests are too many.
func overLimit(msg string) bool {
	low := lowHead(msg)
	return strings.Contains(low, "limit") || strings.Contains(low, "exceed") || strings.Contains(low, "quota")
}

package errkind

import (
	"strings"
	"sync/atomic"
)

// Rule maps an upstream (code, status) pair to a Kind. Every field that is
// set must match; a zero field matches anything, so a Rule with only Kind set
// matches every response.
//
// Code is compared in any case style: "trace_not_found", "TraceNotFound",
// "TRACE_NOT_FOUND" and "trace-not-found" are the same code (see
// normalizeCode). A "*" at its start or its end matches any text there, so
// "*_not_found" matches every code ending in _not_found, "rate_limit*" every
// code starting with rate_limit and "*Throttl*" every code containing
// throttl. A "*" anywhere else is literal.
//
// Text is for servers whose failures are prose rather than codes: a rule
// with Text set matches only a failure text (see [Taxonomy.Read]) that
// starts with it, exactly, where each "*" in Text matches any run of
// characters. "Not found in the VDB: " matches every text starting so;
// "HTTP *: the body is not JSON" tells one prose shape from "HTTP *: *". A
// rule with Text never matches in [Taxonomy.Classify], which has no text.
type Rule struct {
	Code      string // the upstream's code, or a pattern of it ("*_not_found")
	Status    int    // the HTTP status, exactly (404)
	StatusMin int    // the lowest status matched (400)
	StatusMax int    // the highest status matched (499)
	Text      string // the start of a failure's prose, "*" matching any run ("Not found in the VDB: ")
	Kind      Kind   // the kind a matching response is
}

// match reports whether the rule matches a response with this code and
// status; a rule with Text set matches none.
func (r Rule) match(code string, status int) bool {
	p := [1]pattern{compilePattern(r.Code)}
	_, ok := classify([]Rule{r}, p[:], normalizeCode(code), status, "")
	return ok
}

// matchText reports whether text starts with pattern, each "*" in pattern
// matching any run of characters. Each literal part is found at its
// leftmost place after the one before, which is exact because the match is
// open at the end; the time is linear in len(text) for a given pattern.
func matchText(pattern, text string) bool {
	lit, rest, star := strings.Cut(pattern, "*")
	if !strings.HasPrefix(text, lit) {
		return false
	}
	text = text[len(lit):]
	for star {
		lit, rest, star = strings.Cut(rest, "*")
		i := strings.Index(text, lit)
		if i < 0 {
			return false
		}
		text = text[i+len(lit):]
	}
	return true
}

// pattern is a Rule's Code made ready to match: normalized once, its stars
// taken off, so matching a code costs no normalization of the rule.
type pattern struct {
	src  string // the Rule's Code as written: a rule whose Code is no longer src is compiled again
	text string // src without its stars, normalized
	how  uint8  // exact, prefix, suffix or contains
	mask uint64 // the bytes of text (see byteMask): a code that lacks one cannot match
}

// byteMask is the set of s's bytes, each byte b as bit b%64: a code whose
// mask lacks a bit of a pattern's cannot hold the pattern's text, which
// rules most patterns out at the cost of an AND.
func byteMask(s string) uint64 {
	var m uint64
	for i := 0; i < len(s); i++ {
		m |= 1 << (s[i] % 64)
	}
	return m
}

const (
	exact = iota
	prefix
	suffix
	contains
)

// compilePattern prepares a Rule's Code (see [Rule]): a "*" at its start,
// at its end or both, and the rest in normalizeCode's style.
func compilePattern(code string) pattern {
	p := pattern{src: code}
	lead := strings.HasPrefix(code, "*")
	trail := len(code) > 1 && strings.HasSuffix(code, "*")
	if lead {
		code = code[1:]
	}
	if trail {
		code = code[:len(code)-1]
	}
	p.text = normalizeCode(code)
	p.mask = byteMask(p.text)
	switch {
	case lead && trail:
		p.how = contains
	case lead:
		p.how = suffix
	case trail:
		p.how = prefix
	}
	return p
}

// compiled is a list of rules with their codes prepared: the rules slice
// it was made from (its first element and length say whether a
// Taxonomy's Rules are still that slice) and one pattern per rule.
type compiled struct {
	rules    []Rule
	patterns []pattern
}

func compile(rules []Rule) *compiled {
	c := &compiled{rules: rules, patterns: make([]pattern, len(rules))}
	for i := range rules {
		c.patterns[i] = compilePattern(rules[i].Code)
	}
	return c
}

// of reports whether c was made from rules: the same slice, not a copy.
func (c *compiled) of(rules []Rule) bool {
	return c != nil && len(c.rules) == len(rules) && (len(rules) == 0 || &c.rules[0] == &rules[0])
}

// normalizeCode returns code in one case style, lower snake case, so that
// codes written in any style compare equal: "XNotFound", "x-not-found",
// "X_NOT_FOUND" and "x.not.found" all become "x_not_found". A word boundary
// is a '_', '-', '.', ' ', '/', '[' or ']' ("[duplicate]user.email" is
// "_duplicate_user_email"), a lower-case letter or digit followed by
// an upper-case one, or the last capital of an acronym followed by a
// lower-case letter ("HTTPError" is "http_error"). Runs of separators become
// one '_'. A code already in that style is returned as it is, without
// allocating.
func normalizeCode(code string) string {
	if normalized(code) {
		return code
	}
	return string(appendNormal(make([]byte, 0, len(code)+4), code))
}

// appendNormal appends code in normalizeCode's style to b.
func appendNormal(b []byte, code string) []byte {
	start := len(b)
	for i := 0; i < len(code); i++ {
		c := code[i]
		switch {
		case isSep(c):
			if len(b) == start || b[len(b)-1] != '_' {
				b = append(b, '_')
			}
		case 'A' <= c && c <= 'Z':
			if i > 0 && len(b) > start && b[len(b)-1] != '_' {
				prev := code[i-1]
				lowerPrev := 'a' <= prev && prev <= 'z' || '0' <= prev && prev <= '9'
				acronymEnd := 'A' <= prev && prev <= 'Z' && i+1 < len(code) && 'a' <= code[i+1] && code[i+1] <= 'z'
				if lowerPrev || acronymEnd {
					b = append(b, '_')
				}
			}
			b = append(b, c+'a'-'A')
		default:
			b = append(b, c)
		}
	}
	return b
}

func isSep(c byte) bool {
	return c == '_' || c == '-' || c == '.' || c == ' ' || c == '/' || c == '[' || c == ']'
}

// normalized reports whether normalizeCode would return code unchanged.
func normalized(code string) bool {
	for i := 0; i < len(code); i++ {
		c := code[i]
		if 'A' <= c && c <= 'Z' || c != '_' && isSep(c) || c == '_' && i > 0 && code[i-1] == '_' {
			return false
		}
	}
	return true
}

// A Taxonomy maps upstream failures to kinds and kinds to advice. It is data:
// Rules is an ordered list and the first rule that matches wins, so a
// taxonomy puts its code rules before its status rules, and a code no rule
// knows falls through to the status.
//
// The zero value and a nil *Taxonomy classify and advise as [Standard] does;
// so does a Taxonomy whose Rules are nil, whatever its Fallback. To add
// rules ahead of another taxonomy's, use [Taxonomy.With]. A Taxonomy is
// safe for concurrent use as long as nobody modifies it. It prepares its
// rules once (Standard and With do it; a Taxonomy built by hand does it on
// its first Classify), so classifying allocates nothing; share it by
// pointer rather than copying the struct.
type Taxonomy struct {
	// Rules are tried in order; the first that matches decides the kind.
	// nil means Standard's rules; an empty, non-nil slice means no rules, so
	// that every failure is the Fallback.
	Rules []Rule

	// Advice is each kind's advice; a kind missing here is advised as
	// Standard advises it (see [Taxonomy.Advise]).
	Advice map[Kind]Advice

	// Fallback is the kind when no rule matches; "" means ServerError.
	Fallback Kind

	// prepared holds Rules with their codes normalized once (see
	// compiled): set by Standard and With, and on first use for a
	// Taxonomy built by hand. A Rules slice that was replaced or grown is
	// prepared again; a rule whose Code was changed in place is matched
	// as it is now written.
	prepared atomic.Pointer[compiled]
}

// Classify returns the kind of an upstream failure with the given code (""
// when the upstream sent none) and HTTP status (0 when there was none): the
// Kind of the first rule that matches, else the Fallback.
func (t *Taxonomy) Classify(code string, status int) Kind {
	if !normalized(code) {
		// A code of a few words is normalized on the stack: the
		// conversion does not escape.
		var buf [64]byte
		code = string(appendNormal(buf[:0], code))
	}
	if k, ok := t.classify(code, status, ""); ok {
		return k
	}
	return t.fallback()
}

// classify returns the kind of the first of t's rules that matches a
// normalized code, a status and a text, and whether one did.
func (t *Taxonomy) classify(code string, status int, text string) (Kind, bool) {
	rules, c := t.rules()
	if c == standardCompiled && text == "" {
		return remembered(code, status)
	}
	return classify(rules, c.patterns, code, status, text)
}

// memo holds the standard rules' answers for the codes and statuses read
// last, a slot for each hash: the standard rules never change, and an
// upstream that fails sends the same few codes again and again. A slot
// holds an immutable entry, replaced whole; reading one costs a hash and
// an atomic load, and only a code read for the first time in its slot
// allocates (the entry and a copy of the code).
var memo [256]atomic.Pointer[memoEntry]

type memoEntry struct {
	code   string
	status int
	kind   Kind
	ok     bool
}

// remembered is classify with the standard rules, through memo.
func remembered(code string, status int) (Kind, bool) {
	h := uint32(2166136261) // FNV-1a
	for i := 0; i < len(code); i++ {
		h = (h ^ uint32(code[i])) * 16777619
	}
	h = (h ^ uint32(status)) * 16777619
	slot := &memo[h%uint32(len(memo))]
	if e := slot.Load(); e != nil && e.status == status && e.code == code {
		return e.kind, e.ok
	}
	k, ok := classify(standardRules, standardCompiled.patterns, code, status, "")
	slot.Store(&memoEntry{code: strings.Clone(code), status: status, kind: k, ok: ok})
	return k, ok
}

// classify returns the kind of the first of rules that matches a
// normalized code, a status and a text, and whether one did. patterns[i]
// is rules[i].Code prepared, unless the rule was changed since.
func classify(rules []Rule, patterns []pattern, code string, status int, text string) (Kind, bool) {
	mask := byteMask(code)
	for i := range rules {
		r := &rules[i]
		if r.Code != "" {
			if code == "" {
				continue
			}
			p := &patterns[i]
			if p.src != r.Code { // the rule was changed in place since it was prepared
				q := compilePattern(r.Code)
				p = &q
			}
			if p.mask&^mask != 0 {
				continue
			}
			switch p.how {
			case exact:
				if code != p.text {
					continue
				}
			case prefix:
				if !strings.HasPrefix(code, p.text) {
					continue
				}
			case suffix:
				if !strings.HasSuffix(code, p.text) {
					continue
				}
			default:
				if !strings.Contains(code, p.text) {
					continue
				}
			}
		}
		if (r.Status == 0 || r.Status == status) && (r.StatusMin == 0 || status >= r.StatusMin) &&
			(r.StatusMax == 0 || status <= r.StatusMax) && (r.Text == "" || matchText(r.Text, text)) {
			return r.Kind, true
		}
	}
	return "", false
}

// rules returns the rules t classifies with and their prepared patterns:
// the standard ones for a nil t or nil Rules, else t's own, prepared on
// first use. Preparing is safe while other goroutines classify: each
// loads the prepared rules atomically and uses them only when they were
// made from the Rules it sees.
func (t *Taxonomy) rules() ([]Rule, *compiled) {
	if t == nil || t.Rules == nil {
		return standardRules, standardCompiled
	}
	if c := t.prepared.Load(); c.of(t.Rules) {
		return t.Rules, c
	}
	c := compile(t.Rules)
	t.prepared.Store(c)
	return t.Rules, c
}

// fallback returns t's Fallback, or ServerError.
func (t *Taxonomy) fallback() Kind {
	if t != nil && t.Fallback != "" {
		return t.Fallback
	}
	return ServerError
}

// Advise returns the advice for a kind: the taxonomy's own entry, else the
// standard entry for the ten standard kinds, else Report with no retry.
func (t *Taxonomy) Advise(k Kind) Advice {
	if t != nil {
		if a, ok := t.Advice[k]; ok {
			return a
		}
	}
	if a, ok := standardAdvice(k); ok {
		return a
	}
	return Advice{Move: Report, Note: "report it; the server did not say how to recover"}
}

// With returns a copy of t whose rules are rules followed by t's own (for a
// nil or zero t, Standard's), with the same Fallback and a copy of its
// Advice that the caller may extend. t itself is not changed. It is how a
// server declares its own codes ahead of a taxonomy it builds on:
//
//	tax := errkind.Standard().With(errkind.Rule{Code: "forbidden_role", Kind: "wrong_role"})
//	tax.Advice["wrong_role"] = errkind.Advice{Move: errkind.Stop, Note: "stop"}
func (t *Taxonomy) With(rules ...Rule) *Taxonomy {
	base := standardRules
	n := &Taxonomy{Advice: map[Kind]Advice{}}
	if t != nil {
		if t.Rules != nil {
			base = t.Rules
		}
		for k, a := range t.Advice {
			n.Advice[k] = a
		}
		n.Fallback = t.Fallback
	}
	n.Rules = make([]Rule, 0, len(rules)+len(base))
	n.Rules = append(append(n.Rules, rules...), base...)
	n.prepared.Store(compile(n.Rules))
	return n
}

// Standard returns the standard taxonomy: the ten kinds above, their
// rules and their advice. Each call returns a fresh copy that the caller
// may change; [Taxonomy.With] adds rules ahead of its own.
//
// A code a rule knows decides the kind, whatever the status; a code nobody
// knows (or none) falls back on the status. Codes match in any case style
// (see [Rule]), and by their words, so that a code no rule lists still
// says its kind ("RATE_LIMIT_EXCEEDED", "rateLimitExceeded", "QuotaExceeded",
// "API_KEY_INVALID", "token_expired", "NoSuchBucket", "conditionNotMet",
// "Unavailable", "FUNCTION_INVOCATION_TIMEOUT"):
//
//	kind                   codes (their words)                                     status             move
//	permission_denied      *disabled*, *suspended* (a caller, a key or a feature   403                stop
//	                       switched off)
//	authentication_failed  *unauthenticated*, *unauthorized, *api_key*, *apikey*,  401                stop
//	                       *access_key*, invalid_key, *authorization_required*,
//	                       *not_authenticated*, *auth_fail*, *login_fail*,
//	                       *session_expired*, *invalid_session*, *jwt*,
//	                       *missing_token*, *token_missing*, *token_required*,
//	                       *invalid_secret*, *invalid_token*, *token_invalid*,
//	                       *token_expired*, expired_*, *access_token*,
//	                       invalid_client*, authentication*, *_authentication,
//	                       *_authentication_fail*, *invalid_auth*,
//	                       *credential*, *signature*, *login_required*, *_login
//	permission_denied      *permission*, *access_denied*, *_denied, *forbidden*,   403                stop
//	                       *privilege*, *not_permitted*, *blocked*, *banned*,
//	                       insufficient_scope*, missing_scope*, *_scope (but
//	                       invalid_scope, an argument)
//	invalid_arguments      *column_not_found*, *column_does_not_exist*,                               fix_argument
//	                       *no_such_column*, *field_not_found*,
//	                       *field_does_not_exist*, *no_such_field* (a name
//	                       the request wrote that does not exist)
//	not_found              *not_found*, *notfound*, *notexist*,                    404, 410           try_another_id
//	                       resource_missing, no_such_*, *not_exist*,
//	                       *non_existent*, *inexistent*, *_unknown,
//	                       *couldnt_find*, *cannot_find*, *unable_to_find*,
//	                       gone, *_gone
//	permission_denied      *payment_required*, *subscription_required*,            402                stop
//	                       *upgrade_required*, *billing*, *credit*, *balance*,
//	                       *budget* (a person must pay or raise a budget; a
//	                       card *declined* is invalid_arguments, a payment
//	                       that is a resource falls through)
//	unavailable            *capacity*                                                                 wait_then_retry
//	invalid_arguments      *size_limit*, *length_limit*, *size_exceeded*,                             fix_argument
//	                       *length_exceeded*, *max_tokens*,
//	                       *max_output_tokens* (what the request carries or
//	                       asks for is too big, not too fast)
//	rate_limited           resource_exhausted, *rate_limit*, *ratelimit*,          429                wait_then_retry
//	                       *throttl*, *too_many_requests*, *quota*,
//	                       *limit_exceeded*, *limit_reached*, *rate_exceeded*,
//	                       *throughput_exceeded*, *_exhausted, over_*,
//	                       *too_frequent*, *over_limit*, *frequency_limit*,
//	                       *max_concurrent*, *concurrent_req*,
//	                       *concurrency_limit* (too many calls in flight),
//	                       *too_many_attempts*, *too_many_connections*,
//	                       *too_many_calls*, *too_many_sessions*
//	conflict               *already_exists*, *alreadyexist*, *_exists(_*),         409, 412, 423      reread_then_retry
//	                       already_*, *_already_*, duplicate or duplicated
//	                       (the word), aborted, conflict, conflict_*,
//	                       *_conflict(_*), *_in_use*, *_taken,
//	                       *precondition_failed*,
//	                       *condition_not_met*, *conditional_check_failed*,
//	                       *version_mismatch*, *etag_mismatch*, *stale*,
//	                       *concurrent_modification*, *concurrent_update*,
//	                       *deadlock*, *serialization_failure*,
//	                       *unique_violation*, *unique_constraint*
//	unavailable            *unavailable*, *not_available*, *overloaded*, *busy*,   408, 502, 503,     wait_then_retry
//	                       *maintenance*, *standby*, *bad_gateway*,               504, 529
//	                       deadline_exceeded, *timeout*, *timed_out*
//	rate_limited           *_exceeded*, exceeded_* (any other limit                                   wait_then_retry
//	                       exceeded: a count of calls or of work in flight)
//	server_error           internal, internal_*, unknown, data_loss, api_error,    424, 500, 501,     report
//	                       unimplemented, not_implemented, *server_error*,        505-599
//	                       *internal_error*, *unknown_error*,
//	                       *unexpected_error*, a SOAP fault *:Server or
//	                       *:Receiver (a 424: a request this one depended on
//	                       failed, no argument of the caller)
//	invalid_arguments      a payment card's own data or state, once no word                           fix_argument
//	                       above reads: *card*, *cvc*, *cvv*, expired_card*
//	invalid_arguments      invalid_argument*, failed_precondition, out_of_range,   400, 422, any
//	                       invalid_request*, bad_request, validation*,            other 4xx          fix_argument
//	                       invalid_param*, invalid_input*, unsupported_*,
//	                       *_unsupported, *malformed*, bad_*, *_required,
//	                       unknown_param*, missing_param*, *user_error*,
//	                       *_validation*, *parse_fail*, *parse_error*, a SOAP
//	                       fault *:Client or *:Sender
//	malformed_response     (the client could not read the answer)                                     report
//	network_error          (no answer came back)                                                      retry_safe
//
// The rules are tried in the table's order, so the words that say more
// come first: "INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND" is a permission,
// "invalid_api_key" a credential rather than an argument,
// "InvalidAccessKeyId.NotFound" a credential rather than a missing thing,
// "PAYMENT_NOT_FOUND" a missing thing rather than a payment to make. A 402 is
// permission_denied because a person must pay before any call can succeed:
// the agent stops, as for a plan that forbids the call.
//
// A status below 400 with no code a rule knows, such as an error envelope on
// a 200, is the Fallback, server_error.
func Standard() *Taxonomy {
	t := &Taxonomy{
		Rules:    append([]Rule(nil), standardRules...),
		Advice:   make(map[Kind]Advice, 10),
		Fallback: ServerError,
	}
	for _, k := range kinds() {
		a, _ := standardAdvice(k)
		a.Fields = append([]string(nil), a.Fields...)
		t.Advice[k] = a
	}
	t.prepared.Store(&compiled{rules: t.Rules, patterns: standardCompiled.patterns})
	return t
}

// standardCompiled is standardRules prepared, read only like them.
var standardCompiled = compile(standardRules)

// standardRules is read only; Standard hands out copies. The more specific
// codes come first: an authentication or permission code is checked before
// the broad invalid_* and not_found patterns.
var standardRules = []Rule{
	// mcperr's own refusal of a client over its limit, for a client that
	// keeps only the JSON-RPC error's message.
	{Text: rateLimitedText, Kind: RateLimited},

	// A caller, a key or a feature switched off (API_KEY_DISABLED,
	// account_suspended, SERVICE_DISABLED): the upstream knows the
	// caller and refuses it, until a person turns it back on.
	{Code: "*disabled*", Kind: PermissionDenied},
	{Code: "*suspended*", Kind: PermissionDenied},

	{Code: "*unauthenticated*", Kind: AuthenticationFailed},
	{Code: "*unauthorized", Kind: AuthenticationFailed},
	{Code: "*authorization_required*", Kind: AuthenticationFailed},
	{Code: "*api_key*", Kind: AuthenticationFailed},
	{Code: "*apikey*", Kind: AuthenticationFailed},
	// An access key (InvalidAccessKeyId, missing_access_key), even one
	// "not found": the credential, not a resource, is what is missing.
	{Code: "*access_key*", Kind: AuthenticationFailed},
	{Code: "invalid_key", Kind: AuthenticationFailed}, // the key, bare, is the caller's (InvalidKey, invalid-key)
	// A caller not authenticated or whose login failed, in any API's
	// words (NOT_AUTHENTICATED, AuthFailure, auth_failed, LoginFailed),
	// a session or a JWT refused or expired, a token missing, a client
	// or its secret refused (InvalidClientTokenId).
	{Code: "*not_authenticated*", Kind: AuthenticationFailed},
	{Code: "*auth_fail*", Kind: AuthenticationFailed},
	{Code: "*login_fail*", Kind: AuthenticationFailed},
	{Code: "*session_expired*", Kind: AuthenticationFailed},
	{Code: "*invalid_session*", Kind: AuthenticationFailed},
	{Code: "*jwt*", Kind: AuthenticationFailed},
	{Code: "*missing_token*", Kind: AuthenticationFailed},
	{Code: "*token_missing*", Kind: AuthenticationFailed},
	{Code: "*token_required*", Kind: AuthenticationFailed},
	{Code: "*invalid_secret*", Kind: AuthenticationFailed},
	{Code: "*invalid_token*", Kind: AuthenticationFailed},
	{Code: "*token_invalid*", Kind: AuthenticationFailed},
	{Code: "*token_not_valid*", Kind: AuthenticationFailed},
	{Code: "*token_expired*", Kind: AuthenticationFailed},
	{Code: "*token_revoked*", Kind: AuthenticationFailed},
	{Code: "*access_token*", Kind: AuthenticationFailed},
	{Code: "expired_card*", Kind: InvalidArguments}, // a payment card's, not the caller's (see *card* below)
	{Code: "expired_*", Kind: AuthenticationFailed},
	{Code: "invalid_client*", Kind: AuthenticationFailed},
	{Code: "authentication*", Kind: AuthenticationFailed},
	// The word after another (ERR_AUTHENTICATION, user_authentication_failed);
	// not a token named by it (AWS's MissingAuthenticationTokenException,
	// which API Gateway sends for a route that does not exist).
	{Code: "*_authentication", Kind: AuthenticationFailed},
	{Code: "*_authentication_fail*", Kind: AuthenticationFailed},
	{Code: "*invalid_auth*", Kind: AuthenticationFailed},
	{Code: "*credential*", Kind: AuthenticationFailed},
	{Code: "*signature*", Kind: AuthenticationFailed},
	{Code: "*login_required*", Kind: AuthenticationFailed},
	{Code: "*_login", Kind: AuthenticationFailed},

	{Code: "*permission*", Kind: PermissionDenied},
	{Code: "*access_denied*", Kind: PermissionDenied},
	{Code: "*_denied", Kind: PermissionDenied},
	{Code: "*forbidden*", Kind: PermissionDenied},
	// A privilege lacking, an operation not permitted, a caller blocked
	// or banned: the upstream knows the caller and refuses it.
	{Code: "*privilege*", Kind: PermissionDenied},
	{Code: "*not_permitted*", Kind: PermissionDenied},
	{Code: "*blocked*", Kind: PermissionDenied},
	{Code: "*banned*", Kind: PermissionDenied},
	{Code: "insufficient_scope*", Kind: PermissionDenied},
	{Code: "missing_scope*", Kind: PermissionDenied},
	// A scope the credential lacks, in any API's words (OAuth's
	// insufficient_scope, Slack's missing_scope, Ecwid's
	// MISSING_REQUIRED_SCOPE, Appwrite's general_unauthorized_scope);
	// OAuth's invalid_scope is a request that asked for a scope wrongly.
	{Code: "invalid_scope", Kind: InvalidArguments},
	{Code: "*_scope", Kind: PermissionDenied},

	// A column or a field that a query or a body names and that does not
	// exist (Presto's and Trino's COLUMN_NOT_FOUND, Superset's
	// COLUMN_DOES_NOT_EXIST_ERROR, Socrata's no-such-column): the name
	// the request wrote is the argument to fix, as a parameter not found
	// is in a message, not a resource to look for under another id.
	{Code: "*column_not_found*", Kind: InvalidArguments},
	{Code: "*column_does_not_exist*", Kind: InvalidArguments},
	{Code: "*no_such_column*", Kind: InvalidArguments},
	{Code: "*field_not_found*", Kind: InvalidArguments},
	{Code: "*field_does_not_exist*", Kind: InvalidArguments},
	{Code: "*no_such_field*", Kind: InvalidArguments},

	{Code: "*not_found*", Kind: NotFound},
	// The same words run together in capitals, where no case style
	// tells them apart (TRACKING.TRACKINGNUMBER.NOTFOUND, ERR_NOTFOUND,
	// ALREADYEXISTS, DOESNOTEXIST).
	{Code: "*notfound*", Kind: NotFound},
	{Code: "*notexist*", Kind: NotFound},
	{Code: "resource_missing", Kind: NotFound},
	{Code: "no_such_*", Kind: NotFound},
	{Code: "*not_exist*", Kind: NotFound},
	{Code: "*doesnt_exist*", Kind: NotFound},
	{Code: "*non_existent*", Kind: NotFound},
	{Code: "*nonexistent*", Kind: NotFound},
	{Code: "*inexistent*", Kind: NotFound},
	{Code: "*_unknown", Kind: NotFound},
	{Code: "*couldnt_find*", Kind: NotFound},
	{Code: "*could_not_find*", Kind: NotFound},
	{Code: "*cannot_find*", Kind: NotFound},
	{Code: "*cant_find*", Kind: NotFound},
	{Code: "*unable_to_find*", Kind: NotFound},
	{Code: "gone", Kind: NotFound}, // HTTP 410's word (ResourceGone)
	{Code: "*_gone", Kind: NotFound},

	// A payment a person must make (HTTP 402): the caller may not make
	// the call until someone pays or raises a budget, so it stops; a
	// card declined is an argument the caller can change. A payment that
	// is a resource (ERROR_GET_PAYMENT, payment_intent_unexpected_state,
	// a billing account not found) is not one to make: only a payment
	// required says so, and the words of a missing thing come first.
	{Code: "*declined*", Kind: InvalidArguments},
	{Code: "*payment_required*", Kind: PermissionDenied},
	{Code: "*subscription_required*", Kind: PermissionDenied},
	{Code: "*upgrade_required*", Kind: PermissionDenied},
	{Code: "*billing*", Kind: PermissionDenied},
	{Code: "*credit*", Kind: PermissionDenied},
	{Code: "*balance*", Kind: PermissionDenied},
	{Code: "*budget*", Kind: PermissionDenied},

	{Code: "*capacity*", Kind: Unavailable},

	// A limit on the size or length of what the request carries
	// (IMAGE_SIZE_LIMIT_EXCEEDED, file_size_limit_reached,
	// title_length_limit) is an argument to make smaller, not a rate to
	// wait out: it comes before the limits of rate_limited.
	{Code: "*size_limit*", Kind: InvalidArguments},
	{Code: "*length_limit*", Kind: InvalidArguments},
	{Code: "*size_exceeded*", Kind: InvalidArguments},
	{Code: "*length_exceeded*", Kind: InvalidArguments},
	// A request's max_tokens (the longest answer it asks an LLM for) over
	// what the model allows (max_tokens_exceeded, MaxOutputTokensExceeded)
	// is an argument too: the number the caller sent, not a count of its
	// calls.
	{Code: "*max_tokens*", Kind: InvalidArguments},
	{Code: "*max_output_tokens*", Kind: InvalidArguments},

	{Code: "resource_exhausted", Kind: RateLimited},
	{Code: "*rate_limit*", Kind: RateLimited},
	{Code: "*ratelimit*", Kind: RateLimited},
	{Code: "*throttl*", Kind: RateLimited},
	{Code: "*too_many_requests*", Kind: RateLimited},
	{Code: "*toomanyrequests*", Kind: RateLimited},
	{Code: "*quota*", Kind: RateLimited},
	{Code: "*limit_exceeded*", Kind: RateLimited},
	{Code: "*limit_reached*", Kind: RateLimited},
	{Code: "*rate_exceeded*", Kind: RateLimited},
	{Code: "*throughput_exceeded*", Kind: RateLimited},
	{Code: "*_exhausted", Kind: RateLimited},
	{Code: "over_*", Kind: RateLimited},
	// Calls too frequent or over a limit, in the words of any API
	// (ACCESS_TOO_FREQUENT, DAILY_QUERY_OVER_LIMIT, frequency_limit:
	// AMap, Feishu, Blockfrost, Vast, Gemini's exchange).
	{Code: "*too_frequent*", Kind: RateLimited},
	{Code: "*over_limit*", Kind: RateLimited},
	{Code: "*frequency_limit*", Kind: RateLimited},
	// Too many requests at once (MS_MAX_CONCURRENT_REQ,
	// too_many_concurrent_requests, concurrency_limit): a limit on the
	// caller's calls in flight, waited out like a rate.
	{Code: "*max_concurrent*", Kind: RateLimited},
	{Code: "*concurrent_req*", Kind: RateLimited},
	{Code: "*concurrency_limit*", Kind: RateLimited},
	// Too many of the caller's acts (TOO_MANY_ATTEMPTS,
	// too_many_connections, TooManyCalls), not of what one request
	// carries (too_many_items): the code's words of the phrases a
	// message says them in.
	{Code: "*too_many_attempts*", Kind: RateLimited},
	{Code: "*too_many_connections*", Kind: RateLimited},
	{Code: "*too_many_calls*", Kind: RateLimited},
	{Code: "*too_many_sessions*", Kind: RateLimited},

	{Code: "*already_exists*", Kind: Conflict},
	{Code: "*alreadyexist*", Kind: Conflict},
	{Code: "*_exists", Kind: Conflict},
	{Code: "*_exists_*", Kind: Conflict},
	// A state reached already (ALREADY_STARTED, already_running,
	// email_already_verified): the change is done or clashes with it.
	{Code: "already_*", Kind: Conflict},
	{Code: "*_already_*", Kind: Conflict},
	{Code: "duplicate", Kind: Conflict},
	{Code: "duplicate_*", Kind: Conflict},
	{Code: "*_duplicate", Kind: Conflict},
	{Code: "*_duplicate_*", Kind: Conflict},
	{Code: "duplicated*", Kind: Conflict}, // DUPLICATED_ORDER, duplicated_request
	{Code: "*_duplicated*", Kind: Conflict},
	{Code: "aborted", Kind: Conflict},
	{Code: "conflict", Kind: Conflict},
	{Code: "conflict_*", Kind: Conflict},
	{Code: "*_conflict", Kind: Conflict},
	{Code: "*_conflict_*", Kind: Conflict},
	{Code: "*_in_use*", Kind: Conflict},
	{Code: "*_taken", Kind: Conflict},
	{Code: "*precondition_failed*", Kind: Conflict},
	{Code: "*condition_not_met*", Kind: Conflict},
	{Code: "*conditional_check_failed*", Kind: Conflict},
	// A version the caller read that has changed since (VersionMismatch,
	// etag_mismatch, StaleObjectState, ConcurrentModification).
	{Code: "*version_mismatch*", Kind: Conflict},
	{Code: "*etag_mismatch*", Kind: Conflict},
	{Code: "*stale*", Kind: Conflict},
	{Code: "*concurrent_modification*", Kind: Conflict},
	{Code: "*concurrent_update*", Kind: Conflict},
	// A transaction that clashed with another and was rolled back
	// (PostgreSQL's deadlock_detected and serialization_failure,
	// MySQL's and Neo4j's deadlocks: gRPC's ABORTED), and a unique
	// constraint violated (PostgreSQL's unique_violation, ArangoDB's
	// unique constraint violated): the state moved under the call.
	{Code: "*deadlock*", Kind: Conflict},
	{Code: "*serialization_failure*", Kind: Conflict},
	{Code: "*unique_violation*", Kind: Conflict},
	{Code: "*unique_constraint*", Kind: Conflict},

	{Code: "*unavailable*", Kind: Unavailable},
	{Code: "*not_available*", Kind: Unavailable},
	{Code: "*overloaded*", Kind: Unavailable},
	{Code: "*busy*", Kind: Unavailable},        // ServerBusy, SERVICE_BUSY
	{Code: "*maintenance*", Kind: Unavailable}, // UnderMaintenance, maintenance_mode
	{Code: "*standby*", Kind: Unavailable},     // a node in standby (StandbyException): another will answer
	{Code: "*bad_gateway*", Kind: Unavailable},
	{Code: "deadline_exceeded", Kind: Unavailable},
	{Code: "*timeout*", Kind: Unavailable},
	{Code: "*timed_out*", Kind: Unavailable},

	// Any other limit exceeded (ActiveStatementsExceededException,
	// MaxSessionsExceeded, requests_exceeded): once the words of a size,
	// a length, a budget, a capacity or a deadline have been read above,
	// what a code says was exceeded is a count of the caller's calls or
	// of its work in flight, waited out like a rate.
	{Code: "*_exceeded*", Kind: RateLimited},
	{Code: "exceeded_*", Kind: RateLimited},

	{Code: "internal", Kind: ServerError},
	{Code: "internal_*", Kind: ServerError},
	{Code: "unknown", Kind: ServerError},
	{Code: "data_loss", Kind: ServerError},
	{Code: "api_error", Kind: ServerError},
	{Code: "unimplemented", Kind: ServerError},
	{Code: "not_implemented", Kind: ServerError},
	// An error of the server's, unknown or unexpected, in any words.
	{Code: "*server_error*", Kind: ServerError},
	{Code: "*internal_error*", Kind: ServerError},
	{Code: "*unknown_error*", Kind: ServerError},
	{Code: "*unexpected_error*", Kind: ServerError},
	{Code: "*:server", Kind: ServerError},   // a SOAP fault of the server
	{Code: "*:receiver", Kind: ServerError}, // SOAP 1.2's name for it

	// The payment card's own data or state (Stripe's expired_card,
	// incorrect_cvc, card_not_supported; Square's CARD_EXPIRED,
	// CVV_FAILURE, INVALID_CARD), once no rule above has read a missing
	// card, a limit or a clash in the code: like a card declined, the
	// caller can pay with another card or fix the one it sent, even at a
	// 402.
	{Code: "*card*", Kind: InvalidArguments},
	{Code: "*cvc*", Kind: InvalidArguments},
	{Code: "*cvv*", Kind: InvalidArguments},

	{Code: "invalid_argument*", Kind: InvalidArguments},
	{Code: "failed_precondition", Kind: InvalidArguments},
	{Code: "out_of_range", Kind: InvalidArguments},
	{Code: "invalid_request*", Kind: InvalidArguments},
	{Code: "bad_request", Kind: InvalidArguments},
	{Code: "validation*", Kind: InvalidArguments},
	{Code: "invalid_param*", Kind: InvalidArguments},
	{Code: "invalid_input*", Kind: InvalidArguments},
	// Something the request asked for that the API does not support
	// (unsupported_grant_type, UnsupportedCurrency, format_unsupported).
	{Code: "unsupported_*", Kind: InvalidArguments},
	{Code: "*_unsupported", Kind: InvalidArguments},
	// The words of an argument wrong in any other way: malformed, bad,
	// required (MalformedQueryException, bad_value, field_required), once
	// no rule before has read a credential, a permission, a payment or a
	// missing thing in them. (invalid_* alone is not read: at a 409 or a
	// 412 the status says more, and a generic code never overrides it.)
	{Code: "*malformed*", Kind: InvalidArguments},
	{Code: "bad_*", Kind: InvalidArguments},
	{Code: "*_required", Kind: InvalidArguments},
	{Code: "unknown_param*", Kind: InvalidArguments},
	{Code: "missing_param*", Kind: InvalidArguments},
	// An error its upstream files as the user's, not its own (Presto's
	// and Trino's errorType USER_ERROR, Azure Machine Learning's and Data
	// Factory's UserError), once no rule above has read what it is. (A
	// client error may be another's: SageMaker's CLIENT_ERROR_FROM_MODEL
	// is the model's answer to SageMaker.)
	{Code: "*user_error*", Kind: InvalidArguments},
	// A request that failed validation or could not be parsed, in any
	// place of the code (Apollo Server's GRAPHQL_VALIDATION_FAILED and
	// GRAPHQL_PARSE_FAILED, REQUEST_VALIDATION_ERROR, json_parse_error),
	// the word a word of its own (not cache_invalidation).
	{Code: "*_validation*", Kind: InvalidArguments},
	{Code: "*parse_fail*", Kind: InvalidArguments},
	{Code: "*parse_error*", Kind: InvalidArguments},
	{Code: "*:client", Kind: InvalidArguments}, // a SOAP fault of the request
	{Code: "*:sender", Kind: InvalidArguments}, // SOAP 1.2's name for it

	{Status: 400, Kind: InvalidArguments},
	{Status: 401, Kind: AuthenticationFailed},
	{Status: 402, Kind: PermissionDenied},
	{Status: 403, Kind: PermissionDenied},
	{Status: 404, Kind: NotFound},
	{Status: 410, Kind: NotFound},
	{Status: 408, Kind: Unavailable},
	{Status: 409, Kind: Conflict},
	{Status: 412, Kind: Conflict},
	{Status: 423, Kind: Conflict},
	{Status: 422, Kind: InvalidArguments},
	{Status: 424, Kind: ServerError},
	{Status: 429, Kind: RateLimited},
	{Status: 502, Kind: Unavailable},
	{Status: 503, Kind: Unavailable},
	{Status: 504, Kind: Unavailable},
	{Status: 529, Kind: Unavailable},
	{StatusMin: 400, StatusMax: 499, Kind: InvalidArguments},
	{StatusMin: 500, Kind: ServerError},
}

// The standard kinds' objects: which members each carries besides "kind".
var (
	messageOnly   = []string{fieldMessage}
	codeMessage   = []string{fieldCode, fieldMessage, fieldDetails}
	statusMessage = []string{fieldCode, fieldHTTPStatus, fieldMessage}
	rateFields    = []string{fieldRetryAfter, fieldLimit, fieldRemaining, fieldReset}
)

// standardAdvice is the table's "move" column, with the sentence an agent
// reads and the members of each kind's object.
func standardAdvice(k Kind) (Advice, bool) {
	switch k {
	case InvalidArguments:
		return Advice{Move: FixArgument, Note: "fix the argument the message names", Fields: codeMessage}, true
	case AuthenticationFailed:
		return Advice{Move: Stop, Note: "stop; the credential was refused and no call can fix it. Fix the credential", Fields: messageOnly}, true
	case PermissionDenied:
		return Advice{Move: Stop, Note: "stop; the caller may not make this call. Make another, or change the permission", Fields: codeMessage}, true
	case NotFound:
		return Advice{Move: TryAnotherID, Note: "try another id, or accept that it is not there", Fields: codeMessage}, true
	case Conflict:
		return Advice{Move: RereadThenRetry, Note: "read the resource again, then redo the change with what was read, or stop if it is already done", Fields: codeMessage}, true
	case RateLimited:
		return Advice{Move: WaitThenRetry, Retryable: true, Note: "wait retryAfterSeconds, then retry", Fields: rateFields}, true
	case Unavailable:
		return Advice{Move: WaitThenRetry, Retryable: true, Note: "wait retryAfterSeconds (a few seconds, growing, when absent), then retry", Fields: []string{fieldCode, fieldHTTPStatus, fieldMessage, fieldRetryAfter}}, true
	case ServerError:
		return Advice{Move: Report, Note: "report it; different arguments will not help", Fields: statusMessage}, true
	case MalformedResponse:
		return Advice{Move: Report, Note: "report it; not argument-fixable", Fields: []string{fieldHTTPStatus, fieldMessage}}, true
	case NetworkError:
		return Advice{Move: RetrySafe, Retryable: true, Note: "retry a read; retry a write only if it is idempotent", Fields: messageOnly}, true
	}
	return Advice{}, false
}

package envelope_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
)

// This file holds the ninth round's rules of the kind (issue 27), tuned
// on batch4.jsonl, batch6.jsonl, batch5.jsonl, batch3.jsonl, fresh.jsonl
// and responses.jsonl's tuned part, each rule with invented examples
// that state it, none a corpus case.

// TestReadCredentialRefusedAfterItsNoun: a credential named, then refused
// ("Access key revoked", "your credentials are not valid") is a refused
// credential, as one refused before it is ("Invalid access key"); the
// words must be whole.
func TestReadCredentialRefusedAfterItsNoun(t *testing.T) {
	runReadCases(t, []readCase{
		{"a key revoked at a 403", 403, "", `{"error":"Access key revoked"}`,
			outcome{Kind: "authentication_failed", Message: "Access key revoked"}},
		{"credentials not valid at a 400", 400, "", `{"message":"Your credentials are not valid for this realm"}`,
			outcome{Kind: "authentication_failed", Message: "Your credentials are not valid for this realm"}},
		{"guard: a word that only opens with invalid", 400, "", `{"message":"token invalidation is still pending"}`,
			outcome{Kind: "invalid_arguments", Message: "token invalidation is still pending"}},
	})
}

// TestReadCredentialNotFound: a key or a credential that is not found
// ("The app key you sent does not exist") is a credential refused, not a
// missing thing; a session or a token not found may be a resource and
// stays one.
func TestReadCredentialNotFound(t *testing.T) {
	runReadCases(t, []readCase{
		{"an application key that does not exist, at 400", 400, "", `{"message":"The application key you sent does not exist"}`,
			outcome{Kind: "authentication_failed", Message: "The application key you sent does not exist"}},
		{"a credential not found, at 403", 403, "", `{"error":"credential cr-9 not found"}`,
			outcome{Kind: "authentication_failed", Message: "credential cr-9 not found"}},
		{"guard: a session not found at 403 is a missing thing", 403, "", `{"error":"Session s-1 not found"}`,
			outcome{Kind: "not_found", Message: "Session s-1 not found"}},
	})
}

// TestReadCredentialNouns: an app key, an application key and an
// authorization key are credentials, refused as an API key is; and a
// credential missing, wrong, incorrect, bad, malformed, unrecognized or
// old is refused as an invalid one is.
func TestReadCredentialNouns(t *testing.T) {
	runReadCases(t, []readCase{
		{"a missing API key at 400", 400, "", `{"message":"Missing API key in the query"}`,
			outcome{Kind: "authentication_failed", Message: "Missing API key in the query"}},
		{"a wrong access token at 403", 403, "", `{"error":"Wrong access token"}`,
			outcome{Kind: "authentication_failed", Message: "Wrong access token"}},
		{"guard: a missing field is an argument", 400, "", `{"message":"Missing field 'name'"}`,
			outcome{Kind: "invalid_arguments", Message: "Missing field 'name'"}},
		{"an invalid app key at 400", 400, "", `{"message":"Invalid app key supplied"}`,
			outcome{Kind: "authentication_failed", Message: "Invalid app key supplied"}},
		{"an expired authorization key at 403", 403, "", `{"message":"Expired authorization key"}`,
			outcome{Kind: "authentication_failed", Message: "Expired authorization key"}},
	})
}

// TestReadLoginRefusedWords: a caller the server could not authenticate
// ("Unable to authenticate you") and a login refused ("Wrong email or
// password") are a credential refused; a known caller kept out ("you
// cannot access this report") is a permission.
func TestReadLoginRefusedWords(t *testing.T) {
	runReadCases(t, []readCase{
		{"unable to authenticate, at 400", 400, "", `{"message":"Unable to authenticate you"}`,
			outcome{Kind: "authentication_failed", Message: "Unable to authenticate you"}},
		{"a login refused, at 422", 422, "", `{"message":"Wrong email or password"}`,
			outcome{Kind: "authentication_failed", Message: "Wrong email or password"}},
		{"a known caller kept out, on a 200", 200, "", `{"success":false,"message":"Sorry, you cannot access report 12"}`,
			outcome{Kind: "permission_denied", Message: "Sorry, you cannot access report 12"}},
	})
}

// TestReadCodeStatusThenWords: below 400, an error whose code is an HTTP
// error status is read at that status, and its message's words tell
// more, as at that status ("Wrong username or password" under a 403 is
// the credential).
func TestReadCodeStatusThenWords(t *testing.T) {
	runReadCases(t, []readCase{
		{"a 403 code on a 200 whose words refuse a login", 200, "", `{"error":{"code":403,"message":"Wrong username or password"}}`,
			outcome{Kind: "authentication_failed", Code: "403", Message: "Wrong username or password"}},
		{"guard: a 403 code whose words say nothing", 200, "", `{"error":{"code":403,"message":"Not for you"}}`,
			outcome{Kind: "permission_denied", Code: "403", Message: "Not for you"}},
	})
}

// TestReadCatalogueCodeIsOpaque: a code that is an entry of the API's
// catalogue, a number with a few capitals run into it ("ERR4031",
// "GW-401X"), says no more than a number: the message's words decide as
// they would with no code. A code word ("KEY_LOCKED") stays the API's
// own reading.
func TestReadCatalogueCodeIsOpaque(t *testing.T) {
	runReadCases(t, []readCase{
		{"capitals then a number, at 403", 403, "", `{"code":"ERR4031","message":"Invalid signature"}`,
			outcome{Kind: "authentication_failed", Code: "ERR4031", Message: "Invalid signature"}},
		{"a number with a capital inside, at 400", 400, "", `{"code":"GW-401X","message":"Invalid access token"}`,
			outcome{Kind: "authentication_failed", Code: "GW-401X", Message: "Invalid access token"}},
		{"guard: a code word", 403, "", `{"code":"KEY_LOCKED","message":"Invalid signature"}`,
			outcome{Kind: "permission_denied", Code: "KEY_LOCKED", Message: "Invalid signature"}},
	})
}

// TestReadMessageOpensWithStatusNumber: a message that opens with its
// status's number ("400 Email already registered") named the status
// itself, as one that opens with its phrase does; its words do not
// override it.
func TestReadMessageOpensWithStatusNumber(t *testing.T) {
	runReadCases(t, []readCase{
		{"the number, then a thing that exists", 400, "", `{"error":"400 Email already registered"}`,
			outcome{Kind: "invalid_arguments", Message: "400 Email already registered"}},
		{"guard: a thing that exists, no number", 400, "", `{"error":"Email already registered"}`,
			outcome{Kind: "conflict", Message: "Email already registered"}},
	})
}

// TestReadFieldTakenIsAnArgument: at a 400, a message that names the
// field it is about ("handle: Handle already taken") is that field's
// validation, an argument to change, as at a 422; a thing that already
// exists with no field named is a conflict.
func TestReadFieldTakenIsAnArgument(t *testing.T) {
	runReadCases(t, []readCase{
		{"a field named before its words", 400, "", `{"message":"handle: this handle is already taken"}`,
			outcome{Kind: "invalid_arguments", Message: "handle: this handle is already taken"}},
		{"a dotted field", 400, "", `{"message":"team.slug: already in use"}`,
			outcome{Kind: "invalid_arguments", Message: "team.slug: already in use"}},
		{"guard: a sentence before the colon names no field", 400, "", `{"message":"Cannot create: the bucket already exists"}`,
			outcome{Kind: "conflict", Message: "Cannot create: the bucket already exists"}},
	})
}

// TestReadMessageWordsThroughTaxonomy: a message's words are read as the
// Reader's taxonomy reads the code word of their family (rate_limited,
// unauthenticated, permission_denied, not_found, already_exists), so a
// server's own rules decide them as they decide its codes, and a
// taxonomy with no rules reads no words.
func TestReadMessageWordsThroughTaxonomy(t *testing.T) {
	read := func(tax *errkind.Taxonomy, status int, body string) errkind.Kind {
		t.Helper()
		r := envelope.Reader{Taxonomy: tax}
		resp := &http.Response{StatusCode: status, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(body))}
		e, ok := envelope.ErrorOf(r.Read(resp, nil))
		if !ok {
			t.Fatalf("Read(%d, %s): no *Error", status, body)
		}
		return e.Kind
	}
	own := errkind.Standard().With(
		errkind.Rule{Code: "rate_limited", Kind: "slow_down"},
		errkind.Rule{Code: "not_found", Kind: "gone"},
		errkind.Rule{Code: "unauthenticated", Kind: "login_again"},
	)
	none := &errkind.Taxonomy{Rules: []errkind.Rule{}, Fallback: "failed"}
	tests := []struct {
		name   string
		tax    *errkind.Taxonomy
		status int
		body   string
		want   errkind.Kind
	}{
		{"a limit's words at 400, a server's own kind", own, 400, `{"message":"Rate limit hit, come back later"}`, "slow_down"},
		{"a missing thing's words on a 200, a server's own kind", own, 200, `{"success":false,"message":"No matching album for id 7"}`, "gone"},
		{"a refused key's words at 403, a server's own kind", own, 403, `{"message":"Invalid key"}`, "login_again"},
		{"the standard taxonomy", nil, 400, `{"message":"Rate limit hit, come back later"}`, errkind.RateLimited},
		{"guard: a taxonomy with no rules reads no words", none, 400, `{"message":"Rate limit hit, come back later"}`, "failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := read(tt.tax, tt.status, tt.body); got != tt.want {
				t.Errorf("kind %q, want %q", got, tt.want)
			}
		})
	}
}

// TestReadURNCode: a code that is a URN names its error in its last part,
// as a URI names it in its last segment: "Unauthorized" there at a 403
// says no more than the status, and a code word there names its kind.
func TestReadURNCode(t *testing.T) {
	runReadCases(t, []readCase{
		{"a URN's last part that is a reason phrase, Unauthorized at a 403", 403, "application/problem+json", `{"type":"urn:example:error:Unauthorized","detail":"Board 9 is private"}`,
			outcome{Kind: "permission_denied", Code: "urn:example:error:Unauthorized", Message: "Board 9 is private"}},
		{"a URN's last part that is a code word", 400, "application/problem+json", `{"type":"urn:example:error:conflict","detail":"Board 9 changed since it was read"}`,
			outcome{Kind: "conflict", Code: "urn:example:error:conflict", Message: "Board 9 changed since it was read"}},
	})
}

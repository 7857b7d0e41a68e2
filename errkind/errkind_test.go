package errkind_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/errkind"
)

// TestStandardClassify: the neutral taxonomy's table, a row per status and
// per well-known code in the case styles APIs use, and the fall-through of
// an unknown code to its status.
func TestStandardClassify(t *testing.T) {
	tests := []struct {
		name   string
		code   string
		status int
		want   errkind.Kind
	}{
		{"400", "", 400, errkind.InvalidArguments},
		{"422", "", 422, errkind.InvalidArguments},
		{"any other 4xx", "", 418, errkind.InvalidArguments},
		{"499", "", 499, errkind.InvalidArguments},
		{"INVALID_ARGUMENT", "INVALID_ARGUMENT", 400, errkind.InvalidArguments},
		{"FAILED_PRECONDITION", "FAILED_PRECONDITION", 400, errkind.InvalidArguments},
		{"OUT_OF_RANGE", "OUT_OF_RANGE", 400, errkind.InvalidArguments},
		{"invalid_request_error", "invalid_request_error", 400, errkind.InvalidArguments},
		{"OAuth invalid_request", "invalid_request", 400, errkind.InvalidArguments},
		{"ValidationException", "ValidationException", 400, errkind.InvalidArguments},
		{"hint dialect unknown_parameter", "unknown_parameter", 0, errkind.InvalidArguments},

		{"401", "", 401, errkind.AuthenticationFailed},
		{"UNAUTHENTICATED", "UNAUTHENTICATED", 401, errkind.AuthenticationFailed},
		{"invalid_api_key on 400", "invalid_api_key", 400, errkind.AuthenticationFailed},
		{"authentication_error", "authentication_error", 401, errkind.AuthenticationFailed},
		{"invalid_token", "invalid_token", 401, errkind.AuthenticationFailed},

		{"403", "", 403, errkind.PermissionDenied},
		{"PERMISSION_DENIED", "PERMISSION_DENIED", 403, errkind.PermissionDenied},
		{"permission_error", "permission_error", 403, errkind.PermissionDenied},
		{"a scope the credential lacks, at a 401", "general_unauthorized_scope", 401, errkind.PermissionDenied},
		{"MISSING_REQUIRED_SCOPE", "MISSING_REQUIRED_SCOPE", 400, errkind.PermissionDenied},
		{"OAuth invalid_scope is an argument", "invalid_scope", 400, errkind.InvalidArguments},
		{"AccessDenied", "AccessDenied", 403, errkind.PermissionDenied},
		{"AccessDeniedException", "AccessDeniedException", 400, errkind.PermissionDenied},

		{"404", "", 404, errkind.NotFound},
		{"410", "", 410, errkind.NotFound},
		{"NOT_FOUND", "NOT_FOUND", 404, errkind.NotFound},
		{"not_found alone", "not_found", 400, errkind.NotFound},
		{"x_not_found", "trace_not_found", 404, errkind.NotFound},
		{"*_not_found on another status", "tag_not_found", 400, errkind.NotFound},
		{"XNotFound", "TraceNotFound", 404, errkind.NotFound},
		{"NotFound inside", "ResourceNotFoundException", 400, errkind.NotFound},
		{"not_found_error", "not_found_error", 404, errkind.NotFound},
		{"resource_missing", "resource_missing", 404, errkind.NotFound},
		{"NoSuchKey", "NoSuchKey", 404, errkind.NotFound},

		{"409", "", 409, errkind.Conflict},
		{"ALREADY_EXISTS", "ALREADY_EXISTS", 409, errkind.Conflict},
		{"ABORTED", "ABORTED", 409, errkind.Conflict},
		{"AlreadyExists", "AlreadyExists", 400, errkind.Conflict},
		{"ResourceAlreadyExistsException", "ResourceAlreadyExistsException", 400, errkind.Conflict},
		{"Conflict", "Conflict", 409, errkind.Conflict},
		{"edit_conflict", "edit_conflict", 409, errkind.Conflict},
		{"conflicting_filters is no conflict", "conflicting_filters", 400, errkind.InvalidArguments},

		{"429", "", 429, errkind.RateLimited},
		{"RESOURCE_EXHAUSTED", "RESOURCE_EXHAUSTED", 429, errkind.RateLimited},
		{"rate_limited", "rate_limited", 429, errkind.RateLimited},
		{"rate_limit_exceeded on 403", "rate_limit_exceeded", 403, errkind.RateLimited},
		{"RateLimitExceeded", "RateLimitExceeded", 403, errkind.RateLimited},
		{"secondary rate limit", "secondary_rate_limit", 403, errkind.RateLimited},
		{"ThrottlingException", "ThrottlingException", 400, errkind.RateLimited},
		{"Throttled", "Throttled", 400, errkind.RateLimited},
		{"TooManyRequests", "TooManyRequests", 400, errkind.RateLimited},

		{"502", "", 502, errkind.Unavailable},
		{"503", "", 503, errkind.Unavailable},
		{"504", "", 504, errkind.Unavailable},
		{"529", "", 529, errkind.Unavailable},
		{"424 is a dependency's failure, no argument", "", 424, errkind.ServerError},
		{"UNAVAILABLE", "UNAVAILABLE", 503, errkind.Unavailable},
		{"overloaded_error", "overloaded_error", 529, errkind.Unavailable},
		{"ServiceUnavailable", "ServiceUnavailable", 500, errkind.Unavailable},
		{"temporarily_unavailable", "temporarily_unavailable", 400, errkind.Unavailable},

		{"500", "", 500, errkind.ServerError},
		{"501", "", 501, errkind.ServerError},
		{"any other 5xx", "", 599, errkind.ServerError},
		{"INTERNAL", "INTERNAL", 500, errkind.ServerError},
		{"internal_error on 400", "internal_error", 400, errkind.ServerError},
		{"UNKNOWN", "UNKNOWN", 500, errkind.ServerError},
		{"DATA_LOSS", "DATA_LOSS", 500, errkind.ServerError},
		{"api_error", "api_error", 500, errkind.ServerError},

		// The ninth round's words (issue 27), each in a code no corpus
		// holds.
		{"a credential in the singular", "BAD_CREDENTIAL", 400, errkind.AuthenticationFailed},
		{"an access key, even one not found, is the credential", "AccessKeyNotFound", 404, errkind.AuthenticationFailed},
		{"an access key missing on a 200", "missing_access_key", 200, errkind.AuthenticationFailed},
		{"authorization required at a 403 asks for a credential", "AuthorizationRequired", 403, errkind.AuthenticationFailed},
		{"a thing that could not be found", "could_not_find_user", 400, errkind.NotFound},
		{"CannotFind", "CannotFindSnapshot", 400, errkind.NotFound},
		{"unable to find", "UNABLE_TO_FIND_ORDER", 400, errkind.NotFound},
		{"a payment required is one to make", "PaymentRequired", 400, errkind.PermissionDenied},
		{"a budget spent is one to raise", "monthly_budget_exceeded", 400, errkind.PermissionDenied},
		{"guard: a payment that is a resource is no payment to make", "payment_intent_unexpected_state", 400, errkind.InvalidArguments},
		{"guard: a payment not found is a missing thing", "PAYMENT_NOT_FOUND", 400, errkind.NotFound},
		{"guard: a billing account not found is a missing thing", "billingAccountNotFound", 403, errkind.NotFound},
		{"too many calls in flight", "TOO_MANY_CONCURRENT_REQUESTS", 400, errkind.RateLimited},
		{"a cap on calls at once", "maxConcurrentJobsReached", 400, errkind.RateLimited},
		{"a concurrency limit", "concurrency_limit", 400, errkind.RateLimited},
		{"guard: a concurrent change is a conflict, no rate", "ConcurrentModificationException", 400, errkind.Conflict},
		{"exists in the middle of a code", "UserExistsError", 400, errkind.Conflict},
		{"guard: a thing that does not exist", "UserDoesNotExistError", 400, errkind.NotFound},
		{"a state reached already", "ALREADY_RUNNING", 400, errkind.Conflict},
		{"already in the middle of a code", "email_already_verified", 400, errkind.Conflict},
		{"duplicate, the word, first", "DuplicateName", 400, errkind.Conflict},
		{"duplicate, the word, last", "name-duplicate", 400, errkind.Conflict},
		{"invalid input at a 500 is the caller's", "InvalidInputException", 500, errkind.InvalidArguments},
		{"a caller switched off is known and refused", "ACCOUNT_DISABLED", 401, errkind.PermissionDenied},
		{"a key switched off", "apiKeyDisabled", 400, errkind.PermissionDenied},
		{"a caller suspended", "user_suspended", 400, errkind.PermissionDenied},
		{"the bare key is the caller's", "INVALID_KEY", 500, errkind.AuthenticationFailed},
		{"guard: a key word inside another is no key", "invalid_keyword", 500, errkind.ServerError},
		{"something the API does not support, first", "UnsupportedCurrency", 200, errkind.InvalidArguments},
		{"something the API does not support, last", "format-unsupported", 500, errkind.InvalidArguments},
		{"a server busy is unavailable, at a 500", "ServerTooBusy", 500, errkind.Unavailable},
		{"a maintenance is unavailable", "UNDER_MAINTENANCE", 400, errkind.Unavailable},
		{"a word in brackets is a word", "[duplicate]team.name", 400, errkind.Conflict},
		{"not authenticated, in words", "NOT_AUTHENTICATED", 400, errkind.AuthenticationFailed},
		{"an auth failure", "AuthFailure.TokenFailure", 200, errkind.AuthenticationFailed},
		{"a login failed", "LoginFailed", 400, errkind.AuthenticationFailed},
		{"a session expired", "session-expired", 403, errkind.AuthenticationFailed},
		{"a JWT refused", "InvalidJWT", 400, errkind.AuthenticationFailed},
		{"a token missing", "AuthTokenMissing", 400, errkind.AuthenticationFailed},
		{"a client's token refused", "InvalidClientTokenId", 403, errkind.AuthenticationFailed},
		{"a privilege lacking", "InsufficientPrivileges", 400, errkind.PermissionDenied},
		{"an operation not permitted", "OperationNotPermitted", 400, errkind.PermissionDenied},
		{"a caller blocked", "IpBlocked", 400, errkind.PermissionDenied},
		{"gone, the word", "ResourceGone", 400, errkind.NotFound},
		{"a subscription to buy", "SUBSCRIPTION_REQUIRED", 400, errkind.PermissionDenied},
		{"a version changed since it was read", "VersionMismatch", 400, errkind.Conflict},
		{"a stale object", "StaleObjectState", 400, errkind.Conflict},
		{"a bad gateway in words", "upstream_bad_gateway", 500, errkind.Unavailable},
		{"a server's error in words, at a 400", "ServerError", 400, errkind.ServerError},
		{"an unexpected error, on a 200", "unexpected_error", 200, errkind.ServerError},
		{"malformed, in any place", "MalformedQueryException", 200, errkind.InvalidArguments},
		{"bad, first", "bad_value", 200, errkind.InvalidArguments},
		{"required, last", "field_required", 200, errkind.InvalidArguments},
		{"guard: a payment required is no argument", "payment_required", 200, errkind.PermissionDenied},
		{"guard: a login required is the credential", "login_required", 200, errkind.AuthenticationFailed},

		// The eleventh round's words (issue 27), each in a code no
		// corpus holds.
		{"a column a query names that does not exist is an argument", "ColumnNotFoundException", 404, errkind.InvalidArguments},
		{"a field that does not exist is an argument", "FIELD_DOES_NOT_EXIST", 400, errkind.InvalidArguments},
		{"guard: a record that does not exist is a missing thing", "RecordDoesNotExist", 400, errkind.NotFound},
		{"duplicated, the word, first", "DUPLICATED_TRANSACTION", 400, errkind.Conflict},
		{"duplicated, the word, last", "order-duplicated", 400, errkind.Conflict},
		{"any other limit exceeded is waited out", "MaxSessionsExceeded", 400, errkind.RateLimited},
		{"calls in flight exceeded", "ConcurrentRunsExceededException", 400, errkind.RateLimited},
		{"exceeded, first", "exceeded_daily_calls", 200, errkind.RateLimited},
		{"guard: a size exceeded is an argument", "PayloadSizeExceeded", 400, errkind.InvalidArguments},
		{"guard: a length exceeded is an argument", "max_prompt_length_exceeded", 429, errkind.InvalidArguments},
		{"guard: an LLM's max_tokens over the model's bound is an argument", "max_tokens_exceeded", 400, errkind.InvalidArguments},
		{"guard: an LLM's max output tokens, camel case", "MaxOutputTokensExceeded", 400, errkind.InvalidArguments},
		{"guard: a deadline exceeded is unavailable", "DEADLINE_EXCEEDED", 400, errkind.Unavailable},
		{"guard: a capacity exceeded is unavailable", "ClusterCapacityExceeded", 400, errkind.Unavailable},
		{"a payment card expired is an argument, even at a 402", "CARD_HAS_EXPIRED", 402, errkind.InvalidArguments},
		{"a card expired, the word first, is no credential", "expired_card", 402, errkind.InvalidArguments},
		{"a card's security code", "cvv_mismatch", 402, errkind.InvalidArguments},
		{"guard: a card not found is a missing thing", "CardNotFound", 402, errkind.NotFound},
		{"guard: a card that exists already is a conflict", "card_already_exists", 400, errkind.Conflict},
		{"guard: a card's limit on declines is a limit", "card_decline_rate_limit_exceeded", 402, errkind.RateLimited},
		{"a transaction deadlocked", "Transaction.DeadlockDetected", 500, errkind.Conflict},
		{"a serialization failure", "serialization_failure", 400, errkind.Conflict},
		{"a unique constraint violated", "UniqueConstraintViolation", 400, errkind.Conflict},
		{"an error filed as the user's", "UserError", 200, errkind.InvalidArguments},
		{"guard: the user's thing not found", "USER_NOT_FOUND_ERROR", 200, errkind.NotFound},
		{"not found run together in capitals", "SHIPMENT.LABEL.NOTFOUND", 200, errkind.NotFound},
		{"already exists run together in capitals", "ERR_ALREADYEXISTS", 200, errkind.Conflict},
		{"does not exist run together in capitals", "DOESNOTEXIST", 200, errkind.NotFound},
		{"too many attempts", "TooManyAttempts", 200, errkind.RateLimited},
		{"too many connections", "ERR_TOO_MANY_CONNECTIONS", 400, errkind.RateLimited},
		{"guard: too many of what a request carries", "too_many_recipients", 400, errkind.InvalidArguments},
		{"validation anywhere in a code", "SCHEMA_VALIDATION_ERROR", 200, errkind.InvalidArguments},
		{"guard: an invalidation is no validation", "CacheInvalidationFailed", 200, errkind.ServerError},
		{"a request that could not be parsed", "body_parse_failed", 200, errkind.InvalidArguments},
		{"guard: a signature's validation is the credential", "signature_validation_failed", 400, errkind.AuthenticationFailed},
		{"calls too frequent", "REQUEST_TOO_FREQUENT", 200, errkind.RateLimited},
		{"over a limit", "MonthlyUsageOverLimit", 400, errkind.RateLimited},
		{"a frequency limit", "api_frequency_limit", 403, errkind.RateLimited},

		{"unknown code falls back on 404", "gone_away", 404, errkind.NotFound},
		{"unknown code falls back on 409", "a_code_from_a_newer_server", 409, errkind.Conflict},
		{"unknown code falls back on 5xx", "newer_code", 599, errkind.ServerError},
		{"code beats status", "invalid_request", 404, errkind.InvalidArguments},
		{"code beats status, 200", "NOT_FOUND", 200, errkind.NotFound},
		{"envelope on 200 with no code", "", 200, errkind.ServerError},
		{"no status at all", "", 0, errkind.ServerError},
	}
	std := errkind.Standard()
	var zero errkind.Taxonomy
	var nilTax *errkind.Taxonomy
	fallbackOnly := &errkind.Taxonomy{Fallback: errkind.ServerError}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for name, tax := range map[string]*errkind.Taxonomy{"Standard": std, "zero": &zero, "nil": nilTax, "Fallback only": fallbackOnly} {
				if diff := cmp.Diff(tt.want, tax.Classify(tt.code, tt.status)); diff != "" {
					t.Errorf("%s.Classify(%q, %d) (-want +got):\n%s", name, tt.code, tt.status, diff)
				}
			}
		})
	}
}

// TestNilRulesKeepStandard: a taxonomy that sets only a Fallback keeps the
// standard rules; only an empty, non-nil Rules drops them.
func TestNilRulesKeepStandard(t *testing.T) {
	other := &errkind.Taxonomy{Fallback: "other"}
	if got := other.Classify("NOT_FOUND", 500); got != errkind.NotFound {
		t.Errorf("Fallback-only taxonomy classifies NOT_FOUND as %q", got)
	}
	if got := other.Classify("", 200); got != "other" {
		t.Errorf("Fallback-only taxonomy classifies an unmatched failure as %q, want other", got)
	}
	none := &errkind.Taxonomy{Rules: []errkind.Rule{}, Fallback: "other"}
	if got := none.Classify("NOT_FOUND", 404); got != "other" {
		t.Errorf("empty Rules classifies NOT_FOUND as %q, want the Fallback", got)
	}
}

// TestClassifyAllocs: rule patterns are normalized once, not on every
// call, so classifying allocates nothing: with the standard rules of every
// taxonomy that uses them (Standard, zero, nil, With, a Fallback only), with
// a taxonomy built by hand (after its first use prepares it), and for a
// code of a few words in another case style.
func TestClassifyAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	var zero errkind.Taxonomy
	byHand := &errkind.Taxonomy{Rules: []errkind.Rule{{Code: "TraceNotFound", Kind: errkind.NotFound}, {Code: "*Throttl*", Kind: errkind.RateLimited}}}
	for name, tax := range map[string]*errkind.Taxonomy{
		"Standard": errkind.Standard(), "zero": &zero, "nil": nil, "Fallback only": {Fallback: "other"},
		"With": errkind.Standard().With(errkind.Rule{Code: "forbidden_role", Kind: "wrong_role"}), "by hand": byHand,
	} {
		for _, code := range []string{"a_code_from_a_newer_server", "trace_not_found", "ResourceNotFoundException", "NOT_FOUND", ""} {
			tax.Classify(code, 404) // a taxonomy built by hand is prepared on first use
			if n := testing.AllocsPerRun(100, func() { tax.Classify(code, 404) }); n != 0 {
				t.Errorf("%s.Classify(%q, 404) allocates %v times", name, code, n)
			}
		}
	}
}

// TestClassifyAfterChange: a taxonomy changed after it classified (its
// Rules replaced, grown, or a rule's Code changed in place) classifies by
// its rules as they are now, never by patterns prepared before.
func TestClassifyAfterChange(t *testing.T) {
	tax := &errkind.Taxonomy{Rules: []errkind.Rule{{Code: "TraceNotFound", Kind: errkind.NotFound}}, Fallback: "other"}
	check := func(step, code string, want errkind.Kind) {
		t.Helper()
		if got := tax.Classify(code, 0); got != want {
			t.Errorf("%s: Classify(%q) = %q, want %q", step, code, got, want)
		}
	}
	check("by hand", "trace_not_found", errkind.NotFound)
	tax.Rules[0].Code = "SpanNotFound"
	check("Code changed in place", "trace_not_found", "other")
	check("Code changed in place", "SPAN_NOT_FOUND", errkind.NotFound)
	tax.Rules = append(tax.Rules, errkind.Rule{Code: "slow_*", Kind: errkind.RateLimited})
	check("a rule appended", "SlowDown", errkind.RateLimited)
	tax.Rules = []errkind.Rule{{Code: "*_gone", Kind: errkind.NotFound}}
	check("Rules replaced", "span_not_found", "other")
	check("Rules replaced", "TraceGone", errkind.NotFound)
	tax.Rules = nil
	check("Rules nil: the standard rules", "span_not_found", errkind.NotFound)

	std := errkind.Standard()
	std.Rules[0] = errkind.Rule{Code: "span_not_found", Kind: "span_gone"}
	if got := std.Classify("SpanNotFound", 404); got != "span_gone" {
		t.Errorf("Standard with its first rule changed: %q, want span_gone", got)
	}
	if got := errkind.Standard().Classify("SpanNotFound", 404); got != errkind.NotFound {
		t.Errorf("a change to one Standard() copy reached another: %q", got)
	}
}

// TestClassifyConcurrent: goroutines that classify with one taxonomy built
// by hand, while its first use prepares it, agree; run under -race.
func TestClassifyConcurrent(t *testing.T) {
	tax := &errkind.Taxonomy{Rules: []errkind.Rule{{Code: "*NotFound", Kind: errkind.NotFound}, {Status: 429, Kind: errkind.RateLimited}}}
	var wg sync.WaitGroup
	kinds := make([]errkind.Kind, 8)
	for i := range kinds {
		wg.Go(func() {
			for range 100 {
				kinds[i] = tax.Classify("TraceNotFound", 429)
			}
		})
	}
	wg.Wait()
	for i, k := range kinds {
		if k != errkind.NotFound {
			t.Errorf("goroutine %d: %q", i, k)
		}
	}
}

func TestStandardAdvice(t *testing.T) {
	type row struct {
		Move      errkind.Move
		Retryable bool
	}
	want := map[errkind.Kind]row{
		errkind.InvalidArguments:     {errkind.FixArgument, false},
		errkind.AuthenticationFailed: {errkind.Stop, false},
		errkind.PermissionDenied:     {errkind.Stop, false},
		errkind.NotFound:             {errkind.TryAnotherID, false},
		errkind.Conflict:             {errkind.RereadThenRetry, false},
		errkind.RateLimited:          {errkind.WaitThenRetry, true},
		errkind.Unavailable:          {errkind.WaitThenRetry, true},
		errkind.ServerError:          {errkind.Report, false},
		errkind.MalformedResponse:    {errkind.Report, false},
		errkind.NetworkError:         {errkind.RetrySafe, true},
	}
	got := map[errkind.Kind]row{}
	std := errkind.Standard()
	for _, k := range errkind.Kinds() {
		a := std.Advise(k)
		got[k] = row{a.Move, a.Retryable}
		if a.Note == "" || len(a.Fields) == 0 {
			t.Errorf("%s: no note or no fields: %+v", k, a)
		}
		var nilTax *errkind.Taxonomy
		if diff := cmp.Diff(a, nilTax.Advise(k)); diff != "" {
			t.Errorf("nil taxonomy advises %s differently (-std +nil):\n%s", k, diff)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("advice (-want +got):\n%s", diff)
	}
	if a := std.Advise("no_such_kind"); a.Move != errkind.Report || a.Retryable {
		t.Errorf("Advise(unknown) = %+v, want Report without retry", a)
	}
}

// TestStandardWordsFitAnyAPI: the standard advice names no one upstream's
// vocabulary.
func TestStandardWordsFitAnyAPI(t *testing.T) {
	for _, k := range errkind.Kinds() {
		note := errkind.Standard().Advise(k).Note
		for _, w := range []string{"GET", "path", "token", "team", "vexlo", "credit"} {
			if strings.Contains(note, w) {
				t.Errorf("%s advice %q names %q", k, note, w)
			}
		}
	}
}

func TestStandardIsFresh(t *testing.T) {
	a := errkind.Standard()
	a.Rules[0] = errkind.Rule{Kind: "mutated"}
	a.Advice[errkind.NotFound] = errkind.Advice{Move: errkind.Stop}
	b := errkind.Standard()
	if got := b.Classify("trace_not_found", 404); got != errkind.NotFound {
		t.Errorf("after mutating one copy, a fresh Standard classifies trace_not_found as %q", got)
	}
	if got := b.Advise(errkind.NotFound).Move; got != errkind.TryAnotherID {
		t.Errorf("after mutating one copy, a fresh Standard advises %q for not_found", got)
	}
	var nilTax *errkind.Taxonomy
	if got := nilTax.Classify("trace_not_found", 404); got != errkind.NotFound {
		t.Errorf("after mutating one copy, nil taxonomy classifies trace_not_found as %q", got)
	}
}

func TestRuleMatch(t *testing.T) {
	tests := []struct {
		rule   errkind.Rule
		code   string
		status int
		want   bool
	}{
		{errkind.Rule{}, "", 0, true},
		{errkind.Rule{}, "x", 418, true},
		{errkind.Rule{Code: "a"}, "a", 1, true},
		{errkind.Rule{Code: "a"}, "A", 1, true},
		{errkind.Rule{Code: "a"}, "ab", 1, false},
		{errkind.Rule{Code: "a"}, "", 1, false},
		{errkind.Rule{Code: "*_x"}, "a_x", 1, true},
		{errkind.Rule{Code: "*_x"}, "AnX", 1, true},
		{errkind.Rule{Code: "*_x"}, "AX", 1, false}, // one word in capitals
		{errkind.Rule{Code: "*_x"}, "a_y", 1, false},
		{errkind.Rule{Code: "*_x"}, "x", 1, false},
		{errkind.Rule{Code: "*NotFound*"}, "x_not_found_y", 1, true},
		{errkind.Rule{Code: "*NotFound*"}, "NOT_FOUND", 1, true},
		{errkind.Rule{Code: "rate_limit*"}, "RateLimited", 1, true},
		{errkind.Rule{Code: "rate_limit*"}, "my_rate_limit", 1, false},
		{errkind.Rule{Code: "*"}, "anything", 1, true},
		{errkind.Rule{Code: "a*b"}, "a*b", 1, true},
		{errkind.Rule{Code: "a*b"}, "axb", 1, false},
		{errkind.Rule{Status: 404}, "", 404, true},
		{errkind.Rule{Status: 404}, "", 403, false},
		{errkind.Rule{StatusMin: 400, StatusMax: 499}, "", 399, false},
		{errkind.Rule{StatusMin: 400, StatusMax: 499}, "", 400, true},
		{errkind.Rule{StatusMin: 400, StatusMax: 499}, "", 499, true},
		{errkind.Rule{StatusMin: 400, StatusMax: 499}, "", 500, false},
		{errkind.Rule{Code: "a", Status: 429}, "a", 400, false},
		{errkind.Rule{Code: "a", Status: 429}, "a", 429, true},
	}
	for _, tt := range tests {
		if got := tt.rule.Match(tt.code, tt.status); got != tt.want {
			t.Errorf("%+v.Match(%q, %d) = %v, want %v", tt.rule, tt.code, tt.status, got, tt.want)
		}
	}
}

func TestNormalizeCode(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"not_found", "not_found"},
		{"NOT_FOUND", "not_found"},
		{"NotFound", "not_found"},
		{"XNotFound", "x_not_found"},
		{"x-not-found", "x_not_found"},
		{"x.not.found", "x_not_found"},
		{"x__not  found", "x_not_found"},
		{"HTTPError", "http_error"},
		{"ThrottlingException", "throttling_exception"},
		{"Error404Page", "error404_page"},
		{"_lead", "_lead"},
		{"[duplicate]user.email", "_duplicate_user_email"},
		{"ünïcode", "ünïcode"},
	}
	for _, tt := range tests {
		if got := errkind.NormalizeCode(tt.in); got != tt.want {
			t.Errorf("NormalizeCode(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { errkind.NormalizeCode("trace_not_found") }); n != 0 {
		t.Errorf("NormalizeCode of a normalized code allocates %v times", n)
	}
}

// TestWith: With puts rules ahead of the base's, copies the advice, and
// leaves the base alone.
func TestWith(t *testing.T) {
	std := errkind.Standard()
	tax := std.With(errkind.Rule{Code: "forbidden_role", Kind: "wrong_role"})
	tax.Advice["wrong_role"] = errkind.Advice{Move: errkind.Stop, Note: "stop"}
	if got := tax.Classify("forbidden_role", 403); got != "wrong_role" {
		t.Errorf("With: forbidden_role is %q", got)
	}
	if got := tax.Classify("", 403); got != errkind.PermissionDenied {
		t.Errorf("With: a 403 is %q, want the base's permission_denied", got)
	}
	if got := std.Classify("forbidden_role", 403); got != errkind.PermissionDenied {
		t.Errorf("the base changed: forbidden_role is %q", got)
	}
	if _, ok := std.Advice["wrong_role"]; ok {
		t.Errorf("the base's advice changed")
	}
	var nilTax *errkind.Taxonomy
	if got := nilTax.With(errkind.Rule{Code: "x", Kind: "y"}).Classify("", 404); got != errkind.NotFound {
		t.Errorf("nil.With drops the standard rules: a 404 is %q", got)
	}
}

// TestCustomTaxonomy declares seed 004's codes the way a server would.
func TestCustomTaxonomy(t *testing.T) {
	news := newsTaxonomy()
	tests := []struct {
		code   string
		status int
		want   errkind.Kind
	}{
		{"insufficient_credits", 402, "insufficient_credits"},
		{"credit_rate_limited", 200, "credit_rate_limited"},
		{"credit_budget_exceeded", 200, "credit_budget_exceeded"},
		{"watch_limit", 200, "watch_limit"},
		{"unsupported", 200, "unsupported"},
		{"suspended", 402, "suspended"},
		{"upstream_unavailable", 503, "upstream_unavailable"},
		{"not_found", 404, errkind.NotFound},
		{"message_rate_limited", 429, errkind.RateLimited},
		{"brand_new_code", 404, errkind.NotFound},
		{"brand_new_code", 418, errkind.InvalidArguments},
		{"brand_new_code", 409, errkind.Conflict},
		{"brand_new_code", 0, errkind.ServerError},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, news.Classify(tt.code, tt.status)); diff != "" {
			t.Errorf("Classify(%q, %d) (-want +got):\n%s", tt.code, tt.status, diff)
		}
	}
	if diff := cmp.Diff(errkind.Advice{Move: errkind.Stop, Note: "Delete one with delete_watch, or change plan."}, news.Advise("watch_limit")); diff != "" {
		t.Errorf("Advise(watch_limit) (-want +got):\n%s", diff)
	}
	// A custom taxonomy without its own entry for a standard kind advises as
	// the standard does.
	if got := news.Advise(errkind.NotFound).Move; got != errkind.TryAnotherID {
		t.Errorf("Advise(not_found).Move = %q", got)
	}
}

func newsTaxonomy() *errkind.Taxonomy {
	std := errkind.Standard()
	return &errkind.Taxonomy{
		Rules: append([]errkind.Rule{
			{Code: "suspended", Kind: "suspended"},
			{Code: "insufficient_credits", Kind: "insufficient_credits"},
			{Code: "credit_rate_limited", Kind: "credit_rate_limited"},
			{Code: "credit_budget_exceeded", Kind: "credit_budget_exceeded"},
			{Code: "upstream_unavailable", Kind: "upstream_unavailable"},
			{Code: "not_found", Kind: errkind.NotFound},
			{Code: "watch_limit", Kind: "watch_limit"},
			{Code: "unsupported", Kind: "unsupported"},
		}, std.Rules...),
		Advice: map[errkind.Kind]errkind.Advice{
			"watch_limit": {Move: errkind.Stop, Note: "Delete one with delete_watch, or change plan."},
		},
	}
}

func TestCodes(t *testing.T) {
	type row struct {
		Code   errkind.RPCCode
		Status int
		Name   string
		Move   errkind.Move
	}
	want := []row{
		{-32700, 400, "parse error", errkind.FixArgument},
		{-32600, 400, "invalid request", errkind.FixArgument},
		{-32601, 404, "method not found", errkind.FixArgument},
		{-32602, 400, "invalid params", errkind.FixArgument},
		{-32603, 500, "internal error", errkind.Report},
		{-32000, 500, "implementation-defined", errkind.Report},
		{-32020, 400, "header mismatch", errkind.FixArgument},
		{-32021, 400, "missing required client capability", errkind.Stop},
		{-32022, 400, "unsupported protocol version", errkind.RetrySafe},
	}
	var got []row
	for _, c := range errkind.RPCCodes() {
		got = append(got, row{c, c.HTTPStatus(), c.String(), c.Move()})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("catalogue (-want +got):\n%s", diff)
	}
	if got := errkind.RPCCode(-32050); got.HTTPStatus() != 500 || got.String() != "code(-32050)" || got.Move() != errkind.Report {
		t.Errorf("Code(-32050): status %d, name %q, move %s", got.HTTPStatus(), got.String(), got.Move())
	}
	if got := errkind.RPCCode(7).HTTPStatus(); got != 400 {
		t.Errorf("Code(7).HTTPStatus() = %d, want 400", got)
	}
}

// BenchmarkClassify classifies a code no standard rule knows, so every rule
// is tried before the status decides: the worst case.
func BenchmarkClassify(b *testing.B) {
	std := errkind.Standard()
	b.ReportAllocs()
	for b.Loop() {
		std.Classify("a_code_from_a_newer_server", 503)
	}
}

// BenchmarkClassifyCaseStyle classifies a code that must be normalized.
func BenchmarkClassifyCaseStyle(b *testing.B) {
	std := errkind.Standard()
	b.ReportAllocs()
	for b.Loop() {
		std.Classify("ResourceNotFoundException", 400)
	}
}

// FuzzClassify: a taxonomy's prepared rules classify as its rules do one by
// one (Rule.Match prepares nothing), for the standard rules, With's and a
// taxonomy built by hand.
func FuzzClassify(f *testing.F) {
	for _, c := range []string{"", "NOT_FOUND", "TraceNotFound", "x-rate-limit-hit", "HTTPError", "_", "*", "a__b"} {
		f.Add(c, 404)
	}
	byHand := &errkind.Taxonomy{Rules: append([]errkind.Rule{{Code: "*", Kind: "any"}, {Code: "A*", Kind: "a"}}, errkind.Standard().Rules...)}
	taxes := []*errkind.Taxonomy{errkind.Standard(), errkind.Standard().With(errkind.Rule{Code: "*Gone", Kind: "gone"}), byHand}
	f.Fuzz(func(t *testing.T, code string, status int) {
		for _, tax := range taxes {
			want := errkind.ServerError
			for _, r := range tax.Rules {
				if r.Match(code, status) {
					want = r.Kind
					break
				}
			}
			if got := tax.Classify(code, status); got != want {
				t.Fatalf("Classify(%q, %d) = %q; rule by rule %q", code, status, got, want)
			}
		}
	})
}

// TestStandardRemembers: the standard rules' remembered answers (a nil or
// zero taxonomy) agree with the same rules read afresh (Standard's copy),
// for codes read many times, from many goroutines, at several statuses,
// codes whose slots collide included; run under -race.
func TestStandardRemembers(t *testing.T) {
	var codes []string
	for i := range 600 { // more codes than slots: slots are replaced
		codes = append(codes, fmt.Sprintf("code_%d_not_found", i), fmt.Sprintf("Quota%dExceeded", i), fmt.Sprintf("x%d", i))
	}
	std := errkind.Standard()
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			var zero errkind.Taxonomy
			for round := range 2 {
				for i, code := range codes {
					status := []int{0, 400, 404, 429, 503}[(i+g+round)%5]
					if got, want := zero.Classify(code, status), std.Classify(code, status); got != want {
						t.Errorf("Classify(%q, %d) = %q, want %q as the rules say", code, status, got, want)
						return
					}
				}
			}
		})
	}
	wg.Wait()
}

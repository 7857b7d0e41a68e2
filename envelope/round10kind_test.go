package envelope_test

import (
	"testing"
)

// This file holds the tenth round's rules of the kind (issue 27), tuned
// on the tuned half of batch7.jsonl and the other batches' misses, each
// rule with invented examples that state it, none a corpus case.

// TestReadWrongArgumentBelow400: a failure below 400 has no status to say
// what failed; when its message or its code says an argument of the
// request is wrong (invalid, not valid, a parameter, a field, required,
// missing, "please specify", not supported, a syntax error), it is
// invalid_arguments, not server_error. A code that says so is read as a
// 400 would be: a message of a credential, a limit or a permission
// overrides it, one of a missing thing does not, and a code's "missing"
// may name a missing thing. Without such a code a message that names a
// kind of its own decides, and words that only open with "invalid" or
// that say nothing of an argument leave server_error.
func TestReadWrongArgumentBelow400(t *testing.T) {
	runReadCases(t, []readCase{
		{"an invalid value in the message", 200, "", `{"success":false,"error":{"code":31,"message":"Invalid postal code for the destination country."}}`,
			outcome{Kind: "invalid_arguments", Code: "31", Message: "Invalid postal code for the destination country."}},
		{"a value required", 200, "", `{"status":"error","code":7,"message":"Campaign name is required."}`,
			outcome{Kind: "invalid_arguments", Code: "7", Message: "Campaign name is required."}},
		{"a parameter wrong", 200, "", `{"ok":false,"errorCode":-12,"errorMessage":"Wrong parameter format"}`,
			outcome{Kind: "invalid_arguments", Code: "-12", Message: "Wrong parameter format"}},
		{"a code whose words say invalid", 200, "", `{"success":false,"error":{"code":"invalid_time_zone","message":"The time zone you sent is unknown to us."}}`,
			outcome{Kind: "invalid_arguments", Code: "invalid_time_zone", Message: "The time zone you sent is unknown to us."}},
		{"an incorrect value", 200, "", `{"status":"error","code":4,"message":"Incorrect date format, use YYYY-MM-DD"}`,
			outcome{Kind: "invalid_arguments", Code: "4", Message: "Incorrect date format, use YYYY-MM-DD"}},
		{"a syntax error", 200, "", `{"status":"error","code":3,"message":"Syntax error near 'FORM' at line 1"}`,
			outcome{Kind: "invalid_arguments", Code: "3", Message: "Syntax error near 'FORM' at line 1"}},
		{"an unknown argument of a query", 200, "", `{"status":"error","code":3,"message":"Unknown argument \"limt\" on field \"users\""}`,
			outcome{Kind: "invalid_arguments", Code: "3", Message: `Unknown argument "limt" on field "users"`}},
		{"a value not supported", 200, "", `{"success":false,"error":{"code":44,"message":"Currency XBT is not supported"}}`,
			outcome{Kind: "invalid_arguments", Code: "44", Message: "Currency XBT is not supported"}},
		{"a code of an argument over a message of a missing thing", 200, "", `{"success":false,"error":{"code":"invalid_region","message":"Region eu-x does not exist"}}`,
			outcome{Kind: "invalid_arguments", Code: "invalid_region", Message: "Region eu-x does not exist"}},
		{"a code of an argument, a message of a credential", 200, "", `{"success":false,"error":{"code":"invalid_field_value","message":"Your API key was revoked"}}`,
			outcome{Kind: "authentication_failed", Code: "invalid_field_value", Message: "Your API key was revoked"}},
		{"guard: a code's missing may be a missing thing", 200, "", `{"success":false,"error":{"code":"missingpage","message":"The page does not exist"}}`,
			outcome{Kind: "not_found", Code: "missingpage", Message: "The page does not exist"}},
		{"guard: the message names its own kind", 200, "", `{"success":false,"error":{"code":"invalid_request","message":"Invalid API key supplied"}}`,
			outcome{Kind: "authentication_failed", Code: "invalid_request", Message: "Invalid API key supplied"}},
		{"guard: words that only open with invalid", 200, "", `{"status":"error","code":9,"message":"Cache invalidation failed on the server"}`,
			outcome{Kind: "server_error", Code: "9", Message: "Cache invalidation failed on the server"}},
		{"guard: no word of an argument", 200, "", `{"status":"error","code":9,"message":"Something went wrong on our side"}`,
			outcome{Kind: "server_error", Code: "9", Message: "Something went wrong on our side"}},
		{"guard: at 500 the status speaks", 500, "", `{"code":9,"message":"Invalid state of the ledger"}`,
			outcome{Kind: "server_error", Code: "9", Message: "Invalid state of the ledger"}},
	})
}

// TestReadSignatureRefused: a request's signature refused ("HMAC check
// failed", "Signature verification failed") is a credential refused, at a
// 403 as at a 400: the caller's secret signs the request.
func TestReadSignatureRefused(t *testing.T) {
	runReadCases(t, []readCase{
		{"an HMAC refused at 403", 403, "", `{"message":"HMAC check failed for this request"}`,
			outcome{Kind: "authentication_failed", Message: "HMAC check failed for this request"}},
		{"a signature verification at 400", 400, "", `{"error":"Signature verification failed"}`,
			outcome{Kind: "authentication_failed", Message: "Signature verification failed"}},
		{"an invalid api_key at 403", 403, "", `{"error":"missing api_key"}`,
			outcome{Kind: "authentication_failed", Message: "missing api_key"}},
	})
}

// TestReadAccessRestrictedProse: "access restricted" in a message is a
// permission refused, as "access denied" is: below 400, and where a 400
// says no more than that the request was refused.
func TestReadAccessRestrictedProse(t *testing.T) {
	runReadCases(t, []readCase{
		{"below 400", 200, "", `{"success":false,"error":{"code":12,"message":"Access restricted: your plan does not include exports."}}`,
			outcome{Kind: "permission_denied", Code: "12", Message: "Access restricted: your plan does not include exports."}},
		{"at 400", 400, "", `{"message":"Access is restricted to administrators"}`,
			outcome{Kind: "permission_denied", Message: "Access is restricted to administrators"}},
	})
}

// TestReadStandbyUnavailable: a code that says a node is in standby
// (StandbyNode, NODE_IN_STANDBY) is unavailable, whatever the status: the
// caller waits or another node answers; it is no permission refused.
func TestReadStandbyUnavailable(t *testing.T) {
	runReadCases(t, []readCase{
		{"a standby code at 403", 403, "", `{"code":"NodeInStandby","message":"this replica does not serve writes"}`,
			outcome{Kind: "unavailable", Code: "NodeInStandby", Message: "this replica does not serve writes"}},
	})
}

// TestRead503OverLimit: a 503 whose code says no more than the status and
// whose message says the caller went over its limit is rate_limited;
// "too many requests" alone may be the server's load and stays
// unavailable.
func TestRead503OverLimit(t *testing.T) {
	runReadCases(t, []readCase{
		{"a rate limit at 503", 503, "", `{"message":"Rate limit of 10 calls per second exceeded for this account"}`,
			outcome{Kind: "rate_limited", Message: "Rate limit of 10 calls per second exceeded for this account", RetryAfterSeconds: 60}},
		{"a number of requests exceeded, under a reason-phrase code", 503, "", `{"code":"ServiceUnavailable","message":"The number of requests for this key has been exceeded."}`,
			outcome{Kind: "rate_limited", Code: "ServiceUnavailable", Message: "The number of requests for this key has been exceeded.", RetryAfterSeconds: 60}},
		{"guard: too many requests alone is load", 503, "", `{"message":"Too many requests right now, please try again later"}`,
			outcome{Kind: "unavailable", Message: "Too many requests right now, please try again later"}},
	})
}

// TestReadQueriesPerPeriodExceeded: a limit of queries over a period
// exceeded is a rate, as one of requests or calls is.
func TestReadQueriesPerPeriodExceeded(t *testing.T) {
	runReadCases(t, []readCase{
		{"queries per hour at 403", 403, "", `{"error":"You exceeded 500 queries per hour"}`,
			outcome{Kind: "rate_limited", Message: "You exceeded 500 queries per hour", RetryAfterSeconds: 60}},
	})
}

// TestReadAuthenticationWordInCode: a code whose words hold
// "authentication" after another word (ERR_AUTHENTICATION,
// USER_AUTHENTICATION_FAILED) is the credential refused, as one that
// opens with it is, even at a 500, whose status says no more than that
// the server failed.
func TestReadAuthenticationWordInCode(t *testing.T) {
	runReadCases(t, []readCase{
		{"a suffix at 500", 500, "", `{"code":"GATEWAY_ERR_AUTHENTICATION","message":"Check the login and the password."}`,
			outcome{Kind: "authentication_failed", Code: "GATEWAY_ERR_AUTHENTICATION", Message: "Check the login and the password."}},
		{"mid-code at 400", 400, "", `{"code":"UserAuthenticationFailed","message":"Sign-in refused."}`,
			outcome{Kind: "authentication_failed", Code: "UserAuthenticationFailed", Message: "Sign-in refused."}},
	})
}

// TestReadAccountOrPasswordRefused: "account or password" refuses a
// login, as "username or password" does.
func TestReadAccountOrPasswordRefused(t *testing.T) {
	runReadCases(t, []readCase{
		{"below 400", 200, "", `{"success":false,"error":{"code":21,"message":"Wrong account or password"}}`,
			outcome{Kind: "authentication_failed", Code: "21", Message: "Wrong account or password"}},
	})
}

// TestReadBareCodeWordYieldsToMessage: a code of one word that says no
// more than that the request failed ("invalid", "Exception") is
// no reading of the API's own: the message's words decide the kind at a
// 4xx as they do beside a numeric code. A code of the API's own words
// (OAuth's invalid_grant) still stands.
func TestReadBareCodeWordYieldsToMessage(t *testing.T) {
	runReadCases(t, []readCase{
		{"a bare invalid at 400", 400, "", `{"code":"invalid","message":"The access token has expired"}`,
			outcome{Kind: "authentication_failed", Code: "invalid", Message: "The access token has expired"}},
		{"a bare Exception at 400", 400, "", `{"code":"Exception","message":"Quota exceeded for this project"}`,
			outcome{Kind: "rate_limited", Code: "Exception", Message: "Quota exceeded for this project", RetryAfterSeconds: 60}},
		{"guard: a code of the API's own", 400, "", `{"code":"invalid_grant","message":"The access token has expired"}`,
			outcome{Kind: "invalid_arguments", Code: "invalid_grant", Message: "The access token has expired"}},
	})
}

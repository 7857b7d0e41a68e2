package envelope_test

import (
	"testing"
)

// This file holds the eleventh round's rules of the kind (issue 27),
// tuned on batch7.jsonl and the other batches' misses, each rule with
// invented examples that state it, none a corpus case.

// TestReadQuotaSpentProse: a message that says a quota ran out, in any
// words (exceeded, reached, out of, exhausted, used up), is a limit:
// rate_limited where the status or the code says no more (a 403, a 400,
// a 200). A quota named without running out is no limit.
func TestReadQuotaSpentProse(t *testing.T) {
	runReadCases(t, []readCase{
		{"out of a quota at 403", 403, "", `{"error":{"code":"403","message":"Out of monthly transaction quota for the free plan."}}`,
			outcome{Kind: "rate_limited", Message: "Out of monthly transaction quota for the free plan.", RetryAfterSeconds: 60}},
		{"a quota exhausted at 400", 400, "", `{"message":"Your daily export quota is exhausted"}`,
			outcome{Kind: "rate_limited", Message: "Your daily export quota is exhausted", RetryAfterSeconds: 60}},
		{"a quota used up below 400", 200, "", `{"ok":false,"code":17,"error":"Hourly quota used up, come back later"}`,
			outcome{Kind: "rate_limited", Code: "17", Message: "Hourly quota used up, come back later", RetryAfterSeconds: 60}},
		{"guard: a quota that is an argument", 400, "", `{"message":"quota must be a positive number"}`,
			outcome{Kind: "invalid_arguments", Message: "quota must be a positive number"}},
	})
}

// TestReadTooManyActsProse: "too many" of the caller's acts over time
// (requests, calls, attempts, visits, sessions, connections, logins,
// anything concurrent, the noun within two words) is a limit to wait
// out; too many of what one request carries (parameters, rows, items)
// is an argument.
func TestReadTooManyActsProse(t *testing.T) {
	runReadCases(t, []readCase{
		{"too many connections at 400", 400, "", `{"error":"Too many connections open for this user"}`,
			outcome{Kind: "rate_limited", Message: "Too many connections open for this user", RetryAfterSeconds: 60}},
		{"too many login attempts below 400", 200, "", `{"success":false,"code":88,"message":"Too many login attempts, try later"}`,
			outcome{Kind: "rate_limited", Code: "88", Message: "Too many login attempts, try later", RetryAfterSeconds: 60}},
		{"too many API calls at 403", 403, "", `{"message":"You made too many API calls this hour"}`,
			outcome{Kind: "rate_limited", Message: "You made too many API calls this hour", RetryAfterSeconds: 60}},
		{"guard: too many items in one request", 400, "", `{"error":"Too many items in the batch (max 100)"}`,
			outcome{Kind: "invalid_arguments", Message: "Too many items in the batch (max 100)"}},
	})
}

// TestReadDuplicateOrConflictProse: a message that says a thing was sent
// twice ("duplicate", "duplicated"), that repeats RFC 9110's words for
// a 409 ("a conflict with the current state") or that says a
// precondition failed (RFC 9110's 412) is a conflict where the
// status says no more than that the request was refused, at a 400 or any
// other 4xx the taxonomy leaves generic; not at a 422 (a validation
// failure as often), nor when the message opens with the field it is
// about.
func TestReadDuplicateOrConflictProse(t *testing.T) {
	runReadCases(t, []readCase{
		{"a duplicate at 400", 400, "", `{"code":7001,"message":"Duplicate invoice number INV-9"}`,
			outcome{Kind: "conflict", Code: "7001", Message: "Duplicate invoice number INV-9"}},
		{"RFC 9110's words at 405", 405, "", `{"message":"The request conflicts with the current state of the ledger"}`,
			outcome{Kind: "conflict", Message: "The request conflicts with the current state of the ledger"}},
		{"RFC 9110's words at 418", 418, "", `{"message":"Refused: conflict with the current state of the order"}`,
			outcome{Kind: "conflict", Message: "Refused: conflict with the current state of the order"}},
		{"a request duplicated below 400", 200, "", `{"success":false,"code":31,"message":"This payout request is duplicated"}`,
			outcome{Kind: "conflict", Code: "31", Message: "This payout request is duplicated"}},
		{"a precondition no longer met at 400", 400, "", `{"code":9,"message":"write precondition on revision 12 failed"}`,
			outcome{Kind: "conflict", Code: "9", Message: "write precondition on revision 12 failed"}},
		{"a conditional request failed below 400", 200, "", `{"ok":false,"error":"The conditional request failed"}`,
			outcome{Kind: "conflict", Message: "The conditional request failed"}},
		{"guard: at 422 a validation", 422, "", `{"message":"Duplicate values in tags"}`,
			outcome{Kind: "invalid_arguments", Message: "Duplicate values in tags"}},
		{"guard: a field's own validation", 400, "", `{"message":"tags: duplicate value"}`,
			outcome{Kind: "invalid_arguments", Message: "tags: duplicate value"}},
	})
}

// TestReadLackingCreditsProse: a message that says the caller's credits,
// balance or points are too few ("insufficient" or "enough", then the
// noun) is a payment a person must make, permission_denied, at a 400, a
// 403 or below 400; funds are not read (a payer's, an argument of a
// payment API), nor data points.
func TestReadLackingCreditsProse(t *testing.T) {
	runReadCases(t, []readCase{
		{"points below 400", 200, "", `{"success":false,"code":52,"message":"Not enough points to send this message"}`,
			outcome{Kind: "permission_denied", Code: "52", Message: "Not enough points to send this message"}},
		{"a balance at 400", 400, "", `{"message":"Insufficient account balance for this lookup"}`,
			outcome{Kind: "permission_denied", Message: "Insufficient account balance for this lookup"}},
		{"credits at 403", 403, "", `{"message":"You do not have enough API credits"}`,
			outcome{Kind: "permission_denied", Message: "You do not have enough API credits"}},
		{"guard: data points are an argument", 400, "", `{"message":"Not enough data points to fit the model"}`,
			outcome{Kind: "invalid_arguments", Message: "Not enough data points to fit the model"}},
		{"guard: a payer's funds", 400, "", `{"message":"Insufficient funds in the source wallet"}`,
			outcome{Kind: "invalid_arguments", Message: "Insufficient funds in the source wallet"}},
	})
}

// TestReadRPCOwnCodeBelow400: a JSON-RPC error whose code is the
// implementation's own (outside JSON-RPC 2.0's catalogue) and that came
// at HTTP 200 is read as any numeric code of a failed answer below 400:
// by its message's words, those of an argument among them; a message
// with no such words stays server_error.
func TestReadRPCOwnCodeBelow400(t *testing.T) {
	runReadCases(t, []readCase{
		{"words of an argument", 200, "", `{"jsonrpc":"2.0","id":1,"error":{"code":-8,"message":"Invalid parameter, expected hex string"}}`,
			outcome{Kind: "invalid_arguments", Code: "-8", Message: "Invalid parameter, expected hex string"}},
		{"words of a missing thing", 200, "", `{"jsonrpc":"2.0","id":1,"error":{"code":12,"message":"Device 42 does not exist"}}`,
			outcome{Kind: "not_found", Code: "12", Message: "Device 42 does not exist"}},
		{"guard: no words of a kind", 200, "", `{"jsonrpc":"2.0","id":1,"error":{"code":-28,"message":"Loading block index..."}}`,
			outcome{Kind: "server_error", Code: "-28", Message: "Loading block index..."}},
	})
}

// TestReadMissingThingAt400: at a 400 whose code says nothing of its own,
// a message that says a thing the request named matches nothing is
// not_found, as errkind's litmus test reads it (a well-formed id that
// matches nothing); a part of the request or of what it queries that
// does not exist (a parameter, a field, a column, a table, an index, a
// type) is an argument to fix, and so is a message that offers another
// cause ("not found or not enabled"), or one that opens with the status.
func TestReadMissingThingAt400(t *testing.T) {
	runReadCases(t, []readCase{
		{"a thing named that matches nothing", 400, "", `{"code":3301,"message":"Voice 'amber-2' does not exist."}`,
			outcome{Kind: "not_found", Code: "3301", Message: "Voice 'amber-2' does not exist."}},
		{"no matching thing", 400, "", `{"error":"No matching airport found for code QQX"}`,
			outcome{Kind: "not_found", Message: "No matching airport found for code QQX"}},
		{"guard: a column of a query", 400, "", `{"error":"column \"nmae\" not found in relation users"}`,
			outcome{Kind: "invalid_arguments", Message: `column "nmae" not found in relation users`}},
		{"guard: an index of a search engine", 400, "", `{"error":"no such index [logs-2024]"}`,
			outcome{Kind: "invalid_arguments", Message: "no such index [logs-2024]"}},
		{"guard: another cause offered", 400, "", `{"message":"Webhook not found or not enabled for this account"}`,
			outcome{Kind: "invalid_arguments", Message: "Webhook not found or not enabled for this account"}},
		{"guard: the status said first", 400, "", `{"message":"Bad Request: voice not found"}`,
			outcome{Kind: "invalid_arguments", Message: "Bad Request: voice not found"}},
		{"guard: below 400 a code of an argument keeps it", 200, "", `{"success":false,"error":{"code":"invalid_voice","message":"Voice does not exist"}}`,
			outcome{Kind: "invalid_arguments", Code: "invalid_voice", Message: "Voice does not exist"}},
	})
}

// TestReadNamedKeyRefused: an adjective that refuses, at most one word,
// then "key" that ends its phrase is the caller's key refused, at any
// status ("Invalid merchant key", "Unknown publishable key."); a key
// followed by more words or a name is a member of the request.
func TestReadNamedKeyRefused(t *testing.T) {
	runReadCases(t, []readCase{
		{"below 400", 200, "", `{"status":"ERROR","code":"M-7","message":"Invalid merchant key"}`,
			outcome{Kind: "authentication_failed", Code: "M-7", Message: "Invalid merchant key"}},
		{"at 400", 400, "", `{"message":"Unknown publishable key."}`,
			outcome{Kind: "authentication_failed", Message: "Unknown publishable key."}},
		{"a dash after it", 400, "", `{"error":"Wrong key - create one in the dashboard"}`,
			outcome{Kind: "authentication_failed", Message: "Wrong key - create one in the dashboard"}},
		{"guard: a key of an object", 400, "", `{"message":"Invalid key in object at position 3"}`,
			outcome{Kind: "invalid_arguments", Message: "Invalid key in object at position 3"}},
		{"guard: a key named after it", 400, "", `{"message":"Invalid sort key \"ts\""}`,
			outcome{Kind: "invalid_arguments", Message: `Invalid sort key "ts"`}},
	})
}

// TestReadMessagePhrasesBeforeCode: a message's phrases are read before
// the message is read as a code, so a sentence that names a limit and
// mentions a key is a limit, and one that names two kinds names none;
// a message that is a code word is read as one.
func TestReadMessagePhrasesBeforeCode(t *testing.T) {
	runReadCases(t, []readCase{
		{"a limit that mentions a key", 200, "", `{"ok":false,"error":"Rate limit reached, sign up for an API key to raise it"}`,
			outcome{Kind: "rate_limited", Message: "Rate limit reached, sign up for an API key to raise it", RetryAfterSeconds: 60}},
		{"a code word as the message", 200, "", `{"success":false,"code":12,"message":"ORDER_DOES_NOT_EXIST"}`,
			outcome{Kind: "not_found", Code: "12", Message: "ORDER_DOES_NOT_EXIST"}},
	})
}

// TestReadLimitWordsProse: calls "too frequent", a "frequency limit", a
// use "over limit", and a number of requests reached (not only
// exceeded) are a limit in a message, below 400 and where a 400 says no
// more; "authorization failed" is a permission refused to a caller the
// upstream knows.
func TestReadLimitWordsProse(t *testing.T) {
	runReadCases(t, []readCase{
		{"too frequent below 400", 200, "", `{"success":false,"code":45,"message":"Calls too frequent, slow down"}`,
			outcome{Kind: "rate_limited", Code: "45", Message: "Calls too frequent, slow down", RetryAfterSeconds: 60}},
		{"over limit at 400", 400, "", `{"message":"Account is over limit for this month"}`,
			outcome{Kind: "rate_limited", Message: "Account is over limit for this month", RetryAfterSeconds: 60}},
		{"a number of requests reached", 200, "", `{"ok":false,"error":"The maximum number of requests for today has been reached"}`,
			outcome{Kind: "rate_limited", Message: "The maximum number of requests for today has been reached", RetryAfterSeconds: 60}},
		{"authorization failed below 400", 200, "", `{"success":false,"message":"Authorization failed for role viewer on table orders"}`,
			outcome{Kind: "permission_denied", Message: "Authorization failed for role viewer on table orders"}},
	})
}

// TestReadNoneFoundProse: "no", at most two words, then "found" says a
// thing is missing, as "not found" does: not_found below 400 and where a
// 400 says no more; "no API key found" is still the credential.
func TestReadNoneFoundProse(t *testing.T) {
	runReadCases(t, []readCase{
		{"below 400", 200, "", `{"success":false,"code":7,"message":"No invoice found for number 991"}`,
			outcome{Kind: "not_found", Code: "7", Message: "No invoice found for number 991"}},
		{"at 400, two words between", 400, "", `{"error":"No open ticket found"}`,
			outcome{Kind: "not_found", Message: "No open ticket found"}},
		{"guard: a key not found is the credential", 400, "", `{"error":"No API key found in the request headers"}`,
			outcome{Kind: "authentication_failed", Message: "No API key found in the request headers"}},
		{"guard: a word that ends in no", 400, "", `{"error":"Piano found no rest"}`,
			outcome{Kind: "invalid_arguments", Message: "Piano found no rest"}},
	})
}

// TestReadCodeWordMessage: a message that is one code word in capitals
// or snake case ("INVALID_MERCHANT_KEY") is read by its words, as a
// sentence is.
func TestReadCodeWordMessage(t *testing.T) {
	runReadCases(t, []readCase{
		{"a key refused", 200, "", `{"success":false,"code":10009,"message":"INVALID_MERCHANT_KEY"}`,
			outcome{Kind: "authentication_failed", Code: "10009", Message: "INVALID_MERCHANT_KEY"}},
		{"a quota spent", 200, "", `{"success":false,"code":10044,"message":"DAILY_QUOTA_USED_UP"}`,
			outcome{Kind: "rate_limited", Code: "10044", Message: "DAILY_QUOTA_USED_UP", RetryAfterSeconds: 60}},
	})
}

// TestReadRPCAnswerIsNoNetworkError: a JSON-RPC error is an answer, so
// a message that speaks of a connection or a timeout ("connection
// refused", "request timed out") is the upstream's own call to another
// failing, unavailable as a gateway's failure is, never network_error
// (no answer); and a catalogue's code that says no more than that the
// call failed (-32603) gives way to a status that tells (a 503).
func TestReadRPCAnswerIsNoNetworkError(t *testing.T) {
	runReadCases(t, []readCase{
		{"a connection refused upstream", 200, "", `{"jsonrpc":"2.0","id":7,"error":{"code":-32000,"message":"dial tcp 10.1.2.3:8545: connect: connection refused"}}`,
			outcome{Kind: "unavailable", Code: "-32000", Message: "dial tcp 10.1.2.3:8545: connect: connection refused"}},
		{"a timeout upstream", 200, "", `{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"request timed out"}}`,
			outcome{Kind: "unavailable", Code: "-32603", Message: "request timed out"}},
		{"an internal error at a 503", 503, "", `{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"Internal error"}}`,
			outcome{Kind: "unavailable", Code: "-32603", Message: "Internal error"}},
		{"guard: an internal error at 200", 200, "", `{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"Internal error"}}`,
			outcome{Kind: "server_error", Code: "-32603", Message: "Internal error"}},
		{"guard: a method not found at its 404", 404, "", `{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"Method not found"}}`,
			outcome{Kind: "invalid_arguments", Code: "-32601", Message: "Method not found"}},
	})
}

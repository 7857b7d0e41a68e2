package envelope_test

import "testing"

// This file holds the sixth round of general rules (issue 27), tuned on
// batch5.jsonl, fresh.jsonl, responses.jsonl and batch3.jsonl, each rule
// with invented examples that state it.

// TestReadPaidQuota: a quota or a limit under a 402 is an allowance a
// person must pay for, permission_denied as the 402 says; waiting does
// not bring it back. At a 429 the same code is a limit to wait out.
func TestReadPaidQuota(t *testing.T) {
	runReadCases(t, []readCase{
		{"a quota code at a 402", 402, "", `{"error":"monthly_quota_used","message":"No renders left this month."}`,
			outcome{Kind: "permission_denied", Code: "monthly_quota_used", Message: "No renders left this month."}},
		{"a limit code at a 402", 402, "", `{"code":"SEAT_LIMIT_EXCEEDED","message":"Buy more seats."}`,
			outcome{Kind: "permission_denied", Code: "SEAT_LIMIT_EXCEEDED", Message: "Buy more seats."}},
		{"guard: a quota code at a 429 waits", 429, "", `{"error":"monthly_quota_used","message":"No renders left this month."}`,
			outcome{Kind: "rate_limited", Code: "monthly_quota_used", Message: "No renders left this month.", RetryAfterSeconds: 60}},
	})
}

// TestReadSpentCredits: a message that says the caller's credits are
// spent names a payment a person must make, permission_denied, at a
// status that says no more than a refusal; a balance or funds stay an
// argument, as a payment API writes them of the payer.
func TestReadSpentCredits(t *testing.T) {
	runReadCases(t, []readCase{
		{"not enough credits at a 405", 405, "", `{"message":"Your team has not enough credits to run this job"}`,
			outcome{Kind: "permission_denied", Message: "Your team has not enough credits to run this job"}},
		{"insufficient credits at a 400", 400, "", `{"error":"Insufficient credits for upscaling"}`,
			outcome{Kind: "permission_denied", Message: "Insufficient credits for upscaling"}},
		{"guard: the payer's funds at a 400", 400, "", `{"message":"Insufficient funds on the source card"}`,
			outcome{Kind: "invalid_arguments", Message: "Insufficient funds on the source card"}},
	})
}

// TestReadRequestRateWords: a message that says a limit counted in
// requests over time was exceeded names a rate limit at a status that
// only refuses; a limit of a size does not.
func TestReadRequestRateWords(t *testing.T) {
	runReadCases(t, []readCase{
		{"requests every N seconds at a 400", 400, "", `{"message":"You exceeded the limit of 3 requests every 10 seconds."}`,
			outcome{Kind: "rate_limited", Message: "You exceeded the limit of 3 requests every 10 seconds.", RetryAfterSeconds: 60}},
		{"calls per minute at a 403", 403, "", `{"error":"Exceeded 20 calls per minute for this key"}`,
			outcome{Kind: "rate_limited", Message: "Exceeded 20 calls per minute for this key", RetryAfterSeconds: 60}},
		{"guard: a size limit stays an argument", 400, "", `{"message":"Request body exceeds the 2 MB limit"}`,
			outcome{Kind: "invalid_arguments", Message: "Request body exceeds the 2 MB limit"}},
	})
}

// TestReadMissingAt403: a 403 whose message says the thing was not found
// is not_found (try another id), as the words say; a 403 that names two
// kinds ("not found or not authorized") stays a refusal.
func TestReadMissingAt403(t *testing.T) {
	runReadCases(t, []readCase{
		{"not found at a 403", 403, "", `{"status":403,"message":"Board 77 was not found"}`,
			outcome{Kind: "not_found", Message: "Board 77 was not found"}},
		{"guard: not found or not authorized", 403, "", `{"message":"Board 77 not found or not authorized"}`,
			outcome{Kind: "permission_denied", Message: "Board 77 not found or not authorized"}},
	})
}

// TestReadRefusedKeyAt403: a 403 that refuses a bare "key" ("Invalid
// key") refuses the caller's credential, authentication_failed; at a 400
// the word may name a member of the request, and stays an argument.
func TestReadRefusedKeyAt403(t *testing.T) {
	runReadCases(t, []readCase{
		{"invalid key as text at a 403", 403, "text/plain", "Invalid key - create one in the console",
			outcome{Kind: "authentication_failed", Message: "Invalid key - create one in the console"}},
		{"unknown key in JSON at a 403", 403, "", `{"message":"Unknown key"}`,
			outcome{Kind: "authentication_failed", Message: "Unknown key"}},
		{"guard: an invalid key at a 400", 400, "", `{"message":"invalid key 'colour' in style object"}`,
			outcome{Kind: "invalid_arguments", Message: "invalid key 'colour' in style object"}},
		{"guard: a keyboard is no key", 403, "", `{"message":"invalid keyboard layout"}`,
			outcome{Kind: "permission_denied", Message: "invalid keyboard layout"}},
	})
}

// TestReadTextThatOpensAsJSON: a body sent as text/plain that opens with
// a bracket and goes on with a byte no JSON member or value opens with
// ("[ERROR 400] ...") is the text it says it is, read by its words; the
// same bytes sent as JSON, and JSON cut short, stay a malformed answer.
func TestReadTextThatOpensAsJSON(t *testing.T) {
	runReadCases(t, []readCase{
		{"a bracketed tag as text", 400, "text/plain; charset=utf-8", "[ERROR 400] Invalid API key.",
			outcome{Kind: "authentication_failed", Message: "[ERROR 400] Invalid API key."}},
		{"a braced note as text", 503, "text/plain", "{maintenance} back at 17:00 UTC",
			outcome{Kind: "unavailable", Message: "{maintenance} back at 17:00 UTC"}},
		{"guard: the same bytes as JSON", 400, "application/json", "[ERROR 400] Invalid API key.",
			outcome{Kind: "malformed_response", Message: "response body is not valid JSON (status 400)"}},
		{"guard: JSON cut short, as text", 400, "text/plain", `{"error":"Invalid API`,
			outcome{Kind: "malformed_response", Message: "response body is not valid JSON (status 400)"}},
	})
}

// TestReadWaitInNestedObject: a wait member in an object the body's top
// level holds, whatever that object's name, is the error's wait (a rate
// limit's details kept apart: {"rate_limit": {"retry_after": 45}}).
func TestReadWaitInNestedObject(t *testing.T) {
	runReadCases(t, []readCase{
		{"seconds in a limits object", 429, "", `{"message":"Slow down","limits":{"window":"minute","retry_after":12}}`,
			outcome{Kind: "rate_limited", Message: "Slow down", RetryAfterSeconds: 12}},
		{"milliseconds in a throttle object", 503, "", `{"error":"Renderer busy","throttle":{"retryAfterMs":2500}}`,
			outcome{Kind: "unavailable", Message: "Renderer busy", RetryAfterSeconds: 3}},
		{"guard: no wait member, the default", 429, "", `{"message":"Slow down","limits":{"window":"minute"}}`,
			outcome{Kind: "rate_limited", Message: "Slow down", RetryAfterSeconds: 60}},
	})
}

// TestReadEmptyErrorObject: an "error" member that holds an empty object
// beside a success's members marks no failure below 400 (the member is
// there, the failure is not); an error object with members does, and a
// failed status still fails.
func TestReadEmptyErrorObject(t *testing.T) {
	runReadCases(t, []readCase{
		{"an empty error beside data", 200, "", `{"code":"OK-1","message":"Saved","data":{"id":7},"error":{}}`,
			outcome{Data: true}},
		{"an empty error with a space", 201, "", `{"result":"queued","error":{ }}`,
			outcome{Data: true}},
		{"guard: an error with members at a 200", 200, "", `{"error":{"code":"job_stuck","message":"Job is stuck"}}`,
			outcome{Kind: "server_error", Code: "job_stuck", Message: "Job is stuck"}},
		{"guard: an empty error at a 404", 404, "", `{"error":{}}`,
			outcome{Kind: "not_found"}},
	})
}

// TestReadXMLRootError: an XML error document with no Error or Fault
// element whose root element holds a code or a message child is that
// error, at 400 and above; below 400 such a document stays unread, as
// any XML that is not a fault.
func TestReadXMLRootError(t *testing.T) {
	runReadCases(t, []readCase{
		{"code and message under the root", 422, "application/xml", `<result><code>E12</code><message>Sender is not registered</message></result>`,
			outcome{Kind: "invalid_arguments", Code: "E12", Message: "Sender is not registered"}},
		{"a message under the root", 404, "text/xml; charset=utf-8", `<?xml version="1.0"?><reply><status>404</status><message>No such album</message></reply>`,
			outcome{Kind: "not_found", Message: "No such album"}},
		{"guard: below 400 it stays unread", 200, "application/xml", `<result><code>E12</code><message>Sender is not registered</message></result>`,
			outcome{Kind: "malformed_response", Message: "response body is not valid JSON (status 200)"}},
		{"guard: a deeper message is no root's", 400, "application/xml", `<result><data><message>hello</message></data></result>`,
			outcome{Kind: "invalid_arguments"}},
	})
}

// TestReadFailureWordIsNoCode: a code or status that only says the call
// failed ("FAILED", "fail", "failure") is no code, as "error" is not: the
// status and the message read the kind; a code word that names what
// failed stays the code.
func TestReadFailureWordIsNoCode(t *testing.T) {
	runReadCases(t, []readCase{
		{"a FAILED status beside a message", 401, "", `{"status":"FAILED","message":"Token expired"}`,
			outcome{Kind: "authentication_failed", Message: "Token expired"}},
		{"a failure code beside a message", 400, "", `{"code":"failure","message":"Missing field name"}`,
			outcome{Kind: "invalid_arguments", Message: "Missing field name"}},
		{"guard: a code naming what failed", 402, "", `{"code":"PAYMENT_FAILED","message":"Card could not be charged"}`,
			outcome{Kind: "permission_denied", Code: "PAYMENT_FAILED", Message: "Card could not be charged"}},
	})
}

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

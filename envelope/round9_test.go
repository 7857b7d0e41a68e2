package envelope_test

import "testing"

// This file holds the ninth round of general rules (issue 27) about where
// an error's members are, tuned on batch3.jsonl to batch6.jsonl,
// fresh.jsonl's tuned half and responses.jsonl's tuned part, each rule
// with invented examples that state it.

// TestReadCodeWordLabelIsTheCode: a message member that holds only a code
// word ("invalid_app_id", "UNAUTHORIZED", "quotaExceeded") yields to a
// member beside it that says more, and is then the error's code when no
// member named as a code gives one. A code word that nothing says more
// than stays the message; a code member keeps its place.
func TestReadCodeWordLabelIsTheCode(t *testing.T) {
	runReadCases(t, []readCase{
		{"a snake-case message beside a description", 403, "", `{"message":"plan_suspended","description":"Your plan was suspended for non-payment."}`,
			outcome{Kind: "permission_denied", Code: "plan_suspended", Message: "Your plan was suspended for non-payment."}},
		{"a message in capitals beside a detail, nested", 401, "", `{"fault":{"message":"TOKEN_REVOKED","detail":"The session token was revoked by an administrator."}}`,
			outcome{Kind: "authentication_failed", Code: "TOKEN_REVOKED", Message: "The session token was revoked by an administrator."}},
		{"guard: a code member keeps its place", 404, "", `{"code":"E404","message":"shelf_missing","detail":"No shelf numbered 12."}`,
			outcome{Kind: "not_found", Code: "E404", Message: "No shelf numbered 12."}},
		{"guard: a code word alone stays the message", 409, "", `{"Title":"Conflict","Detail":"VersionMismatch"}`,
			outcome{Kind: "conflict", Message: "VersionMismatch"}},
	})
}

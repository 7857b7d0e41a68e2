package envelope_test

import "testing"

// This file holds the eleventh round of general rules (issue 27) about
// where an error's members are and whether a 2xx body is a failure, tuned
// on batch7.jsonl, each rule with invented examples that state it.

// TestReadInnerErrorIsTheSpecificError: an error object's innererror (the
// Microsoft REST API guidelines' more specific error) whose code is a word
// of its own gives the error's code and message; one that only carries a
// request id, or whose code repeats the status, leaves the outer error.
func TestReadInnerErrorIsTheSpecificError(t *testing.T) {
	runReadCases(t, []readCase{
		{"a specific inner code and message", 409, "application/json",
			`{"error":{"code":"Conflict","message":"The request conflicts.","innererror":{"code":"SlotAlreadyBooked","message":"Slot 4 was booked by another client."}}}`,
			outcome{Kind: "conflict", Code: "SlotAlreadyBooked", Message: "Slot 4 was booked by another client."}},
		{"the innermost of two levels", 400, "application/json",
			`{"error":{"code":"BadArgument","message":"Bad argument.","innerError":{"code":"InvalidLanguage","message":"Language xx is not supported.","innererror":{"code":"UnsupportedLanguageCode","message":"The code xx names no language we translate."}}}}`,
			outcome{Kind: "invalid_arguments", Code: "UnsupportedLanguageCode", Message: "The code xx names no language we translate."}},
		{"guard: an inner error of ids only", 404, "application/json",
			`{"error":{"code":"ItemMissing","message":"No item 7.","innerError":{"request-id":"r1","date":"2024-01-01T00:00:00"}}}`,
			outcome{Kind: "not_found", Code: "ItemMissing", Message: "No item 7."}},
		{"guard: an inner code that repeats the status", 503, "application/json",
			`{"error":{"code":"ServiceBusy","message":"Try again soon.","innerError":{"code":"503","message":"The node is busy."}}}`,
			outcome{Kind: "unavailable", Code: "ServiceBusy", Message: "Try again soon."}},
	})
}

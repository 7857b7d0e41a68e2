package envelope_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

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

// TestReadNumberNamedAsCode: a number in a member whose name ends in
// "code", in any case style ("RetCode", "minor_code", "internalErrorCode"),
// is the error's code where no member named as a code in the lists gives
// one; 0 and a number that repeats the status are none, and a status's
// code ("httpStatusCode") is no error code.
func TestReadNumberNamedAsCode(t *testing.T) {
	runReadCases(t, []readCase{
		{"a return code in camel case at 200", 200, "", `{"RetCode":5012,"Message":"Zone cn-9 does not exist"}`,
			outcome{Kind: "not_found", Code: "5012", Message: "Zone cn-9 does not exist"}},
		{"a sub code in snake case in an error object", 403, "", `{"error":{"sub_code":70,"message":"The project is archived."}}`,
			outcome{Kind: "permission_denied", Code: "70", Message: "The project is archived."}},
		{"guard: a status's code is no error code", 409, "", `{"httpStatusCode":409,"message":"Bucket b1 already exists"}`,
			outcome{Kind: "conflict", Message: "Bucket b1 already exists"}},
		{"guard: a code of 0 is none", 404, "", `{"innerCode":0,"message":"Tape 7 was not found"}`,
			outcome{Kind: "not_found", Message: "Tape 7 was not found"}},
	})
}

// TestReadClassIsTheCode: an error object's "type", "reason" or "kind",
// in any case, written as codes are ("VolumeInUse", "QUOTA_EXHAUSTED",
// "offset-negative"),
// is the code when no member named as a code gives one, at the top level
// or in an error object found by its name, and when the header names no
// code either. A class written as a word ("User", "vm") is none, and the
// type of a field's error ({"loc", "msg", "type"}) is the rule the field
// broke, not the error's code.
func TestReadClassIsTheCode(t *testing.T) {
	runReadCases(t, []readCase{
		{"a type in camel case in an object named for an error", 409, "", `{"StorageFault":{"type":"VolumeInUse","message":"Volume v-3 is attached to host h-1"}}`,
			outcome{Kind: "conflict", Code: "VolumeInUse", Message: "Volume v-3 is attached to host h-1"}},
		{"a reason in capitals in a list of messages", 429, "", `{"status":"ERROR","messages":[{"message":"Daily allowance used","reason":"QUOTA_EXHAUSTED"}]}`,
			outcome{Kind: "rate_limited", Code: "QUOTA_EXHAUSTED", Message: "Daily allowance used", RetryAfterSeconds: 60}},
		{"a type in kebab case in a list of messages", 400, "", `{"status":"failed","message":[{"value":"-3","message":"Offset must not be negative.","type":"offset-negative"}]}`,
			outcome{Kind: "invalid_arguments", Code: "offset-negative", Message: "Offset must not be negative."}},
		{"a kind at the top level", 404, "", `{"kind":"ShelfNotFound","message":"shelf 12 is gone"}`,
			outcome{Kind: "not_found", Code: "ShelfNotFound", Message: "shelf 12 is gone"}},
		{"guard: a class written as a word", 404, "", `{"kind":"shelf","message":"shelf 12 is gone"}`,
			outcome{Kind: "not_found", Message: "shelf 12 is gone"}},
		{"guard: a field error's type", 422, "", `{"problems":[{"loc":["query","limit"],"msg":"must be positive","type":"value_error.number"}]}`,
			outcome{Kind: "invalid_arguments", Message: "query.limit: must be positive"}},
	})
}

// TestReadFoundMessageNamesItsField: a message found by its member's name
// in an error object that names the field at fault ("field", "loc",
// "parameter") is written "field: message", as a message read through the
// dialect table's paths is.
func TestReadFoundMessageNamesItsField(t *testing.T) {
	runReadCases(t, []readCase{
		{"a field error in a list named for problems", 400, "", `{"problems":[{"parameter":"from","message":"must be a date"}]}`,
			outcome{Kind: "invalid_arguments", Message: "from: must be a date"}},
		{"guard: an object that names no field", 400, "", `{"problems":[{"message":"the date range is reversed"}]}`,
			outcome{Kind: "invalid_arguments", Message: "the date range is reversed"}},
	})
}

// TestReadHeaderCodeBeatsClass: a code the header names (x-amzn-ErrorType,
// X-Error-Code) is the code before the body's class, which only stands in
// where nothing names a code.
func TestReadHeaderCodeBeatsClass(t *testing.T) {
	c := documented{Status: 409, Body: `{"Reason":"LeaseHeldByOther","message":"The lease is held."}`,
		Header: map[string]string{"Content-Type": "application/json", "X-Error-Code": "LeaseConflict"}}
	want := outcome{Kind: "conflict", Code: "LeaseConflict", Message: "The lease is held."}
	if diff := cmp.Diff(want, c.read()); diff != "" {
		t.Errorf("Read (-want +got):\n%s", diff)
	}
	c.Header = map[string]string{"Content-Type": "application/json"}
	want.Code = "LeaseHeldByOther"
	if diff := cmp.Diff(want, c.read()); diff != "" {
		t.Errorf("without the header's code: Read (-want +got):\n%s", diff)
	}
}

// TestReadFieldNamedInAnyCase: the member that names the field at fault
// is read in any case style ("Field", "field_name", "PropertyPath"), and
// the field goes in front of the message ("field: message") unless the
// message already names it: at its start as a word, or as a word after a
// colon.
func TestReadFieldNamedInAnyCase(t *testing.T) {
	runReadCases(t, []readCase{
		{"a field name in snake case", 400, "", `{"errors":[{"field_name":"due","message":"must be in the future"}]}`,
			outcome{Kind: "invalid_arguments", Message: "due: must be in the future"}},
		{"a field in capitals", 400, "", `{"Errors":[{"Field":"qty","Message":"is not a number"}]}`,
			outcome{Kind: "invalid_arguments", Message: "qty: is not a number"}},
		{"a message that opens with the field", 422, "", `{"error":{"message":"currency is not supported","parameter":"currency"}}`,
			outcome{Kind: "invalid_arguments", Message: "currency is not supported"}},
		{"a message that ends with the field", 400, "", `{"error":"Unknown sort key: rank","field":"rank"}`,
			outcome{Kind: "invalid_arguments", Message: "Unknown sort key: rank"}},
		{"a message that names the field after a colon, mid-sentence", 422, "", `{"field":"limit","code":"E12","description":"Invalid attribute value: limit. Must be at most 500"}`,
			outcome{Kind: "invalid_arguments", Code: "E12", Message: "Invalid attribute value: limit. Must be at most 500"}},
		{"guard: a field inside a longer word is not named", 400, "", `{"errors":[{"field":"rank","message":"ranked lists are closed"}]}`,
			outcome{Kind: "invalid_arguments", Message: "rank: ranked lists are closed"}},
		{"guard: a field that ends the sentence as a word of it", 400, "", `{"errors":[{"field":"phone","message":"is not a valid phone"}]}`,
			outcome{Kind: "invalid_arguments", Message: "phone: is not a valid phone"}},
	})
}

// TestReadErrorObjectMessageInAnyName: in a list of error objects, an
// object with a code is an error object, whose message member may be named
// in any case style or with another word ("ErrorDescription", "info"); an
// object with no code stays an object of field errors, keyed by field.
func TestReadErrorObjectMessageInAnyName(t *testing.T) {
	runReadCases(t, []readCase{
		{"a description in Pascal case beside a code", 400, "", `{"errors":[{"ErrorCode":"bad_zip","ErrorDescription":"The postal code has 4 digits, 5 are needed."}]}`,
			outcome{Kind: "invalid_arguments", Code: "bad_zip", Message: "The postal code has 4 digits, 5 are needed."}},
		{"an info beside a code", 409, "", `{"error":[{"code":"LOCKED.ORDER_API","info":"Order 7 is being edited by another session"}]}`,
			outcome{Kind: "conflict", Code: "LOCKED.ORDER_API", Message: "Order 7 is being edited by another session"}},
		{"guard: an object of field errors keeps its field", 400, "", `{"errors":{"summary":"must not be empty"}}`,
			outcome{Kind: "invalid_arguments", Message: "summary: must not be empty"}},
	})
}

// TestReadCauseAndInfoAreMessages: a top-level "cause" or "info" that
// holds a sentence is the message where no member named as a message is.
func TestReadCauseAndInfoAreMessages(t *testing.T) {
	runReadCases(t, []readCase{
		{"a cause beside a flag", 400, "", `{"success":false,"cause":"Malformed UUID"}`,
			outcome{Kind: "invalid_arguments", Message: "Malformed UUID"}},
		{"a cause at 404", 404, "", `{"ok":false,"Cause":"No such guild"}`,
			outcome{Kind: "not_found", Message: "No such guild"}},
		{"guard: a message comes first", 400, "", `{"message":"limit is too large","cause":"validation"}`,
			outcome{Kind: "invalid_arguments", Message: "limit is too large"}},
	})
}

// TestReadFlaggedFailureMembers: below 400, a body says it failed in the
// members of any case style: an error flag "Success" false; a code sent
// as a string of digits other than zeros beside a message and no data
// (null or empty); an error code written as a code word beside a message
// ("error_info", "retMsg", "status_message"). A code of zeros, a message
// that says success and a body with data stay data.
func TestReadFlaggedFailureMembers(t *testing.T) {
	runReadCases(t, []readCase{
		{"Success false in Pascal case", 200, "", `{"Success":false,"ErrorCode":7,"ErrorText":"Campaign not found."}`,
			outcome{Kind: "not_found", Code: "7", Message: "Campaign not found."}},
		{"a code of digits in a string beside empty data", 200, "", `{"code":"40417","msg":"Order 88 does not exist.","data":[]}`,
			outcome{Kind: "not_found", Code: "40417", Message: "Order 88 does not exist."}},
		{"an error code word beside an error info", 200, "", `{"result":null,"error_code":"ERR-NO-OBJECT","error_info":"Repository r-9 was not found."}`,
			outcome{Kind: "not_found", Code: "ERR-NO-OBJECT", Message: "Repository r-9 was not found."}},
		{"guard: a code of zeros is a success", 200, "", `{"code":"00000","msg":"Order 88 does not exist.","data":[]}`,
			outcome{Data: true}},
		{"guard: a message that says success", 200, "", `{"code":"1","msg":"success","data":null}`,
			outcome{Data: true}},
		{"guard: a code of digits beside data", 200, "", `{"code":"51001","msg":"partial","data":[{"id":1}]}`,
			outcome{Data: true}},
		{"guard: Success true", 200, "", `{"Success":true,"ErrorCode":0,"ErrorText":""}`,
			outcome{Data: true}},
	})
}

// TestReadXMLStatusChild: an XML element whose child named for a status
// says the answer failed (<status>error</status>, <Status>FAILURE</Status>)
// is the error element, at any status and any depth: its code and message
// are the children that follow, named as a code ("errcode", "statuscode")
// or a message ("errtext", "message"). An error element's message may be
// an attribute (<error code="40" message="..."/>). A status child that
// says ok leaves a 200 what it was.
func TestReadXMLStatusChild(t *testing.T) {
	runReadCases(t, []readCase{
		{"a status child deep in a 200", 200, "text/xml", `<reply><domain><set><outcome><status>error</status><errcode>2204</errcode><errtext>Mailbox m-3 does not exist.</errtext></outcome></set></domain></reply>`,
			outcome{Kind: "not_found", Code: "2204", Message: "Mailbox m-3 does not exist."}},
		{"a status child in capitals at 404", 404, "application/xml", `<api><head><Status>FAILURE</Status><StatusCode>312</StatusCode><Message>Share s-4 is gone</Message></head></api>`,
			outcome{Kind: "not_found", Code: "312", Message: "Share s-4 is gone"}},
		{"a message attribute of an inner error", 200, "text/xml", `<svc-response status="failed"><error code="70" message="Playlist was not found"/></svc-response>`,
			outcome{Kind: "not_found", Code: "70", Message: "Playlist was not found"}},
		{"guard: a status child that says ok", 200, "text/xml", `<reply><domain><set><outcome><status>ok</status><id>7</id></outcome></set></domain></reply>`,
			outcome{Kind: "malformed_response", Message: "response body is not valid JSON (status 200)"}},
		{"guard: a deep error element at 200 stays unread", 200, "text/xml", `<feed><entry><item><error>none</error></item></entry></feed>`,
			outcome{Kind: "malformed_response", Message: "response body is not valid JSON (status 200)"}},
	})
}

// TestReadMessageNamedMessage: in an error object, a member whose name
// ends in "message" or "messages" in any case style ("default_message",
// "userMessages") holds its message, before any field error; a one-word
// "error" that is the status's reason phrase is a label, the message when
// nothing says more.
func TestReadMessageNamedMessage(t *testing.T) {
	runReadCases(t, []readCase{
		{"a default message beside arguments", 404, "", `{"error_type":"NOT_FOUND","messages":[{"params":["disk-4"],"default_message":"Disk disk-4 is not attached.","id":"x.disk.missing"}]}`,
			outcome{Kind: "not_found", Code: "NOT_FOUND", Message: "Disk disk-4 is not attached."}},
		{"a list of messages in an info object", 403, "", `{"info":{"code":403,"userMessages":["This token may not read billing data."]},"rows":[]}`,
			outcome{Kind: "permission_denied", Message: "This token may not read billing data."}},
		{"an Error that is the one-word reason phrase", 401, "", `{"Status":401,"RequestID":"r9","Error":"Unauthorized"}`,
			outcome{Kind: "authentication_failed", Message: "Unauthorized"}},
		{"guard: a one-word Error that is no phrase is a code", 404, "", `{"error":"NoSuchTable","detail":"Table t9 is gone"}`,
			outcome{Kind: "not_found", Code: "NoSuchTable", Message: "Table t9 is gone"}},
	})
}

// TestReadWrappedFailure: below 400, a body whose only member is an object
// (a wrapper, whatever its name) is an error when that object would be one
// at any status: it holds a non-empty error object ("error" or "Error")
// beside no data, or an error flag or status that says failed; its code
// and message are found within. A wrapper of data, or one whose error
// object is empty, stays data.
func TestReadWrappedFailure(t *testing.T) {
	runReadCases(t, []readCase{
		{"an Error object in a wrapper beside a request id", 200, "", `{"Reply":{"Error":{"Code":"ResourceNotFound.Disk","Message":"Disk d-7 does not exist."},"RequestId":"r-1"}}`,
			outcome{Kind: "not_found", Code: "ResourceNotFound.Disk", Message: "Disk d-7 does not exist."}},
		{"a wrapper whose status says failed", 200, "", `{"music-api":{"status":"failed","version":"2.1","error":{"code":70,"message":"Album 12 was not found"}}}`,
			outcome{Kind: "not_found", Code: "70", Message: "Album 12 was not found"}},
		{"guard: a wrapper of data", 200, "", `{"Reply":{"Disks":[{"id":"d-7"}],"RequestId":"r-1"}}`,
			outcome{Data: true}},
		{"guard: a wrapper whose error object is empty", 200, "", `{"Reply":{"Error":{},"Disks":[]}}`,
			outcome{Data: true}},
		{"guard: a wrapper with data beside its error", 200, "", `{"Reply":{"error":{"code":1,"message":"partial"},"data":{"rows":3}}}`,
			outcome{Data: true}},
	})
}

// TestReadErrorCodeWordFound: in an error object found by its place (a
// wrapper's only member, an object named for an error), an "error" member
// written as a code word is the code, as OAuth's is; an "error" written as
// a sentence is the message.
func TestReadErrorCodeWordFound(t *testing.T) {
	runReadCases(t, []readCase{
		{"a code word in a wrapper", 404, "", `{"result":{"error":"accountNotFound","status":"error","request":{"account":"a1"}}}`,
			outcome{Kind: "not_found", Code: "accountNotFound"}},
		{"a code word in Pascal case beside a description", 409, "", `{"Outcome":{"Error":"VOLUME_RESIZING","Description":"Volume v-2 is being resized."}}`,
			outcome{Kind: "conflict", Code: "VOLUME_RESIZING", Message: "Volume v-2 is being resized."}},
		{"guard: a sentence is the message", 409, "", `{"Outcome":{"Error":"Volume v-2 is busy"}}`,
			outcome{Kind: "conflict", Message: "Volume v-2 is busy"}},
	})
}

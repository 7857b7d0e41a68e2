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

// TestReadOwnStatusNumberBesideMessage: below 400, a top-level status
// number of the API's own ("status", "status_code" in any case style)
// other than its success, beside a message and no payload, is
// a failure whose code is that number; a status of 0 or a 2xx HTTP
// defines, or one beside a payload or a message that says it succeeded,
// is data.
func TestReadOwnStatusNumberBesideMessage(t *testing.T) {
	runReadCases(t, []readCase{
		{"a status number beside a message", 200, "application/json", `{"status":117,"message":"The route has no stop named Elm."}`,
			outcome{Kind: "server_error", Code: "117", Message: "The route has no stop named Elm."}},
		{"a status code beside a status message", 200, "application/json", `{"statusCode":31,"statusMessage":"The campaign is closed","response":null}`,
			outcome{Kind: "server_error", Code: "31", Message: "The campaign is closed"}},
		{"guard: status 0 is the success", 200, "application/json", `{"status":0,"message":"query ok","result":{"lat":1}}`,
			outcome{Data: true}},
		{"guard: a status beside a payload is data", 200, "application/json", `{"status":3,"message":"partial","results":[{"id":1}]}`,
			outcome{Data: true}},
		{"guard: a message that says it succeeded", 200, "application/json", `{"status":1,"message":"Operation successful"}`,
			outcome{Data: true}},
		{"guard: a success status HTTP defines", 201, "application/json", `{"status":201,"message":"Created"}`,
			outcome{Data: true}},
	})
}

// TestReadFailureWordMessage: below 400, a message that is only the word
// for a failure ("NOTOK", "Failed") flags the body a failure, and a
// "result" sentence beside it is the message; the word is no code. A
// message that says more (an empty result's "No records found") is data.
func TestReadFailureWordMessage(t *testing.T) {
	runReadCases(t, []readCase{
		{"NOTOK with the cause in result", 200, "application/json", `{"status":"0","message":"NOTOK","result":"Error! Invalid block range"}`,
			outcome{Kind: "invalid_arguments", Message: "Error! Invalid block range"}},
		{"Failed in another case style", 200, "application/json", `{"state":"0","msg":"not_ok","result":"Unknown wallet format given"}`,
			outcome{Kind: "server_error", Message: "Unknown wallet format given"}},
		{"guard: an empty result's message is data", 200, "application/json", `{"status":"0","message":"No records found","result":[]}`,
			outcome{Data: true}},
	})
}

// TestReadMessageKeyIsALabel: a message that is a catalogue's key, words
// in lower case joined by dots ("error.conflict"), is only a label: a
// detail or a title beside it is the message; with nothing beside it, the
// key stays. A sentence with dots stays the message.
func TestReadMessageKeyIsALabel(t *testing.T) {
	runReadCases(t, []readCase{
		{"a key beside a title", 409, "application/problem+json", `{"title":"Booking already exists","status":409,"message":"error.booking.exists"}`,
			outcome{Kind: "conflict", Message: "Booking already exists"}},
		{"a key beside a detail", 400, "application/json", `{"detail":"Quantity must be positive","message":"error.validation"}`,
			outcome{Kind: "invalid_arguments", Message: "Quantity must be positive"}},
		{"guard: a key alone stays", 400, "application/json", `{"message":"error.validation"}`,
			outcome{Kind: "invalid_arguments", Message: "error.validation"}},
		{"guard: a sentence with dots is the message", 400, "application/json", `{"message":"Use v2.api.example.com instead.","title":"Moved"}`,
			outcome{Kind: "invalid_arguments", Message: "Use v2.api.example.com instead."}},
	})
}

// TestReadBatchWhoseEveryItemFailed: below 400, a body whose only member
// is a list of items, each an error ("error" object or "errors" list) and
// nothing but ids, is the first item's error; a batch with one item that
// succeeded is a partial success, which is data.
func TestReadBatchWhoseEveryItemFailed(t *testing.T) {
	runReadCases(t, []readCase{
		{"every item an error object", 200, "application/json",
			`{"results":[{"error":{"code":"DOCUMENT_TOO_LARGE","message":"Page 3 is over 20 MB."}},{"error":{"code":"DOCUMENT_TOO_LARGE","message":"Page 4 is over 20 MB."}}]}`,
			outcome{Kind: "server_error", Code: "DOCUMENT_TOO_LARGE", Message: "Page 3 is over 20 MB."}},
		{"an item of an id and errors", 200, "application/json",
			`{"lookups":[{"parcel_id":"P-9","errors":[{"code":"E-404","message":"No parcel with this number"}]}]}`,
			outcome{Kind: "server_error", Code: "E-404", Message: "No parcel with this number"}},
		{"guard: one item succeeded", 200, "application/json",
			`{"results":[{"error":{"code":"DOCUMENT_TOO_LARGE","message":"Page 3 is over 20 MB."}},{"text":"Hello"}]}`,
			outcome{Data: true}},
		{"guard: an item with data beside its error", 200, "application/json",
			`{"results":[{"error":{"code":"PARTIAL","message":"Some pages were skipped."},"pages":[1,2]}]}`,
			outcome{Data: true}},
	})
}

// TestReadNameSentenceIsTheMessage: an error object's "name" that holds a
// sentence is its message where no member named for a message is; a name
// written as a word or a person's name is none, and a list under "name"
// is a field's errors.
func TestReadNameSentenceIsTheMessage(t *testing.T) {
	runReadCases(t, []readCase{
		{"a sentence in name", 400, "application/json", `{"errors":[{"code":"R-17","name":"Route code is unknown"}]}`,
			outcome{Kind: "invalid_arguments", Code: "R-17", Message: "Route code is unknown"}},
		{"guard: a person's name", 409, "application/json", `{"errors":[{"code":"R-18","name":"Jane Doe"}]}`,
			outcome{Kind: "conflict", Code: "R-18"}},
		{"guard: a field's errors under name", 400, "application/json", `{"name":["Too long for a route name, at most 40 characters."]}`,
			outcome{Kind: "invalid_arguments", Message: "name: Too long for a route name, at most 40 characters."}},
	})
}

// TestReadSentenceUnderCodeNameIsAFieldError: in an object of field
// errors, a member named as a code ("type", "name", "status") that holds
// a sentence is a field's error; one that holds a word stays a code (the
// error object's), not a field.
func TestReadSentenceUnderCodeNameIsAFieldError(t *testing.T) {
	runReadCases(t, []readCase{
		{"a sentence under type", 400, "application/json", `{"errors":{"type":"must be one of card, table or list"}}`,
			outcome{Kind: "invalid_arguments", Message: "type: must be one of card, table or list"}},
		{"guard: a word under type is no field", 400, "application/json", `{"errors":{"type":"invalid","email":["is taken by another account"]}}`,
			outcome{Kind: "invalid_arguments", Code: "invalid", Message: "email: is taken by another account"}},
	})
}

// TestReadXMLFailureFlagChild: in an XML answer at any status, a child
// named for success whose text is false, or one named for a result whose
// text says failed ("NOK", "Failed"), makes its parent the error element,
// whose code (an element named for a code or the error's number) and
// message are found within it; a success flag that is true is data.
func TestReadXMLFailureFlagChild(t *testing.T) {
	runReadCases(t, []readCase{
		{"success false", 200, "application/xml",
			`<reply><success>false</success><errors><error><message>Card number is not valid</message><code>3012</code></error></errors></reply>`,
			outcome{Kind: "invalid_arguments", Code: "3012", Message: "Card number is not valid"}},
		{"a result that says NOK, a number as the code", 200, "text/xml",
			`<answer><job><state><CallResult>NOK</CallResult><Failure><Number>88</Number><Message>Mandate has expired</Message></Failure></state></job></answer>`,
			outcome{Kind: "server_error", Code: "88", Message: "Mandate has expired"}},
		{"guard: success true is data", 200, "application/xml",
			`<reply><success>true</success><id>7</id></reply>`,
			outcome{Kind: "malformed_response", Message: "response body is not valid JSON (status 200)"}},
	})
}

// TestReadWrapperTypeIsNoClass: the type of an object that only wraps a
// list of errors, with no message of its own, is the document's type, not
// the error's class, and gives no code; an error object with its own
// message and a type beside its field errors keeps the type as its class.
func TestReadWrapperTypeIsNoClass(t *testing.T) {
	runReadCases(t, []readCase{
		{"a wrapper's type", 422, "application/ld+json", `{"@type":"ProblemList","problems":[{"propertyPath":"qty","message":"must be positive"}]}`,
			outcome{Kind: "invalid_arguments", Message: "qty: must be positive"}},
		{"guard: an error object's own type", 400, "application/json", `{"Message":"Some parameters are wrong.","Type":"param_error","errors":{"Qty":"The Qty field is required."}}`,
			outcome{Kind: "invalid_arguments", Code: "param_error", Message: "Some parameters are wrong."}},
	})
}

// TestReadJSendFailDataFields: at any status, JSend's {"status": "fail"}
// is a failure, whose data's keys are the request's fields at fault: the
// first is the message, "field: message", unless a message member says it.
func TestReadJSendFailDataFields(t *testing.T) {
	runReadCases(t, []readCase{
		{"fail with a field in data", 200, "application/json", `{"status":"fail","data":{"email":"An email address is required"}}`,
			outcome{Kind: "invalid_arguments", Message: "email: An email address is required"}},
		{"guard: a message member stays", 200, "application/json", `{"status":"fail","message":"The form has errors","data":{"email":"An email address is required"}}`,
			outcome{Kind: "server_error", Message: "The form has errors"}},
	})
}

// TestReadWrappedFlaggedFailure: below 400, a body whose only member is an
// object that says failed beside a message (a status number of the API's
// own, an errno) is that failure; a wrapper of a success is data.
func TestReadWrappedFlaggedFailure(t *testing.T) {
	runReadCases(t, []readCase{
		{"a wrapped status code beside a message", 200, "application/json", `{"base":{"status_code":2013,"status_msg":"invalid params, model name is empty"}}`,
			outcome{Kind: "invalid_arguments", Code: "2013", Message: "invalid params, model name is empty"}},
		{"guard: a wrapped success", 200, "application/json", `{"base":{"status_code":0,"status_msg":"success"}}`,
			outcome{Data: true}},
	})
}

// TestReadNestedFailureStatus: below 400, a failure status (400 to 599)
// that the body names in an object of its own (a member named for a
// status, up to three deep), with no payload outside that object, is an
// error of that status whose code is the number and whose message is that
// object's; a failure status beside a payload describes the payload.
func TestReadNestedFailureStatus(t *testing.T) {
	runReadCases(t, []readCase{
		{"a status in meta beside an empty list", 200, "application/json", `{"meta":{"status":404,"message":"No stop with this id"},"stops":[]}`,
			outcome{Kind: "not_found", Code: "404", Message: "No stop with this id"}},
		{"a status two deep with no message", 200, "application/json", `{"envelope":{"head":{"statusCode":429,"took":3},"body":""}}`,
			outcome{Kind: "rate_limited", Code: "429", RetryAfterSeconds: 60}},
		{"guard: a status beside a payload", 200, "application/json", `{"meta":{"status":404},"items":[{"id":1}]}`,
			outcome{Data: true}},
		{"guard: a success status", 200, "application/json", `{"info":{"statuscode":0,"messages":[]},"results":[]}`,
			outcome{Data: true}},
	})
}

// TestReadBackOffWait: a member named "back off" with its unit, in any
// case style, is a wait as "retry after" with its unit is: in JSON
// ("backoff_ms") and in an XML error document, as an element's name or
// as the Name of a value element (<Value Name="BackOffMilliseconds">).
func TestReadBackOffWait(t *testing.T) {
	runReadCases(t, []readCase{
		{"a JSON member in milliseconds", 503, "application/json", `{"message":"Index is rebuilding","backoff_ms":2500}`,
			outcome{Kind: "unavailable", Message: "Index is rebuilding", RetryAfterSeconds: 3}},
		{"an XML value named for a back off", 503, "text/xml",
			`<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><s:Fault><faultcode>s:Server</faultcode><faultstring>Busy, come back later.</faultstring><detail><Value Name="BackOffMilliseconds">1500</Value></detail></s:Fault></s:Body></s:Envelope>`,
			outcome{Kind: "unavailable", Code: "s:Server", Message: "Busy, come back later.", RetryAfterSeconds: 2}},
		{"an XML element named for a retry in seconds", 429, "application/xml",
			`<Error><Code>Throttled</Code><Message>Slow down.</Message><RetryAfterSeconds>7</RetryAfterSeconds></Error>`,
			outcome{Kind: "rate_limited", Code: "Throttled", Message: "Slow down.", RetryAfterSeconds: 7}},
	})
}

// TestReadFieldKeyedErrorObject: in an object of field errors, a field
// whose value is an error object gives that object's message, written
// "field: message".
func TestReadFieldKeyedErrorObject(t *testing.T) {
	runReadCases(t, []readCase{
		{"a field's error object", 422, "application/json", `{"errors":{"quantity":{"code":"MIN","message":"must be at least 1"}}}`,
			outcome{Kind: "invalid_arguments", Code: "MIN", Message: "quantity: must be at least 1"}},
		{"guard: a message member beside the field errors stays", 422, "application/json", `{"message":"Invalid order","errors":{"quantity":{"code":"MIN","message":"must be at least 1"}}}`,
			outcome{Kind: "invalid_arguments", Code: "MIN", Message: "Invalid order"}},
	})
}

// TestReadStatusWordOfFailure: at any status, a top-level status code
// word that ends in an outcome of failure (FAILED, DENIED, REJECTED,
// NOT_PROCESSED) is a failure, though the taxonomy does not know it; a
// status word of a business state, one that opens with such a word, or
// the status of a resource with an id, is data.
func TestReadStatusWordOfFailure(t *testing.T) {
	runReadCases(t, []readCase{
		{"a status that says rejected", 200, "application/json", `{"status":"QUERY_REJECTED","message":"The series list is longer than 50 ids."}`,
			outcome{Kind: "server_error", Code: "QUERY_REJECTED", Message: "The series list is longer than 50 ids."}},
		{"a status that says not processed", 200, "application/json", `{"status":"BATCH_NOT_PROCESSED","message":["The batch was empty."],"Results":{}}`,
			outcome{Kind: "server_error", Code: "BATCH_NOT_PROCESSED", Message: "The batch was empty."}},
		{"guard: a business state", 200, "application/json", `{"status":"PENDING_REVIEW","message":"Your listing is queued."}`,
			outcome{Data: true}},
		{"guard: a word that opens with FAILED names a state", 200, "application/json", `{"status":"FAILED_OVER","message":"Served by the replica."}`,
			outcome{Data: true}},
		{"guard: a resource's own status", 200, "application/json", `{"id":"pay_7","status":"PAYMENT_FAILED","message":"Card declined"}`,
			outcome{Data: true}},
	})
}

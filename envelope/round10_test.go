package envelope_test

import (
	"fmt"
	"testing"
)

// This file holds the tenth round of general rules (issue 27) about where
// an error's members are and the formats they come in, tuned on the tuned
// half of batch7.jsonl, each rule with invented examples that state it.

// TestReadExceptionNameIsTheCode: an "exception" member that names the
// exception's class ("LeaseExpiredException") is the error's code, in any
// error object; a qualified class name ("java.lang.IllegalStateException")
// says where the server's code sits and is no code, and a sentence in
// "exception" stays the message.
func TestReadExceptionNameIsTheCode(t *testing.T) {
	runReadCases(t, []readCase{
		{"a class name in a nested error object", 409, "", `{"ServerFault":{"exception":"LeaseExpiredException","message":"Lease on /data/part-7 expired"}}`,
			outcome{Kind: "conflict", Code: "LeaseExpiredException", Message: "Lease on /data/part-7 expired"}},
		{"a class name at the top level", 404, "", `{"exception":"NoSuchTableException","message":"Table sales.q3 does not exist"}`,
			outcome{Kind: "not_found", Code: "NoSuchTableException", Message: "Table sales.q3 does not exist"}},
		{"guard: a qualified class name is no code", 409, "", `{"exception":"org.example.store.LockedException","message":"Row 7 is locked"}`,
			outcome{Kind: "conflict", Message: "Row 7 is locked"}},
	})
}

// TestReadXMLMessageContainer: a message child of an XML document's root
// that holds elements rather than text is the error element, its code and
// its description children the error's code and message; a message child
// that holds text stays the message.
func TestReadXMLMessageContainer(t *testing.T) {
	runReadCases(t, []readCase{
		{"a message of code and description", 404, "application/xml", `<reply><message><code>NOENT</code><description>No parcel numbered 7 is on file.</description></message></reply>`,
			outcome{Kind: "not_found", Code: "NOENT", Message: "No parcel numbered 7 is on file."}},
		{"guard: a message of text stays the message", 409, "text/xml", `<result><message>Slot 4 is already booked.</message><code>17</code></result>`,
			outcome{Kind: "conflict", Code: "17", Message: "Slot 4 is already booked."}},
	})
}

// TestReadLoneErrorSentence: a body whose only member is "error" holding
// text is a failure at any status, a sentence as well as OAuth's code
// word; the sentence is the message. An empty "error", or one that says
// the call succeeded, is no failure.
func TestReadLoneErrorSentence(t *testing.T) {
	runReadCases(t, []readCase{
		{"a sentence at 200", 200, "application/json", `{"error":"The lookup service failed to answer in time."}`,
			outcome{Kind: "server_error", Message: "The lookup service failed to answer in time."}},
		{"guard: an empty error at 200 is data", 200, "application/json", `{"error":""}`,
			outcome{Data: true}},
		{"guard: an error that says OK at 200 is data", 200, "application/json", `{"error":"OK"}`,
			outcome{Data: true}},
	})
}

// TestReadXMLErrorCodeChild: in an XML answer at any status, a child named
// for an error code ("errorCode", "errCode", "error_code") that holds a
// code other than 0 makes its parent the error element, whose message
// child is the message; a code of 0 says the call succeeded.
func TestReadXMLErrorCodeChild(t *testing.T) {
	runReadCases(t, []readCase{
		{"an errCode in a SOAP answer at 200", 200, "text/xml", `<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body><getSlotResponse><result><errCode>E17</errCode><errMsg>The depot is closed on Sundays.</errMsg></result></getSlotResponse></S:Body></S:Envelope>`,
			outcome{Kind: "server_error", Code: "E17", Message: "The depot is closed on Sundays."}},
		{"an errorCode under the root at 200", 200, "application/xml", `<reply><errorCode>52</errorCode><errorMessage>The depot is closed on Sundays.</errorMessage></reply>`,
			outcome{Kind: "server_error", Code: "52", Message: "The depot is closed on Sundays."}},
		{"guard: an errorCode of 0 is no failure", 200, "application/xml", `<reply><errorCode>0</errorCode><errorMessage></errorMessage><slots>3</slots></reply>`,
			outcome{Kind: "malformed_response", Message: "response body is not valid JSON (status 200)"}},
	})
}

// TestReadFailedCodeWordAndErrorLevel: below 400, a top-level "code" that
// is a failure word ("FAILED", "ERROR") or an error level above 0 beside
// an error's sentence says the call failed (the failure word is no code:
// it says only that); an error level of 0, or a failed code beside data,
// does not.
func TestReadFailedCodeWordAndErrorLevel(t *testing.T) {
	runReadCases(t, []readCase{
		{"a code that says failed at 200", 200, "application/json", `{"code":"FAILED","error":"The merchant account is closed.","result":null}`,
			outcome{Kind: "server_error", Message: "The merchant account is closed."}},
		{"an error level above 0 at 200", 200, "application/json", `{"errorLevel":2,"errorText":"The depot is closed on Sundays."}`,
			outcome{Kind: "server_error", Message: "The depot is closed on Sundays."}},
		{"guard: an error level of 0 is data", 200, "application/json", `{"ErrorLevel":0,"Error":"","Slots":[1,2]}`,
			outcome{Data: true}},
		{"guard: a failed code beside data is data", 200, "application/json", `{"code":"ERROR","error":"one line skipped","data":{"rows":3}}`,
			outcome{Data: true}},
	})
}

// TestReadXMLRootText: at 400 and above, a body declared XML whose root
// element holds one line of text and no element is that text, the
// message, as a one-line text body's is; an HTML fragment of the same
// shape says only its status, as before.
func TestReadXMLRootText(t *testing.T) {
	runReadCases(t, []readCase{
		{"a root of text declared XML", 404, "application/xml", `<result>No depot is numbered 12.</result>`,
			outcome{Kind: "not_found", Message: "No depot is numbered 12."}},
		{"a root of text declared text/xml", 409, "text/xml; charset=utf-8", `<?xml version="1.0"?><msg>Slot 4 is already booked.</msg>`,
			outcome{Kind: "conflict", Message: "Slot 4 is already booked."}},
		{"guard: an HTML fragment says only its status", 404, "text/html", `<h1>Not Found</h1>`,
			outcome{Kind: "not_found"}},
	})
}

// TestReadSOAPFaultDetailError: a SOAP fault whose code says only which
// side failed (soap:Client, env:Receiver) takes the code and the message
// of the error its detail holds, which say what failed; a fault code of
// its own stays.
func TestReadSOAPFaultDetailError(t *testing.T) {
	const env = `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><s:Fault><faultcode>%s</faultcode><faultstring>Fault</faultstring>` +
		`<detail><v:ValidationFault xmlns:v="urn:x"><errorCode>ZIP_4021</errorCode><errorMessage>Postcode 9999 is not in the service area.</errorMessage></v:ValidationFault></detail></s:Fault></s:Body></s:Envelope>`
	runReadCases(t, []readCase{
		{"a side-only fault code yields to its detail's error", 400, "text/xml", fmt.Sprintf(env, "s:Client"),
			outcome{Kind: "invalid_arguments", Code: "ZIP_4021", Message: "Postcode 9999 is not in the service area."}},
		{"guard: a fault code of its own stays", 400, "text/xml", fmt.Sprintf(env, "v:PostcodeRejected"),
			outcome{Kind: "invalid_arguments", Code: "v:PostcodeRejected", Message: "Fault"}},
	})
}

// TestReadNamespacedIDIsTheCode: an "id" written as a code under a
// namespace, words of letters joined by '/' ("auth/unauthorized",
// "folders/archived"), is the error's code; an id with digits is a
// resource's path ("users/42") and no code.
func TestReadNamespacedIDIsTheCode(t *testing.T) {
	runReadCases(t, []readCase{
		{"a namespaced id in an error object", 409, "application/json", `{"error":{"message":"The folder is archived.","id":"folders/archived"}}`,
			outcome{Kind: "conflict", Code: "folders/archived", Message: "The folder is archived."}},
		{"a namespaced kebab id at the top level", 403, "application/json", `{"message":"You cannot edit this board.","id":"boards/edit-forbidden"}`,
			outcome{Kind: "permission_denied", Code: "boards/edit-forbidden", Message: "You cannot edit this board."}},
		{"guard: a resource's path is no code", 409, "application/json", `{"message":"The folder is archived.","id":"folders/42"}`,
			outcome{Kind: "conflict", Message: "The folder is archived."}},
	})
}

// TestReadLoneErrorBesideIDs: a body of an "error" text and only the ids
// of what failed ("request_id", "queryId") is a failure, as a lone
// "error" is; a bare "id" names a resource, whose body stays data.
func TestReadLoneErrorBesideIDs(t *testing.T) {
	runReadCases(t, []readCase{
		{"an error beside a request id at 200", 200, "application/json", `{"request_id":"r-81","error":"The lookup service failed to answer in time."}`,
			outcome{Kind: "server_error", Message: "The lookup service failed to answer in time."}},
		{"an error beside two ids in camel case at 200", 200, "application/json", `{"queryId":"7","traceId":"ab12","error":"The lookup service failed to answer in time."}`,
			outcome{Kind: "server_error", Message: "The lookup service failed to answer in time."}},
		{"guard: beside a bare id it is data", 200, "application/json", `{"id":"job-4","error":"one row skipped"}`,
			outcome{Data: true}},
	})
}

// TestReadFHIROperationOutcome: HL7 FHIR's OperationOutcome is read as its
// specification says: the first issue's coded details give the code (else
// the code, a class such as "processing") and their text or
// display the message (else its diagnostics); an OperationOutcome at 200
// reports on a success and stays data.
func TestReadFHIROperationOutcome(t *testing.T) {
	runReadCases(t, []readCase{
		{"coded details", 404, "application/fhir+json", `{"resourceType":"OperationOutcome","issue":[{"severity":"error","code":"not-found","details":{"coding":[{"system":"urn:example","code":"NO_SUCH_ENCOUNTER","display":"No encounter E-77 is on file"}]}}]}`,
			outcome{Kind: "not_found", Code: "NO_SUCH_ENCOUNTER", Message: "No encounter E-77 is on file"}},
		{"diagnostics only", 409, "application/fhir+json", `{"resourceType":"OperationOutcome","issue":[{"severity":"error","code":"conflict","diagnostics":"Version 3 of Observation/9 was replaced"}]}`,
			outcome{Kind: "conflict", Code: "conflict", Message: "Version 3 of Observation/9 was replaced"}},
		{"guard: an information outcome at 200 is data", 200, "application/fhir+json", `{"resourceType":"OperationOutcome","issue":[{"severity":"information","code":"informational","diagnostics":"All OK"}]}`,
			outcome{Data: true}},
	})
}

// TestReadTagAndNamespacedClass: an error object's "tag" or "class"
// written as a code word is its class, as "type", "reason" and "kind"
// are, and so is a class written as a namespaced code
// ("acme.booking/slot-held", "Shelf::Missing"); the class is the code
// where nothing names one.
func TestReadTagAndNamespacedClass(t *testing.T) {
	runReadCases(t, []readCase{
		{"a tag beside an error sentence", 409, "application/json", `{"traceId":"t-1","error":"The slot was booked a moment ago.","tag":"SLOT_TAKEN"}`,
			outcome{Kind: "conflict", Code: "SLOT_TAKEN", Message: "The slot was booked a moment ago."}},
		{"a namespaced kind", 409, "application/json", `{"kind":"acme.booking/slot-held","msg":"Slot 4 is held by another order."}`,
			outcome{Kind: "conflict", Code: "acme.booking/slot-held", Message: "Slot 4 is held by another order."}},
		{"a class in a Ruby namespace", 404, "application/json", `{"class":"Shelf::Missing","message":"No shelf numbered 12."}`,
			outcome{Kind: "not_found", Code: "Shelf::Missing", Message: "No shelf numbered 12."}},
		{"guard: a tag in words is no code", 409, "application/json", `{"error":"The slot was booked a moment ago.","tag":"booking"}`,
			outcome{Kind: "conflict", Message: "The slot was booked a moment ago."}},
	})
}

// TestReadStatusSentenceIsTheMessage: a "status" member that holds a
// sentence ("No rows matched the filter.") is the message where no member
// named for a message holds one; a status's word or phrase ("error",
// "Not Found") is none.
func TestReadStatusSentenceIsTheMessage(t *testing.T) {
	runReadCases(t, []readCase{
		{"a sentence in status beside an error number", 404, "application/json", `{"error":404,"status":"No rows matched the filter."}`,
			outcome{Kind: "not_found", Message: "No rows matched the filter."}},
		{"a sentence in status in an error object", 409, "application/json", `{"fault":{"status":"The job is already running on node 3."}}`,
			outcome{Kind: "conflict", Message: "The job is already running on node 3."}},
		{"guard: a status phrase is no message", 409, "application/json", `{"error":409,"status":"Not Modified"}`,
			outcome{Kind: "conflict"}},
	})
}

// TestReadNestedErrorsListIsTheMessage: in an object found as the error's
// (one that holds an "errors" member), a list of strings under "errors"
// gives its first string as the message, as a top-level one does.
func TestReadNestedErrorsListIsTheMessage(t *testing.T) {
	runReadCases(t, []readCase{
		{"errors strings in a wrapper object", 400, "application/json", `{"search":{"version":"2","errors":["param 'q' must not be empty"]},"hits":[]}`,
			outcome{Kind: "invalid_arguments", Message: "param 'q' must not be empty"}},
		{"guard: a list of objects is read as before", 400, "application/json", `{"search":{"errors":[{"message":"param 'q' must not be empty"}]}}`,
			outcome{Kind: "invalid_arguments", Message: "param 'q' must not be empty"}},
	})
}

package envelope_test

import "testing"

// This file holds the eighth round of general rules (issue 27), tuned on
// batch6.jsonl, batch5.jsonl, batch3.jsonl, fresh.jsonl and
// responses.jsonl's tuned part, each rule with invented examples that
// state it; batch4.jsonl stays held out.

// TestReadXMLFlaggedFailed: an XML element whose attribute named for a
// status, a class or a result says the answer failed (status="error",
// Status="FAILED", ResponseClass="Error") is the error, at any status and
// at any depth of a SOAP body: its code is a child or an attribute named
// as a code or a number, its message a child named as a message (msg,
// ...Message, MessageText) at any depth, or an inner <Error>'s own text.
// A status or class that says anything else leaves the document what it
// was.
func TestReadXMLFlaggedFailed(t *testing.T) {
	const soap = `<?xml version="1.0"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>`
	runReadCases(t, []readCase{
		{"a root whose status says error, at 200", 200, "application/xml", `<result status="error" code="12"><msg>Volume vol-9 not found</msg></result>`,
			outcome{Kind: "not_found", Code: "12", Message: "Volume vol-9 not found"}},
		{"the message in an inner element, at 403", 403, "application/xml", `<reply status='failed'><body><msg>Invalid credential</msg></body></reply>`,
			outcome{Kind: "authentication_failed", Message: "Invalid credential"}},
		{"an inner error's own text and number", 200, "text/xml", `<Answer Status="ERROR"><Errors><Error Number="31">Parameter Token is invalid</Error></Errors><Host>h1</Host></Answer>`,
			outcome{Kind: "authentication_failed", Code: "31", Message: "Parameter Token is invalid"}},
		{"a SOAP body's item whose class says error", 200, "text/xml", soap + `<x:ListResponse xmlns:x="urn:x"><x:Items><x:Item ResponseClass="Error"><x:MessageText>Folder does not exist.</x:MessageText><x:ResponseCode>ErrorFolderMissing</x:ResponseCode></x:Item></x:Items></x:ListResponse></soap:Body></soap:Envelope>`,
			outcome{Kind: "not_found", Code: "ErrorFolderMissing", Message: "Folder does not exist."}},
		{"guard: a status that says ok", 200, "application/xml", `<result status="ok"><msg>done</msg></result>`,
			outcome{Kind: "malformed_response", Message: "response body is not valid JSON (status 200)"}},
		{"guard: a SOAP body's item whose class says success", 200, "text/xml", soap + `<x:ListResponse xmlns:x="urn:x"><x:Items><x:Item ResponseClass="Success"><x:MessageText>ok</x:MessageText></x:Item></x:Items></x:ListResponse></soap:Body></soap:Envelope>`,
			outcome{Kind: "malformed_response", Message: "response body is not valid JSON (status 200)"}},
	})
}

// TestReadXMLDetailAndStatusCode: an XML error's <Detail> that holds text
// is its message where no child named as a message gives one, and a code
// that only repeats the HTTP status is no code; a <Detail> that holds
// elements stays no message.
func TestReadXMLDetailAndStatusCode(t *testing.T) {
	runReadCases(t, []readCase{
		{"a detail's text, the status as code", 409, "application/xml", `<Error><Code>409</Code><Detail>Queue 'jobs' already exists. Tracking:7a</Detail></Error>`,
			outcome{Kind: "conflict", Message: "Queue 'jobs' already exists. Tracking:7a"}},
		{"a code that is not the status stays", 404, "application/xml", `<Error><Code>NoSuchQueue</Code><Detail>Queue 'jobs' is gone</Detail></Error>`,
			outcome{Kind: "not_found", Code: "NoSuchQueue", Message: "Queue 'jobs' is gone"}},
		{"guard: a detail of elements is no message", 400, "application/xml", `<Error><Code>Bad</Code><Detail><Field>size</Field></Detail></Error>`,
			outcome{Kind: "invalid_arguments", Code: "Bad"}},
	})
}

// TestReadNotPresent: "not present" says a thing is missing, as "not
// found" does; an argument not present stays an argument's problem.
func TestReadNotPresent(t *testing.T) {
	runReadCases(t, []readCase{
		{"an object not present", 200, "application/xml", `<response status="error"><msg>Object web-7 not present</msg></response>`,
			outcome{Kind: "not_found", Message: "Object web-7 not present"}},
		{"guard: a parameter not present", 200, "application/xml", `<response status="error"><msg>parameter 'zone' not present</msg></response>`,
			outcome{Kind: "invalid_arguments", Message: "parameter 'zone' not present"}},
	})
}

// TestReadFlaggedFailure: a body below 400 whose top-level member named
// for a status, a result or an error number (in any case style) says the
// call failed, beside a message, is an error: a status or result that is
// a failure word or an HTTP failure's number, an error number or return
// code other than 0. The same members saying success, a body with data
// and a resource's own status stay data.
func TestReadFlaggedFailure(t *testing.T) {
	runReadCases(t, []readCase{
		{"an error number beside errmsg", 200, "", `{"errno":2041,"errmsg":"album not found","data":""}`,
			outcome{Kind: "not_found", Code: "2041", Message: "album not found"}},
		{"a status in capitals that says Fail", 200, "", `{"JobId":7,"Status":"Fail","Message":"column count does not match","Rows":0}`,
			outcome{Kind: "server_error", Message: "column count does not match"}},
		{"a return code in camel case", 200, "", `{"RetCode":230,"Message":"Missing signature"}`,
			outcome{Kind: "authentication_failed", Code: "230", Message: "Missing signature"}}, // the number is the code since round 9 (TestReadNumberNamedAsCode)
		{"a status number of an HTTP failure beside an error sentence", 200, "text/plain", `{"request":{"op":"read"},"error_type":"NoSuchBean","error":"bean cache:type=L2 is not registered","status":404}`,
			outcome{Kind: "not_found", Code: "NoSuchBean", Message: "bean cache:type=L2 is not registered"}},
		{"guard: an error number of 0 with data", 200, "", `{"errno":0,"errmsg":"","data":{"id":7}}`,
			outcome{Data: true}},
		{"guard: a status that says success", 200, "", `{"JobId":8,"Status":"Success","Message":"OK","Rows":10}`,
			outcome{Data: true}},
		{"guard: a status of 200 beside a value", 200, "", `{"value":{"used":1},"error":"none at all","status":200}`,
			outcome{Data: true}},
		{"guard: a resource whose own status failed", 200, "", `{"id":"load-3","status":"failed","message":"disk full"}`,
			outcome{Data: true}},
	})
}

// TestReadFaultCodeWord: a SOAP or XML-RPC fault whose code the taxonomy
// does not know (soap:Server, a number) and whose text is, or opens with,
// a code word in capitals that names a kind ("BACKEND_UNAVAILABLE",
// "RATE_LIMIT_EXCEEDED: slow down") is of that word's kind; a text in
// words leaves the fault to its status.
func TestReadFaultCodeWord(t *testing.T) {
	const soap = `<?xml version="1.0"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode>soap:Server</faultcode><faultstring>`
	const end = `</faultstring></soap:Fault></soap:Body></soap:Envelope>`
	const rpc = `<?xml version="1.0"?><methodResponse><fault><value><struct><member><name>faultCode</name><value><int>7</int></value></member><member><name>faultString</name><value><string>`
	const rpcEnd = `</string></value></member></struct></value></fault></methodResponse>`
	runReadCases(t, []readCase{
		{"a SOAP fault string that is a code word", 500, "text/xml", soap + "BACKEND_UNAVAILABLE" + end,
			outcome{Kind: "unavailable", Code: "soap:Server", Message: "BACKEND_UNAVAILABLE"}},
		{"an XML-RPC fault string that opens with one, at 500", 500, "text/xml", rpc + "RATE_LIMIT_EXCEEDED: slow down" + rpcEnd,
			outcome{Kind: "rate_limited", Code: "7", Message: "RATE_LIMIT_EXCEEDED: slow down", RetryAfterSeconds: 60}},
		{"guard: a fault string in words", 500, "text/xml", soap + "Backend failed to answer" + end,
			outcome{Kind: "server_error", Code: "soap:Server", Message: "Backend failed to answer"}},
	})
}

// TestReadGraphQLExtensionsStatus: a failed GraphQL response whose first
// error has no code and whose extensions name an HTTP failure in a member
// named for a status, in any case style ("statusCode", "http_status"), is
// of that status's kind; a code in the extensions still decides, and a
// status that is no failure says nothing.
func TestReadGraphQLExtensionsStatus(t *testing.T) {
	runReadCases(t, []readCase{
		{"a router's subgraph answered 503", 200, "", `{"errors":[{"message":"Fetch from service 'stock' failed.","extensions":{"statusCode":503}}],"data":null}`,
			outcome{Kind: "unavailable", Message: "Fetch from service 'stock' failed."}},
		{"snake case, a 404", 200, "", `{"errors":[{"message":"Order lookup failed","path":["order"],"extensions":{"http_status":404}}],"data":{"order":null}}`,
			outcome{Kind: "not_found", Message: "Order lookup failed"}},
		{"guard: a code decides", 200, "", `{"errors":[{"message":"Slow down","extensions":{"code":"RATE_LIMITED","statusCode":500}}],"data":null}`,
			outcome{Kind: "rate_limited", Code: "RATE_LIMITED", Message: "Slow down", RetryAfterSeconds: 60}},
		{"guard: a status that is no failure", 200, "", `{"errors":[{"message":"Resolver crashed","extensions":{"statusCode":200}}],"data":null}`,
			outcome{Kind: "server_error", Message: "Resolver crashed"}},
	})
}

package envelope_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
)

// read is what Read made of a response, in the terms these tests check.
type read struct {
	Data       bool
	Kind       errkind.Kind
	Code       string
	Message    string
	HTTPStatus int
	RetryAfter time.Duration
	JSONBody   bool // the Error carries the body (it was a JSON error body)
}

func readOf(err error) read {
	if err == nil {
		return read{Data: true}
	}
	e, ok := err.(*envelope.Error)
	if !ok {
		return read{Message: "not an *envelope.Error: " + err.Error()}
	}
	return read{Kind: e.Kind, Code: e.Code, Message: e.Message, HTTPStatus: e.HTTPStatus, RetryAfter: e.RetryAfter, JSONBody: e.Body != nil}
}

type causeCase struct {
	name   string
	status int
	body   string
	header []string
	want   read
}

func runCauses(t *testing.T, r *envelope.Reader, tests []causeCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v map[string]any
			got := readOf(r.Read(response(tt.status, tt.body, tt.header...), &v))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Read (-want +got):\n%s", diff)
			}
		})
	}
}

const minute = 60 * time.Second

// TestReadMessageAndCodeFields: the dialect table finds the message and
// the code wherever the common dialects keep them.
func TestReadMessageAndCodeFields(t *testing.T) {
	runCauses(t, reader(), []causeCase{
		{"errors as a list of strings: the first is the message", 422, `{"errors":["Name can't be blank","Email is invalid"]}`, nil,
			read{Kind: errkind.InvalidArguments, Message: "Name can't be blank", HTTPStatus: 422, JSONBody: true}},
		{"message as an object of field errors", 422, `{"message":{"email":["has already been taken"],"name":["is too short"]}}`, nil,
			read{Kind: errkind.InvalidArguments, Message: "email: has already been taken", HTTPStatus: 422, JSONBody: true}},
		{"errors as an object of field errors with string values", 400, `{"errors":{"summary":"Summary is required"}}`, nil,
			read{Kind: errkind.InvalidArguments, Message: "summary: Summary is required", HTTPStatus: 400, JSONBody: true}},
		{"a top-level array of {message, errorCode}", 400, `[{"message":"No such column","errorCode":"INVALID_FIELD","fields":["Foo"]}]`, nil,
			read{Kind: errkind.InvalidArguments, Code: "INVALID_FIELD", Message: "No such column", HTTPStatus: 400, JSONBody: true}},
		{"errorSummary and errorCode", 401, `{"errorCode":"E0000011","errorSummary":"Invalid token provided","errorCauses":[]}`, nil,
			read{Kind: errkind.AuthenticationFailed, Code: "E0000011", Message: "Invalid token provided", HTTPStatus: 401, JSONBody: true}},
		{"error_message and error_code", 400, `{"error_code":"INVALID_FIELD","error_message":"amount must be positive"}`, nil,
			read{Kind: errkind.InvalidArguments, Code: "INVALID_FIELD", Message: "amount must be positive", HTTPStatus: 400, JSONBody: true}},
		{"description", 404, `{"error":"RecordNotFound","description":"Not found"}`, nil,
			read{Kind: errkind.NotFound, Code: "RecordNotFound", Message: "Not found", HTTPStatus: 404, JSONBody: true}},
		{"error.reason, a sentence, is the message", 400, `{"error":{"type":"parsing_exception","reason":"unknown query [matchx]"},"status":400}`, nil,
			read{Kind: errkind.InvalidArguments, Code: "parsing_exception", Message: "unknown query [matchx]", HTTPStatus: 400, JSONBody: true}},
		{"reason, one word, is the code", 404, `{"kind":"Status","status":"Failure","message":"pods \"x\" not found","reason":"NotFound","code":404}`, nil,
			read{Kind: errkind.NotFound, Code: "NotFound", Message: `pods "x" not found`, HTTPStatus: 404, JSONBody: true}},
		{"error_summary path", 409, `{"error_summary":"path/not_found/...","error":{".tag":"path"}}`, nil,
			read{Kind: errkind.NotFound, Code: "path/not_found/...", HTTPStatus: 409, JSONBody: true}},
		{"error_code names a rate limit on a 403", 403, `{"error_code":"RATE_LIMIT_EXCEEDED","message":"slow down"}`, nil,
			read{Kind: errkind.RateLimited, Code: "RATE_LIMIT_EXCEEDED", Message: "slow down", HTTPStatus: 403, RetryAfter: minute, JSONBody: true}},
		{"extensions.errorClass of a GraphQL error", 200, `{"errors":[{"message":"no such user","extensions":{"errorClass":"NOT_FOUND"}}],"data":null}`, nil,
			read{Kind: errkind.NotFound, Code: "NOT_FOUND", Message: "no such user", HTTPStatus: 200, JSONBody: true}},
		{"extensions.errorClass beside a REST message", 400, `{"message":"too fast","extensions":{"errorClass":"RATE_LIMITED"}}`, nil,
			read{Kind: errkind.RateLimited, Code: "RATE_LIMITED", Message: "too fast", HTTPStatus: 400, RetryAfter: minute, JSONBody: true}},
		{"a numeric code that repeats the status yields to errors[0].reason, before the status name", 403,
			`{"error":{"code":403,"message":"Quota","status":"PERMISSION_DENIED","errors":[{"reason":"rateLimitExceeded","message":"Quota"}]}}`, nil,
			read{Kind: errkind.RateLimited, Code: "rateLimitExceeded", Message: "Quota", HTTPStatus: 403, RetryAfter: minute, JSONBody: true}},
		{"a numeric code that repeats the status, alone, is no code", 404, `{"error":{"code":404,"message":"gone"}}`, nil,
			read{Kind: errkind.NotFound, Message: "gone", HTTPStatus: 404, JSONBody: true}},
		{"a string code that repeats the status is no code either", 404, `{"error":{"code":"404","message":"gone"}}`, nil,
			read{Kind: errkind.NotFound, Message: "gone", HTTPStatus: 404, JSONBody: true}},
		{"a numeric code of the API's own stays", 400, `{"code":50035,"message":"Invalid Form Body"}`, nil,
			read{Kind: errkind.InvalidArguments, Code: "50035", Message: "Invalid Form Body", HTTPStatus: 400, JSONBody: true}},
		{"a type tag is no code", 404, `{"type":"error.list","errors":[{"code":"not_found","message":"User Not Found"}]}`, nil,
			read{Kind: errkind.NotFound, Code: "not_found", Message: "User Not Found", HTTPStatus: 404, JSONBody: true}},
	})
}

// TestReadErrorFlagsAndRPC: a JSON-RPC error and an API's error flag are
// errors at any status; the JSON-RPC code goes through errkind's catalogue.
func TestReadErrorFlagsAndRPC(t *testing.T) {
	runCauses(t, reader(), []causeCase{
		{"JSON-RPC -32602 on a 200", 200, `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"invalid argument 0"}}`, nil,
			read{Kind: errkind.InvalidArguments, Code: "-32602", Message: "invalid argument 0", HTTPStatus: 200, JSONBody: true}},
		{"JSON-RPC -32601, the error before jsonrpc", 200, `{"id":1,"error":{"code":-32601,"message":"the method x does not exist"},"jsonrpc":"2.0"}`, nil,
			read{Kind: errkind.InvalidArguments, Code: "-32601", Message: "the method x does not exist", HTTPStatus: 200, JSONBody: true}},
		{"JSON-RPC -32603", 500, `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"internal error"}}`, nil,
			read{Kind: errkind.ServerError, Code: "-32603", Message: "internal error", HTTPStatus: 500, JSONBody: true}},
		{"JSON-RPC data.code and its wait", 200, `{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"slow down","data":{"code":"rate_limited","retryAfterSeconds":7}}}`, nil,
			read{Kind: errkind.RateLimited, Code: "rate_limited", Message: "slow down", HTTPStatus: 200, RetryAfter: 7 * time.Second, JSONBody: true}},
		{"JSON-RPC server range on a 429: the status tells", 429, `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"too many requests"}}`, nil,
			read{Kind: errkind.RateLimited, Code: "-32000", Message: "too many requests", HTTPStatus: 429, RetryAfter: minute, JSONBody: true}},
		{"JSON-RPC result is data", 200, `{"jsonrpc":"2.0","id":1,"result":{"error":null}}`, nil, read{Data: true}},
		{`{"success": false} on a 200`, 200, `{"success":false,"errors":[{"code":1003,"message":"Invalid or missing zone id."}],"messages":[],"result":null}`, nil,
			read{Kind: errkind.InvalidArguments, Code: "1003", Message: "Invalid or missing zone id.", HTTPStatus: 200, JSONBody: true}}, // below 400, the message's words say an argument (round 10)
		{`{"success": true} is data`, 200, `{"success":true,"errors":[],"result":{"id":"x"}}`, nil, read{Data: true}},
		{`JSend {"status": "error"} on a 200`, 200, `{"status":"error","message":"Unable to communicate with database"}`, nil,
			read{Kind: errkind.ServerError, Message: "Unable to communicate with database", HTTPStatus: 200, JSONBody: true}},
		{`JSend {"status": "success"} is data`, 200, `{"status":"success","data":{"error":false}}`, nil, read{Data: true}},
	})
}

// TestReadWaits: the wait is the longest the response speaks of, and a
// rate_limited error never comes back before a reset it was told of.
func TestReadWaits(t *testing.T) {
	rl := func(status int, wait time.Duration) read {
		return read{Kind: errkind.RateLimited, Message: "slow down", HTTPStatus: status, RetryAfter: wait, JSONBody: true}
	}
	body := `{"message":"slow down"}`
	epoch := func(d time.Duration) string { return strconv.FormatInt(now.Add(d).Unix(), 10) }
	runCauses(t, reader(), []causeCase{
		{"429 without Retry-After: 60 seconds", 429, body, nil, rl(429, minute)},
		{"429 whose reset, in seconds, is later than 60", 429, body, []string{"X-RateLimit-Reset", "3600"}, rl(429, time.Hour)},
		{"429 whose reset, an epoch, is later than 60", 429, body, []string{"X-RateLimit-Remaining", "0", "X-RateLimit-Reset", epoch(10 * time.Minute)}, rl(429, 10*time.Minute)},
		{"429 in the x-rate-limit spelling", 429, body, []string{"x-rate-limit-remaining", "0", "x-rate-limit-reset", epoch(15 * time.Minute)}, rl(429, 15*time.Minute)},
		{"429 whose reset is sooner keeps 60", 429, body, []string{"X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "10"}, rl(429, minute)},
		{"429 with requests left: the reset is another window's", 429, body, []string{"X-RateLimit-Remaining", "5", "X-RateLimit-Reset", "3600"}, rl(429, minute)},
		{"Retry-After and a later reset of an exhausted window: the reset", 429, body,
			[]string{"Retry-After", "5", "X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "120"}, rl(429, 2*minute)},
		{"403 with nothing remaining waits for the reset, sooner or not", 403, body, []string{"X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "10"}, rl(403, 10*time.Second)},
		{"decimal Retry-After", 429, body, []string{"Retry-After", "1.5"}, rl(429, 1500*time.Millisecond)},
		{"Retry-After-Ms", 429, body, []string{"Retry-After-Ms", "250"}, rl(429, 250*time.Millisecond)},
		{"x-ms-retry-after-ms", 429, body, []string{"x-ms-retry-after-ms", "1250"}, rl(429, 1250*time.Millisecond)},
		{"the longest of Retry-After and Retry-After-Ms", 429, body, []string{"Retry-After", "2", "Retry-After-Ms", "3500"}, rl(429, 3500*time.Millisecond)},
		{"RetryInfo beside a string code (the envelope's one decode)", 429,
			`{"error":{"code":"rate_limited","message":"slow down","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"12.5s"}]}}`, nil,
			read{Kind: errkind.RateLimited, Code: "rate_limited", Message: "slow down", HTTPStatus: 429, RetryAfter: 12500 * time.Millisecond, JSONBody: true}},
		{"RetryInfo longer than Retry-After", 429,
			`{"error":{"code":429,"message":"slow down","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"40s"}]}}`,
			[]string{"Retry-After", "5"},
			read{Kind: errkind.RateLimited, Code: "RESOURCE_EXHAUSTED", Message: "slow down", HTTPStatus: 429, RetryAfter: 40 * time.Second, JSONBody: true}},
		{"a wait on another kind: Retry-After-Ms on a 503", 503, `{"message":"maintenance"}`, []string{"Retry-After-Ms", "800"},
			read{Kind: errkind.Unavailable, Message: "maintenance", HTTPStatus: 503, RetryAfter: 800 * time.Millisecond, JSONBody: true}},
	})
}

// TestReadFormats: empty 2xx bodies are data; a gateway's page is
// unavailable whatever its format; XML error documents and the code
// fields of the header are read; text and HTML keep the kind of their
// status.
func TestReadFormats(t *testing.T) {
	html := "<html><body><h1>Error</h1></body></html>"
	var tests []causeCase
	for _, status := range []int{200, 201, 202, 203, 206, 304} {
		tests = append(tests, causeCase{"empty " + strconv.Itoa(status), status, "", nil, read{Data: true}})
	}
	for _, status := range []int{502, 503, 504, 520, 521, 522, 523, 524, 525, 526, 527, 530} {
		s := strconv.Itoa(status)
		tests = append(tests,
			causeCase{"HTML " + s, status, html, []string{"Content-Type", "text/html"}, read{Kind: errkind.Unavailable, HTTPStatus: status}},
			causeCase{"empty " + s, status, "", nil, read{Kind: errkind.Unavailable, HTTPStatus: status}},
			causeCase{"text " + s + " with Retry-After", status, "try later", []string{"Content-Type", "text/plain", "Retry-After", "9"},
				read{Kind: errkind.Unavailable, Message: "try later", HTTPStatus: status, RetryAfter: 9 * time.Second}},
			causeCase{"JSON " + s + " without a code", status, `{"message":"origin down"}`, nil,
				read{Kind: errkind.Unavailable, Message: "origin down", HTTPStatus: status, JSONBody: true}},
		)
	}
	tests = append(tests, []causeCase{
		{"HTML 500 says nothing: malformed_response", 500, html, []string{"Content-Type", "text/html"},
			read{Kind: errkind.MalformedResponse, Message: "response body is not valid JSON (status 500)", HTTPStatus: 500}},
		{"text 501 says nothing: malformed_response", 501, "Not Implemented", []string{"Content-Type", "text/plain"},
			read{Kind: errkind.MalformedResponse, Message: "response body is not valid JSON (status 501)", HTTPStatus: 501}},
		{"text 401", 401, "Unauthorized", []string{"Content-Type", "text/plain"},
			read{Kind: errkind.AuthenticationFailed, Message: "Unauthorized", HTTPStatus: 401}},
		{"HTML 410", 410, html, []string{"Content-Type", "text/html"}, read{Kind: errkind.NotFound, HTTPStatus: 410}},
		{"text 405: the kind the taxonomy gives any other 4xx", 405, "Method Not Allowed", []string{"Content-Type", "text/plain"},
			read{Kind: errkind.InvalidArguments, Message: "Method Not Allowed", HTTPStatus: 405}},
		{"HTML 429", 429, html, nil, read{Kind: errkind.RateLimited, HTTPStatus: 429, RetryAfter: minute}},
		{"XML error", 404, `<?xml version="1.0"?><Error><Code>NoSuchBucket</Code><Message>The specified bucket does not exist</Message></Error>`, nil,
			read{Kind: errkind.NotFound, Code: "NoSuchBucket", Message: "The specified bucket does not exist", HTTPStatus: 404}},
		{"XML error nested in ErrorResponse, whitespace trimmed", 400,
			"<ErrorResponse><Error>\n <Type>Sender</Type>\n <Code> Throttling </Code>\n <Message>\n Rate exceeded\n </Message>\n</Error></ErrorResponse>", nil,
			read{Kind: errkind.RateLimited, Code: "Throttling", Message: "Rate exceeded", HTTPStatus: 400, RetryAfter: minute}},
		{"OData XML error", 404,
			`<?xml version="1.0" encoding="utf-8"?><m:error xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata"><m:code>ResourceNotFound</m:code><m:message xml:lang="en-US">The specified resource does not exist.</m:message></m:error>`, nil,
			read{Kind: errkind.NotFound, Code: "ResourceNotFound", Message: "The specified resource does not exist.", HTTPStatus: 404}},
		{"XML without an Error element keeps the kind of its status", 403, `<Response><Status>denied</Status></Response>`, nil,
			read{Kind: errkind.PermissionDenied, HTTPStatus: 403}},
		{"x-ms-error-code on an empty body", 404, "", []string{"x-ms-error-code", "ContainerNotFound"},
			read{Kind: errkind.NotFound, Code: "ContainerNotFound", HTTPStatus: 404}},
		{"x-ms-error-code when the JSON body has no code", 409, `{"message":"busy"}`, []string{"x-ms-error-code", "LeaseAlreadyPresent"},
			read{Kind: errkind.Conflict, Code: "LeaseAlreadyPresent", Message: "busy", HTTPStatus: 409, JSONBody: true}},
		{"the body's code wins over the header's", 404, `<Error><Code>BlobNotFound</Code></Error>`, []string{"x-ms-error-code", "SomethingElse"},
			read{Kind: errkind.NotFound, Code: "BlobNotFound", HTTPStatus: 404}},
		{"x-amzn-ErrorType without its suffix", 404, `{"Message":"Function not found"}`, []string{"x-amzn-ErrorType", "ResourceNotFoundException:http://internal.amazon.com/coral/com.amazonaws.lambda/"},
			read{Kind: errkind.NotFound, Code: "ResourceNotFoundException", Message: "Function not found", HTTPStatus: 404, JSONBody: true}},
		{"WWW-Authenticate's error and error_description on an empty 403", 403, "",
			[]string{"WWW-Authenticate", `Bearer realm="api", error="insufficient_scope", error_description="needs the repo scope"`},
			read{Kind: errkind.PermissionDenied, Code: "insufficient_scope", Message: "needs the repo scope", HTTPStatus: 403}},
		{"the body's message wins over WWW-Authenticate's", 401, `{"message":"Bad credentials"}`,
			[]string{"WWW-Authenticate", `Bearer error="invalid_token", error_description="expired"`},
			read{Kind: errkind.AuthenticationFailed, Code: "invalid_token", Message: "Bad credentials", HTTPStatus: 401, JSONBody: true}},
		{"broken JSON on a 404 stays malformed", 404, `{"error":{"code":"x_not_found"`, nil,
			read{Kind: errkind.MalformedResponse, Message: "response body is not valid JSON (status 404)", HTTPStatus: 404}},
	}...)
	runCauses(t, reader(), tests)
}

// TestReadNonJSONThroughTaxonomy: a body that says only its status takes
// the kind the Reader's taxonomy gives that status, so a taxonomy that
// reads every 5xx as server_error (as the vexlo example's does) keeps a
// gateway's page a malformed_response, while its 4xx rules still apply.
func TestReadNonJSONThroughTaxonomy(t *testing.T) {
	r := reader()
	r.Taxonomy = errkind.Standard().With(
		errkind.Rule{Status: 403, Kind: "wrong_role"},
		errkind.Rule{StatusMin: 500, Kind: errkind.ServerError},
	)
	runCauses(t, r, []causeCase{
		{"HTML 502", 502, "<html>Bad Gateway</html>", nil,
			read{Kind: errkind.MalformedResponse, Message: "response body is not valid JSON (status 502)", HTTPStatus: 502}},
		{"HTML 522", 522, "<html>Connection timed out</html>", nil,
			read{Kind: errkind.MalformedResponse, Message: "response body is not valid JSON (status 522)", HTTPStatus: 522}},
		{"HTML 403", 403, "<html>Forbidden</html>", nil, read{Kind: "wrong_role", HTTPStatus: 403}},
		{"503 with Retry-After: the header tells", 503, "<html>Maintenance</html>", []string{"Retry-After", "30"},
			read{Kind: errkind.Unavailable, HTTPStatus: 503, RetryAfter: 30 * time.Second}},
	})
}

package google_test

import (
	"context"
	"encoding/json"
	"testing"

	"google.golang.org/api/option"
	storage "google.golang.org/api/storage/v1"

	"github.com/mcperr/mcperr/clients/clienttest"
	mcpgoogle "github.com/mcperr/mcperr/clients/google"
	"github.com/mcperr/mcperr/errkind"
)

// key is the API key the client sends; it must never reach the agent.
const key = "AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe"

// client is the real Cloud Storage JSON API client pointed at u.
func client(t *testing.T, u *clienttest.Upstream) *storage.Service {
	s, err := storage.NewService(context.Background(), option.WithEndpoint(u.URL+"/storage/v1/"), option.WithHTTPClient(u.Client()), option.WithAPIKey(key))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func getObject(ctx context.Context, s *storage.Service) error {
	_, err := s.Objects.Get("my-bucket", "reports/2026.csv").Context(ctx).Do()
	return err
}

// v1 is an error of Google's v1 format, as Cloud Storage sends it.
func v1(status int, reason, message string) clienttest.Answer {
	return clienttest.Answer{Status: status, Body: `{"error":{"code":` + itoa(status) + `,"message":` + quote(message) +
		`,"errors":[{"message":` + quote(message) + `,"domain":"global","reason":"` + reason + `"}]}}`}
}

func quote(s string) string { b, _ := json.Marshal(s); return string(b) }
func itoa(n int) string     { b, _ := json.Marshal(n); return string(b) }

// The pages cited below:
//
//	codes: cloud.google.com/storage/docs/json_api/v1/status-codes
//	aip:   cloud.google.com/apis/design/errors (AIP-193), google.aip.dev/193
var cases = []struct {
	name string
	a    clienttest.Answer
	want errkind.Object
}{
	{
		// codes: "400 Bad Request ... required: A required query
		// parameter is missing."
		name: "required is invalid_arguments",
		a:    v1(400, "required", "Required"),
		want: errkind.Object{Kind: errkind.InvalidArguments, Code: "required", Message: "Required"},
	},
	{
		// codes: "401 Unauthorized ... authError: The access token is
		// invalid or expired (Invalid Credentials)."
		name: "invalid credentials is authentication_failed",
		a:    v1(401, "authError", "Invalid Credentials"),
		want: errkind.Object{Kind: errkind.AuthenticationFailed, Message: "Invalid Credentials"},
	},
	{
		// codes: "403 Forbidden ... forbidden: ... does not have
		// storage.objects.get access".
		name: "forbidden is permission_denied",
		a:    v1(403, "forbidden", "mcp@example.iam.gserviceaccount.com does not have storage.objects.get access to the Google Cloud Storage object. Permission 'storage.objects.get' denied on resource (or it may not exist)."),
		want: errkind.Object{Kind: errkind.PermissionDenied, Code: "forbidden", Message: "mcp@example.iam.gserviceaccount.com does not have storage.objects.get access to the Google Cloud Storage object. Permission 'storage.objects.get' denied on resource (or it may not exist)."},
	},
	{
		// codes: "404 Not Found ... notFound: The requested resource
		// does not exist."
		name: "not found is not_found",
		a:    v1(404, "notFound", "No such object: my-bucket/reports/2026.csv"),
		want: errkind.Object{Kind: errkind.NotFound, Code: "notFound", Message: "No such object: my-bucket/reports/2026.csv"},
	},
	{
		// codes: "409 Conflict ... conflict: You already own this
		// bucket."
		name: "conflict is conflict",
		a:    v1(409, "conflict", "Your previous request to create the named bucket succeeded and you already own it."),
		want: errkind.Object{Kind: errkind.Conflict, Code: "conflict", Message: "Your previous request to create the named bucket succeeded and you already own it."},
	},
	{
		// codes: "412 Precondition Failed ... conditionNotMet: At least
		// one of the pre-conditions you specified did not hold": the
		// object changed.
		name: "condition not met is conflict",
		a:    v1(412, "conditionNotMet", "Precondition Failed"),
		want: errkind.Object{Kind: errkind.Conflict, Code: "conditionNotMet", Message: "Precondition Failed"},
	},
	{
		// codes: "429 Too Many Requests ... rateLimitExceeded: ...
		// retry using exponential backoff"; no wait is given.
		name: "rate limit exceeded is rate_limited",
		a:    v1(429, "rateLimitExceeded", "The object exceeded the rate limit for object mutation operations (create, update, and delete)."),
		want: errkind.Object{Kind: errkind.RateLimited, RetryAfterSeconds: clienttest.N(60)},
	},
	{
		// aip: RESOURCE_EXHAUSTED with google.rpc.ErrorInfo and
		// google.rpc.RetryInfo, whose retryDelay is the wait.
		name: "resource exhausted waits its RetryInfo",
		a: clienttest.Answer{Status: 429, Body: `{"error":{"code":429,"message":"Quota exceeded for quota metric 'Queries' and limit 'Queries per minute' of service 'storage.googleapis.com'.","status":"RESOURCE_EXHAUSTED","details":[` +
			`{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"RATE_LIMIT_EXCEEDED","domain":"googleapis.com","metadata":{"service":"storage.googleapis.com","quota_limit":"QueriesPerMinute"}},` +
			`{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"30s"}]}}`},
		want: errkind.Object{Kind: errkind.RateLimited, RetryAfterSeconds: clienttest.N(30)},
	},
	{
		// aip: the example of an API key that is not valid: a 400
		// INVALID_ARGUMENT whose google.rpc.ErrorInfo reason,
		// API_KEY_INVALID, says what is wrong: the credential, not an
		// argument the agent can fix.
		name: "API key invalid is authentication_failed",
		a: clienttest.Answer{Status: 400, Body: `{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[` +
			`{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com","metadata":{"service":"storage.googleapis.com"}}]}}`},
		want: errkind.Object{Kind: errkind.AuthenticationFailed, Message: "API key not valid. Please pass a valid API key."},
	},
	{
		// codes: "400 Bad Request ... keyInvalid" in the v1 format.
		name: "key invalid is authentication_failed",
		a:    v1(400, "keyInvalid", "Bad Request"),
		want: errkind.Object{Kind: errkind.AuthenticationFailed, Message: "Bad Request"},
	},
	{
		// aip: NOT_FOUND with the resource in google.rpc.ResourceInfo.
		name: "AIP-193 not found keeps its details",
		a: clienttest.Answer{Status: 404, Body: `{"error":{"code":404,"message":"Object reports/2026.csv not found.","status":"NOT_FOUND","details":[` +
			`{"@type":"type.googleapis.com/google.rpc.ResourceInfo","resourceType":"storage.googleapis.com/Object","resourceName":"projects/_/buckets/my-bucket/objects/reports/2026.csv"}]}}`},
		want: errkind.Object{Kind: errkind.NotFound, Code: "NOT_FOUND", Message: "Object reports/2026.csv not found.",
			Details: json.RawMessage(`[{"@type":"type.googleapis.com/google.rpc.ResourceInfo","resourceType":"storage.googleapis.com/Object","resourceName":"projects/_/buckets/my-bucket/objects/reports/2026.csv"}]`)},
	},
	{
		// codes: "500 Internal Server Error ... backendError: We
		// encountered an internal error. Please try again."
		name: "backend error at 500 is server_error",
		a:    v1(500, "backendError", "Backend Error"),
		want: errkind.Object{Kind: errkind.ServerError, Code: "backendError", HTTPStatus: 500, Message: "Backend Error"},
	},
	{
		// codes: "503 Service Unavailable ... backendError: We
		// encountered an internal error. Please try again."
		name: "backend error at 503 is unavailable",
		a:    v1(503, "backendError", "Backend Error"),
		want: errkind.Object{Kind: errkind.Unavailable, Code: "backendError", HTTPStatus: 503, Message: "Backend Error"},
	},
	{
		// codes: "502 Bad Gateway: This error is generated when there was
		// a network error between Google's front ends and the servers",
		// with an HTML page.
		name: "gateway page is unavailable",
		a:    clienttest.Answer{Status: 502, Header: map[string]string{"Content-Type": "text/html; charset=UTF-8"}, Body: `<!DOCTYPE html><html lang=en><meta charset=utf-8><title>Error 502 (Server Error)!!1</title><p><b>502.</b> <ins>That's an error.</ins><p>The server encountered a temporary error and could not complete your request.<p>Please try again in 30 seconds. <ins>That's all we know.</ins></html>`},
		want: errkind.Object{Kind: errkind.Unavailable, HTTPStatus: 502},
	},
}

// TestRead checks that each documented answer of a Google API, as the
// google.golang.org/api client returns it, reaches the agent as the
// documentation says: through Read, and through envelope.ErrorOf and the
// handlers of a go-sdk and an mcp-go server, unchanged and wrapped.
func TestRead(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := getObject(context.Background(), client(t, clienttest.Serve(t, c.a)))
			clienttest.CheckRead(t, mcpgoogle.Read, err, c.want, key)
		})
	}
}

// TestTimeout checks that an API that does not answer in time is
// network_error.
func TestTimeout(t *testing.T) {
	clienttest.CheckTimeout(t, mcpgoogle.Read, func(ctx context.Context, u *clienttest.Upstream) error { return getObject(ctx, client(t, u)) })
}

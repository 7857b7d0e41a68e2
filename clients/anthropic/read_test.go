package anthropic_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	mcpanthropic "github.com/mcperr/mcperr/clients/anthropic"
	"github.com/mcperr/mcperr/clients/clienttest"
	"github.com/mcperr/mcperr/errkind"
)

// key is the API key the client sends; it must never reach the agent.
const key = "sk-ant-api03-R2D2C3POx7Yq9ZbT4L8mN1vK6wP0sA5dF3gH"

// client is the real Anthropic client pointed at u, with its retries off
// so that each answer is the one the test sent (with them on, the agent
// gets the last answer the same way).
func client(u *clienttest.Upstream) anthropic.Client {
	return anthropic.NewClient(option.WithBaseURL(u.URL), option.WithAPIKey(key), option.WithMaxRetries(0), option.WithHTTPClient(u.Client()))
}

func message(ctx context.Context, c anthropic.Client) error {
	_, err := c.Messages.New(ctx, anthropic.MessageNewParams{
		Model:     "claude-haiku-5-5",
		MaxTokens: 64,
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("hello"))},
	})
	return err
}

// answer is an Anthropic error answer, with the request-id field.
func answer(status int, header map[string]string, typ, message string) clienttest.Answer {
	h := map[string]string{"Request-Id": "req_011CSHoEeqs5C35K2UUqR7Fy"}
	for k, v := range header {
		h[k] = v
	}
	return clienttest.Answer{Status: status, Header: h,
		Body: `{"type":"error","error":{"type":"` + typ + `","message":"` + message + `"},"request_id":"req_011CSHoEeqs5C35K2UUqR7Fy"}`}
}

// The page cited below: docs.anthropic.com/en/api/errors ("HTTP errors":
// each status and its error type), and for the wait
// docs.anthropic.com/en/api/rate-limits ("the retry-after header").
var cases = []struct {
	name string
	a    clienttest.Answer
	want errkind.Object
}{
	{
		// "400 - invalid_request_error: There was an issue with the
		// format or content of your request."
		name: "invalid request is invalid_arguments",
		a:    answer(400, nil, "invalid_request_error", "max_tokens: Field required"),
		want: errkind.Object{Kind: errkind.InvalidArguments, Code: "invalid_request_error", Message: "max_tokens: Field required"},
	},
	{
		// "401 - authentication_error: There's an issue with your API
		// key."
		name: "authentication error is authentication_failed",
		a:    answer(401, nil, "authentication_error", "invalid x-api-key"),
		want: errkind.Object{Kind: errkind.AuthenticationFailed, Message: "invalid x-api-key"},
	},
	{
		// "403 - permission_error: Your API key does not have permission
		// to use the specified resource."
		name: "permission error is permission_denied",
		a:    answer(403, nil, "permission_error", "Your API key does not have permission to use the specified resource."),
		want: errkind.Object{Kind: errkind.PermissionDenied, Code: "permission_error", Message: "Your API key does not have permission to use the specified resource."},
	},
	{
		// "404 - not_found_error: The requested resource was not found."
		name: "not found error is not_found",
		a:    answer(404, nil, "not_found_error", "model: claude-nonexistent"),
		want: errkind.Object{Kind: errkind.NotFound, Code: "not_found_error", Message: "model: claude-nonexistent"},
	},
	{
		// "429 - rate_limit_error: Your account has hit a rate limit";
		// rate limits: "a retry-after header indicating how long to wait".
		name: "rate limit error waits its retry-after",
		a: answer(429, map[string]string{"Retry-After": "17", "Anthropic-Ratelimit-Requests-Limit": "50", "Anthropic-Ratelimit-Requests-Remaining": "0", "Anthropic-Ratelimit-Requests-Reset": "2026-12-01T21:00:17Z"},
			"rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit"),
		want: errkind.Object{Kind: errkind.RateLimited, RetryAfterSeconds: clienttest.N(17)},
	},
	{
		// "500 - api_error: An unexpected error has occurred internal to
		// Anthropic's systems."
		name: "api error is server_error",
		a:    answer(500, nil, "api_error", "Internal server error"),
		want: errkind.Object{Kind: errkind.ServerError, Code: "api_error", HTTPStatus: 500, Message: "Internal server error"},
	},
	{
		// "529 - overloaded_error: The API is temporarily overloaded."
		name: "overloaded error is unavailable",
		a:    answer(529, nil, "overloaded_error", "Overloaded"),
		want: errkind.Object{Kind: errkind.Unavailable, Code: "overloaded_error", HTTPStatus: 529, Message: "Overloaded"},
	},
	{
		// RFC 9110 §15.6.3: a gateway's page in front of the API, which
		// the SDK keeps as the error's raw body. The POST may have
		// reached the API (envelope.Reader.Writes): read back first.
		name: "gateway page to a POST may have acted",
		a:    clienttest.Answer{Status: 502, Header: map[string]string{"Content-Type": "text/html"}, Body: "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>"},
		want: errkind.Object{Kind: errkind.Conflict, Message: "the POST request was sent and may have acted: read the resource back before retrying",
			Details: json.RawMessage(`{"mayHaveActed":true,"method":"POST","failure":"unavailable"}`)},
	},
}

// TestRead checks that each documented Anthropic error, as the real
// Anthropic client returns it, reaches the agent as the documentation
// says: through Read, and through envelope.ErrorOf and the handlers of a
// go-sdk and an mcp-go server, unchanged and wrapped.
func TestRead(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := message(context.Background(), client(clienttest.Serve(t, c.a)))
			clienttest.CheckRead(t, mcpanthropic.Read, err, c.want, key)
		})
	}
}

// TestTimeout checks that an API that does not answer in time is
// network_error.
func TestTimeout(t *testing.T) {
	clienttest.CheckTimeout(t, mcpanthropic.Read, func(ctx context.Context, u *clienttest.Upstream) error { return message(ctx, client(u)) })
}

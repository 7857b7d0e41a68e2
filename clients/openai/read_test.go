package openai_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/mcperr/mcperr/clients/clienttest"
	mcpopenai "github.com/mcperr/mcperr/clients/openai"
	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
)

// key is the API key the client sends; it must never reach the agent.
const key = "sk-proj-Xq3ZbT9yL2mN8vK4wR7pA1sD6fG0hJ5c"

// client is the real OpenAI client pointed at u, with its retries off so
// that each answer is the one the test sent (with them on, the agent gets
// the last answer the same way); httpc, when not nil, is its HTTP client.
func client(u *clienttest.Upstream, httpc *http.Client) openai.Client {
	if httpc == nil {
		httpc = u.Client()
	}
	return openai.NewClient(option.WithBaseURL(u.URL+"/v1/"), option.WithAPIKey(key), option.WithMaxRetries(0), option.WithHTTPClient(httpc))
}

func chat(ctx context.Context, c openai.Client) error {
	_, err := c.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{
		Model:    "gpt-4o",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hello")},
	})
	return err
}

// answer is an OpenAI error answer: the status, its header and the body.
func answer(status int, header map[string]string, body string) clienttest.Answer {
	h := map[string]string{"X-Request-Id": "req_5d9e4a1b2c3f"}
	for k, v := range header {
		h[k] = v
	}
	return clienttest.Answer{Status: status, Header: h, Body: body}
}

// The page cited below: platform.openai.com/docs/guides/error-codes ("API
// errors": each status, its cause and what to do), and for the rate-limit
// fields platform.openai.com/docs/guides/rate-limits ("Rate limits in
// headers").
var cases = []struct {
	name string
	a    clienttest.Answer
	want errkind.Object
}{
	{
		// "401 - Incorrect API key provided. Cause: The requesting API
		// key is not correct."
		name: "incorrect API key is authentication_failed",
		a:    answer(401, nil, `{"error":{"message":"Incorrect API key provided: sk-proj-****wR7p. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`),
		want: errkind.Object{Kind: errkind.AuthenticationFailed, Message: "Incorrect API key provided: sk-proj-****wR7p. You can find your API key at https://platform.openai.com/account/api-keys."},
	},
	{
		// "403 - Country, region, or territory not supported. Cause: You
		// are accessing the API from an unsupported country".
		name: "unsupported region is permission_denied",
		a:    answer(403, nil, `{"error":{"code":"unsupported_country_region_territory","message":"Country, region, or territory not supported","param":null,"type":"request_forbidden"}}`),
		want: errkind.Object{Kind: errkind.PermissionDenied, Code: "unsupported_country_region_territory", Message: "Country, region, or territory not supported"},
	},
	{
		// A model the key cannot use: 404 model_not_found.
		name: "model not found is not_found",
		a:    answer(404, nil, "{\"error\":{\"message\":\"The model `gpt-9` does not exist or you do not have access to it.\",\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"model_not_found\"}}"),
		want: errkind.Object{Kind: errkind.NotFound, Code: "model_not_found", Message: "The model `gpt-9` does not exist or you do not have access to it."},
	},
	{
		// A request whose argument is not valid: 400
		// invalid_request_error, param naming the argument.
		name: "invalid value is invalid_arguments",
		a:    answer(400, nil, `{"error":{"message":"Invalid 'temperature': decimal above maximum value. Expected a value <= 2, but got 3 instead.","type":"invalid_request_error","param":"temperature","code":"decimal_above_max_value"}}`),
		want: errkind.Object{Kind: errkind.InvalidArguments, Code: "decimal_above_max_value", Message: "Invalid 'temperature': decimal above maximum value. Expected a value <= 2, but got 3 instead."},
	},
	{
		// "429 - Rate limit reached for requests. Cause: You are sending
		// requests too quickly. Solution: Pace your requests"; the wait
		// is in Retry-After, the figures in x-ratelimit-*.
		name: "rate limit reached waits its Retry-After",
		a: answer(429, map[string]string{"Retry-After": "2", "X-Ratelimit-Limit-Requests": "500", "X-Ratelimit-Remaining-Requests": "0", "X-Ratelimit-Reset-Requests": "1.2s"},
			`{"error":{"message":"Rate limit reached for gpt-4o in organization org-abc on requests per min (RPM): Limit 500, Used 500, Requested 1. Please try again in 120ms.","type":"requests","param":null,"code":"rate_limit_exceeded"}}`),
		want: errkind.Object{Kind: errkind.RateLimited, RetryAfterSeconds: clienttest.N(2)},
	},
	{
		// "500 - The server had an error while processing your request.
		// Cause: Issue on our servers."
		name: "server error is server_error",
		a:    answer(500, nil, `{"error":{"message":"The server had an error while processing your request. Sorry about that!","type":"server_error","param":null,"code":null}}`),
		want: errkind.Object{Kind: errkind.ServerError, Code: "server_error", HTTPStatus: 500, Message: "The server had an error while processing your request. Sorry about that!"},
	},
	{
		// "503 - The engine is currently overloaded, please try again
		// later. Cause: Our servers are experiencing high traffic."
		name: "engine overloaded is unavailable",
		a:    answer(503, nil, `{"error":{"message":"The engine is currently overloaded, please try again later.","type":"server_error","param":null,"code":null}}`),
		want: errkind.Object{Kind: errkind.Unavailable, Code: "server_error", HTTPStatus: 503, Message: "The engine is currently overloaded, please try again later."},
	},
}

// TestRead checks that each documented OpenAI error, as the real OpenAI
// client returns it, reaches the agent as the documentation says: through
// Read, and through envelope.ErrorOf and the handlers of a go-sdk and an
// mcp-go server, unchanged and wrapped.
func TestRead(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := chat(context.Background(), client(clienttest.Serve(t, c.a), nil))
			clienttest.CheckRead(t, mcpopenai.Read, err, c.want, key)
		})
	}
}

// TestGatewayPage checks that a gateway's page in front of the API, of
// which the SDK keeps nothing but its decoding error, reaches the agent as
// unavailable when envelope.Transport is under the client: the handler
// makes its call inside the tool call, as a server does.
func TestGatewayPage(t *testing.T) {
	u := clienttest.Serve(t, clienttest.Answer{Status: 502, Header: map[string]string{"Content-Type": "text/html"},
		Body: "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>cloudflare</center></body></html>"})
	c := client(u, &http.Client{Transport: &envelope.Transport{Base: u.Client().Transport}})
	replies, err := clienttest.Call(context.Background(), func(ctx context.Context) error { return chat(ctx, c) })
	if err != nil {
		t.Fatal(err)
	}
	// A POST that a gateway failed may have reached the API: the agent
	// reads back before retrying (see envelope.Reader.Writes).
	want := errkind.Object{Kind: errkind.Conflict, Message: "the POST request was sent and may have acted: read the resource back before retrying"}
	for _, r := range replies {
		if r.Object == nil {
			t.Errorf("%s: the agent got %+v", r.SDK, r.Outcome)
			continue
		}
		got := *r.Object
		got.Details = nil
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: kind object (-want +got):\n%s", r.SDK, diff)
		}
	}
}

// TestTimeout checks that an API that does not answer in time is
// network_error.
func TestTimeout(t *testing.T) {
	clienttest.CheckTimeout(t, mcpopenai.Read, func(ctx context.Context, u *clienttest.Upstream) error { return chat(ctx, client(u, nil)) })
}

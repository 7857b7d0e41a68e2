package stripe_test

import (
	"context"
	"testing"

	"github.com/stripe/stripe-go/v82"

	"github.com/mcperr/mcperr/clients/clienttest"
	mcpstripe "github.com/mcperr/mcperr/clients/stripe"
	"github.com/mcperr/mcperr/errkind"
)

// key is the secret key the client sends; it must never reach the agent.
const key = "sk_test_51Mz9yQ2eZvKYlo2CtT7bX4wR8pA1sD6fG0hJ5c"

// client is the real stripe-go client pointed at u, with its retries off
// so that each answer is the one the test sent.
func client(u *clienttest.Upstream) *stripe.Client {
	return stripe.NewClient(key, stripe.WithBackends(stripe.NewBackendsWithConfig(&stripe.BackendConfig{
		URL:               stripe.String(u.URL),
		HTTPClient:        u.Client(),
		MaxNetworkRetries: stripe.Int64(0),
		LeveledLogger:     &stripe.LeveledLogger{Level: stripe.LevelNull},
	})))
}

func getCustomer(ctx context.Context, c *stripe.Client) error {
	_, err := c.V1Customers.Retrieve(ctx, "cus_NffrFeUfNV2Hib", nil)
	return err
}

// answer is a Stripe error answer, with the Request-Id field.
func answer(status int, header map[string]string, body string) clienttest.Answer {
	h := map[string]string{"Request-Id": "req_9Kx1nN4cGfH2Lm"}
	for k, v := range header {
		h[k] = v
	}
	return clienttest.Answer{Status: status, Header: h, Body: body}
}

// The page cited below: docs.stripe.com/api/errors ("HTTP status code
// summary" and the error types), and docs.stripe.com/rate-limits.
var cases = []struct {
	name string
	a    clienttest.Answer
	want errkind.Object
}{
	{
		// "400 Bad Request: The request was unacceptable, often due to
		// missing a required parameter."
		name: "missing parameter is invalid_arguments",
		a:    answer(400, nil, `{"error":{"code":"parameter_missing","doc_url":"https://stripe.com/docs/error-codes/parameter-missing","message":"Missing required param: email.","param":"email","type":"invalid_request_error"}}`),
		want: errkind.Object{Kind: errkind.InvalidArguments, Code: "parameter_missing", Message: "Missing required param: email."},
	},
	{
		// "401 Unauthorized: No valid API key provided."
		name: "invalid API key is authentication_failed",
		a:    answer(401, nil, `{"error":{"message":"Invalid API Key provided: sk_test_****J5c","type":"invalid_request_error"}}`),
		want: errkind.Object{Kind: errkind.AuthenticationFailed, Message: "Invalid API Key provided: sk_test_****J5c"},
	},
	{
		// "403 Forbidden: The API key doesn't have permissions to perform
		// the request."
		name: "restricted key is permission_denied",
		a:    answer(403, nil, `{"error":{"message":"The provided key 'rk_test_****abcd' does not have the required permissions for this endpoint on account 'acct_1Mz9yQ'.","type":"invalid_request_error"}}`),
		want: errkind.Object{Kind: errkind.PermissionDenied, Code: "invalid_request_error", Message: "The provided key 'rk_test_****abcd' does not have the required permissions for this endpoint on account 'acct_1Mz9yQ'."},
	},
	{
		// "404 Not Found: The requested resource doesn't exist";
		// resource_missing names the parameter.
		name: "resource missing is not_found",
		a:    answer(404, nil, `{"error":{"code":"resource_missing","doc_url":"https://stripe.com/docs/error-codes/resource-missing","message":"No such customer: 'cus_NffrFeUfNV2Hib'","param":"id","type":"invalid_request_error"}}`),
		want: errkind.Object{Kind: errkind.NotFound, Code: "resource_missing", Message: "No such customer: 'cus_NffrFeUfNV2Hib'"},
	},
	{
		// "409 Conflict: The request conflicts with another request
		// (perhaps due to using the same idempotent key)."
		name: "idempotency conflict is conflict",
		a:    answer(409, nil, `{"error":{"message":"Keys for idempotent requests can only be used with the same parameters they were first used with.","type":"idempotency_error"}}`),
		want: errkind.Object{Kind: errkind.Conflict, Code: "idempotency_error", Message: "Keys for idempotent requests can only be used with the same parameters they were first used with."},
	},
	{
		// "429 Too Many Requests: Too many requests hit the API too
		// quickly"; rate limits: back off, no wait given.
		name: "rate limit is rate_limited",
		a:    answer(429, nil, `{"error":{"code":"rate_limit","doc_url":"https://stripe.com/docs/error-codes/rate-limit","message":"Request rate limit exceeded. Learn more about rate limits here https://stripe.com/docs/rate-limits.","type":"invalid_request_error"}}`),
		want: errkind.Object{Kind: errkind.RateLimited, RetryAfterSeconds: clienttest.N(60)},
	},
	{
		// "500, 502, 503, 504 Server Errors: Something went wrong on
		// Stripe's end."
		name: "api error is server_error",
		a:    answer(500, nil, `{"error":{"message":"An unknown error occurred","type":"api_error"}}`),
		want: errkind.Object{Kind: errkind.ServerError, Code: "api_error", HTTPStatus: 500, Message: "An unknown error occurred"},
	},
	{
		name: "api error at 503 is unavailable",
		a:    answer(503, nil, `{"error":{"message":"Stripe is temporarily unavailable.","type":"api_error"}}`),
		want: errkind.Object{Kind: errkind.Unavailable, Code: "api_error", HTTPStatus: 503, Message: "Stripe is temporarily unavailable."},
	},
}

// TestRead checks that each documented Stripe error, as stripe-go returns
// it, reaches the agent as the documentation says: through Read, and
// through envelope.ErrorOf and the handlers of a go-sdk and an mcp-go
// server, unchanged and wrapped.
func TestRead(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := getCustomer(context.Background(), client(clienttest.Serve(t, c.a)))
			clienttest.CheckRead(t, mcpstripe.Read, err, c.want, key)
		})
	}
}

// TestTimeout checks that an API that does not answer in time is
// network_error.
func TestTimeout(t *testing.T) {
	clienttest.CheckTimeout(t, mcpstripe.Read, func(ctx context.Context, u *clienttest.Upstream) error { return getCustomer(ctx, client(u)) })
}

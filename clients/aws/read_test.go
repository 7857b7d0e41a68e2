package aws_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	mcpaws "github.com/mcperr/mcperr/clients/aws"
	"github.com/mcperr/mcperr/clients/clienttest"
	"github.com/mcperr/mcperr/errkind"
)

// keyID is the access key the client signs with: the signature's
// Authorization field names it, and it must never reach the agent.
const keyID = "AKIAIOSFODNN7EXAMPLE"

// client is the real DynamoDB client of aws-sdk-go-v2 pointed at u, with
// the SDK's standard retryer (three attempts) and no backoff between them,
// so a test does not sleep; quota sets the retry quota (the token bucket
// each retry draws from), or leaves the SDK's when 0.
func client(u *clienttest.Upstream, quota uint) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(u.URL),
		Credentials:  credentials.NewStaticCredentialsProvider(keyID, "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", ""),
		HTTPClient:   u.Client(),
		Retryer: retry.NewStandard(func(o *retry.StandardOptions) {
			o.Backoff = retry.BackoffDelayerFunc(func(int, error) (time.Duration, error) { return 0, nil })
			if quota > 0 {
				o.RateLimiter = ratelimit.NewTokenRateLimit(quota)
			}
		}),
	})
}

func getItem(ctx context.Context, c *dynamodb.Client) error {
	_, err := c.GetItem(ctx, &dynamodb.GetItemInput{
		TableName: aws.String("Music"),
		Key:       map[string]types.AttributeValue{"Artist": &types.AttributeValueMemberS{Value: "No One You Know"}},
	})
	return err
}

func putItem(ctx context.Context, c *dynamodb.Client) error {
	_, err := c.PutItem(ctx, &dynamodb.PutItemInput{
		TableName: aws.String("Music"),
		Item:      map[string]types.AttributeValue{"Artist": &types.AttributeValueMemberS{Value: "No One You Know"}},
	})
	return err
}

// ddb is a DynamoDB error answer: HTTP 400 (or the status given) with the
// JSON body and the x-amzn-RequestId field DynamoDB sends.
func ddb(status int, code, message string) clienttest.Answer {
	return clienttest.Answer{
		Status: status,
		Header: map[string]string{"Content-Type": "application/x-amz-json-1.0", "X-Amzn-Requestid": "KUJEBLMHM2UQ9KGA1J4LRV34NNVV4KQNSO5AEMVJF66Q9ASUAAJG"},
		Body:   `{"__type":"com.amazonaws.dynamodb.v20120810#` + code + `","message":"` + message + `"}`,
	}
}

// The pages cited below (docs.aws.amazon.com):
//
//	errors:  amazondynamodb/latest/developerguide/Programming.Errors.html
//	         ("Error messages and codes": each code, its HTTP status and
//	         whether it is OK to retry)
//	retries: sdkref/latest/guide/feature-retry-behavior.html
var cases = []struct {
	name  string
	a     clienttest.Answer
	quota uint
	call  func(context.Context, *dynamodb.Client) error // nil: get an item
	want  errkind.Object
}{
	{
		// errors: "UnrecognizedClientException. Message: The Access Key
		// ID or security token is invalid. ... OK to retry? No".
		name: "unrecognized client is authentication_failed",
		a:    ddb(400, "UnrecognizedClientException", "The security token included in the request is invalid."),
		want: errkind.Object{Kind: errkind.AuthenticationFailed, Message: "The security token included in the request is invalid."},
	},
	{
		// errors: "MissingAuthenticationTokenException. Message: Request
		// must contain a valid (registered) AWS Access Key ID."
		name: "missing authentication token is authentication_failed",
		a:    ddb(400, "MissingAuthenticationTokenException", "Request must contain a valid (registered) AWS Access Key ID."),
		want: errkind.Object{Kind: errkind.AuthenticationFailed, Message: "Request must contain a valid (registered) AWS Access Key ID."},
	},
	{
		// errors: "AccessDeniedException. Message: Access denied. The
		// client did not correctly sign the request" / not authorized.
		name: "access denied is permission_denied",
		a:    ddb(400, "AccessDeniedException", "User: arn:aws:iam::123456789012:user/mcp is not authorized to perform: dynamodb:GetItem on resource: arn:aws:dynamodb:us-east-1:123456789012:table/Music"),
		want: errkind.Object{Kind: errkind.PermissionDenied, Code: "AccessDeniedException", Message: "User: arn:aws:iam::123456789012:user/mcp is not authorized to perform: dynamodb:GetItem on resource: arn:aws:dynamodb:us-east-1:123456789012:table/Music"},
	},
	{
		// errors: "ResourceNotFoundException. Message: Requested resource
		// not found. Example: The table that is being requested does not
		// exist".
		name: "resource not found is not_found",
		a:    ddb(400, "ResourceNotFoundException", "Requested resource not found"),
		want: errkind.Object{Kind: errkind.NotFound, Code: "ResourceNotFoundException", Message: "Requested resource not found"},
	},
	{
		// errors: "ValidationException ... a required parameter was not
		// specified ... OK to retry? No".
		name: "validation is invalid_arguments",
		a:    ddb(400, "ValidationException", "One or more parameter values were invalid: Missing the key Artist in the item"),
		want: errkind.Object{Kind: errkind.InvalidArguments, Code: "ValidationException", Message: "One or more parameter values were invalid: Missing the key Artist in the item"},
	},
	{
		// errors: "ConditionalCheckFailedException. Message: The
		// conditional request failed. You specified a condition that was
		// evaluated to be false".
		name: "conditional check failed is conflict",
		a:    ddb(400, "ConditionalCheckFailedException", "The conditional request failed"),
		want: errkind.Object{Kind: errkind.Conflict, Code: "ConditionalCheckFailedException", Message: "The conditional request failed"},
	},
	{
		// errors: "ResourceInUseException. Message: The resource which you
		// are attempting to change is in use."
		name: "resource in use is conflict",
		a:    ddb(400, "ResourceInUseException", "Attempt to change a resource which is still in use: Table is being created: Music"),
		want: errkind.Object{Kind: errkind.Conflict, Code: "ResourceInUseException", Message: "Attempt to change a resource which is still in use: Table is being created: Music"},
	},
	{
		// errors: "ProvisionedThroughputExceededException. Message: You
		// exceeded your maximum allowed provisioned throughput ... OK to
		// retry? Yes"; the SDK retries it, and gives up after three
		// attempts (retries: "max attempts"), with no wait given.
		name: "provisioned throughput exceeded is rate_limited",
		a:    ddb(400, "ProvisionedThroughputExceededException", "The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API."),
		want: errkind.Object{Kind: errkind.RateLimited, RetryAfterSeconds: clienttest.N(60)},
	},
	{
		// errors: "ThrottlingException. Message: Rate of requests exceeds
		// the allowed throughput. ... OK to retry? Yes".
		name: "throttling is rate_limited",
		a:    ddb(400, "ThrottlingException", "Rate of requests exceeds the allowed throughput."),
		want: errkind.Object{Kind: errkind.RateLimited, RetryAfterSeconds: clienttest.N(60)},
	},
	{
		// errors: "RequestLimitExceeded. Message: Throughput exceeds the
		// current throughput limit for your account."
		name: "request limit exceeded is rate_limited",
		a:    ddb(400, "RequestLimitExceeded", "Throughput exceeds the current throughput limit for your account. Please contact AWS Support at https://aws.amazon.com/support request a limit increase"),
		want: errkind.Object{Kind: errkind.RateLimited, RetryAfterSeconds: clienttest.N(60)},
	},
	{
		// retries: "retry quota": when the client's retry tokens run out it
		// stops retrying and returns the last answer's error, joined with
		// its own; the answer is what the agent gets.
		name:  "throttling with the retry quota exhausted is rate_limited",
		a:     ddb(400, "ThrottlingException", "Rate of requests exceeds the allowed throughput."),
		quota: 1,
		want:  errkind.Object{Kind: errkind.RateLimited, RetryAfterSeconds: clienttest.N(60)},
	},
	{
		// retries: a Retry-After field the service sends is honoured; the
		// agent gets the same wait.
		name: "throttling with Retry-After waits it",
		a: clienttest.Answer{Status: 400, Header: map[string]string{"Content-Type": "application/x-amz-json-1.0", "Retry-After": "7"},
			Body: `{"__type":"com.amazonaws.dynamodb.v20120810#ThrottlingException","message":"Rate of requests exceeds the allowed throughput."}`},
		quota: 1,
		want:  errkind.Object{Kind: errkind.RateLimited, RetryAfterSeconds: clienttest.N(7)},
	},
	{
		// errors: "Internal Server Error (HTTP 500): DynamoDB could not
		// process your request. OK to retry? Yes".
		name: "internal server error is server_error",
		a:    ddb(500, "InternalServerError", "Internal server error"),
		want: errkind.Object{Kind: errkind.ServerError, Code: "InternalServerError", HTTPStatus: 500, Message: "Internal server error"},
	},
	{
		// errors: "Service Unavailable (HTTP 503): DynamoDB is currently
		// unavailable. (This should be a temporary state.)"
		name: "service unavailable is unavailable",
		a:    ddb(503, "ServiceUnavailable", "Service is unavailable"),
		want: errkind.Object{Kind: errkind.Unavailable, Code: "ServiceUnavailable", HTTPStatus: 503, Message: "Service is unavailable"},
	},
	{
		// RFC 9110 §15.6.3: a proxy's page in front of the endpoint.
		name: "gateway page is unavailable",
		a:    clienttest.Answer{Status: 502, Header: map[string]string{"Content-Type": "text/html"}, Body: "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>"},
		want: errkind.Object{Kind: errkind.Unavailable, HTTPStatus: 502},
	},
	{
		// RFC 9110 §15.6.3, §9.2.2: a gateway's 502 to a write (PutItem,
		// which AWS's JSON protocol POSTs like every operation) may come
		// after the service acted: read the item back before retrying.
		name: "gateway page to a write may have acted",
		a:    clienttest.Answer{Status: 502, Header: map[string]string{"Content-Type": "text/html"}, Body: "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>"},
		call: putItem,
		want: errkind.Object{Kind: errkind.Conflict, Message: "the POST request was sent and may have acted: read the resource back before retrying",
			Details: json.RawMessage(`{"mayHaveActed":true,"method":"POST","failure":"unavailable"}`)},
	},
}

// TestRead checks that each documented DynamoDB error, as aws-sdk-go-v2
// returns it after its own retries, reaches the agent as the documentation
// says: through Read, and through envelope.ErrorOf and the handlers of a
// go-sdk and an mcp-go server, unchanged and wrapped.
func TestRead(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u := clienttest.Serve(t, c.a)
			call := c.call
			if call == nil {
				call = getItem
			}
			err := call(context.Background(), client(u, c.quota))
			clienttest.CheckRead(t, mcpaws.Read, err, c.want, keyID)
		})
	}
}

// TestTimeout checks that an endpoint that does not answer in time is
// network_error.
func TestTimeout(t *testing.T) {
	clienttest.CheckTimeout(t, mcpaws.Read, func(ctx context.Context, u *clienttest.Upstream) error { return getItem(ctx, client(u, 0)) })
}

// TestKeyNotEchoed checks that an access key id the service echoes back in
// its message (from the request's signed Authorization field) does not
// reach the agent.
func TestKeyNotEchoed(t *testing.T) {
	u := clienttest.Serve(t, ddb(400, "UnrecognizedClientException", "The Access Key ID "+keyID+" does not exist in our records."))
	err := getItem(context.Background(), client(u, 0))
	e, ok := mcpaws.Read(err)
	if !ok {
		t.Fatalf("Read(%v) found nothing", err)
	}
	if e.Kind != errkind.AuthenticationFailed {
		t.Errorf("kind %s, want authentication_failed", e.Kind)
	}
	clienttest.Check(t, err, clienttest.Object(e), keyID)
}

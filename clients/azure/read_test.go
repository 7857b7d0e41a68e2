package azure_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"

	mcpazure "github.com/mcperr/mcperr/clients/azure"
	"github.com/mcperr/mcperr/clients/clienttest"
	"github.com/mcperr/mcperr/errkind"
)

// token is the bearer token the client sends; it must never reach the agent.
const token = "eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.YXp1cmUtc2VjcmV0.c2ln"

// getGroup makes the call a generated Azure client makes (armresources'
// ResourceGroupsClient.Get): a request through azcore's pipeline, its
// retries off so that each answer is the one the test sent, and
// runtime.NewResponseError for any status but 200.
func getGroup(ctx context.Context, u *clienttest.Upstream) error {
	pl := runtime.NewPipeline("armresources", "v1.2.0", runtime.PipelineOptions{}, &policy.ClientOptions{
		Transport: u.Client(),
		Retry:     policy.RetryOptions{MaxRetries: -1},
	})
	req, err := runtime.NewRequest(ctx, http.MethodGet, u.URL+"/subscriptions/00000000-0000-0000-0000-000000000000/resourcegroups/rg-mcp?api-version=2021-04-01")
	if err != nil {
		return err
	}
	req.Raw().Header.Set("Authorization", "Bearer "+token)
	resp, err := pl.Do(req)
	if err != nil {
		return err
	}
	if !runtime.HasStatusCode(resp, http.StatusOK) {
		return runtime.NewResponseError(resp)
	}
	return nil
}

// arm is an Azure Resource Manager error answer, with its request id.
func arm(status int, header map[string]string, code, message string) clienttest.Answer {
	h := map[string]string{"X-Ms-Request-Id": "3f5e1c9a-8d2b-4e7f-9a1c-2b6d8e4f0a13", "X-Ms-Correlation-Request-Id": "3f5e1c9a-8d2b-4e7f-9a1c-2b6d8e4f0a13"}
	for k, v := range header {
		h[k] = v
	}
	return clienttest.Answer{Status: status, Header: h, Body: `{"error":{"code":"` + code + `","message":"` + message + `"}}`}
}

// The pages cited below (learn.microsoft.com):
//
//	arm:     azure/azure-resource-manager/troubleshooting/common-deployment-errors
//	limits:  azure/azure-resource-manager/management/request-limits-and-throttling
//	storage: rest/api/storageservices/blob-service-error-codes
var cases = []struct {
	name string
	a    clienttest.Answer
	want errkind.Object
}{
	{
		// arm: "InvalidAuthenticationToken: The access token is invalid".
		name: "invalid token is authentication_failed",
		a:    arm(401, map[string]string{"WWW-Authenticate": `Bearer authorization_uri="https://login.microsoftonline.com/common", error="invalid_token", error_description="The access token is invalid."`}, "InvalidAuthenticationToken", "The access token is invalid."),
		want: errkind.Object{Kind: errkind.AuthenticationFailed, Message: "The access token is invalid."},
	},
	{
		// arm: "AuthorizationFailed: Your account or service principal
		// doesn't have sufficient access to complete the deployment."
		name: "authorization failed is permission_denied",
		a:    arm(403, nil, "AuthorizationFailed", "The client 'mcp@example.com' with object id '1b2c' does not have authorization to perform action 'Microsoft.Resources/subscriptions/resourcegroups/read' over scope '/subscriptions/00000000-0000-0000-0000-000000000000/resourcegroups/rg-mcp' or the scope is invalid."),
		want: errkind.Object{Kind: errkind.PermissionDenied, Code: "AuthorizationFailed", Message: "The client 'mcp@example.com' with object id '1b2c' does not have authorization to perform action 'Microsoft.Resources/subscriptions/resourcegroups/read' over scope '/subscriptions/00000000-0000-0000-0000-000000000000/resourcegroups/rg-mcp' or the scope is invalid."},
	},
	{
		// arm: "ResourceGroupNotFound: Specified resource group can't be
		// found."
		name: "resource group not found is not_found",
		a:    arm(404, nil, "ResourceGroupNotFound", "Resource group 'rg-mcp' could not be found."),
		want: errkind.Object{Kind: errkind.NotFound, Code: "ResourceGroupNotFound", Message: "Resource group 'rg-mcp' could not be found."},
	},
	{
		// arm: "InvalidParameter: One of the parameters that you provided
		// for a resource isn't valid."
		name: "invalid parameter is invalid_arguments",
		a:    arm(400, nil, "InvalidParameter", "The value of parameter location is invalid."),
		want: errkind.Object{Kind: errkind.InvalidArguments, Code: "InvalidParameter", Message: "The value of parameter location is invalid."},
	},
	{
		// arm: "Conflict: You're requesting an operation that isn't
		// allowed in the resource's current state."
		name: "conflict is conflict",
		a:    arm(409, nil, "ResourceGroupBeingDeleted", "The resource group 'rg-mcp' is in deprovisioning state and cannot perform this operation."),
		want: errkind.Object{Kind: errkind.Conflict, Code: "ResourceGroupBeingDeleted", Message: "The resource group 'rg-mcp' is in deprovisioning state and cannot perform this operation."},
	},
	{
		// limits: "When you reach the limit, you receive the HTTP status
		// code 429 Too many requests. The response includes a Retry-After
		// value, which specifies the number of seconds your application
		// should wait".
		name: "too many requests waits its Retry-After",
		a:    arm(429, map[string]string{"Retry-After": "17", "X-Ms-Ratelimit-Remaining-Subscription-Reads": "0"}, "TooManyRequests", "The request is being throttled as the limit has been reached for operation type - Read_ObservationWindow_00:05:00."),
		want: errkind.Object{Kind: errkind.RateLimited, RetryAfterSeconds: clienttest.N(17)},
	},
	{
		// storage: "BlobNotFound 404 Not Found: The specified blob does not
		// exist", in x-ms-error-code and an XML body.
		name: "blob not found is not_found",
		a: clienttest.Answer{Status: 404, Header: map[string]string{"Content-Type": "application/xml", "X-Ms-Error-Code": "BlobNotFound", "X-Ms-Request-Id": "c5a8b3f2-001e-0042-3c1a-9d0b62000000"},
			Body: `<?xml version="1.0" encoding="utf-8"?><Error><Code>BlobNotFound</Code><Message>The specified blob does not exist.
RequestId:c5a8b3f2-001e-0042-3c1a-9d0b62000000
Time:2026-12-01T21:00:00.0000000Z</Message></Error>`},
		want: errkind.Object{Kind: errkind.NotFound, Code: "BlobNotFound", Message: "The specified blob does not exist. RequestId:c5a8b3f2-001e-0042-3c1a-9d0b62000000 Time:2026-12-01T21:00:00.0000000Z"},
	},
	{
		// storage: "ServerBusy 503 Service Unavailable: The server is
		// currently unable to receive requests. Please retry your request."
		name: "server busy is unavailable",
		a: clienttest.Answer{Status: 503, Header: map[string]string{"Content-Type": "application/xml", "X-Ms-Error-Code": "ServerBusy", "Retry-After": "5"},
			Body: `<?xml version="1.0" encoding="utf-8"?><Error><Code>ServerBusy</Code><Message>The server is currently unable to receive requests. Please retry your request.</Message></Error>`},
		want: errkind.Object{Kind: errkind.Unavailable, Code: "ServerBusy", HTTPStatus: 503, Message: "The server is currently unable to receive requests. Please retry your request.", RetryAfterSeconds: clienttest.N(5)},
	},
	{
		// RFC 9110 §15.6.3: a gateway's page in front of the endpoint.
		name: "gateway page is unavailable",
		a:    clienttest.Answer{Status: 502, Header: map[string]string{"Content-Type": "text/html"}, Body: "<html><head><title>502 - Web server received an invalid response while acting as a gateway or proxy server.</title></head><body></body></html>"},
		want: errkind.Object{Kind: errkind.Unavailable, HTTPStatus: 502},
	},
}

// TestRead checks that each documented Azure error, as azcore returns it,
// reaches the agent as the documentation says: through Read, and through
// envelope.ErrorOf and the handlers of a go-sdk and an mcp-go server,
// unchanged and wrapped.
func TestRead(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := getGroup(context.Background(), clienttest.Serve(t, c.a))
			clienttest.CheckRead(t, mcpazure.Read, err, c.want, token)
		})
	}
}

// TestTimeout checks that an endpoint that does not answer in time is
// network_error.
func TestTimeout(t *testing.T) {
	clienttest.CheckTimeout(t, mcpazure.Read, getGroup)
}

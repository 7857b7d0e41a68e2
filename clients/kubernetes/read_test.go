package kubernetes_test

import (
	"context"
	"encoding/json"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"github.com/mcperr/mcperr/clients/clienttest"
	mcpk8s "github.com/mcperr/mcperr/clients/kubernetes"
	"github.com/mcperr/mcperr/errkind"
)

// token is the credential the client sends; it must never reach the agent.
const token = "eyJhbGciOiJSUzI1NiIsImtpZCI6InNlY3JldCJ9.c2VjcmV0LXNlcnZpY2UtYWNjb3VudA.sig"

var pods = schema.GroupVersionResource{Version: "v1", Resource: "pods"}

// client is client-go's dynamic client pointed at u, with a bearer token.
func client(t *testing.T, u *clienttest.Upstream) dynamic.NamespaceableResourceInterface {
	c, err := dynamic.NewForConfig(&rest.Config{Host: u.URL, BearerToken: token})
	if err != nil {
		t.Fatal(err)
	}
	return c.Resource(pods)
}

func getPod(ctx context.Context, c dynamic.NamespaceableResourceInterface) error {
	_, err := c.Namespace("prod").Get(ctx, "web-0", metav1.GetOptions{})
	return err
}

func createPod(ctx context.Context, c dynamic.NamespaceableResourceInterface) error {
	pod := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"name": "web-0"},
		"spec":     map[string]any{"containers": []any{map[string]any{"name": "web"}}},
	}}
	_, err := c.Namespace("prod").Create(ctx, pod, metav1.CreateOptions{})
	return err
}

// status is a Status body as the API server writes it.
func status(code int, reason, message, details string) string {
	s := `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":` + quote(message) + `,"reason":"` + reason + `"`
	if details != "" {
		s += `,"details":` + details
	}
	return s + `,"code":` + itoa(code) + `}`
}

func quote(s string) string { b, _ := json.Marshal(s); return string(b) }
func itoa(n int) string     { b, _ := json.Marshal(n); return string(b) }

// The pages cited below:
//
//	conventions: kubernetes/community, contributors/devel/sig-architecture/
//	             api-conventions.md, "HTTP Status codes" and "Response Status Kind"
//	concepts:    kubernetes.io/docs/reference/using-api/api-concepts/
//	apf:         kubernetes.io/docs/concepts/cluster-administration/flow-control/
//	authn:       kubernetes.io/docs/reference/access-authn-authz/authentication/
//	authz:       kubernetes.io/docs/reference/access-authn-authz/authorization/
var cases = []struct {
	name string
	a    clienttest.Answer
	call func(context.Context, dynamic.NamespaceableResourceInterface) error // nil: get a pod
	want errkind.Object
}{
	{
		// conventions: "401 StatusUnauthorized: Indicates that the server
		// can be reached and understood the request, but refuses to take
		// any further action, because the client must provide
		// authorization"; authn: a token the server does not accept.
		name: "unauthorized is authentication_failed",
		a:    clienttest.Answer{Status: 401, Body: status(401, "Unauthorized", "Unauthorized", "")},
		want: errkind.Object{Kind: errkind.AuthenticationFailed, Message: "Unauthorized"},
	},
	{
		// conventions: "403 StatusForbidden: ... the client has
		// provided authorization, the server refuses"; authz: the
		// message names the user and the verb it may not use.
		name: "forbidden is permission_denied",
		a: clienttest.Answer{Status: 403, Body: status(403, "Forbidden",
			`pods "web-0" is forbidden: User "system:serviceaccount:default:mcp" cannot get resource "pods" in API group "" in the namespace "prod"`,
			`{"name":"web-0","kind":"pods"}`)},
		want: errkind.Object{Kind: errkind.PermissionDenied, Code: "Forbidden",
			Message: `pods "web-0" is forbidden: User "system:serviceaccount:default:mcp" cannot get resource "pods" in API group "" in the namespace "prod"`,
			Details: json.RawMessage(`{"name":"web-0","kind":"pods"}`)},
	},
	{
		// conventions: "404 StatusNotFound: Indicates that the requested
		// resource does not exist".
		name: "not found is not_found",
		a:    clienttest.Answer{Status: 404, Body: status(404, "NotFound", `pods "web-0" not found`, `{"name":"web-0","kind":"pods"}`)},
		want: errkind.Object{Kind: errkind.NotFound, Code: "NotFound", Message: `pods "web-0" not found`, Details: json.RawMessage(`{"name":"web-0","kind":"pods"}`)},
	},
	{
		// conventions: "409 StatusConflict: ... the object being created
		// already exists" (reason AlreadyExists).
		name: "already exists is conflict",
		a:    clienttest.Answer{Status: 409, Body: status(409, "AlreadyExists", `pods "web-0" already exists`, `{"name":"web-0","kind":"pods"}`)},
		call: createPod,
		want: errkind.Object{Kind: errkind.Conflict, Code: "AlreadyExists", Message: `pods "web-0" already exists`, Details: json.RawMessage(`{"name":"web-0","kind":"pods"}`)},
	},
	{
		// conventions, concepts ("Conflicts"): "409 StatusConflict: ...
		// the resourceVersion provided in the request is out of date";
		// read the object again and apply the change to it.
		name: "modified object is conflict",
		a: clienttest.Answer{Status: 409, Body: status(409, "Conflict",
			`Operation cannot be fulfilled on pods "web-0": the object has been modified; please apply your changes to the latest version and try again`,
			`{"name":"web-0","kind":"pods"}`)},
		call: createPod,
		want: errkind.Object{Kind: errkind.Conflict, Code: "Conflict",
			Message: `Operation cannot be fulfilled on pods "web-0": the object has been modified; please apply your changes to the latest version and try again`,
			Details: json.RawMessage(`{"name":"web-0","kind":"pods"}`)},
	},
	{
		// conventions: "422 StatusUnprocessableEntity: Indicates that the
		// requested create or update operation cannot be completed due to
		// invalid data provided"; "details.causes ... field: the field of
		// the resource that has caused this error".
		name: "invalid names the field at fault",
		a: clienttest.Answer{Status: 422, Body: status(422, "Invalid",
			`Pod "web-0" is invalid: spec.containers[0].image: Required value`,
			`{"name":"web-0","kind":"Pod","causes":[{"reason":"FieldValueRequired","message":"Required value","field":"spec.containers[0].image"}]}`)},
		call: createPod,
		want: errkind.Object{Kind: errkind.InvalidArguments, Code: "Invalid",
			Message: `Pod "web-0" is invalid: spec.containers[0].image: Required value`,
			Details: json.RawMessage(`{"name":"web-0","kind":"Pod","causes":[{"reason":"FieldValueRequired","message":"Required value","field":"spec.containers[0].image"}]}`)},
	},
	{
		// conventions: "400 StatusBadRequest: Indicates the requested is
		// invalid".
		name: "bad request is invalid_arguments",
		a:    clienttest.Answer{Status: 400, Body: status(400, "BadRequest", `the server rejected our request for an unknown reason`, "")},
		call: createPod,
		want: errkind.Object{Kind: errkind.InvalidArguments, Code: "BadRequest", Message: "the server rejected our request for an unknown reason"},
	},
	{
		// conventions: "429 StatusTooManyRequests: Indicates that the
		// either the client rate limit has been exceeded or the server has
		// received more requests then it can process. Suggested client
		// recovery behavior: Read the Retry-After HTTP header from the
		// response, and wait at least that long before retrying";
		// "details.retryAfterSeconds". The body is the Status.
		name: "too many requests waits its retryAfterSeconds",
		a: clienttest.Answer{Status: 429, Body: status(429, "TooManyRequests",
			"Cannot evict pod as it would violate the pod's disruption budget.",
			`{"causes":[{"reason":"DisruptionBudget","message":"The disruption budget web-pdb needs 2 healthy pods and has 2 currently"}],"retryAfterSeconds":30}`)},
		want: errkind.Object{Kind: errkind.RateLimited, RetryAfterSeconds: clienttest.N(30)},
	},
	{
		// apf: a request that priority and fairness rejects gets "an HTTP
		// 429 (Too Many Requests) error" with a Retry-After field; its
		// body is plain text, of which client-go makes a Status, after
		// retrying itself as long as Retry-After asks (here 1 second,
		// ten times).
		name: "priority and fairness 429 waits its Retry-After",
		a:    clienttest.Answer{Status: 429, Header: map[string]string{"Content-Type": "text/plain; charset=utf-8", "Retry-After": "1", "X-Kubernetes-Pf-Flowschema-Uid": "5b8b2d5e", "X-Kubernetes-Pf-Prioritylevel-Uid": "7f3c1c3e"}, Body: "Too many requests, please try again later.\n"},
		want: errkind.Object{Kind: errkind.RateLimited, RetryAfterSeconds: clienttest.N(1)},
	},
	{
		// conventions: "500 StatusInternalServerError: Indicates that the
		// server can be reached and understood the request, but either an
		// unexpected internal error occurred and the outcome of the call
		// is unknown".
		name: "internal error is server_error",
		a:    clienttest.Answer{Status: 500, Body: status(500, "InternalError", `Internal error occurred: failed calling webhook "validate.example.com": connection refused`, `{"causes":[{"message":"failed calling webhook \"validate.example.com\": connection refused"}]}`)},
		want: errkind.Object{Kind: errkind.ServerError, Code: "InternalError", HTTPStatus: 500, Message: `Internal error occurred: failed calling webhook "validate.example.com": connection refused`},
	},
	{
		// conventions: "503 StatusServiceUnavailable: Indicates that
		// required service is unavailable"; an aggregated API whose
		// backend is down answers so.
		name: "service unavailable is unavailable",
		a:    clienttest.Answer{Status: 503, Body: status(503, "ServiceUnavailable", "the server is currently unable to handle the request", "")},
		want: errkind.Object{Kind: errkind.Unavailable, Code: "ServiceUnavailable", HTTPStatus: 503, Message: "the server is currently unable to handle the request"},
	},
	{
		// conventions: "504 StatusServerTimeout: Indicates that the
		// request could not be completed within the given time".
		name: "server timeout is unavailable",
		a:    clienttest.Answer{Status: 504, Body: status(504, "Timeout", "Timeout: request did not complete within requested timeout - context deadline exceeded", "")},
		want: errkind.Object{Kind: errkind.Unavailable, Code: "Timeout", HTTPStatus: 504, Message: "Timeout: request did not complete within requested timeout - context deadline exceeded"},
	},
	{
		// RFC 9110 §15.6.3: a load balancer's page in front of the API
		// server, which client-go turns into a Status of its own.
		name: "gateway page is unavailable",
		a:    clienttest.Answer{Status: 502, Header: map[string]string{"Content-Type": "text/html"}, Body: "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>"},
		want: errkind.Object{Kind: errkind.Unavailable, HTTPStatus: 502},
	},
}

// TestRead checks that each documented answer of the Kubernetes API, as
// client-go's dynamic client returns it, reaches the agent as the API's
// conventions say: through Read, and through envelope.ErrorOf and the
// handlers of a go-sdk and an mcp-go server, unchanged and wrapped.
func TestRead(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // client-go waits out a 429's Retry-After itself
			u := clienttest.Serve(t, c.a)
			call := c.call
			if call == nil {
				call = getPod
			}
			err := call(context.Background(), client(t, u))
			clienttest.CheckRead(t, mcpk8s.Read, err, c.want, token)
		})
	}
}

// TestTimeout checks that an API server that does not answer in time is
// network_error.
func TestTimeout(t *testing.T) {
	clienttest.CheckTimeout(t, mcpk8s.Read, func(ctx context.Context, u *clienttest.Upstream) error { return getPod(ctx, client(t, u)) })
}

package grpc_test

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/protoadapt"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/mcperr/mcperr/clients/clienttest"
	mcpgrpc "github.com/mcperr/mcperr/clients/grpc"
	"github.com/mcperr/mcperr/errkind"
)

// health is a gRPC server whose Check fails with st, or stalls for stall.
type health struct {
	healthpb.UnimplementedHealthServer
	st    *status.Status
	stall time.Duration
}

func (h *health) Check(ctx context.Context, _ *healthpb.HealthCheckRequest) (*healthpb.HealthCheckResponse, error) {
	if h.stall > 0 {
		select {
		case <-time.After(h.stall):
		case <-ctx.Done():
		}
	}
	return nil, h.st.Err()
}

// serve starts a gRPC server on loopback with h, and returns a client
// connection to it.
func serve(t *testing.T, h *health) healthpb.HealthClient {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := grpc.NewServer()
	healthpb.RegisterHealthServer(s, h)
	go s.Serve(l)
	t.Cleanup(s.Stop)
	conn, err := grpc.NewClient(l.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return healthpb.NewHealthClient(conn)
}

// with returns st with details.
func with(st *status.Status, details ...protoadapt.MessageV1) *status.Status {
	st, err := st.WithDetails(details...)
	if err != nil {
		panic(err)
	}
	return st
}

// The pages cited below:
//
//	codes:   grpc.io/docs/guides/status-codes, and google/rpc/code.proto
//	         (each code's use and its HTTP mapping)
//	details: cloud.google.com/apis/design/errors (AIP-193: ErrorInfo,
//	         RetryInfo, BadRequest, ResourceInfo, QuotaFailure)
var cases = []struct {
	name string
	st   *status.Status
	want errkind.Object
}{
	{
		// codes: "UNAUTHENTICATED: The request does not have valid
		// authentication credentials for the operation."
		name: "unauthenticated is authentication_failed",
		st:   status.New(codes.Unauthenticated, "Request had invalid authentication credentials. Expected OAuth 2 access token."),
		want: errkind.Object{Kind: errkind.AuthenticationFailed, Message: "Request had invalid authentication credentials. Expected OAuth 2 access token."},
	},
	{
		// codes: "PERMISSION_DENIED: The caller does not have permission
		// to execute the specified operation."
		name: "permission denied is permission_denied",
		st: with(status.New(codes.PermissionDenied, "Permission 'secretmanager.versions.access' denied for resource 'projects/p/secrets/s/versions/latest'."),
			&errdetails.ErrorInfo{Reason: "IAM_PERMISSION_DENIED", Domain: "secretmanager.googleapis.com", Metadata: map[string]string{"permission": "secretmanager.versions.access"}}),
		want: errkind.Object{Kind: errkind.PermissionDenied, Code: "PERMISSION_DENIED", Message: "Permission 'secretmanager.versions.access' denied for resource 'projects/p/secrets/s/versions/latest'.",
			Details: json.RawMessage(`[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"IAM_PERMISSION_DENIED","domain":"secretmanager.googleapis.com","metadata":{"permission":"secretmanager.versions.access"}}]`)},
	},
	{
		// codes: "NOT_FOUND: Some requested entity (e.g., file or
		// directory) was not found"; details: ResourceInfo names it.
		name: "not found names the resource",
		st: with(status.New(codes.NotFound, "Secret [projects/p/secrets/s] not found."),
			&errdetails.ResourceInfo{ResourceType: "secretmanager.googleapis.com/Secret", ResourceName: "projects/p/secrets/s"}),
		want: errkind.Object{Kind: errkind.NotFound, Code: "NOT_FOUND", Message: "Secret [projects/p/secrets/s] not found.",
			Details: json.RawMessage(`[{"@type":"type.googleapis.com/google.rpc.ResourceInfo","resourceType":"secretmanager.googleapis.com/Secret","resourceName":"projects/p/secrets/s"}]`)},
	},
	{
		// codes: "INVALID_ARGUMENT: The client specified an invalid
		// argument"; details: BadRequest's field violations name each
		// field at fault.
		name: "invalid argument names the field at fault",
		st: with(status.New(codes.InvalidArgument, "Invalid resource field value in the request."),
			&errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{{Field: "secret.replication", Description: "Replication policy must be set."}}}),
		want: errkind.Object{Kind: errkind.InvalidArguments, Code: "INVALID_ARGUMENT", Message: "Invalid resource field value in the request.",
			Details: json.RawMessage(`[{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"secret.replication","description":"Replication policy must be set."}]}]`)},
	},
	{
		// codes: "ALREADY_EXISTS: The entity that a client attempted to
		// create (e.g., file or directory) already exists."
		name: "already exists is conflict",
		st:   status.New(codes.AlreadyExists, "Secret [projects/p/secrets/s] already exists."),
		want: errkind.Object{Kind: errkind.Conflict, Code: "ALREADY_EXISTS", Message: "Secret [projects/p/secrets/s] already exists."},
	},
	{
		// codes: "ABORTED: The operation was aborted, typically due to a
		// concurrency issue such as a sequencer check failure or
		// transaction abort."
		name: "aborted is conflict",
		st:   status.New(codes.Aborted, "Transaction was aborted due to a concurrent modification."),
		want: errkind.Object{Kind: errkind.Conflict, Code: "ABORTED", Message: "Transaction was aborted due to a concurrent modification."},
	},
	{
		// codes: "RESOURCE_EXHAUSTED: Some resource has been exhausted,
		// perhaps a per-user quota"; details: RetryInfo's retry_delay is
		// how long to wait.
		name: "resource exhausted waits its RetryInfo",
		st: with(status.New(codes.ResourceExhausted, "Quota exceeded for quota metric 'Access requests' and limit 'Access requests per minute'."),
			&errdetails.QuotaFailure{Violations: []*errdetails.QuotaFailure_Violation{{Subject: "project:p", Description: "Access requests per minute"}}},
			&errdetails.RetryInfo{RetryDelay: durationpb.New(30 * time.Second)}),
		want: errkind.Object{Kind: errkind.RateLimited, RetryAfterSeconds: clienttest.N(30)},
	},
	{
		// codes: RESOURCE_EXHAUSTED without a RetryInfo: no wait given.
		name: "resource exhausted without RetryInfo is rate_limited",
		st:   status.New(codes.ResourceExhausted, "grpc: received message larger than max"),
		want: errkind.Object{Kind: errkind.RateLimited, RetryAfterSeconds: clienttest.N(60)},
	},
	{
		// codes: "UNAVAILABLE: The service is currently unavailable. This
		// is most likely a transient condition, which can be corrected by
		// retrying with a backoff."
		name: "unavailable waits its RetryInfo",
		st:   with(status.New(codes.Unavailable, "The service is currently unavailable."), &errdetails.RetryInfo{RetryDelay: durationpb.New(5 * time.Second)}),
		want: errkind.Object{Kind: errkind.Unavailable, Code: "UNAVAILABLE", HTTPStatus: 503, Message: "The service is currently unavailable.", RetryAfterSeconds: clienttest.N(5)},
	},
	{
		// codes: "INTERNAL: Internal errors. This means that some
		// invariants expected by the underlying system have been broken."
		name: "internal is server_error",
		st:   status.New(codes.Internal, "Internal error encountered."),
		want: errkind.Object{Kind: errkind.ServerError, Code: "INTERNAL", HTTPStatus: 500, Message: "Internal error encountered."},
	},
}

// TestRead checks that each documented status, as the real gRPC client
// returns it from a server on loopback, reaches the agent as the
// documentation says: through Read, and through envelope.ErrorOf and the
// handlers of a go-sdk and an mcp-go server, unchanged and wrapped.
func TestRead(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := serve(t, &health{st: c.st}).Check(context.Background(), &healthpb.HealthCheckRequest{})
			clienttest.CheckRead(t, mcpgrpc.Read, err, c.want, "")
		})
	}
}

// TestDeadline checks that a call the server does not answer in time,
// DEADLINE_EXCEEDED (codes: "HTTP Mapping: 504 Gateway Timeout"), is
// unavailable: the same call may succeed later.
func TestDeadline(t *testing.T) {
	c := serve(t, &health{st: status.New(codes.OK, ""), stall: 5 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := c.Check(ctx, &healthpb.HealthCheckRequest{})
	if status.Code(err) != codes.DeadlineExceeded {
		t.Fatalf("got %v, want DEADLINE_EXCEEDED", err)
	}
	// The client words the same status two ways, by which side's clock the
	// deadline meets first ("context deadline exceeded", or "stream
	// terminated by RST_STREAM with error code: CANCEL" when the server's
	// reset arrives first): the agent gets the status's message as sent.
	clienttest.Check(t, err, errkind.Object{Kind: errkind.Unavailable, Code: "DEADLINE_EXCEEDED", HTTPStatus: 504, Message: status.Convert(err).Message()}, "")
}

// TestGatewayPage checks that a proxy's HTML page in front of a gRPC
// server, which the client reports as UNAVAILABLE ("unexpected HTTP status
// code received from server: 502"), is unavailable.
func TestGatewayPage(t *testing.T) {
	page := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		fmt.Fprint(w, "<html><body><h1>502 Bad Gateway</h1></body></html>")
	}))
	page.EnableHTTP2 = true
	page.StartTLS()
	t.Cleanup(page.Close)
	pool := x509.NewCertPool()
	pool.AddCert(page.Certificate())
	conn, err := grpc.NewClient(page.Listener.Addr().String(), grpc.WithTransportCredentials(credentials.NewClientTLSFromCert(pool, "example.com")))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, err = healthpb.NewHealthClient(conn).Check(context.Background(), &healthpb.HealthCheckRequest{})
	if status.Code(err) != codes.Unavailable {
		t.Fatalf("got %v, want UNAVAILABLE", err)
	}
	e, ok := mcpgrpc.Read(err)
	if !ok {
		t.Fatal("Read found nothing")
	}
	clienttest.Check(t, err, clienttest.Object(e), "")
	if e.Kind != errkind.Unavailable {
		t.Errorf("kind %s, want unavailable", e.Kind)
	}
}

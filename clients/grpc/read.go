package grpc

import (
	"encoding/json"
	"errors"
	"net/http"

	_ "google.golang.org/genproto/googleapis/rpc/errdetails" // the details' message types, for their JSON
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/mcperr/mcperr/envelope"
)

func init() { envelope.Register(Read) }

// Read returns the upstream failure a gRPC error carries, read by
// envelope.Reader's rules from its status (see the package doc), and
// whether err holds a status other than OK: an error in its chain with a
// GRPCStatus method, as status.FromError finds it.
func Read(err error) (*envelope.Error, bool) {
	var gs interface{ GRPCStatus() *status.Status }
	if !errors.As(err, &gs) {
		return nil, false
	}
	st := gs.GRPCStatus()
	if st.Code() == codes.OK {
		return nil, false
	}
	m, ok := mapping[st.Code()]
	if !ok {
		m = mapping[codes.Unknown]
	}
	var details []json.RawMessage
	for _, d := range st.Proto().GetDetails() {
		b, err := protojson.Marshal(d)
		if err != nil {
			continue // a type not linked in
		}
		details = append(details, b)
	}
	body, jerr := json.Marshal(map[string]any{"error": answer{m.status, st.Message(), m.name, details}})
	if jerr != nil {
		return nil, false
	}
	resp := &http.Response{StatusCode: m.status, Header: http.Header{"Content-Type": {"application/json"}}}
	return (&envelope.Reader{}).ReadBody(resp, body)
}

// answer is an AIP-193 error object.
type answer struct {
	Code    int               `json:"code"`
	Message string            `json:"message,omitempty"`
	Status  string            `json:"status"`
	Details []json.RawMessage `json:"details,omitempty"`
}

// mapping is google/rpc/code.proto's "HTTP Mapping" of each code, with the
// code's name.
var mapping = map[codes.Code]struct {
	name   string
	status int
}{
	codes.Canceled:           {"CANCELLED", 499},
	codes.Unknown:            {"UNKNOWN", 500},
	codes.InvalidArgument:    {"INVALID_ARGUMENT", 400},
	codes.DeadlineExceeded:   {"DEADLINE_EXCEEDED", 504},
	codes.NotFound:           {"NOT_FOUND", 404},
	codes.AlreadyExists:      {"ALREADY_EXISTS", 409},
	codes.PermissionDenied:   {"PERMISSION_DENIED", 403},
	codes.ResourceExhausted:  {"RESOURCE_EXHAUSTED", 429},
	codes.FailedPrecondition: {"FAILED_PRECONDITION", 400},
	codes.Aborted:            {"ABORTED", 409},
	codes.OutOfRange:         {"OUT_OF_RANGE", 400},
	codes.Unimplemented:      {"UNIMPLEMENTED", 501},
	codes.Internal:           {"INTERNAL", 500},
	codes.Unavailable:        {"UNAVAILABLE", 503},
	codes.DataLoss:           {"DATA_LOSS", 500},
	codes.Unauthenticated:    {"UNAUTHENTICATED", 401},
}

package envelope_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/wire"
)

// ErrorOf finds the upstream failure in the errors a handler holds: an
// *Error wrapped with the operation the handler was doing, which the agent
// sees in front of the upstream's message; an error that names its status
// (aws-sdk-go-v2's, through HTTPStatusCode, ErrorCode and ErrorMessage);
// and a request that got no answer, whose message names the host and not
// the URL with its key.
func ExampleErrorOf() {
	notFound := &envelope.Error{Kind: errkind.NotFound, Code: "not_found", Message: "no issue #42", HTTPStatus: 404}
	timeout := &url.Error{Op: "Get", URL: "https://api.example.com/v1/issues?api_key=sk-live-123456", Err: context.DeadlineExceeded}
	for _, err := range []error{
		fmt.Errorf("failed to get issue: %w", notFound),
		fmt.Errorf("get object: %w", &smithyLike{404, "NoSuchKey", "The specified key does not exist."}),
		timeout,
		errors.New("not an upstream failure"),
	} {
		if e, ok := envelope.ErrorOf(err); ok {
			fmt.Println(wire.ErrorResult(e).Content[0].Text)
		} else {
			fmt.Println("none:", err)
		}
	}
	// Output:
	// {"kind":"not_found","code":"not_found","message":"failed to get issue: no issue #42"}
	// {"kind":"not_found","code":"NoSuchKey","message":"get object: The specified key does not exist."}
	// {"kind":"network_error","message":"GET api.example.com: context deadline exceeded"}
	// none: not an upstream failure
}

// smithyLike is an error of the shape aws-sdk-go-v2's (smithy's) errors
// have: a status through HTTPStatusCode, a code and a message through
// ErrorCode and ErrorMessage.
type smithyLike struct {
	status        int
	code, message string
}

func (e *smithyLike) Error() string {
	return fmt.Sprintf("https response error StatusCode: %d, api error %s: %s", e.status, e.code, e.message)
}
func (e *smithyLike) HTTPStatusCode() int  { return e.status }
func (e *smithyLike) ErrorCode() string    { return e.code }
func (e *smithyLike) ErrorMessage() string { return e.message }

// clientError stands for an API client library's typed error: it keeps the
// response (whose body it has read) and the body's bytes.
type clientError struct {
	Response *http.Response
	Body     []byte
}

func (e *clientError) Error() string { return fmt.Sprintf("%d %s", e.Response.StatusCode, e.Body) }

// A clients/NAME module registers, from its init function, a reader of its
// library's typed errors, which builds the failure from the answer's
// parts by the Reader's rules (Reader.ReadBody). Importing the module is
// then all a server does for ErrorOf, and the adapters' Handle, to read
// them.
func ExampleRegister() {
	envelope.Register(func(err error) (*envelope.Error, bool) {
		var ce *clientError
		if !errors.As(err, &ce) || ce.Response == nil {
			return nil, false
		}
		return (&envelope.Reader{}).ReadBody(ce.Response, ce.Body)
	})

	resp := &http.Response{StatusCode: 403, Header: http.Header{"Retry-After": {"30"}, "Content-Type": {"application/json"}}, Body: http.NoBody}
	err := fmt.Errorf("list issues: %w", &clientError{Response: resp, Body: []byte(`{"message":"You have exceeded a secondary rate limit."}`)})
	e, _ := envelope.ErrorOf(err)
	fmt.Println(wire.ErrorResult(e).Content[0].Text)
	// Output:
	// {"kind":"rate_limited","retryAfterSeconds":30}
}

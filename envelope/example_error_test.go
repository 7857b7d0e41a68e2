package envelope_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/wire"
)

// errors.Is matches an *Error by the target's non-empty Kind and Code,
// through any wrapping, and looks past it into its cause: a sentinel such
// as ErrBodyTooLarge, or the context error of a request that timed out.
func ExampleError_Is() {
	err := fmt.Errorf("get trace: %w", &envelope.Error{Kind: errkind.NotFound, Code: "trace_not_found", Message: "no trace"})

	fmt.Println(errors.Is(err, &envelope.Error{Kind: errkind.NotFound}))
	fmt.Println(errors.Is(err, &envelope.Error{Kind: errkind.NotFound, Code: "trace_not_found"}))
	fmt.Println(errors.Is(err, &envelope.Error{Code: "span_not_found"}))
	fmt.Println(errors.Is(err, &envelope.Error{Kind: errkind.ServerError}))

	// A body over the bound is malformed_response, told apart from a body
	// that is not JSON by its cause.
	r := envelope.Reader{MaxBytes: 16}
	body := `{"id":"` + strings.Repeat("a", 64) + `"}`
	big := &http.Response{StatusCode: 200, ContentLength: -1, Body: io.NopCloser(strings.NewReader(body))}
	err = r.Read(big, new(map[string]any))
	fmt.Println(envelope.KindOf(err), errors.Is(err, envelope.ErrBodyTooLarge))

	// A request that timed out is network_error, and still the context's
	// error underneath.
	timeout := &envelope.Error{Kind: errkind.NetworkError, Message: "request timed out", Err: context.DeadlineExceeded}
	fmt.Println(errors.Is(timeout, context.DeadlineExceeded))
	// Output:
	// true
	// true
	// false
	// false
	// malformed_response true
	// true
}

// An error that holds no *Error is a server_error, both to KindOf and in
// the result ErrorResult renders; so is an *Error left without a kind.
func ExampleKindOf() {
	fmt.Println(envelope.KindOf(errors.New("boom")))
	fmt.Println(wire.ErrorResult(errors.New("boom")).Content[0].Text)
	fmt.Println(envelope.KindOf(&envelope.Error{}), (&envelope.Error{}).Error())
	fmt.Printf("%q\n", envelope.KindOf(nil))
	// Output:
	// server_error
	// {"kind":"server_error","message":"boom"}
	// server_error server_error
	// ""
}

// An Error marshals in the layout errkind's standard taxonomy declares for
// its kind. A server whose taxonomy declares its own kinds and layouts
// writes Object with that taxonomy's fields instead, and returns the text
// with wire.TextError.
func ExampleError_Object() {
	e := &envelope.Error{Kind: "wrong_role", Code: "forbidden_role", Message: "this token may only read", HTTPStatus: 403}
	b, _ := e.MarshalJSON()
	fmt.Println(string(b)) // a kind the standard taxonomy does not know: every member that is set

	tax := errkind.Standard().With(errkind.Rule{Code: "forbidden_role", Kind: "wrong_role"})
	tax.Advice["wrong_role"] = errkind.Advice{Move: errkind.Stop, Note: "stop", Fields: []string{"message"}}
	o := e.Object()
	fmt.Println(string(o.AppendJSON(nil, tax.Advise(o.Kind).Fields)))
	// Output:
	// {"kind":"wrong_role","code":"forbidden_role","message":"this token may only read","httpStatus":403}
	// {"kind":"wrong_role","message":"this token may only read"}
}

package envelope_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/ratelimit/header"
	"github.com/mcperr/mcperr/wire"
)

// TestKindObject: each kind's object has the members of errkind's standard
// layout for that kind, in its order (seed 000's captures for the kinds the
// Vexlo contract shares), and MarshalJSON, AppendKindObject and
// wire.ErrorResult write the same bytes. A known wait is written whatever
// the kind, and a rate_limited error always tells the agent how long to
// wait.
func TestKindObject(t *testing.T) {
	full := &header.Limits{Limit: 20, Remaining: 0, Reset: time.Second, HasLimit: true, HasRemaining: true, HasReset: true}
	tests := []struct {
		name string
		e    *envelope.Error
		want string
	}{
		{"not_found", &envelope.Error{Kind: errkind.NotFound, Code: "trace_not_found", Message: "no trace with id deadbeefdeadbeefdeadbeefdeadbeef",
			Details: json.RawMessage(`{ "trace_id": "deadbeefdeadbeefdeadbeefdeadbeef" }`), HTTPStatus: 404},
			`{"kind":"not_found","code":"trace_not_found","message":"no trace with id deadbeefdeadbeefdeadbeefdeadbeef","details":{"trace_id":"deadbeefdeadbeefdeadbeefdeadbeef"}}`},
		{"details that are not JSON are left out", &envelope.Error{Kind: errkind.NotFound, Code: "x_not_found", Details: json.RawMessage(`{"a":`)},
			`{"kind":"not_found","code":"x_not_found"}`},
		{"invalid_arguments", &envelope.Error{Kind: errkind.InvalidArguments, Code: "invalid_request", Message: "trace_id must be 32 lowercase hex characters, got 14", HTTPStatus: 400},
			`{"kind":"invalid_arguments","code":"invalid_request","message":"trace_id must be 32 lowercase hex characters, got 14"}`},
		{"invalid_arguments quoted", &envelope.Error{Kind: errkind.InvalidArguments, Code: "invalid_request", Message: `path: "!!not-base32!!" does not decode`, HTTPStatus: 400},
			`{"kind":"invalid_arguments","code":"invalid_request","message":"path: \"!!not-base32!!\" does not decode"}`},
		{"authentication_failed", &envelope.Error{Kind: errkind.AuthenticationFailed, Code: "unauthenticated", Message: "token revoked", HTTPStatus: 401},
			`{"kind":"authentication_failed","message":"token revoked"}`},
		{"permission_denied", &envelope.Error{Kind: errkind.PermissionDenied, Code: "forbidden_role", Message: "this token may only read", HTTPStatus: 403},
			`{"kind":"permission_denied","code":"forbidden_role","message":"this token may only read"}`},
		{"conflict", &envelope.Error{Kind: errkind.Conflict, Code: "already_exists", Message: "a watch named x exists", Details: json.RawMessage(`{"name":"x"}`), HTTPStatus: 409},
			`{"kind":"conflict","code":"already_exists","message":"a watch named x exists","details":{"name":"x"}}`},
		{"rate_limited", &envelope.Error{Kind: errkind.RateLimited, Code: "rate_limited", Message: "slow down", HTTPStatus: 429, RetryAfter: time.Second, RateLimit: full},
			`{"kind":"rate_limited","retryAfterSeconds":1,"limit":20,"remaining":0,"resetSeconds":1}`},
		{"rate_limited bare", &envelope.Error{Kind: errkind.RateLimited, HTTPStatus: 429, RetryAfter: 60 * time.Second},
			`{"kind":"rate_limited","retryAfterSeconds":60}`},
		{"rate_limited fraction rounds up", &envelope.Error{Kind: errkind.RateLimited, RetryAfter: 1500 * time.Millisecond,
			RateLimit: &header.Limits{Remaining: 0, HasRemaining: true}},
			`{"kind":"rate_limited","retryAfterSeconds":2,"remaining":0}`},
		{"rate_limited built by hand waits the read path's default", &envelope.Error{Kind: errkind.RateLimited},
			`{"kind":"rate_limited","retryAfterSeconds":60}`},
		{"unavailable", &envelope.Error{Kind: errkind.Unavailable, Code: "UNAVAILABLE", Message: "m", HTTPStatus: 503, RetryAfter: 2 * time.Minute, RateLimit: full},
			`{"kind":"unavailable","code":"UNAVAILABLE","httpStatus":503,"message":"m","retryAfterSeconds":120}`},
		{"unavailable without a wait", &envelope.Error{Kind: errkind.Unavailable, HTTPStatus: 502},
			`{"kind":"unavailable","httpStatus":502}`},
		{"server_error", &envelope.Error{Kind: errkind.ServerError, Code: "internal_error", Message: "database unavailable", HTTPStatus: 500},
			`{"kind":"server_error","code":"internal_error","httpStatus":500,"message":"database unavailable"}`},
		{"malformed_response", &envelope.Error{Kind: errkind.MalformedResponse, Message: "response body is not valid JSON (status 502)", HTTPStatus: 502, Err: errors.New("invalid character '<'")},
			`{"kind":"malformed_response","httpStatus":502,"message":"response body is not valid JSON (status 502)"}`},
		{"network_error", &envelope.Error{Kind: errkind.NetworkError, Message: `Get "http://127.0.0.1:8080/v1/traces": dial tcp 127.0.0.1:8080: connect: connection refused`},
			`{"kind":"network_error","message":"Get \"http://127.0.0.1:8080/v1/traces\": dial tcp 127.0.0.1:8080: connect: connection refused"}`},
		{"a kind of the server's own writes every member that is set", &envelope.Error{Kind: "credit_rate_limited", Code: "credit_rate_limited", Message: "this minute's credits are spent", HTTPStatus: 200, RetryAfter: 2 * time.Second},
			`{"kind":"credit_rate_limited","code":"credit_rate_limited","message":"this minute's credits are spent","httpStatus":200,"retryAfterSeconds":2}`},
		{"text stays readable", &envelope.Error{Kind: errkind.ServerError, Message: "a <b> & \"c\"\n\xff"},
			`{"kind":"server_error","message":"a <b> & \"c\"\n\ufffd"}`},
		{"not_found with a wait writes it last", &envelope.Error{Kind: errkind.NotFound, Code: "x_not_found", Message: "m", RetryAfter: 5 * time.Second},
			`{"kind":"not_found","code":"x_not_found","message":"m","retryAfterSeconds":5}`},
		{"malformed_response with a wait", &envelope.Error{Kind: errkind.MalformedResponse, HTTPStatus: 502, Message: "response body is not valid JSON (status 502)", RetryAfter: 1500 * time.Millisecond},
			`{"kind":"malformed_response","httpStatus":502,"message":"response body is not valid JSON (status 502)","retryAfterSeconds":2}`},
		{"server_error with a wait", &envelope.Error{Kind: errkind.ServerError, HTTPStatus: 500, RetryAfter: time.Second},
			`{"kind":"server_error","httpStatus":500,"retryAfterSeconds":1}`},
		{"authentication_failed with a wait", &envelope.Error{Kind: errkind.AuthenticationFailed, Message: "m", RetryAfter: time.Second},
			`{"kind":"authentication_failed","message":"m","retryAfterSeconds":1}`},
		{"no wait known, none written", &envelope.Error{Kind: errkind.NotFound, Message: "m"},
			`{"kind":"not_found","message":"m"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := tt.e.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			got := []string{string(b), string(tt.e.AppendKindObject([]byte("prefix"))[len("prefix"):]), wire.ErrorResult(fmt.Errorf("wrapped: %w", tt.e)).Content[0].Text}
			if diff := cmp.Diff([]string{tt.want, tt.want, tt.want}, got); diff != "" {
				t.Errorf("MarshalJSON, AppendKindObject, ErrorResult (-want +got):\n%s", diff)
			}
			if !json.Valid(b) {
				t.Errorf("not JSON: %s", b)
			}
			// A client reads the object back as the same kind and wait.
			o := tt.e.Object()
			r := errkind.Read(errkind.Outcome{IsError: true, Text: string(b)})
			if r.Kind != o.Kind || r.HasWait != (o.RetryAfterSeconds != nil) || r.HasWait && r.Wait != time.Duration(*o.RetryAfterSeconds)*time.Second {
				t.Errorf("errkind.Read of %s: kind %q, wait %v (%v)", b, r.Kind, r.Wait, r.HasWait)
			}
		})
	}
}

// TestObjectLayout: Object gives every member the Error carries, so a
// server whose taxonomy declares its own layout for a kind writes it with
// errkind.Object's AppendJSON; a known wait is still never dropped.
func TestObjectLayout(t *testing.T) {
	tax := errkind.Standard().With(errkind.Rule{Code: "forbidden_role", Kind: "wrong_role"})
	tax.Advice["wrong_role"] = errkind.Advice{Move: errkind.Stop, Fields: []string{"message"}}
	tests := []struct {
		e    *envelope.Error
		want string
	}{
		{&envelope.Error{Kind: "wrong_role", Code: "forbidden_role", Message: "read only", HTTPStatus: 403},
			`{"kind":"wrong_role","message":"read only"}`},
		{&envelope.Error{Kind: "wrong_role", Code: "forbidden_role", Message: "read only", HTTPStatus: 403, RetryAfter: time.Second},
			`{"kind":"wrong_role","message":"read only","retryAfterSeconds":1}`},
		{&envelope.Error{Kind: errkind.RateLimited, RateLimit: &header.Limits{Limit: 5, HasLimit: true}},
			`{"kind":"rate_limited","retryAfterSeconds":60,"limit":5}`},
		{nil, `{"kind":"server_error"}`},
	}
	for _, tt := range tests {
		o := tt.e.Object()
		if got := string(o.AppendJSON(nil, tax.Advise(o.Kind).Fields)); got != tt.want {
			t.Errorf("%+v: %s, want %s", tt.e, got, tt.want)
		}
	}
	one := int64(1)
	want := errkind.Object{Kind: errkind.NotFound, Code: "c", Message: "m", Details: json.RawMessage(`{}`), HTTPStatus: 404,
		RetryAfterSeconds: &one, Limit: &one, Remaining: &one, ResetSeconds: &one}
	e := &envelope.Error{Kind: errkind.NotFound, Code: "c", Message: "m", Details: json.RawMessage(`{}`), HTTPStatus: 404, RetryAfter: time.Millisecond,
		RateLimit: &header.Limits{Limit: 1, Remaining: 1, Reset: time.Nanosecond, HasLimit: true, HasRemaining: true, HasReset: true}}
	if diff := cmp.Diff(want, e.Object()); diff != "" {
		t.Errorf("Object (-want +got):\n%s", diff)
	}
}

// TestKindOfAgreesWithErrorResult: the kind KindOf reports is the kind
// ErrorResult renders, for any error.
func TestKindOfAgreesWithErrorResult(t *testing.T) {
	for _, err := range []error{
		errors.New("boom"),
		fmt.Errorf("wrapped: %w", errors.New("boom")),
		context.DeadlineExceeded,
		&envelope.Error{},
		&envelope.Error{Kind: errkind.NotFound},
		fmt.Errorf("get: %w", &envelope.Error{Kind: errkind.RateLimited}),
		&envelope.Error{Kind: "credit_rate_limited"},
	} {
		var obj struct {
			Kind errkind.Kind `json:"kind"`
		}
		text := wire.ErrorResult(err).Content[0].Text
		if e := json.Unmarshal([]byte(text), &obj); e != nil {
			t.Fatalf("%v: %s: %v", err, text, e)
		}
		if got := envelope.KindOf(err); got != obj.Kind {
			t.Errorf("KindOf(%v) = %q; ErrorResult renders %q", err, got, obj.Kind)
		}
	}
	if got := envelope.KindOf(nil); got != "" {
		t.Errorf("KindOf(nil) = %q", got)
	}
}

// TestZeroError: an Error built by hand, or left zero, prints and marshals
// as server_error rather than as an empty kind.
func TestZeroError(t *testing.T) {
	tests := []struct {
		e          *envelope.Error
		text, json string
	}{
		{&envelope.Error{}, "server_error", `{"kind":"server_error"}`},
		{&envelope.Error{HTTPStatus: 502}, "server_error: HTTP 502", `{"kind":"server_error","httpStatus":502}`},
		{&envelope.Error{Kind: errkind.NotFound}, "not_found", `{"kind":"not_found"}`},
		{&envelope.Error{Kind: errkind.RateLimited, HTTPStatus: 429}, "rate_limited: HTTP 429", `{"kind":"rate_limited","retryAfterSeconds":60}`},
		{&envelope.Error{Message: "m", Err: errors.New("cause")}, "server_error: m: cause", `{"kind":"server_error","message":"m"}`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.e)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{tt.text, tt.json}, []string{tt.e.Error(), string(b)}); diff != "" {
			t.Errorf("%#v (-want +got):\n%s", tt.e, diff)
		}
	}
	if !errors.Is(&envelope.Error{}, &envelope.Error{Kind: errkind.ServerError}) {
		t.Error("a zero Error is not a server_error to errors.Is")
	}
}

// TestErrTooLarge: a body over the bound is told from a malformed one with
// errors.Is, and its text does not repeat itself.
func TestErrTooLarge(t *testing.T) {
	big := `{"id":"` + strings.Repeat("a", 200) + `"}`
	for _, cl := range []int64{int64(len(big)), -1} {
		resp := response(200, big)
		resp.ContentLength = cl
		resp.Request.Header.Set("Authorization", "Bearer tok")
		r := reader()
		r.MaxBytes = 100
		err := r.Read(resp, &trace{})
		if !errors.Is(err, envelope.ErrBodyTooLarge) {
			t.Errorf("Content-Length %d: errors.Is(err, ErrBodyTooLarge) = false: %v", cl, err)
		}
		if got, want := err.Error(), "malformed_response: response body is larger than the 100-byte limit (status 200)"; got != want {
			t.Errorf("Error() = %q; want %q", got, want)
		}
	}
	for _, body := range []string{`{"id":`, `<html>`, `{"id":5}`} {
		if err := reader().Read(response(200, body), &trace{}); errors.Is(err, envelope.ErrBodyTooLarge) {
			t.Errorf("%s: a malformed body is ErrBodyTooLarge", body)
		}
	}
}

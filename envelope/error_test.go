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
	"github.com/mcperr/mcperr/wire"
)

// TestMarshalWait: a known wait is written whatever the kind, and a
// rate_limited error always tells the agent how long to wait.
func TestMarshalWait(t *testing.T) {
	tests := []struct {
		name string
		e    *envelope.Error
		want string
	}{
		{"rate_limited built by hand waits the read path's default",
			&envelope.Error{Kind: errkind.RateLimited},
			`{"kind":"rate_limited","retryAfterSeconds":60}`},
		{"not_found with a wait writes it last",
			&envelope.Error{Kind: errkind.NotFound, Code: "x_not_found", Message: "m", RetryAfter: 5 * time.Second},
			`{"kind":"not_found","code":"x_not_found","message":"m","retryAfterSeconds":5}`},
		{"malformed_response with a wait",
			&envelope.Error{Kind: errkind.MalformedResponse, HTTPStatus: 502, Message: "response body is not valid JSON (status 502)", RetryAfter: 1500 * time.Millisecond},
			`{"kind":"malformed_response","httpStatus":502,"message":"response body is not valid JSON (status 502)","retryAfterSeconds":2}`},
		{"server_error with a wait",
			&envelope.Error{Kind: errkind.ServerError, HTTPStatus: 500, RetryAfter: time.Second},
			`{"kind":"server_error","httpStatus":500,"retryAfterSeconds":1}`},
		{"authentication_failed with a wait",
			&envelope.Error{Kind: errkind.AuthenticationFailed, Message: "m", RetryAfter: time.Second},
			`{"kind":"authentication_failed","message":"m","retryAfterSeconds":1}`},
		{"unavailable with a wait",
			&envelope.Error{Kind: errkind.Unavailable, Message: "m", HTTPStatus: 503, RetryAfter: 2 * time.Minute},
			`{"kind":"unavailable","message":"m","httpStatus":503,"retryAfterSeconds":120}`},
		{"no wait known, none written",
			&envelope.Error{Kind: errkind.NotFound, Message: "m"},
			`{"kind":"not_found","message":"m"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.e)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(b)); diff != "" {
				t.Errorf("MarshalJSON (-want +got):\n%s", diff)
			}
		})
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
		if !errors.Is(err, envelope.ErrTooLarge) {
			t.Errorf("Content-Length %d: errors.Is(err, ErrTooLarge) = false: %v", cl, err)
		}
		if got, want := err.Error(), "malformed_response: response body is larger than the 100-byte limit (status 200)"; got != want {
			t.Errorf("Error() = %q; want %q", got, want)
		}
	}
	for _, body := range []string{`{"id":`, `<html>`, `{"id":5}`} {
		if err := reader().Read(response(200, body), &trace{}); errors.Is(err, envelope.ErrTooLarge) {
			t.Errorf("%s: a malformed body is ErrTooLarge", body)
		}
	}
}

package envelope_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
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
			&envelope.Error{Kind: "unavailable", Message: "m", HTTPStatus: 503, RetryAfter: 2 * time.Minute},
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

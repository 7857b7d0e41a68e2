package envelope_test

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/ratelimit"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s (-want +got):\n%s", path, diff)
	}
}

func marshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// TestErrorResult renders each kind and checks the kind object against
// seed 000's captures and its table's field order, and the whole tool result
// against a golden file.
func TestErrorResult(t *testing.T) {
	full := &ratelimit.Limits{Limit: 20, Remaining: 0, Reset: time.Second, HasLimit: true, HasRemaining: true, HasReset: true}
	tests := []struct {
		name string
		err  error
		want string // the text block: the JSON kind object
	}{
		{"not_found", &envelope.Error{Kind: errkind.NotFound, Code: "trace_not_found", Message: "no trace with id deadbeefdeadbeefdeadbeefdeadbeef",
			Details: json.RawMessage(`{ "trace_id": "deadbeefdeadbeefdeadbeefdeadbeef" }`), HTTPStatus: 404},
			`{"kind":"not_found","code":"trace_not_found","message":"no trace with id deadbeefdeadbeefdeadbeefdeadbeef","details":{"trace_id":"deadbeefdeadbeefdeadbeefdeadbeef"}}`},
		{"invalid_arguments", &envelope.Error{Kind: errkind.InvalidArguments, Code: "invalid_request", Message: "trace_id must be 32 lowercase hex characters, got 14", HTTPStatus: 400},
			`{"kind":"invalid_arguments","code":"invalid_request","message":"trace_id must be 32 lowercase hex characters, got 14"}`},
		{"invalid_arguments_path", &envelope.Error{Kind: errkind.InvalidArguments, Code: "invalid_request", Message: `path: "!!not-base32!!" does not decode`, HTTPStatus: 400},
			`{"kind":"invalid_arguments","code":"invalid_request","message":"path: \"!!not-base32!!\" does not decode"}`},
		{"authentication_failed", &envelope.Error{Kind: errkind.AuthenticationFailed, Code: "unauthenticated", Message: "token revoked", HTTPStatus: 401},
			`{"kind":"authentication_failed","message":"token revoked"}`},
		{"permission_denied", &envelope.Error{Kind: errkind.PermissionDenied, Code: "forbidden_role", Message: "this token may only read", HTTPStatus: 403},
			`{"kind":"permission_denied","code":"forbidden_role","message":"this token may only read","httpStatus":403}`},
		{"rate_limited", &envelope.Error{Kind: errkind.RateLimited, Code: "rate_limited", Message: "slow down", HTTPStatus: 429, RetryAfter: time.Second, RateLimit: full},
			`{"kind":"rate_limited","retryAfterSeconds":1,"limit":20,"remaining":0,"resetSeconds":1}`},
		{"rate_limited_bare", &envelope.Error{Kind: errkind.RateLimited, HTTPStatus: 429, RetryAfter: 60 * time.Second},
			`{"kind":"rate_limited","retryAfterSeconds":60}`},
		{"rate_limited_fraction", &envelope.Error{Kind: errkind.RateLimited, RetryAfter: 1500 * time.Millisecond,
			RateLimit: &ratelimit.Limits{Remaining: 0, HasRemaining: true}},
			`{"kind":"rate_limited","retryAfterSeconds":2,"remaining":0}`},
		{"server_error", &envelope.Error{Kind: errkind.ServerError, Code: "internal_error", Message: "database unavailable", HTTPStatus: 500},
			`{"kind":"server_error","code":"internal_error","httpStatus":500,"message":"database unavailable"}`},
		{"malformed_response", &envelope.Error{Kind: errkind.MalformedResponse, Message: "response body is not valid JSON (status 502)", HTTPStatus: 502, Err: errors.New("invalid character '<'")},
			`{"kind":"malformed_response","httpStatus":502,"message":"response body is not valid JSON (status 502)"}`},
		{"network_error", &envelope.Error{Kind: errkind.NetworkError, Message: `Get "http://127.0.0.1:8080/v1/traces": dial tcp 127.0.0.1:8080: connect: connection refused`},
			`{"kind":"network_error","message":"Get \"http://127.0.0.1:8080/v1/traces\": dial tcp 127.0.0.1:8080: connect: connection refused"}`},
		{"custom_kind", &envelope.Error{Kind: "credit_rate_limited", Code: "credit_rate_limited", Message: "this minute's credits are spent", HTTPStatus: 200, RetryAfter: 2 * time.Second},
			`{"kind":"credit_rate_limited","code":"credit_rate_limited","message":"this minute's credits are spent","httpStatus":200,"retryAfterSeconds":2}`},
		{"wrapped", fmt.Errorf("vexlo_get_trace: %w", &envelope.Error{Kind: errkind.NotFound, Code: "trace_not_found", Message: "gone"}),
			`{"kind":"not_found","code":"trace_not_found","message":"gone"}`},
		{"plain_error", errors.New("something <odd> & \"quoted\"\n"),
			`{"kind":"server_error","message":"something <odd> & \"quoted\"\n"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := envelope.ErrorResult(tt.err)
			want := &envelope.Result{Content: []envelope.Content{{Type: "text", Text: tt.want}}, IsError: true}
			if diff := cmp.Diff(want, res); diff != "" {
				t.Errorf("ErrorResult (-want +got):\n%s", diff)
			}
			if !json.Valid([]byte(res.Content[0].Text)) {
				t.Errorf("text is not JSON: %s", res.Content[0].Text)
			}
			var e *envelope.Error
			if errors.As(tt.err, &e) {
				b, err := json.Marshal(e)
				if err != nil || string(b) != tt.want {
					t.Errorf("MarshalJSON = %s, %v; want the same object", b, err)
				}
			}
			golden(t, "error_"+tt.name+".json", marshal(t, res))
		})
	}
	if envelope.ErrorResult(nil) != nil {
		t.Error("ErrorResult(nil) != nil")
	}
}

func TestErrorResultWire(t *testing.T) {
	res := envelope.ErrorResult(&envelope.Error{Kind: errkind.AuthenticationFailed, Message: "token revoked"})
	got := string(marshal(t, res))
	want := `{"content":[{"type":"text","text":"{\"kind\":\"authentication_failed\",\"message\":\"token revoked\"}"}],"isError":true}` + "\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestSuccess(t *testing.T) {
	type story struct {
		Title string `json:"title"`
	}
	type search struct {
		Total         int     `json:"total"`
		TotalRelation string  `json:"total_relation"`
		HasMore       bool    `json:"has_more"`
		Partial       bool    `json:"partial"`
		Coverage      string  `json:"coverage"`
		FromClamped   bool    `json:"from_clamped"`
		Stories       []story `json:"stories"`
	}
	res, err := envelope.Success(search{Total: 1, TotalRelation: "exact", Coverage: "complete", Stories: []story{{Title: "<b>&</b>"}}})
	if err != nil {
		t.Fatal(err)
	}
	if string(res.StructuredContent) != res.Content[0].Text {
		t.Errorf("text block %s differs from structuredContent %s", res.Content[0].Text, res.StructuredContent)
	}
	golden(t, "success.json", marshal(t, res))

	res.Meta = map[string]any{"vulnetix/degraded": []string{"vendor-trends"}}
	golden(t, "success_meta.json", marshal(t, res))

	for _, v := range []any{[]int{1}, "s", nil, make(chan int)} {
		if _, err := envelope.Success(v); err == nil {
			t.Errorf("Success(%T) accepted a value that is not a JSON object", v)
		}
	}
}

func TestTextAndJSONError(t *testing.T) {
	golden(t, "text_error.json", marshal(t, envelope.TextError("Not found in the Vulnetix VDB: CVE-2099-0001")))
	seed004 := map[string]any{
		"error": "insufficient credits", "code": "insufficient_credits",
		"detail":           "this call can cost up to 3 credits and 0 are left this month",
		"retry_after_secs": 394200, "credits": map[string]int{"min": 3, "max": 3},
		"credits_limit": 1000, "credits_used": 1000, "credits_remaining": 0,
	}
	golden(t, "json_error.json", marshal(t, envelope.JSONError(seed004)))
	if r := envelope.JSONError(make(chan int)); !r.IsError || r.Content[0].Text == "" {
		t.Errorf("JSONError of an unencodable value: %+v", r)
	}
}

package envelope_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
)

// TestErrorOf checks what ErrorOf reads out of each kind of error a Go
// server holds, and that the operation a wrapping added shows beside the
// upstream's message.
func TestErrorOf(t *testing.T) {
	nf := &envelope.Error{Kind: errkind.NotFound, Code: "not_found", Message: "no such issue", HTTPStatus: 404}
	type want struct {
		Kind    errkind.Kind
		Code    string
		Message string
		Status  int
	}
	tests := []struct {
		name string
		err  error
		ok   bool
		want want
	}{
		{"an *Error is itself", nf, true, want{errkind.NotFound, "not_found", "no such issue", 404}},
		{"a wrapping's operation goes in front of the message", fmt.Errorf("failed to get issue: %w", nf), true,
			want{errkind.NotFound, "not_found", "failed to get issue: no such issue", 404}},
		{"wrappings nest", fmt.Errorf("tool get_issue: %w", fmt.Errorf("failed to get issue: %w", nf)), true,
			want{errkind.NotFound, "not_found", "tool get_issue: failed to get issue: no such issue", 404}},
		{"a wrapping that does not end with its cause adds nothing", fmt.Errorf("%w (while getting issue)", nf), true,
			want{errkind.NotFound, "not_found", "no such issue", 404}},
		{"an *Error in a join", errors.Join(errors.New("other"), nf), true, want{errkind.NotFound, "not_found", "no such issue", 404}},
		{"a status and a code through smithy's interfaces", fmt.Errorf("get object: %w", &smithyLike{404, "NoSuchKey", "The specified key does not exist."}), true,
			want{errkind.NotFound, "NoSuchKey", "get object: The specified key does not exist.", 404}},
		{"a throttling code at 400 is rate_limited", &smithyLike{400, "ThrottlingException", "Rate exceeded"}, true,
			want{errkind.RateLimited, "ThrottlingException", "Rate exceeded", 400}},
		{"a timeout of a request names the host, not the URL", &url.Error{Op: "Get", URL: "http://api.example.com/v1/slow?api_key=sk-live-123", Err: context.DeadlineExceeded}, true,
			want{errkind.NetworkError, "", "GET api.example.com: context deadline exceeded", 0}},
		{"a bare deadline", fmt.Errorf("waiting: %w", context.DeadlineExceeded), true,
			want{errkind.NetworkError, "", "waiting: context deadline exceeded", 0}},
		{"a plain error carries nothing", errors.New("boom"), false, want{}},
		{"a wrapped plain error carries nothing", fmt.Errorf("x: %w", io.EOF), false, want{}},
		{"a cancellation carries nothing", context.Canceled, false, want{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, ok := envelope.ErrorOf(tt.err)
			if ok != tt.ok {
				t.Fatalf("ok = %v, want %v (%v)", ok, tt.ok, e)
			}
			if !ok {
				return
			}
			got := want{e.Kind, e.Code, e.Message, e.HTTPStatus}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got)\n%s", d)
			}
			if strings.Contains(string(e.AppendKindObject(nil)), "sk-live") {
				t.Errorf("the kind object shows the key: %s", e.AppendKindObject(nil))
			}
		})
	}
}

// TestErrorOfKeepsTheCallersError checks that adding the operation copies
// the *Error rather than changing the one the caller holds.
func TestErrorOfKeepsTheCallersError(t *testing.T) {
	nf := &envelope.Error{Kind: errkind.NotFound, Message: "no such issue"}
	if e, _ := envelope.ErrorOf(fmt.Errorf("failed: %w", nf)); e == nf || nf.Message != "no such issue" {
		t.Errorf("ErrorOf changed the caller's *Error: %q", nf.Message)
	}
	if e, _ := envelope.ErrorOf(nf); e != nf {
		t.Errorf("ErrorOf copied an *Error it had nothing to add to")
	}
}

// TestReadBody checks that a response whose body a client already read
// reads as the response would.
func TestReadBody(t *testing.T) {
	resp := &http.Response{StatusCode: 404, Header: http.Header{"Content-Type": {"application/json"}}, Body: http.NoBody}
	e, ok := (&envelope.Reader{}).ReadBody(resp, []byte(`{"message":"Not Found","documentation_url":"https://docs.github.com/rest"}`))
	if !ok || e.Kind != errkind.NotFound || e.Message != "Not Found" || e.HTTPStatus != 404 {
		t.Errorf("ReadBody = %v, %v", e, ok)
	}
	ok200 := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: http.NoBody}
	if e, ok := (&envelope.Reader{}).ReadBody(ok200, []byte(`{"id":1}`)); ok {
		t.Errorf("ReadBody of data = %v, true", e)
	}
}

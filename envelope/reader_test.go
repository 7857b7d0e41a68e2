package envelope_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/ratelimit/header"
	"github.com/mcperr/mcperr/wire"
)

// now is the clock every test reads through Reader.Now.
var now = time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)

func reader() *envelope.Reader {
	return &envelope.Reader{Now: func() time.Time { return now }}
}

// response builds a response as an http.Client would return it.
func response(status int, body string, header ...string) *http.Response {
	h := http.Header{}
	for i := 0; i+1 < len(header); i += 2 {
		h.Add(header[i], header[i+1])
	}
	req, _ := http.NewRequest(http.MethodGet, "https://api.example/v1/x", nil)
	return &http.Response{
		StatusCode:    status,
		Header:        h,
		Body:          io.NopCloser(strings.NewReader(body)),
		ContentLength: int64(len(body)),
		Request:       req,
	}
}

// errOpts compares *Error values by their fields, leaving out Body and Err
// (checked separately where they matter).
var errOpts = cmp.Options{
	cmpopts.IgnoreFields(envelope.Error{}, "Body", "Err"),
	cmpopts.EquateEmpty(),
}

func asError(t *testing.T, err error) *envelope.Error {
	t.Helper()
	var e *envelope.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) holds no *envelope.Error", err, err)
	}
	return e
}

func details(s string) json.RawMessage { return json.RawMessage(s) }

// TestReadKinds covers every row of seed 000's kind table as an upstream
// response, and a code the taxonomy does not know.
func TestReadKinds(t *testing.T) {
	env := func(code, msg string) string {
		return fmt.Sprintf(`{"error":{"code":%q,"message":%q}}`, code, msg)
	}
	tests := []struct {
		name   string
		status int
		body   string
		header []string
		want   envelope.Error
	}{
		{"401 unauthenticated", 401, env("unauthenticated", "token revoked"), nil,
			envelope.Error{Kind: errkind.AuthenticationFailed, Code: "unauthenticated", Message: "token revoked", HTTPStatus: 401}},
		{"403 forbidden_role", 403, env("forbidden_role", "read tokens only"), nil,
			envelope.Error{Kind: errkind.PermissionDenied, Code: "forbidden_role", Message: "read tokens only", HTTPStatus: 403}},
		{"404 trace_not_found", 404,
			`{"error":{"code":"trace_not_found","message":"no trace with id deadbeefdeadbeefdeadbeefdeadbeef","details":{"trace_id":"deadbeefdeadbeefdeadbeefdeadbeef"}}}`, nil,
			envelope.Error{Kind: errkind.NotFound, Code: "trace_not_found", Message: "no trace with id deadbeefdeadbeefdeadbeefdeadbeef",
				Details: details(`{"trace_id":"deadbeefdeadbeefdeadbeefdeadbeef"}`), HTTPStatus: 404}},
		{"any other 404", 404, env("gone", "gone"), nil,
			envelope.Error{Kind: errkind.NotFound, Code: "gone", Message: "gone", HTTPStatus: 404}},
		{"invalid_request", 400, env("invalid_request", "trace_id must be 32 lowercase hex characters, got 14"), nil,
			envelope.Error{Kind: errkind.InvalidArguments, Code: "invalid_request", Message: "trace_id must be 32 lowercase hex characters, got 14", HTTPStatus: 400}},
		{"invalid_cursor", 400, env("invalid_cursor", "bad cursor"), nil,
			envelope.Error{Kind: errkind.InvalidArguments, Code: "invalid_cursor", Message: "bad cursor", HTTPStatus: 400}},
		{"any other 4xx", 418, env("conflicting_filters", "pick one"), nil,
			envelope.Error{Kind: errkind.InvalidArguments, Code: "conflicting_filters", Message: "pick one", HTTPStatus: 418}},
		{"422 too_many_paths", 422, env("too_many_paths", "at most 8 paths"), nil,
			envelope.Error{Kind: errkind.InvalidArguments, Code: "too_many_paths", Message: "at most 8 paths", HTTPStatus: 422}},
		{"429 with figures", 429, env("rate_limited", "slow down"),
			[]string{"Retry-After", "1", "X-RateLimit-Limit", "20", "X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "1"},
			envelope.Error{Kind: errkind.RateLimited, Code: "rate_limited", Message: "slow down", HTTPStatus: 429, RetryAfter: time.Second,
				RateLimit: &header.Limits{Limit: 20, Remaining: 0, Reset: time.Second, HasLimit: true, HasRemaining: true, HasReset: true}}},
		{"429 without Retry-After", 429, env("rate_limited", "slow down"), nil,
			envelope.Error{Kind: errkind.RateLimited, Code: "rate_limited", Message: "slow down", HTTPStatus: 429, RetryAfter: 60 * time.Second}},
		{"429 malformed Retry-After", 429, env("rate_limited", "slow down"), []string{"Retry-After", "soon"},
			envelope.Error{Kind: errkind.RateLimited, Code: "rate_limited", Message: "slow down", HTTPStatus: 429, RetryAfter: 60 * time.Second}},
		{"429 Retry-After date", 429, env("rate_limited", "slow down"), []string{"Retry-After", now.Add(90 * time.Second).Format(http.TimeFormat)},
			envelope.Error{Kind: errkind.RateLimited, Code: "rate_limited", Message: "slow down", HTTPStatus: 429, RetryAfter: 90 * time.Second}},
		{"429 reset as an epoch, measured with Now", 429, env("rate_limited", "slow down"),
			[]string{"Retry-After", "30", "X-RateLimit-Limit", "100", "X-RateLimit-Remaining", "0", "X-RateLimit-Reset", strconv.FormatInt(now.Unix()+30, 10)},
			envelope.Error{Kind: errkind.RateLimited, Code: "rate_limited", Message: "slow down", HTTPStatus: 429, RetryAfter: 30 * time.Second,
				RateLimit: &header.Limits{Limit: 100, Remaining: 0, Reset: 30 * time.Second, HasLimit: true, HasRemaining: true, HasReset: true}}},
		{"429 draft RateLimit-* fields", 429, env("rate_limited", "slow down"),
			[]string{"Retry-After", "5", "RateLimit-Limit", "10", "RateLimit-Remaining", "0", "RateLimit-Reset", "5"},
			envelope.Error{Kind: errkind.RateLimited, Code: "rate_limited", Message: "slow down", HTTPStatus: 429, RetryAfter: 5 * time.Second,
				RateLimit: &header.Limits{Limit: 10, Remaining: 0, Reset: 5 * time.Second, HasLimit: true, HasRemaining: true, HasReset: true}}},
		{"internal_error", 500, env("internal_error", "boom"), nil,
			envelope.Error{Kind: errkind.ServerError, Code: "internal_error", Message: "boom", HTTPStatus: 500}},
		{"502 unknown code", 502, env("bad_gateway", "upstream"), nil,
			envelope.Error{Kind: errkind.Unavailable, Code: "bad_gateway", Message: "upstream", HTTPStatus: 502}},
		{"unknown code keeps code and message, falls back on status", 418, env("teapot_mode", "short and stout"), nil,
			envelope.Error{Kind: errkind.InvalidArguments, Code: "teapot_mode", Message: "short and stout", HTTPStatus: 418}},
		{"envelope on 200 is an error", 200, env("", "odd"), nil,
			envelope.Error{Kind: errkind.ServerError, Message: "odd", HTTPStatus: 200}},
		{"details null is no details", 404, `{"error":{"code":"x_not_found","message":"m","details":null}}`, nil,
			envelope.Error{Kind: errkind.NotFound, Code: "x_not_found", Message: "m", HTTPStatus: 404}},
		{"rate figures on another error", 400, env("invalid_request", "m"), []string{"X-RateLimit-Remaining", "3"},
			envelope.Error{Kind: errkind.InvalidArguments, Code: "invalid_request", Message: "m", HTTPStatus: 400,
				RateLimit: &header.Limits{Remaining: 3, HasRemaining: true}}},
		{"envelope key among others", 404, `{"request_id":"r1","meta":{"error":"nested, not it"},"error":{"code":"span_not_found","message":"m"}}`, nil,
			envelope.Error{Kind: errkind.NotFound, Code: "span_not_found", Message: "m", HTTPStatus: 404}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v map[string]any
			resp := response(tt.status, tt.body, tt.header...)
			want := tt.want
			want.Header = resp.Header.Clone() // the response's header, as it was sent
			err := reader().Read(resp, &v)
			got := asError(t, err)
			if diff := cmp.Diff(&want, got, errOpts); diff != "" {
				t.Errorf("Read (-want +got):\n%s", diff)
			}
			if v != nil {
				t.Errorf("v was written on an error: %v", v)
			}
			if string(got.Body) != tt.body {
				t.Errorf("Body = %s, want the envelope as sent", got.Body)
			}
		})
	}
}

type health struct {
	Status string `json:"status"`
	Mode   string `json:"mode"`
}

func (h *health) CheckShape() error {
	if h.Status == "" {
		return errors.New(`health: no "status"`)
	}
	return nil
}

type trace struct {
	ID    string   `json:"id"`
	Steps []string `json:"steps"`
}

func TestReadData(t *testing.T) {
	t.Run("503 degraded health is data", func(t *testing.T) {
		var h health
		err := reader().Read(response(503, `{"status":"degraded","mode":"shape_only","disk_free":0.01}`), &h)
		if err != nil {
			t.Fatalf("Read: %v", err)
		}
		if diff := cmp.Diff(health{Status: "degraded", Mode: "shape_only"}, h); diff != "" {
			t.Errorf("health (-want +got):\n%s", diff)
		}
	})
	t.Run("200 with error in nested data", func(t *testing.T) {
		var v struct {
			Sections map[string]any `json:"sections"`
		}
		err := reader().Read(response(200, `{"sections":{"vendor-trends":{"error":"timeout"}}}`), &v)
		if err != nil {
			t.Fatalf("Read: %v", err)
		}
	})
	t.Run("error member that is not the envelope's shape", func(t *testing.T) {
		var v struct {
			Error int `json:"error"`
		}
		if err := reader().Read(response(200, `{"error":3}`), &v); err != nil || v.Error != 3 {
			t.Fatalf("Read: %v, %+v", err, v)
		}
	})
	t.Run("rate figures ignored on success", func(t *testing.T) {
		var tr trace
		err := reader().Read(response(200, `{"id":"a","steps":["x"]}`, "X-RateLimit-Remaining", "0", "Retry-After", "5"), &tr)
		if err != nil {
			t.Fatalf("Read: %v", err)
		}
		if diff := cmp.Diff(trace{ID: "a", Steps: []string{"x"}}, tr); diff != "" {
			t.Errorf("trace (-want +got):\n%s", diff)
		}
	})
	t.Run("nil v checks JSON", func(t *testing.T) {
		if err := reader().Read(response(200, `{"ok":true}`), nil); err != nil {
			t.Fatalf("Read: %v", err)
		}
		if got := envelope.KindOf(reader().Read(response(200, `{"ok":`), nil)); got != errkind.MalformedResponse {
			t.Fatalf("Read(nil v, broken) kind = %q", got)
		}
	})
	t.Run("204 empty", func(t *testing.T) {
		if err := reader().Read(response(204, ""), &trace{}); err != nil {
			t.Fatalf("Read: %v", err)
		}
	})
}

type failingBody struct{ data io.Reader }

func (b failingBody) Read(p []byte) (int, error) {
	n, err := b.data.Read(p)
	if err == io.EOF {
		return n, errors.New("connection reset by peer")
	}
	return n, err
}
func (failingBody) Close() error { return nil }

// TestReadMalformed checks the client's own sentences, exactly.
func TestReadMalformed(t *testing.T) {
	big := `{"id":"` + strings.Repeat("a", 200) + `"}`
	tests := []struct {
		name   string
		resp   *http.Response
		max    int64
		v      any
		want   string
		status int
	}{
		{"HTML on a 500", response(500, "<html>Internal Server Error</html>"), 0, &trace{},
			"response body is not valid JSON (status 500)", 500},
		{"HTML on a 200", response(200, "<html>Bad Gateway</html>"), 0, &trace{},
			"response body is not valid JSON (status 200)", 200},
		{"empty 302", response(302, ""), 0, &trace{},
			"response body is not valid JSON (status 302)", 302},
		{"XML error on a 200", response(200, "<Error><Code>NoSuchKey</Code></Error>"), 0, &trace{},
			"response body is not valid JSON (status 200)", 200},
		{"truncated JSON", response(200, `{"id":"a","steps":[`), 0, &trace{},
			"response body is not valid JSON (status 200)", 200},
		{"trailing garbage after envelope", response(404, `{"error":{"code":"a_not_found"}} x`), 0, &trace{},
			"response body is not valid JSON (status 404)", 404},
		{"wrong type", response(200, `{"id":5}`), 0, &trace{},
			"response body matched neither the error envelope nor the expected shape (status 200)", 200},
		{"array for object", response(200, `[1,2]`), 0, &trace{},
			"response body matched neither the error envelope nor the expected shape (status 200)", 200},
		{"shape check fails", response(200, `{"message":"oops"}`), 0, &health{},
			"response body matched neither the error envelope nor the expected shape (status 200)", 200},
		{"read failure", &http.Response{StatusCode: 200, Body: failingBody{strings.NewReader(`{"id":`)}, ContentLength: -1}, 0, &trace{},
			"could not read the response body (status 200): connection reset by peer", 200},
		{"over the bound, by Content-Length", response(200, big), 100, &trace{},
			"response body is larger than the 100-byte limit (status 200)", 200},
		{"over the bound, streamed", &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader(big)), ContentLength: -1}, 100, &trace{},
			"response body is larger than the 100-byte limit (status 200)", 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := reader()
			r.MaxBytes = tt.max
			got := asError(t, r.Read(tt.resp, tt.v))
			want := &envelope.Error{Kind: errkind.MalformedResponse, Message: tt.want, HTTPStatus: tt.status}
			if diff := cmp.Diff(want, got, errOpts); diff != "" {
				t.Errorf("Read (-want +got):\n%s", diff)
			}
		})
	}
}

// TestReadRaw: ReadRaw returns the body as sent beside Read's own result,
// whatever it decided, and nil with a cause errors.Is can tell when the
// body could not be read whole: ErrBodyRead for a read that failed (the
// read's own error still beneath it), ErrBodyTooLarge for a body over the
// bound. A body that was read and is not JSON is neither.
func TestReadRaw(t *testing.T) {
	big := `{"id":"` + strings.Repeat("a", 200) + `"}`
	timeout := &http.Response{StatusCode: 200, ContentLength: -1,
		Body: io.NopCloser(io.MultiReader(strings.NewReader(`{"id":`), errReader{context.DeadlineExceeded}))}
	tests := []struct {
		name      string
		resp      *http.Response
		body      string // "" for a nil body
		err       string // Read's error text, "" for none
		read, big bool   // the cause is ErrBodyRead, ErrBodyTooLarge
	}{
		{"data", response(200, `{"id":"a"}`), `{"id":"a"}`, "", false, false},
		{"an error envelope", response(404, `{"error":{"code":"trace_not_found","message":"gone"}}`),
			`{"error":{"code":"trace_not_found","message":"gone"}}`, "not_found: trace_not_found: gone", false, false},
		{"not JSON", response(500, `<html>Internal Server Error</html>`), `<html>Internal Server Error</html>`,
			"malformed_response: response body is not valid JSON (status 500)", false, false},
		{"the read failed", &http.Response{StatusCode: 200, Body: failingBody{strings.NewReader(`{"id":`)}, ContentLength: -1}, "",
			"malformed_response: could not read the response body (status 200): connection reset by peer", true, false},
		{"the read timed out", timeout, "",
			"malformed_response: could not read the response body (status 200): context deadline exceeded", true, false},
		{"over the bound", response(200, big), "", "malformed_response: response body is larger than the 100-byte limit (status 200)", false, true},
		{"over the bound on an error status", response(500, big), "", "malformed_response: response body is larger than the 100-byte limit (status 500)", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := reader()
			r.MaxBytes = 100
			body, err := r.ReadRaw(tt.resp, &trace{})
			errText := ""
			if err != nil {
				errText = err.Error()
			}
			type result struct {
				Body, Err string
				NilBody   bool
				Read, Big bool
			}
			want := result{tt.body, tt.err, tt.body == "", tt.read, tt.big}
			got := result{string(body), errText, body == nil, errors.Is(err, envelope.ErrBodyRead), errors.Is(err, envelope.ErrBodyTooLarge)}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("ReadRaw (-want +got):\n%s", diff)
			}
		})
	}
	if _, err := reader().ReadRaw(&http.Response{StatusCode: 200, ContentLength: -1,
		Body: io.NopCloser(errReader{context.DeadlineExceeded})}, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("the read's own error is not beneath ErrBodyRead: %v", err)
	}
	if body, err := reader().ReadRaw(nil, nil); body != nil || envelope.KindOf(err) != errkind.NetworkError {
		t.Errorf("ReadRaw(nil) = %q, %v", body, err)
	}
}

func TestReadBoundExact(t *testing.T) {
	body := `{"id":"` + strings.Repeat("a", 91) + `"}` // 100 bytes
	if len(body) != 100 {
		t.Fatal(len(body))
	}
	r := reader()
	r.MaxBytes = 100
	resp := response(200, body)
	resp.ContentLength = -1
	var tr trace
	if err := r.Read(resp, &tr); err != nil {
		t.Fatalf("a body exactly at the bound: %v", err)
	}
}

func TestReadFlatShape(t *testing.T) {
	body := `{"error":"insufficient credits","code":"insufficient_credits","detail":"this call can cost up to 3 credits and 0 are left this month","retry_after_secs":394200,"credits":{"min":3,"max":3},"credits_limit":1000,"credits_used":1000,"credits_remaining":0}`
	news := &errkind.Taxonomy{Rules: append([]errkind.Rule{
		{Code: "insufficient_credits", Kind: "insufficient_credits"},
		{Code: "credit_rate_limited", Kind: "credit_rate_limited"},
	}, errkind.Standard().Rules...)}
	for _, shape := range []envelope.Shape{envelope.Shape{Flat: true, RetryAfter: "retry_after_secs"}, {Flat: true, RetryAfter: "retry_after_secs"}, {Key: "error", Flat: true, Code: "code", Details: "detail", RetryAfter: "retry_after_secs", Message: ""}} {
		r := reader()
		r.Envelope = shape
		r.Taxonomy = news
		got := asError(t, r.Read(response(402, body), &trace{}))
		want := &envelope.Error{Kind: "insufficient_credits", Code: "insufficient_credits", Message: "insufficient credits",
			Details: details(`"this call can cost up to 3 credits and 0 are left this month"`), HTTPStatus: 402, RetryAfter: 394200 * time.Second}
		if diff := cmp.Diff(want, got, errOpts); diff != "" {
			t.Errorf("shape %+v (-want +got):\n%s", shape, diff)
		}
	}
	// A flat envelope and the Retry-After header: the longer wait wins.
	r := reader()
	r.Envelope = envelope.Shape{Flat: true, RetryAfter: "retry_after_secs"}
	r.Taxonomy = news
	got := asError(t, r.Read(response(429, `{"error":"slow down","code":"credit_rate_limited","retry_after_secs":30}`, "Retry-After", "2"), &trace{}))
	if got.RetryAfter != 30*time.Second || got.Kind != "credit_rate_limited" {
		t.Errorf("flat 429: RetryAfter %v kind %q", got.RetryAfter, got.Kind)
	}
}

func TestReadCustomShape(t *testing.T) {
	r := reader()
	r.Envelope = envelope.Shape{Key: "fault", Code: "id", Message: "text", Details: "info"}
	got := asError(t, r.Read(response(404, `{"fault":{"id":"user_not_found","text":"no user 7","info":{"user":7}}}`), &trace{}))
	want := &envelope.Error{Kind: errkind.NotFound, Code: "user_not_found", Message: "no user 7", Details: details(`{"user":7}`), HTTPStatus: 404}
	if diff := cmp.Diff(want, got, errOpts); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// Top-level members never stand in for the nested ones.
	got = asError(t, r.Read(response(500, `{"id":"top_level_code","text":"top","fault":{"text":"inner"}}`), &trace{}))
	want = &envelope.Error{Kind: errkind.ServerError, Message: "inner", HTTPStatus: 500}
	if diff := cmp.Diff(want, got, errOpts); diff != "" {
		t.Errorf("nested members mixed with top-level ones (-want +got):\n%s", diff)
	}
	// A flat shape with its own member names goes through the generic decode.
	f := reader()
	f.Envelope = envelope.Shape{Flat: true, Key: "err", Code: "kind", Details: "info", RetryAfter: "wait"}
	got = asError(t, f.Read(response(503, `{"err":"busy","kind":null,"info":[1],"wait":2.5}`), &trace{}))
	want = &envelope.Error{Kind: errkind.Unavailable, Message: "busy", Details: details(`[1]`), HTTPStatus: 503, RetryAfter: 2500 * time.Millisecond}
	if diff := cmp.Diff(want, got, errOpts); diff != "" {
		t.Errorf("generic flat (-want +got):\n%s", diff)
	}
	got = asError(t, f.Read(response(400, `{"err":"x","kind":5}`), &trace{}))
	want = &envelope.Error{Kind: errkind.InvalidArguments, Code: "5", Message: "x", HTTPStatus: 400}
	if diff := cmp.Diff(want, got, errOpts); diff != "" {
		t.Errorf("generic flat, a numeric code (-want +got):\n%s", diff)
	}
	// The default key is no longer the envelope for this reader: on a 2xx
	// it is data.
	var v map[string]any
	if err := r.Read(response(200, `{"error":{"code":"x"}}`), &v); err != nil {
		t.Errorf("a body without the custom key: %v", err)
	}
}

// TestRedaction: a token the request carried never shows in an Error,
// whatever the upstream echoes back.
func TestRedaction(t *testing.T) {
	const token = "vx_s3cr3t/Token+42"
	echo := func(w http.ResponseWriter, r *http.Request) {
		auth := r.Header.Get("Authorization")
		cred := strings.TrimPrefix(auth, "Bearer ")
		escaped := strings.ReplaceAll(cred, "/", `\/`)
		w.Header().Set("Authorization", auth)
		w.Header().Set("X-Echo", "seen "+cred)
		switch r.URL.Path {
		case "/code":
			w.WriteHeader(401)
			fmt.Fprintf(w, `{"error":{"code":%q,"message":"bad token %s","details":{"got":%q,"raw":"%s","%s":1}}}`, cred, auth, auth, escaped, escaped)
		case "/flat":
			w.WriteHeader(401)
			fmt.Fprintf(w, `{"error":"bad %s","code":"unauthenticated","detail":"%s"}`, cred, escaped)
		case "/notjson":
			w.WriteHeader(500)
			fmt.Fprintf(w, "token %s rejected", cred)
		case "/text":
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(401)
			fmt.Fprintf(w, "token %s rejected", cred)
		case "/xml":
			w.Header().Set("X-Ms-Error-Code", "Bad"+cred)
			w.WriteHeader(403)
			fmt.Fprintf(w, "<Error><Code>%s</Code><Message>token %s rejected</Message></Error>", cred, cred)
		case "/header-code":
			w.Header().Set("X-Amzn-ErrorType", cred+":x")
			w.WriteHeader(404)
		case "/rpc":
			w.WriteHeader(200)
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"token %s","data":{"code":%q}}}`, cred, cred)
		}
	}
	srv := httptest.NewServer(http.HandlerFunc(echo))
	defer srv.Close()

	check := func(t *testing.T, err error) {
		t.Helper()
		e := asError(t, err)
		b, _ := json.Marshal(e)
		for _, s := range []string{e.Error(), e.Code, e.Message, string(e.Details), string(e.Body), string(b), fmt.Sprint(e.Err), string(wire.ErrorResult(err).Content[0].Text), fmt.Sprint(e.Header)} {
			if strings.Contains(s, token) || strings.Contains(s, `vx_s3cr3t\/Token+42`) {
				t.Errorf("token in %q", s)
			}
		}
	}
	for _, path := range []string{"/code", "/flat", "/notjson", "/text", "/xml", "/header-code", "/rpc"} {
		t.Run(path, func(t *testing.T) {
			req, _ := http.NewRequest("GET", srv.URL+path, nil)
			req.Header.Set("Authorization", "Bearer "+token)
			r := reader()
			if path == "/flat" {
				r.Envelope = envelope.Shape{Flat: true, RetryAfter: "retry_after_secs"}
			}
			check(t, r.Do(req, &trace{}))
		})
	}
	t.Run("network error text", func(t *testing.T) {
		req, _ := http.NewRequest("GET", srv.URL+"/code", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		r := reader()
		r.Client = &http.Client{Transport: roundTripFunc(func(req *http.Request) (*http.Response, error) {
			return nil, fmt.Errorf("proxy refused %s: %w", req.Header.Get("Authorization"), context.DeadlineExceeded)
		})}
		err := r.Do(req, &trace{})
		check(t, err)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("errors.Is(err, DeadlineExceeded) = false after redaction: %v", err)
		}
	})
	t.Run("read error text", func(t *testing.T) {
		req, _ := http.NewRequest("GET", "http://x/", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp := &http.Response{StatusCode: 200, Request: req, ContentLength: -1,
			Body: io.NopCloser(io.MultiReader(strings.NewReader(`{`), errReader{errors.New("stream broke near " + token)}))}
		check(t, reader().Read(resp, &trace{}))
	})
}

// TestErrorHeader: an Error carries the response's header, for a caller
// to reclassify on, without the fields that hold credentials and with the
// request's token redacted; the JSON kind object never shows it.
func TestErrorHeader(t *testing.T) {
	const token = "vx_s3cr3t"
	tests := []struct {
		name    string
		secrets []string // Reader.SecretHeaders
		header  []string
		want    http.Header
	}{
		{"plain fields kept", nil,
			[]string{"X-Maintenance-Mode", "true", "Content-Type", "application/json"},
			http.Header{"X-Maintenance-Mode": {"true"}, "Content-Type": {"application/json"}}},
		{"credentials left out and redacted", nil,
			[]string{"X-Maintenance-Mode", "true", "Set-Cookie", "session=abc", "Authorization", "Bearer " + token,
				"X-Api-Key", "k", "X-Echo", "got Bearer " + token, "X-Echo", "fine"},
			http.Header{"X-Maintenance-Mode": {"true"}, "X-Echo": {"got [REDACTED]", "fine"}}},
		{"own secret headers", []string{"X-Session"},
			[]string{"X-Session", "s", "Authorization", "kept: not a secret header here", "Set-Cookie", "c=1"},
			http.Header{"Authorization": {"kept: not a secret header here"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := response(503, `{"error":{"code":"maintenance","message":"down"}}`, tt.header...)
			resp.Request.Header.Set("Authorization", "Bearer "+token)
			r := reader()
			r.SecretHeaders = tt.secrets
			e := asError(t, r.Read(resp, nil))
			if diff := cmp.Diff(tt.want, e.Header); diff != "" {
				t.Errorf("Header (-want +got):\n%s", diff)
			}
			for _, v := range []any{e, *e} {
				b, err := json.Marshal(v)
				if err != nil {
					t.Fatal(err)
				}
				if bytes.Contains(b, []byte("Maintenance")) || bytes.Contains(b, []byte("Content-Type")) {
					t.Errorf("json.Marshal(%T) writes the header: %s", v, b)
				}
			}
		})
	}
	t.Run("network error has none", func(t *testing.T) {
		r := reader()
		r.Client = &http.Client{Transport: roundTripFunc(func(*http.Request) (*http.Response, error) {
			return nil, errors.New("refused")
		})}
		req, _ := http.NewRequest("GET", "http://x/", nil)
		if e := asError(t, r.Do(req, nil)); e.Header != nil {
			t.Errorf("network error Header = %v; want nil", e.Header)
		}
	})
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestDoNetworkError(t *testing.T) {
	t.Run("refused", func(t *testing.T) {
		srv := httptest.NewServer(http.NotFoundHandler())
		url := srv.URL
		srv.Close()
		req, _ := http.NewRequest("GET", url, nil)
		e := asError(t, reader().Do(req, &trace{}))
		if e.Kind != errkind.NetworkError || e.Message == "" || e.Err == nil || e.HTTPStatus != 0 {
			t.Errorf("got %+v", e)
		}
	})
	t.Run("deadline", func(t *testing.T) {
		block := make(chan struct{})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-block:
			case <-r.Context().Done():
			}
		}))
		defer srv.Close()
		defer close(block)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL, nil)
		err := reader().Do(req, &trace{})
		e := asError(t, err)
		if e.Kind != errkind.NetworkError || !strings.Contains(e.Message, "context deadline exceeded") {
			t.Errorf("got %+v", e)
		}
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("errors.Is(err, context.DeadlineExceeded) = false")
		}
	})
	t.Run("success over HTTP", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"id":"t1","steps":["a","b"]}`)
		}))
		defer srv.Close()
		req, _ := http.NewRequest("GET", srv.URL, nil)
		var tr trace
		if err := reader().Do(req, &tr); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(trace{ID: "t1", Steps: []string{"a", "b"}}, tr); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
}

func TestErrorMethods(t *testing.T) {
	e := &envelope.Error{Kind: errkind.NotFound, Code: "trace_not_found", Message: "no trace"}
	wrapped := fmt.Errorf("get trace: %w", e)
	if got := e.Error(); got != "not_found: trace_not_found: no trace" {
		t.Errorf("Error() = %q", got)
	}
	if !errors.Is(wrapped, &envelope.Error{Kind: errkind.NotFound}) {
		t.Error("errors.Is by kind failed")
	}
	if !errors.Is(wrapped, &envelope.Error{Code: "trace_not_found"}) {
		t.Error("errors.Is by code failed")
	}
	if errors.Is(wrapped, &envelope.Error{Kind: errkind.ServerError}) {
		t.Error("errors.Is matched another kind")
	}
	if got := envelope.KindOf(wrapped); got != errkind.NotFound {
		t.Errorf("KindOf = %q", got)
	}
	if got := envelope.KindOf(errors.New("x")); got != errkind.ServerError {
		t.Errorf("KindOf(plain) = %q; want server_error, as ErrorResult renders it", got)
	}
	if got := envelope.KindOf(nil); got != "" {
		t.Errorf("KindOf(nil) = %q", got)
	}
	cause := errors.New("dial tcp: refused")
	n := &envelope.Error{Kind: errkind.NetworkError, Message: "request failed", Err: cause}
	if got := n.Error(); got != "network_error: request failed: dial tcp: refused" {
		t.Errorf("Error() = %q", got)
	}
	if !errors.Is(n, cause) {
		t.Error("Unwrap lost the cause")
	}
}

func TestReadNil(t *testing.T) {
	if got := envelope.KindOf(reader().Read(nil, nil)); got != errkind.NetworkError {
		t.Errorf("Read(nil) kind %q", got)
	}
}

func TestReadConcurrent(t *testing.T) {
	r := reader()
	done := make(chan error)
	for i := range 8 {
		go func() {
			var tr trace
			var err error
			if i%2 == 0 {
				err = r.Read(response(200, `{"id":"`+strconv.Itoa(i)+`"}`), &tr)
			} else if e := asErrorNoT(r.Read(response(404, `{"error":{"code":"trace_not_found"}}`), &tr)); e == nil || e.Kind != errkind.NotFound {
				err = fmt.Errorf("got %v", e)
			}
			done <- err
		}()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

func asErrorNoT(err error) *envelope.Error {
	var e *envelope.Error
	errors.As(err, &e)
	return e
}

// FuzzRead: any bytes as a body, with any status and any header, never
// panic and always give nil or an *Error of a valid kind that marshals;
// a body that is not JSON is the client's sentence unless the status and
// headers tell what happened; a JSON body is never called invalid; at 400
// and above a JSON body never decodes into a type without a Shaper. The
// seeds are the upstream corpus (testdata/upstream) and the edges of
// each error shape.
func FuzzRead(f *testing.F) {
	for _, c := range loadUpstream(f) {
		var h strings.Builder
		for k, vs := range c.header {
			for _, v := range vs {
				fmt.Fprintf(&h, "%s: %s\n", k, v)
			}
		}
		f.Add(c.status, h.String(), c.body)
	}
	for _, s := range []string{
		`{"error":{"code":"trace_not_found","message":"m","details":{"a":[1,"}"]}}}`,
		`{"status":"degraded","mode":"shape_only"}`,
		`{"error":"x","code":"y"}`,
		`{"error":{}}`, `{"error":{"code":1}}`, `{"error":{"code":1e400,"status":"A"}}`, `{"error"`, `{"\u0065rror":{}}`,
		`[]`, `null`, ``, `<html>`, `{"id":"a","steps":["\"error\""]}`,
		`{"ok":false}`, `{"ok":false,"error":{"code":1}}`, `{"ok":false`, `{"\u006fk":false}`,
		`{"errors":[{"message":"m"}]}`, `{"errors":[{"message":1}],"data":{"a":null}}`, `{"errors":[null],"data":null}`,
		`{"errors":[{"message":"m","extensions":{"code":7}}],"data":{"a":null,"b":1}}`, `{"errors":[],"data":null}`,
		`{"errorMessages":[1,""],"errors":{"a":{"b":1},"c":"d"}}`, `{"errors":{"":"x"}}`, `{"__type":"a#b:c"}`,
		`{"code":-1.5e3,"message":"m"}`, `{"type":"about:blank","title":"t"}`, `{"status":"NOT_FOUND"}`,
		"\ufeff{\"message\":\"m\"}", `{"detail":[{"loc":["body",1],"msg":"m"}]}`, `{"error":{"message":{"lang":"en","value":"v"}}}`,
		`{"code":"resource_exhausted","details":[{"type":"google.rpc.RetryInfo","value":"CgIIHg","debug":{}}]}`,
		`{"error":"invalid_grant","error_description":"d"}`, `{"status":"REQUEST_DENIED","error_message":"m"}`,
		`<methodResponse><fault><value><struct><member><name>faultCode</name><value><int>4</int></value></member></struct></value></fault></methodResponse>`,
		`<e:Envelope><e:Body><e:Fault><faultcode>e:Client</faultcode><faultstring>s</faultstring></e:Fault></e:Body></e:Envelope>`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32005,"message":"rate limit exceeded","data":{"backoff_seconds":3}}}`,
		`{"requestError":{"serviceException":{"messageId":"X","text":"t"}}}`, `{"err code":"A-1","error msg":"m","errorNum":7}`,
		`{"success":false,"reasons":[{"code":5,"message":"m"}]}`, `{"_error":{"errors":[{"error":{"fault":{}}}]}}`,
		`{"error":{"code":404,"message":"m"}}`, `{"AuthResultCode":"X","errorDetails":["m"]}`,
	} {
		for _, status := range []int{200, 403, 404, 429, 503} {
			f.Add(status, "Retry-After: 5\nX-RateLimit-Remaining: 0\nContent-Type: text/plain", []byte(s))
		}
	}
	valid := map[errkind.Kind]bool{"insufficient_credits": true}
	for _, k := range []errkind.Kind{errkind.InvalidArguments, errkind.AuthenticationFailed, errkind.PermissionDenied, errkind.NotFound, errkind.Conflict, errkind.RateLimited, errkind.Unavailable, errkind.ServerError, errkind.MalformedResponse, errkind.NetworkError} {
		valid[k] = true
	}
	f.Fuzz(func(t *testing.T, status int, fields string, body []byte) {
		h := http.Header{}
		for _, line := range strings.Split(fields, "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok {
				h.Add(k, strings.TrimSpace(v))
			}
		}
		for _, shape := range []envelope.Shape{{}, envelope.Shape{Flat: true, RetryAfter: "retry_after_secs"}, {Key: "e", Code: "c"}} {
			r := reader()
			r.Envelope = shape
			r.MaxBytes = 1 << 16
			r.Taxonomy = errkind.Standard().With(errkind.Rule{Code: "insufficient_credits", Kind: "insufficient_credits"})
			var tr trace
			err := r.Read(&http.Response{StatusCode: status, Body: io.NopCloser(bytes.NewReader(body)), ContentLength: -1,
				Header: h.Clone()}, &tr)
			e := asErrorNoT(err)
			if err != nil && e == nil {
				t.Fatalf("not an *Error: %v", err)
			}
			// ReadRaw decides as Read does, and returns the body as sent.
			raw, rawErr := r.ReadRaw(&http.Response{StatusCode: status, Body: io.NopCloser(bytes.NewReader(body)), ContentLength: -1,
				Header: h.Clone()}, new(trace))
			if fmt.Sprint(rawErr) != fmt.Sprint(err) {
				t.Fatalf("ReadRaw: %v; Read: %v", rawErr, err)
			}
			if len(body) <= 1<<16 && !bytes.Equal(raw, body) || len(body) > 1<<16 && raw != nil {
				t.Fatalf("ReadRaw returned %q for %q", raw, body)
			}
			// The sentence follows from the body alone, unless the
			// status and headers tell what happened: broken JSON, and
			// any body below 400 that is not JSON, is not valid JSON; a
			// body that is text, markup or nothing at 400 and above is
			// the kind of its status (or an XML error's), never a JSON
			// error body. A UTF-8 byte-order mark before JSON says
			// nothing; a SOAP or XML-RPC fault below 400 is the fault.
			notJSON := fmt.Sprintf("response body is not valid JSON (status %d)", status)
			telling := status == 429 || status == 403 || status == 503
			trimmed := bytes.TrimLeft(body, " \t\r\n")
			// Text sent as text that opens with a bracket and goes on with
			// a byte no JSON member or value opens with ("[ERROR 400]
			// ...") is the text, not broken JSON.
			broken := len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') &&
				!(strings.HasPrefix(h.Get("Content-Type"), "text/plain") && textAfterBracket(trimmed))
			unmarked := bytes.TrimPrefix(body, []byte("\ufeff"))
			fault := status < 400 && len(trimmed) > 0 && trimmed[0] == '<' && bytes.Contains(bytes.ToLower(body), []byte("fault"))
			switch {
			case len(body) > 1<<16:
			case !bytes.Equal(unmarked, body) && json.Valid(unmarked):
				if e != nil && e.Message == notJSON {
					t.Fatalf("JSON behind a byte-order mark %q reported as invalid", body)
				}
			case fault && e != nil && e.Kind != errkind.MalformedResponse:
			case len(trimmed) == 0 && len(body) == 0 && (status/100 == 2 || status == 304):
				if err != nil {
					t.Fatalf("status %d: an empty body gave %v", status, err)
				}
			case !json.Valid(body) && (broken || status < 400):
				if e == nil || e.Message != notJSON && !(telling && (e.Kind == errkind.RateLimited || e.Kind == errkind.Unavailable)) {
					t.Fatalf("invalid JSON %q gave %v", body, err)
				}
			case !json.Valid(body):
				if e == nil || e.Body != nil || e.Kind == errkind.MalformedResponse && e.Message != notJSON {
					t.Fatalf("status %d: %q gave %v", status, body, err)
				}
			case json.Valid(body) && e != nil && e.Message == notJSON:
				t.Fatalf("valid JSON %q reported as invalid", body)
			case json.Valid(body) && status >= 400 && err == nil:
				t.Fatalf("status %d: JSON %q into a type without a Shaper is data", status, body)
			}
			if err == nil {
				continue
			}
			if !valid[e.Kind] {
				t.Fatalf("kind %q", e.Kind)
			}
			if b, err := json.Marshal(e); err != nil || !json.Valid(b) {
				t.Fatalf("kind object does not marshal: %v %s", err, b)
			}
			if e.RetryAfter < 0 || e.RetryAfter > header.MaxRetryAfter {
				t.Fatalf("RetryAfter %v", e.RetryAfter)
			}
			_ = e.Error()
		}
	})
}

// textAfterBracket reports whether b, which opens with a bracket, goes on
// (after spaces) with a byte that opens no JSON member or value.
func textAfterBracket(b []byte) bool {
	rest := bytes.TrimLeft(b[1:], " \t\r\n")
	if len(rest) == 0 {
		return false
	}
	if b[0] == '{' {
		return rest[0] != '"' && rest[0] != '}'
	}
	return !bytes.ContainsRune([]byte(`"{[]-0123456789tfn`), rune(rest[0]))
}

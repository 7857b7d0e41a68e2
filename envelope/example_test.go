package envelope_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/wire"
)

// An *Error renders as the JSON kind object, the text of the isError tool
// result an agent receives (wire.ErrorResult).
func ExampleError() {
	err := &envelope.Error{
		Kind:       errkind.NotFound,
		Code:       "trace_not_found",
		Message:    "no trace with id deadbeefdeadbeefdeadbeefdeadbeef",
		Details:    json.RawMessage(`{"trace_id":"deadbeefdeadbeefdeadbeefdeadbeef"}`),
		HTTPStatus: 404,
	}
	res := wire.ErrorResult(err)
	fmt.Println(res.Content[0].Text)
	b, _ := json.Marshal(res)
	fmt.Println(string(b))
	// Output:
	// {"kind":"not_found","code":"trace_not_found","message":"no trace with id deadbeefdeadbeefdeadbeefdeadbeef","details":{"trace_id":"deadbeefdeadbeefdeadbeefdeadbeef"}}
	// {"content":[{"type":"text","text":"{\"kind\":\"not_found\",\"code\":\"trace_not_found\",\"message\":\"no trace with id deadbeefdeadbeefdeadbeefdeadbeef\",\"details\":{\"trace_id\":\"deadbeefdeadbeefdeadbeefdeadbeef\"}}"}],"isError":true}
}

// upstream stands in for an HTTP API that answers errors in the nested
// envelope {"error":{"code","message","details"}}.
func upstream() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/traces/deadbeefdeadbeefdeadbeefdeadbeef":
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"error":{"code":"trace_not_found","message":"no trace with id deadbeefdeadbeefdeadbeefdeadbeef","details":{"trace_id":"deadbeefdeadbeefdeadbeefdeadbeef"}}}`)
		case "/v1/health":
			w.WriteHeader(http.StatusServiceUnavailable)
			io.WriteString(w, `{"status":"degraded","mode":"shape_only"}`)
		case "/v1/tags":
			w.Header().Set("X-RateLimit-Limit", "20")
			w.Header().Set("X-RateLimit-Remaining", "0")
			w.Header().Set("X-RateLimit-Reset", "1")
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			io.WriteString(w, `{"error":{"code":"rate_limited","message":"slow down"}}`)
		case "/v1/broken":
			w.WriteHeader(http.StatusBadGateway)
			io.WriteString(w, "<html>502 Bad Gateway</html>")
		}
	}))
}

// A tool handler reads the upstream's answer once: data, or an error that
// renders as the kind object. A 503 whose body is the expected shape is data;
// a gateway's HTML page is unavailable, whatever its format.
// healthBody is a health check's answer. As a Shaper it accepts a body
// with a status, so a 503 that carries one is data, not an error.
type healthBody struct {
	Status string `json:"status"`
	Mode   string `json:"mode"`
}

func (h *healthBody) CheckShape() error {
	if h.Status == "" {
		return errors.New(`no "status"`)
	}
	return nil
}

func ExampleReader_Read() {
	srv := upstream()
	defer srv.Close()
	var r envelope.Reader

	for _, path := range []string{"/v1/health", "/v1/traces/deadbeefdeadbeefdeadbeefdeadbeef", "/v1/tags", "/v1/broken"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			fmt.Println(err)
			return
		}
		var health healthBody
		if err := r.Read(resp, &health); err != nil {
			fmt.Println(wire.ErrorResult(err).Content[0].Text)
			continue
		}
		fmt.Printf("data: %+v\n", health)
	}
	// Output:
	// data: {Status:degraded Mode:shape_only}
	// {"kind":"not_found","code":"trace_not_found","message":"no trace with id deadbeefdeadbeefdeadbeefdeadbeef","details":{"trace_id":"deadbeefdeadbeefdeadbeefdeadbeef"}}
	// {"kind":"rate_limited","retryAfterSeconds":1,"limit":20,"remaining":0,"resetSeconds":1}
	// {"kind":"unavailable","httpStatus":502}
}

func ExampleReader_Do() {
	srv := upstream()
	defer srv.Close()
	r := &envelope.Reader{Client: srv.Client()}

	req, _ := http.NewRequest("GET", srv.URL+"/v1/traces/deadbeefdeadbeefdeadbeefdeadbeef", nil)
	req.Header.Set("Authorization", "Bearer vx_secret")
	var trace struct{ ID string }
	err := r.Do(req, &trace)
	fmt.Println(envelope.KindOf(err), err)
	// Output:
	// not_found not_found: trace_not_found: no trace with id deadbeefdeadbeefdeadbeefdeadbeef
}

// An Error carries the upstream's response header, so a caller can refine
// the kind on a field the taxonomy does not see.
func ExampleError_header() {
	resp := &http.Response{
		StatusCode: http.StatusServiceUnavailable,
		Header:     http.Header{"X-Maintenance-Mode": {"true"}},
		Body:       io.NopCloser(strings.NewReader(`{"error":{"code":"unavailable","message":"back soon"}}`)),
	}
	err := new(envelope.Reader).Read(resp, nil)
	var e *envelope.Error
	if errors.As(err, &e) && e.Header.Get("X-Maintenance-Mode") == "true" {
		e.Kind = "maintenance"
	}
	fmt.Println(wire.ErrorResult(err).Content[0].Text)
	// Output:
	// {"kind":"maintenance","code":"unavailable","message":"back soon","httpStatus":503}
}

// A credits API sends a flat error body; its own codes are kinds of a
// custom taxonomy.
func ExampleShape() {
	r := &envelope.Reader{
		Envelope: envelope.Shape{Flat: true, RetryAfter: "retry_after_secs"},
		Taxonomy: &errkind.Taxonomy{Rules: append([]errkind.Rule{
			{Code: "insufficient_credits", Kind: "insufficient_credits"},
		}, errkind.Standard().Rules...)},
	}
	resp := &http.Response{StatusCode: 402, Body: io.NopCloser(strings.NewReader(
		`{"error":"insufficient credits","code":"insufficient_credits","detail":"this call can cost up to 3 credits and 0 are left this month","retry_after_secs":394200}`))}
	err := r.Read(resp, nil)
	fmt.Println(wire.ErrorResult(err).Content[0].Text)
	// Output:
	// {"kind":"insufficient_credits","code":"insufficient_credits","message":"insufficient credits","details":"this call can cost up to 3 credits and 0 are left this month","httpStatus":402,"retryAfterSeconds":394200}
}

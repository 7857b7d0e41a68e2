package retry_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/retry"
)

func TestGetTransport(t *testing.T) {
	s500 := reply{status: 500, body: `{"error":{"code":"internal_error"}}`}
	s503 := reply{status: 503, body: "maintenance"}
	tests := []struct {
		name   string
		method string
		body   io.Reader
		script []reply
		want   outcome
	}{
		{"GET 200", "GET", nil, []reply{ok200()}, outcome{Status: 200, Body: `{"tags":[]}`, Requests: 1}},
		{"GET 503 then 200: retried once", "GET", nil, []reply{s503, ok200()},
			outcome{Status: 200, Body: `{"tags":[]}`, Requests: 2, Retries: 1}},
		{"GET 500 twice: the second goes back", "GET", nil, []reply{s500, s500, ok200()},
			outcome{Status: 500, Body: s500.body, Requests: 2, Retries: 1}},
		{"HEAD 502: retried", "HEAD", nil, []reply{{status: 502}, ok200()},
			outcome{Status: 200, Requests: 2, Retries: 1}},
		{"empty method is GET", "", nil, []reply{s503, ok200()},
			outcome{Status: 200, Body: `{"tags":[]}`, Requests: 2, Retries: 1}},
		{"POST 503: never", "POST", strings.NewReader("x"), []reply{s503, ok200()},
			outcome{Status: 503, Body: "maintenance", Requests: 1}},
		{"PUT 500: never", "PUT", nil, []reply{s500, ok200()},
			outcome{Status: 500, Body: s500.body, Requests: 1}},
		{"GET 429: not this policy's", "GET", nil, []reply{tooMany("1"), ok200()},
			outcome{Status: 429, Body: tooMany("").body, Requests: 1}},
		{"GET 404: not retried", "GET", nil, []reply{{status: 404}, ok200()},
			outcome{Status: 404, Requests: 1}},
		{"GET with a body GetBody cannot rewind", "GET", io.NopCloser(strings.NewReader("x")), []reply{s503, ok200()},
			outcome{Status: 503, Body: "maintenance", Requests: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := newUpstream(t, tt.script...)
			var got outcome
			tr := &retry.GetTransport{OnRetry: func(req *http.Request, resp *http.Response, err error) {
				got.Retries++
				if resp == nil || resp.StatusCode < 500 || err != nil {
					t.Errorf("OnRetry(%v, %v)", resp, err)
				}
			}}
			req, _ := http.NewRequest(tt.method, u.URL, tt.body)
			got.record(tr.RoundTrip(req))
			got.Requests = u.requests()
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestGetTransportNetworkError(t *testing.T) {
	boom := errors.New("dial tcp: connection refused")
	tests := []struct {
		name     string
		method   string
		results  []error // nil: a 200
		cancel   bool
		want     int // calls
		wantErr  error
		wantHook int
	}{
		{"GET error then 200: retried", "GET", []error{boom, nil}, false, 2, nil, 1},
		{"GET error twice: the second goes back", "GET", []error{boom, boom, nil}, false, 2, boom, 1},
		{"POST error: never", "POST", []error{boom, nil}, false, 1, boom, 0},
		{"cancelled context: never", "GET", []error{boom, nil}, true, 1, boom, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			calls, hooks := 0, 0
			tr := &retry.GetTransport{
				Base: stubRT(func(*http.Request) (*http.Response, error) {
					err := tt.results[calls]
					calls++
					if tt.cancel {
						cancel()
					}
					if err != nil {
						return nil, err
					}
					return stubResponse(200, ""), nil
				}),
				OnRetry: func(_ *http.Request, resp *http.Response, err error) {
					hooks++
					if resp != nil || !errors.Is(err, boom) {
						t.Errorf("OnRetry(%v, %v)", resp, err)
					}
				},
			}
			req, _ := http.NewRequestWithContext(ctx, tt.method, "http://upstream.test/", nil)
			resp, err := tr.RoundTrip(req)
			if calls != tt.want || hooks != tt.wantHook || !errors.Is(err, tt.wantErr) || (err == nil) != (resp != nil) {
				t.Errorf("%d calls, %d hooks, %v, %v; want %d calls, %d hooks, %v", calls, hooks, resp, err, tt.want, tt.wantHook, tt.wantErr)
			}
		})
	}
}

// The two policies stack: a GET meets a 503, then a short 429, and is
// sent three times in all.
func TestStacked(t *testing.T) {
	u := newUpstream(t, reply{status: 503}, tooMany("0"), ok200())
	clock := &fakeTime{}
	client := &http.Client{Transport: &retry.GetTransport{
		Base: &retry.Transport{Now: clock.Now, Sleep: clock.Sleep},
	}}
	resp, err := client.Get(u.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || u.requests() != 3 {
		t.Errorf("status %d after %d requests; want 200 after 3", resp.StatusCode, u.requests())
	}
}

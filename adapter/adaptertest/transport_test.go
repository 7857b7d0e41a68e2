package adaptertest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
)

// call runs fn as a tool call does under the SDK adapters' Handle
// (envelope.Track): with a context that has a place for the call's upstream
// failures, and its error read by ErrorOf with what was kept.
func call(fn func(ctx context.Context) error) (*envelope.Error, bool) {
	ctx, find := envelope.Track(context.Background())
	err := fn(ctx)
	if err == nil {
		return nil, false
	}
	return envelope.ErrorOf(find(err))
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// proseClient is an API client of the kind that keeps only prose of an
// answer that failed: its status and body quoted into a sentence, the
// headers dropped.
func proseClient(ctx context.Context, client *http.Client, url string) error {
	resp, b, err := get(ctx, client, url)
	if err != nil {
		return fmt.Errorf("request failed: %v", err) // %v: the chain is lost
	}
	if resp.StatusCode >= 400 {
		return fmt.Errorf("non-200 OK status code: %d body: %q", resp.StatusCode, b)
	}
	return nil
}

// fakeAPI starts Server, the fake API, for the test.
func fakeAPI(t testing.TB) *httptest.Server {
	srv := Server()
	t.Cleanup(srv.Close)
	return srv
}

// TestTransportKeepsWhatClientsDrop checks that a failure an API client
// dropped on its way to the handler (the body and headers of a client
// that returns prose, the type of a GraphQL error) reaches ErrorOf, read
// from the whole answer, beside the operation the handler's wrapping
// names.
func TestTransportKeepsWhatClientsDrop(t *testing.T) {
	srv := fakeAPI(t)
	client := &http.Client{Transport: &envelope.Transport{}}
	type want struct {
		Kind    errkind.Kind
		Message string
		Wait    time.Duration
	}
	tests := []struct {
		name string
		fn   func(ctx context.Context) error
		want want
	}{
		{"a GraphQL NOT_FOUND is not_found", func(ctx context.Context) error {
			return fmt.Errorf("failed to get repository: %w", graphQL(ctx, client, srv.URL+"/graphql/not_found"))
		}, want{errkind.NotFound, "failed to get repository: Could not resolve to a Repository with the name 'o/r'.", 0}},
		{"a GraphQL RATE_LIMITED is rate_limited", func(ctx context.Context) error {
			return graphQL(ctx, client, srv.URL+"/graphql/rate_limited")
		}, want{errkind.RateLimited, "API rate limit exceeded for user ID 1.", time.Minute}},
		{"GraphQL errors after 54 KB of data", func(ctx context.Context) error {
			return graphQL(ctx, client, srv.URL+"/graphql/late")
		}, want{errkind.NotFound, "Could not resolve to a Repository with the name 'o/r'.", 0}},
		{"a 429 whose Retry-After the client dropped", func(ctx context.Context) error {
			return proseClient(ctx, client, srv.URL+"/429")
		}, want{errkind.RateLimited, "slow down", 7 * time.Second}},
		{"a 403 with no requests remaining is rate_limited", func(ctx context.Context) error {
			return fmt.Errorf("list issues: %w", proseClient(ctx, client, srv.URL+"/403/limit"))
		}, want{errkind.RateLimited, "list issues: API rate limit exceeded for user ID 1.", 30 * time.Second}},
		{"a gateway's page", func(ctx context.Context) error {
			return proseClient(ctx, client, srv.URL+"/502")
		}, want{errkind.Unavailable, "", 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, ok := call(tt.fn)
			if !ok {
				t.Fatal("ErrorOf found no failure")
			}
			got := want{e.Kind, e.Message, e.RetryAfter.Round(10 * time.Second)}
			tt.want.Wait = tt.want.Wait.Round(10 * time.Second)
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got)\n%s\n%s", d, e.AppendKindObject(nil))
			}
		})
	}
	t.Run("a success keeps nothing", func(t *testing.T) {
		if e, ok := call(func(ctx context.Context) error {
			if err := graphQL(ctx, client, srv.URL+"/graphql/ok"); err != nil {
				return err
			}
			return errors.New("the handler's own failure")
		}); ok {
			t.Errorf("ErrorOf = %v", e)
		}
	})
}

// TestTransportPassesBodiesOn checks that the client reads every answer
// as the upstream sent it: a success body streamed through, an error body
// replaced by the same bytes, one over the bound passed on whole; and that
// a request of no tool call gets Base's response itself.
func TestTransportPassesBodiesOn(t *testing.T) {
	srv := fakeAPI(t)
	plain := &http.Client{}
	for _, path := range []string{"/big", "/graphql/late", "/graphql/not_found", "/404", "/422", "/502"} {
		_, want, err := get(context.Background(), plain, srv.URL+path)
		if err != nil {
			t.Fatal(err)
		}
		for _, tr := range []*envelope.Transport{{}, {Reader: &envelope.Reader{MaxBytes: 16}}} {
			ctx, _ := envelope.Track(context.Background())
			_, got, err := get(ctx, &http.Client{Transport: tr}, srv.URL+path)
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s (reader %+v): %d bytes, %v; want %d bytes", path, tr.Reader, len(got), err, len(want))
			}
		}
	}
	body := io.NopCloser(strings.NewReader(`{"errors":[{"message":"x"}]}`))
	base := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: body, Request: r}, nil
	})
	req, _ := http.NewRequest(http.MethodGet, "http://api.example/x", nil)
	resp, err := (&envelope.Transport{Base: base}).RoundTrip(req)
	if err != nil || resp.Body != body {
		t.Errorf("a request of no tool call got another body: %v", err)
	}
}

// TestTransportSplitReads checks that a GraphQL errors member is found
// whatever the sizes of the reads the body comes in.
func TestTransportSplitReads(t *testing.T) {
	const b = `{"data":{"viewer":null},"errors":[{"type":"NOT_FOUND","message":"gone"}]}`
	for _, wrap := range []func(io.Reader) io.Reader{iotest.OneByteReader, iotest.HalfReader, iotest.DataErrReader, func(r io.Reader) io.Reader { return r }} {
		base := roundTripFunc(func(r *http.Request) (*http.Response, error) {
			return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
				Body: io.NopCloser(wrap(strings.NewReader(b))), Request: r}, nil
		})
		client := &http.Client{Transport: &envelope.Transport{Base: base}}
		e, ok := call(func(ctx context.Context) error {
			_, _, err := get(ctx, client, "http://api.example/graphql")
			if err != nil {
				return err
			}
			return errors.New("prose")
		})
		if !ok || e.Kind != errkind.NotFound || e.Message != "gone" {
			t.Errorf("ErrorOf = %v, %v", e, ok)
		}
	}
}

// TestTransportParallel checks that the upstream calls of one tool call,
// made in parallel, keep their failures apart: the handler's typed error
// names its failure by its status and gets that one, read from the whole
// answer; and that tool calls in parallel never see each other's. Run it
// with -race.
func TestTransportParallel(t *testing.T) {
	srv := fakeAPI(t)
	client := &http.Client{Transport: &envelope.Transport{}}
	paths := map[int]string{403: "/403/limit", 404: "/404", 409: "/409", 422: "/422", 429: "/429", 502: "/502"}
	kinds := map[int]errkind.Kind{403: errkind.RateLimited, 404: errkind.NotFound, 409: errkind.Conflict, 422: errkind.InvalidArguments, 429: errkind.RateLimited, 502: errkind.Unavailable}
	var wg sync.WaitGroup
	for _, pick := range []int{403, 404, 409, 422, 429, 502, 403, 404} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e, ok := call(func(ctx context.Context) error {
				var inner sync.WaitGroup
				errs := make(map[int]error)
				var mu sync.Mutex
				for status, path := range paths {
					inner.Add(1)
					go func() {
						defer inner.Done()
						resp, _, err := get(ctx, client, srv.URL+path)
						if err == nil {
							err = statusError(resp.StatusCode)
						}
						mu.Lock()
						errs[status] = err
						mu.Unlock()
					}()
				}
				inner.Wait()
				return fmt.Errorf("tool: %w", errs[pick])
			})
			if !ok || e.HTTPStatus != pick || e.Kind != kinds[pick] {
				t.Errorf("picked %d: ErrorOf = %v, %v", pick, e, ok)
			}
		}()
	}
	wg.Wait()
}

// TestTransportNoAnswer checks that a request that got no answer is kept
// as network_error naming the host, that Base's error goes back as it
// was, and that a POST that may have acted is kept so.
func TestTransportNoAnswer(t *testing.T) {
	cause := errors.New("read tcp 10.0.0.1:443: connection reset by peer")
	base := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		if trace := httptraceOf(r); trace != nil {
			trace()
		}
		return nil, cause
	})
	client := &http.Client{Transport: &envelope.Transport{Base: base}}
	for _, method := range []string{http.MethodGet, http.MethodPost} {
		var got error
		e, ok := call(func(ctx context.Context) error {
			req, _ := http.NewRequestWithContext(ctx, method, "https://api.example.com/v1/loans?api_key=sk-live-abcdef", nil)
			_, got = client.Do(req)
			return fmt.Errorf("create loan: %v", got) // prose: the chain is lost
		})
		if !errors.Is(got, cause) {
			t.Errorf("%s: the client got %v", method, got)
		}
		if !ok || strings.Contains(e.Message, "sk-live") || !strings.Contains(e.Message, "api.example.com") {
			t.Fatalf("%s: ErrorOf = %v, %v", method, e, ok)
		}
		if acted := mayHaveActed(e); acted != (method == http.MethodPost) {
			t.Errorf("%s: may have acted %v: %s", method, acted, e.AppendKindObject(nil))
		}
		if method == http.MethodGet && e.Kind != errkind.NetworkError {
			t.Errorf("GET: kind %s", e.Kind)
		}
	}
}

// httptraceOf returns the function that tells r's client trace, if any,
// that r was written, as a real transport does once it sent r.
func httptraceOf(r *http.Request) func() {
	trace := httptrace.ContextClientTrace(r.Context())
	if trace == nil || trace.WroteRequest == nil {
		return nil
	}
	return func() { trace.WroteRequest(httptrace.WroteRequestInfo{}) }
}

// mayHaveActed reports whether e reads as the failure of a request that
// may have acted: kind conflict with details that say so.
func mayHaveActed(e *envelope.Error) bool {
	var d struct {
		MayHaveActed bool `json:"mayHaveActed"`
	}
	json.Unmarshal(e.Details, &d)
	return e.Kind == errkind.Conflict && d.MayHaveActed
}

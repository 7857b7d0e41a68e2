package retry_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/retry"
)

// t0 is the fake clock's time in these tests.
var t0 = time.Date(2026, time.November, 30, 6, 0, 0, 0, time.UTC)

// reply is one scripted upstream response.
type reply struct {
	status int
	header map[string]string
	body   string
}

func ok200() reply { return reply{status: 200, body: `{"tags":[]}`} }

func tooMany(retryAfter string) reply {
	r := reply{status: 429, body: `{"error":{"code":"rate_limited","message":"slow down"}}`,
		header: map[string]string{"X-RateLimit-Limit": "20", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1"}}
	if retryAfter != "" {
		r.header["Retry-After"] = retryAfter
	}
	return r
}

// upstream is an httptest server that answers with a script, one reply a
// request (the last one repeats), and records what it was sent.
type upstream struct {
	*httptest.Server
	mu     sync.Mutex
	script []reply
	bodies []string
}

func newUpstream(t *testing.T, script ...reply) *upstream {
	u := &upstream{script: script}
	u.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		u.mu.Lock()
		n := len(u.bodies)
		u.bodies = append(u.bodies, string(b))
		u.mu.Unlock()
		rep := u.script[min(n, len(u.script)-1)]
		for k, v := range rep.header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(rep.status)
		io.WriteString(w, rep.body)
	}))
	t.Cleanup(u.Close)
	return u
}

func (u *upstream) requests() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return len(u.bodies)
}

// fakeTime is an injected clock whose Sleep returns at once, recording
// each wait, or fails with err.
type fakeTime struct {
	mu    sync.Mutex
	waits []time.Duration
	err   error
}

func (f *fakeTime) Now() time.Time { return t0 }

func (f *fakeTime) Sleep(ctx context.Context, d time.Duration) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.waits = append(f.waits, d)
	if f.err != nil {
		return f.err
	}
	return ctx.Err()
}

// outcome is what a test observes of one call.
type outcome struct {
	Status   int    // 0 when RoundTrip failed
	Body     string // the returned response's body, read in full
	Err      string
	Requests int             // as the upstream counted them
	Waits    []time.Duration // as the fake clock recorded them
	Retries  int             // OnRetry calls
}

// record notes what RoundTrip returned: the error's text, or the status
// and the whole body of the response, which it closes.
func (o *outcome) record(resp *http.Response, err error) {
	if err != nil {
		o.Err = err.Error()
		return
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	o.Status, o.Body = resp.StatusCode, string(b)
}

func TestTransport(t *testing.T) {
	post := func(u string) *http.Request {
		r, _ := http.NewRequest("POST", u, strings.NewReader(`{"q":1}`)) // GetBody set
		return r
	}
	tests := []struct {
		name    string
		script  []reply
		maxWait time.Duration
		req     func(url string) *http.Request
		want    outcome
	}{
		{"no retry needed", []reply{ok200()}, 0, nil,
			outcome{Status: 200, Body: `{"tags":[]}`, Requests: 1}},
		{"429 with Retry-After 1: retried once", []reply{tooMany("1"), ok200()}, 0, nil,
			outcome{Status: 200, Body: `{"tags":[]}`, Requests: 2, Waits: []time.Duration{time.Second}, Retries: 1}},
		{"Retry-After 2 is at the threshold: retried", []reply{tooMany("2"), ok200()}, 0, nil,
			outcome{Status: 200, Body: `{"tags":[]}`, Requests: 2, Waits: []time.Duration{2 * time.Second}, Retries: 1}},
		{"Retry-After 0: retried at once", []reply{tooMany("0"), ok200()}, 0, nil,
			outcome{Status: 200, Body: `{"tags":[]}`, Requests: 2, Waits: []time.Duration{0}, Retries: 1}},
		{"Retry-After 3: surfaced", []reply{tooMany("3"), ok200()}, 0, nil,
			outcome{Status: 429, Body: tooMany("").body, Requests: 1}},
		{"no Retry-After: surfaced", []reply{tooMany(""), ok200()}, 0, nil,
			outcome{Status: 429, Body: tooMany("").body, Requests: 1}},
		{"malformed Retry-After: surfaced", []reply{tooMany("1.5"), ok200()}, 0, nil,
			outcome{Status: 429, Body: tooMany("").body, Requests: 1}},
		{"second 429: surfaced after two requests", []reply{tooMany("1"), tooMany("1"), ok200()}, 0, nil,
			outcome{Status: 429, Body: tooMany("").body, Requests: 2, Waits: []time.Duration{time.Second}, Retries: 1}},
		{"Retry-After as a date against the response's Date", []reply{{
			status: 429, header: map[string]string{
				// An hour behind our clock, and two seconds ahead of its own Date.
				"Date": "Mon, 30 Nov 2026 05:00:00 GMT", "Retry-After": "Mon, 30 Nov 2026 05:00:02 GMT"},
		}, ok200()}, 0, nil,
			outcome{Status: 200, Body: `{"tags":[]}`, Requests: 2, Waits: []time.Duration{2 * time.Second}, Retries: 1}},
		{"a longer MaxWait", []reply{tooMany("3"), ok200()}, 5 * time.Second, nil,
			outcome{Status: 200, Body: `{"tags":[]}`, Requests: 2, Waits: []time.Duration{3 * time.Second}, Retries: 1}},
		{"negative MaxWait: never", []reply{tooMany("0"), ok200()}, -1, nil,
			outcome{Status: 429, Body: tooMany("").body, Requests: 1}},
		{"5xx is not this policy's", []reply{{status: 503, header: map[string]string{"Retry-After": "1"}}, ok200()}, 0, nil,
			outcome{Status: 503, Requests: 1}},
		{"rewindable body: re-sent with the same body", []reply{tooMany("1"), ok200()}, 0, post,
			outcome{Status: 200, Body: `{"tags":[]}`, Requests: 2, Waits: []time.Duration{time.Second}, Retries: 1}},
		{"body GetBody cannot rewind: surfaced", []reply{tooMany("1"), ok200()}, 0, func(u string) *http.Request {
			r, _ := http.NewRequest("POST", u, io.NopCloser(strings.NewReader(`{"q":1}`)))
			return r
		}, outcome{Status: 429, Body: tooMany("").body, Requests: 1}},
		{"GetBody fails: surfaced", []reply{tooMany("1"), ok200()}, 0, func(u string) *http.Request {
			r := post(u)
			r.GetBody = func() (io.ReadCloser, error) { return nil, errors.New("gone") }
			return r
		}, outcome{Status: 429, Body: tooMany("").body, Requests: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := newUpstream(t, tt.script...)
			clock := &fakeTime{}
			var got outcome
			tr := &retry.Transport{
				Base: http.DefaultTransport, MaxWait: tt.maxWait, Now: clock.Now, Sleep: clock.Sleep,
				OnRetry: func(req *http.Request, resp *http.Response, err error) {
					got.Retries++
					if resp.StatusCode != 429 || err != nil {
						t.Errorf("OnRetry(%v, %v)", resp.Status, err)
					}
				},
			}
			req := httptest.NewRequest("GET", u.URL, nil)
			req.RequestURI = ""
			if tt.req != nil {
				req = tt.req(u.URL)
			}
			got.record(tr.RoundTrip(req))
			got.Requests, got.Waits = u.requests(), clock.waits
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if tt.req != nil && got.Requests == 2 && u.bodies[0] != u.bodies[1] {
				t.Errorf("bodies sent: %q", u.bodies)
			}
		})
	}
}

func TestTransportContext(t *testing.T) {
	t.Run("deadline sooner than the wait: returned at once", func(t *testing.T) {
		u := newUpstream(t, tooMany("2"), ok200())
		clock := &fakeTime{}
		tr := &retry.Transport{Now: time.Now, Sleep: clock.Sleep}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, "GET", u.URL, nil)
		start := time.Now()
		resp, err := tr.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 429 || u.requests() != 1 || len(clock.waits) != 0 {
			t.Errorf("status %d, %d requests, waits %v; want 429, 1, none", resp.StatusCode, u.requests(), clock.waits)
		}
		if el := time.Since(start); el > 500*time.Millisecond {
			t.Errorf("took %v", el)
		}
	})
	t.Run("deadline after the wait: retried", func(t *testing.T) {
		u := newUpstream(t, tooMany("2"), ok200())
		clock := &fakeTime{}
		tr := &retry.Transport{Now: time.Now, Sleep: clock.Sleep}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, "GET", u.URL, nil)
		resp, err := tr.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 || u.requests() != 2 || !cmp.Equal(clock.waits, []time.Duration{2 * time.Second}) {
			t.Errorf("status %d, %d requests, waits %v; want 200, 2, [2s]", resp.StatusCode, u.requests(), clock.waits)
		}
	})
	t.Run("context ends during the wait", func(t *testing.T) {
		u := newUpstream(t, tooMany("1"), ok200())
		clock := &fakeTime{err: context.Canceled}
		tr := &retry.Transport{Now: clock.Now, Sleep: clock.Sleep}
		req, _ := http.NewRequest("GET", u.URL, nil)
		resp, err := tr.RoundTrip(req)
		if resp != nil || !errors.Is(err, context.Canceled) {
			t.Errorf("got %v, %v; want nil, context.Canceled", resp, err)
		}
		if u.requests() != 1 {
			t.Errorf("%d requests, want 1", u.requests())
		}
	})
	t.Run("context already done: not retried", func(t *testing.T) {
		clock := &fakeTime{}
		ctx, cancel := context.WithCancel(context.Background())
		base := stubRT(func(*http.Request) (*http.Response, error) {
			cancel() // the context ends while the first response comes back
			return stubResponse(429, "1"), nil
		})
		tr := &retry.Transport{Base: base, Now: clock.Now, Sleep: clock.Sleep}
		req, _ := http.NewRequestWithContext(ctx, "GET", "http://upstream.test/", nil)
		resp, err := tr.RoundTrip(req)
		if err != nil || resp.StatusCode != 429 || len(clock.waits) != 0 {
			t.Errorf("got %v, %v, waits %v", resp, err, clock.waits)
		}
	})
	t.Run("the real timer honours the context", func(t *testing.T) {
		// On synctest's fake clock: the cancel comes 1 ms into the 2 s wait.
		synctest.Test(t, func(t *testing.T) {
			calls := 0
			tr := &retry.Transport{Base: stubRT(func(*http.Request) (*http.Response, error) {
				calls++
				return stubResponse(429, "2"), nil
			})}
			ctx, cancel := context.WithCancel(context.Background())
			go func() {
				time.Sleep(time.Millisecond)
				cancel()
			}()
			req, _ := http.NewRequestWithContext(ctx, "GET", "http://upstream.test/", nil)
			start := time.Now()
			resp, err := tr.RoundTrip(req)
			if resp != nil || !errors.Is(err, context.Canceled) || calls != 1 {
				t.Errorf("got %v, %v after %d calls; want nil, context.Canceled after 1", resp, err, calls)
			}
			if el := time.Since(start); el != time.Millisecond {
				t.Errorf("waited %v on the fake clock, want 1ms", el)
			}
		})
	})
	t.Run("the real timer waits out Retry-After", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			calls := 0
			tr := &retry.Transport{Base: stubRT(func(*http.Request) (*http.Response, error) {
				calls++
				if calls == 1 {
					return stubResponse(429, "2"), nil
				}
				return stubResponse(200, ""), nil
			})}
			req, _ := http.NewRequest("GET", "http://upstream.test/", nil)
			start := time.Now()
			resp, err := tr.RoundTrip(req)
			if err != nil || resp.StatusCode != 200 || calls != 2 {
				t.Fatalf("got %v, %v after %d calls", resp, err, calls)
			}
			if el := time.Since(start); el != 2*time.Second {
				t.Errorf("waited %v on the fake clock, want 2s", el)
			}
		})
	})
	t.Run("the real timer with Retry-After 0", func(t *testing.T) {
		u := newUpstream(t, tooMany("0"), ok200())
		req, _ := http.NewRequest("GET", u.URL, nil)
		resp, err := (&retry.Transport{}).RoundTrip(req)
		if err != nil || resp.StatusCode != 200 || u.requests() != 2 {
			t.Fatalf("got %v, %v after %d requests", resp, err, u.requests())
		}
		resp.Body.Close()
	})
}

func TestTransportNetworkError(t *testing.T) {
	calls := 0
	boom := errors.New("connection refused")
	tr := &retry.Transport{Base: stubRT(func(*http.Request) (*http.Response, error) { calls++; return nil, boom })}
	req, _ := http.NewRequest("GET", "http://upstream.test/", nil)
	if _, err := tr.RoundTrip(req); !errors.Is(err, boom) || calls != 1 {
		t.Errorf("got %v after %d calls; want the error after 1", err, calls)
	}
}

func TestTransportOnceZero(t *testing.T) {
	u := newUpstream(t, tooMany("0"), ok200())
	req, _ := http.NewRequest("POST", u.URL, strings.NewReader("body"))
	resp, err := new(retry.Transport).Once(req, http.DefaultClient.Do)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if diff := cmp.Diff([]string{"body", "body"}, u.bodies); resp.StatusCode != 200 || diff != "" {
		t.Errorf("status %d, bodies (-want +got):\n%s", resp.StatusCode, diff)
	}

	u = newUpstream(t, tooMany("3"), ok200())
	clock := &fakeTime{}
	tr := &retry.Transport{MaxWait: 3 * time.Second, Now: clock.Now, Sleep: clock.Sleep}
	req, _ = http.NewRequest("GET", u.URL, nil)
	resp, err = tr.Once(req, http.DefaultClient.Do)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || u.requests() != 2 || !cmp.Equal(clock.waits, []time.Duration{3 * time.Second}) {
		t.Errorf("status %d after %d requests, waits %v", resp.StatusCode, u.requests(), clock.waits)
	}
}

// A large 429 body is drained only up to maxDrain before the retry.
func TestTransportDrainIsBounded(t *testing.T) {
	big := &countingBody{n: 10 << 20}
	closed := false
	big.onClose = func() { closed = true }
	calls := 0
	tr := &retry.Transport{
		Base: stubRT(func(*http.Request) (*http.Response, error) {
			calls++
			if calls == 1 {
				r := stubResponse(429, "0")
				r.Body = big
				return r, nil
			}
			return stubResponse(200, ""), nil
		}),
		Sleep: (&fakeTime{}).Sleep,
	}
	req, _ := http.NewRequest("GET", "http://upstream.test/", nil)
	resp, err := tr.RoundTrip(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("got %v, %v", resp, err)
	}
	if big.read > retry.MaxDrainForTest || !closed {
		t.Errorf("read %d bytes (max %d), closed %v", big.read, retry.MaxDrainForTest, closed)
	}
}

type countingBody struct {
	n, read int
	onClose func()
}

func (b *countingBody) Read(p []byte) (int, error) {
	if b.read >= b.n {
		return 0, io.EOF
	}
	k := min(len(p), b.n-b.read)
	b.read += k
	return k, nil
}

func (b *countingBody) Close() error { b.onClose(); return nil }

type stubRT func(*http.Request) (*http.Response, error)

func (f stubRT) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func stubResponse(status int, retryAfter string) *http.Response {
	h := http.Header{}
	if retryAfter != "" {
		h.Set("Retry-After", retryAfter)
	}
	return &http.Response{StatusCode: status, Header: h, Body: http.NoBody}
}

// A zero Transport sends through a pool that keeps 64 idle connections to a
// host, so concurrent calls to one upstream reuse their connections instead
// of dialing anew (http.DefaultTransport keeps 2).
func TestZeroTransportPool(t *testing.T) {
	if got := retry.DefaultBaseIdle(); got != 64 {
		t.Errorf("idle connections per host of the default base = %d, want 64", got)
	}
}

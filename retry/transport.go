package retry

import (
	"context"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/mcperr/mcperr/ratelimit/header"
)

// defaultMaxWait is the longest Retry-After that Transport waits out when
// its MaxWait is zero: a 429 asking for 2 seconds or less is waited out
// and sent once more.
const defaultMaxWait = 2 * time.Second

// maxDrain is how many bytes of a response body are read before it is
// closed and the request re-sent; reading a short body to its end lets the
// connection be reused, and the bound keeps a large one from being read
// for nothing.
const maxDrain = 64 << 10

// Transport is an http.RoundTripper that retries a grazed rate limit: a 429
// response whose Retry-After asks for at most MaxWait is drained,
// closed, waited out, and the request sent once more; every other
// response, and any error, goes back at once.
//
// Precisely, the 429 goes back unchanged, after one request, when
// Retry-After is missing, malformed or longer than MaxWait (a caller
// reports header.DefaultRetryAfter for a missing one); when the request's
// context is done or its deadline comes before the wait would end; or
// when the request has a body that GetBody cannot rewind. Retry-After is
// read with header.RetryAfter, so an HTTP-date is measured against
// the response's Date field. The response to the second request, 429 or
// not, goes back as it is. If the context ends during the wait, RoundTrip
// returns the context's error and no response.
//
// The zero value uses the default base (see Base), a 2-second MaxWait, the
// system clock and a timer. A Transport keeps no state between requests
// and is safe for concurrent use.
type Transport struct {
	// Base sends the requests; nil means a clone of http.DefaultTransport,
	// made when first needed, that keeps up to 64 idle connections per host
	// (http.DefaultTransport keeps 2, so a server making calls to one
	// upstream from many sessions at once would dial most of them anew).
	Base http.RoundTripper

	// MaxWait is the longest Retry-After that is waited out; zero means 2
	// seconds, and a negative value turns retrying off.
	MaxWait time.Duration

	// OnRetry, when set, is called before the request is sent again,
	// after the wait, with the original request and the 429 response
	// (whose body is already closed; its header can still be read). The
	// error is always nil here; it is there so that one function can
	// serve both Transport and GetTransport.
	OnRetry func(req *http.Request, resp *http.Response, err error)

	// Now reports the current time; nil means time.Now. Tests inject a
	// clock here.
	Now func() time.Time

	// Sleep waits for d or until ctx is done, whichever comes first, and
	// reports ctx's error in the second case; nil means a time.Timer.
	// Tests inject a fake here.
	Sleep func(ctx context.Context, d time.Duration) error
}

// RoundTrip sends req with Base and applies the policy.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	base := t.Base
	if base == nil {
		base = defaultBase()
	}
	resp, err := base.RoundTrip(req)
	if err != nil || resp.StatusCode != http.StatusTooManyRequests {
		return resp, err
	}
	return t.retry(req, resp, base)
}

// Once sends req with send and applies Transport's policy to the result,
// with t's settings but send in place of Base. It suits code that sends
// requests through a function rather than a RoundTripper:
//
//	resp, err := t.Once(req, client.Do)
//
// Unlike Base, send may be an http.Client's Do, which follows redirects
// and closes the request body; the policy then applies to the response
// at the end of the redirects.
func (t *Transport) Once(req *http.Request, send func(*http.Request) (*http.Response, error)) (*http.Response, error) {
	resp, err := send(req)
	if err != nil || resp.StatusCode != http.StatusTooManyRequests {
		return resp, err
	}
	return t.retry(req, resp, sendFunc(send))
}

type sendFunc func(*http.Request) (*http.Response, error)

func (f sendFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// retry handles a 429 that base returned for req. It is kept apart from
// RoundTrip so the path of a request that needs no retry stays short.
func (t *Transport) retry(req *http.Request, resp *http.Response, base http.RoundTripper) (*http.Response, error) {
	maxWait := t.MaxWait
	if maxWait == 0 {
		maxWait = defaultMaxWait
	}
	if maxWait < 0 {
		return resp, nil
	}
	now := time.Now
	if t.Now != nil {
		now = t.Now
	}
	start := now()
	wait, ok := header.RetryAfter(resp.Header, start)
	if !ok || wait > maxWait {
		return resp, nil
	}
	ctx := req.Context()
	if ctx.Err() != nil {
		return resp, nil
	}
	if deadline, ok := ctx.Deadline(); ok && deadline.Before(start.Add(wait)) {
		return resp, nil
	}
	again, ok := rewind(req)
	if !ok {
		return resp, nil
	}
	drain(resp.Body)

	sleep := sleepContext
	if t.Sleep != nil {
		sleep = t.Sleep
	}
	if err := sleep(ctx, wait); err != nil {
		closeBody(again)
		return nil, err
	}
	if t.OnRetry != nil {
		t.OnRetry(req, resp, nil)
	}
	return base.RoundTrip(again)
}

// rewind returns a request to send again in req's place: req itself when
// it has no body, a shallow copy with a fresh body from GetBody when it
// has one, and false when the body cannot be rewound.
func rewind(req *http.Request) (*http.Request, bool) {
	if req.Body == nil || req.Body == http.NoBody {
		return req, true
	}
	if req.GetBody == nil {
		return nil, false
	}
	body, err := req.GetBody()
	if err != nil {
		return nil, false
	}
	again := new(http.Request)
	*again = *req
	again.Body = body
	return again, true
}

// closeBody closes the body of a request made by rewind and never sent.
func closeBody(req *http.Request) {
	if req.Body != nil {
		req.Body.Close()
	}
}

// drain reads at most maxDrain bytes of body and closes it.
func drain(body io.ReadCloser) {
	if body == nil {
		return
	}
	io.CopyN(io.Discard, body, maxDrain)
	body.Close()
}

// sleepContext waits for d or until ctx is done.
func sleepContext(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

// maxIdlePerHost is how many idle connections to one host the default base
// keeps: enough for the calls a busy server has in flight to one upstream.
const maxIdlePerHost = 64

// defaultBase is the base of a Transport or GetTransport whose Base is nil:
// http.DefaultTransport as it stands at the first call, cloned with a pool
// of maxIdlePerHost idle connections per host, or http.DefaultTransport
// itself when a program replaced it with a RoundTripper of its own.
var defaultBase = sync.OnceValue(func() http.RoundTripper {
	t, ok := http.DefaultTransport.(*http.Transport)
	if !ok {
		return http.DefaultTransport
	}
	t = t.Clone()
	if t.MaxIdleConnsPerHost < maxIdlePerHost {
		t.MaxIdleConnsPerHost = maxIdlePerHost
	}
	return t
})

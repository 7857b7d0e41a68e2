package retry

import (
	"net/http"
)

// GetTransport is an http.RoundTripper that re-sends a failed read: a
// GET or HEAD request that fails with a network error or a 5xx status is
// sent once more, at once. Both methods are safe to repeat (RFC 9110
// section 9.2.1); every other method is sent once, since repeating it
// could do its work twice.
//
// The request goes back as it is, without a second attempt, when its
// context is done (a cancelled or expired request is not a failure to
// repeat), or when it has a body that GetBody cannot rewind. The result of
// the second attempt goes back as it is. Before it, a 5xx response's body
// is drained (at most maxDrain bytes) and closed.
//
// The zero value uses the default base (see Transport.Base). A GetTransport keeps no
// state between requests and is safe for concurrent use.
type GetTransport struct {
	// Base sends the requests; nil means the default base of Transport.
	Base http.RoundTripper

	// OnRetry, when set, is called before the request is sent again,
	// with the original request and either the 5xx response (its body
	// already closed) or the network error.
	OnRetry func(req *http.Request, resp *http.Response, err error)
}

// RoundTrip sends req with Base and applies the policy.
func (t *GetTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	base := t.Base
	if base == nil {
		base = defaultBase()
	}
	resp, err := base.RoundTrip(req)
	if err == nil && resp.StatusCode < 500 {
		return resp, nil
	}
	if m := req.Method; m != "" && m != http.MethodGet && m != http.MethodHead {
		return resp, err // "" is GET to net/http
	}
	if err == nil && resp.StatusCode > 599 {
		return resp, nil
	}
	if req.Context().Err() != nil {
		return resp, err
	}
	again, ok := rewind(req)
	if !ok {
		return resp, err
	}
	if resp != nil {
		drain(resp.Body)
	}
	if t.OnRetry != nil {
		t.OnRetry(req, resp, err)
	}
	return base.RoundTrip(again)
}

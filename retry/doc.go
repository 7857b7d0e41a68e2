// Package retry re-sends an HTTP request at most once, under one of two
// policies that each fit in a sentence, and never more.
//
// Transport handles rate limits. A 429 whose Retry-After is at most
// MaxWait (2 seconds by default) means a burst was grazed: its body is
// drained and closed, the delay is waited out, and the request is sent
// once more. Above MaxWait, without a usable Retry-After, when the
// context's deadline would pass during the wait, or when the retry is a
// 429 too, the response goes back at once: no second retry, no growing
// backoff, and no state kept between calls.
//
// GetTransport handles failures. A GET or HEAD that meets a 5xx or a
// network error is sent once more, at once, since both methods are safe
// to repeat. Any other method, a request whose context is
// already done, and a second failure go back to the caller as they are.
//
// Both re-send a request with a body only when GetBody can rewind it,
// both call an OnRetry hook before the second attempt so a server can
// count or log retries, and both compose with any http.RoundTripper:
//
//	client := &http.Client{Transport: &retry.GetTransport{
//		Base: &retry.Transport{Base: http.DefaultTransport},
//	}}
//
// Transport's Once method applies the same policy around any send
// function, such as an http.Client's Do: resp, err := t.Once(req, client.Do).
package retry

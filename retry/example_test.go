package retry_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/mcperr/mcperr/retry"
)

// limitedUpstream answers its first request with the given status and
// Retry-After, and every later one with 200.
func limitedUpstream(status int, retryAfter string) *httptest.Server {
	n := 0
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n++
		if n == 1 {
			if retryAfter != "" {
				w.Header().Set("Retry-After", retryAfter)
			}
			w.WriteHeader(status)
			io.WriteString(w, `{"error":{"code":"rate_limited","message":"Too many requests"}}`)
			return
		}
		fmt.Fprintf(w, `{"tags":["api","db"],"request":%d}`, n)
	}))
}

// A 429 that asks for a second is waited out and the request sent once
// more. (The example replaces the wait with a print; leave Sleep nil to
// wait for real.)
func ExampleTransport() {
	upstream := limitedUpstream(http.StatusTooManyRequests, "1")
	defer upstream.Close()

	client := &http.Client{Transport: &retry.Transport{
		Sleep: func(ctx context.Context, d time.Duration) error {
			fmt.Println("waiting", d)
			return nil
		},
		OnRetry: func(req *http.Request, resp *http.Response, err error) {
			fmt.Println("retrying after", resp.Status)
		},
	}}
	resp, err := client.Get(upstream.URL)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.Status, string(body))
	// Output:
	// waiting 1s
	// retrying after 429 Too Many Requests
	// 200 OK {"tags":["api","db"],"request":2}
}

// A 429 that asks for more than MaxWait goes back at once, for the caller
// to report as rate_limited.
func ExampleTransport_surfaced() {
	upstream := limitedUpstream(http.StatusTooManyRequests, "30")
	defer upstream.Close()

	client := &http.Client{Transport: &retry.Transport{}}
	resp, err := client.Get(upstream.URL)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	fmt.Println(resp.Status, "Retry-After:", resp.Header.Get("Retry-After"))
	// Output:
	// 429 Too Many Requests Retry-After: 30
}

// A zero Transport's Once applies the policy around any send function.
func ExampleTransport_Once() {
	upstream := limitedUpstream(http.StatusTooManyRequests, "0")
	defer upstream.Close()

	req, _ := http.NewRequest("GET", upstream.URL, nil)
	resp, err := new(retry.Transport).Once(req, http.DefaultClient.Do)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.Status, string(body))
	// Output:
	// 200 OK {"tags":["api","db"],"request":2}
}

// A GET that meets a 503 is sent once more; a server counts the retries.
func ExampleGetTransport() {
	upstream := limitedUpstream(http.StatusServiceUnavailable, "")
	defer upstream.Close()

	retries := 0
	client := &http.Client{Transport: &retry.GetTransport{
		OnRetry: func(req *http.Request, resp *http.Response, err error) { retries++ },
	}}
	resp, err := client.Get(upstream.URL)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	fmt.Println(resp.Status, "after", retries, "retry")
	// Output:
	// 200 OK after 1 retry
}

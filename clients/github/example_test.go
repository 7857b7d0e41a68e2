package github_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"

	"github.com/google/go-github/v84/github"

	_ "github.com/mcperr/mcperr/clients/github" // go-github's errors, for envelope.ErrorOf and the adapters
	"github.com/mcperr/mcperr/envelope"
)

// A handler returns go-github's error as it got it, wrapped with %w; the
// import is all the setup. A secondary rate limit is rate_limited with
// GitHub's wait, and so is the next call, which go-github answers from
// memory with a 403 of its own making without sending it.
func Example() {
	var sent atomic.Int32
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sent.Add(1)
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/repos/octo-org/hello-world/issues/1" {
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `{"message":"Not Found","documentation_url":"https://docs.github.com/rest/issues/issues#get-an-issue"}`)
			return
		}
		w.Header().Set("Retry-After", "30")
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(w, `{"message":"You have exceeded a secondary rate limit.","documentation_url":"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"}`)
	}))
	defer api.Close()
	gh := github.NewClient(nil)
	gh.BaseURL, _ = url.Parse(api.URL + "/")

	getIssue := func(ctx context.Context, number int) error { // a tool handler's body
		_, _, err := gh.Issues.Get(ctx, "octo-org", "hello-world", number)
		if err != nil {
			return fmt.Errorf("failed to get issue: %w", err)
		}
		return nil
	}
	for _, number := range []int{1, 2, 3} {
		e, ok := envelope.ErrorOf(getIssue(context.Background(), number))
		if !ok {
			log.Fatal("no upstream failure")
		}
		b, _ := e.MarshalJSON()
		fmt.Println(string(b))
	}
	fmt.Println("requests sent:", sent.Load())
	// Output:
	// {"kind":"not_found","message":"failed to get issue: Not Found"}
	// {"kind":"rate_limited","retryAfterSeconds":30}
	// {"kind":"rate_limited","retryAfterSeconds":30}
	// requests sent: 2
}

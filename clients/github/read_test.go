package github_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-github/v84/github"

	"github.com/mcperr/mcperr/clients/clienttest"
	mcpgithub "github.com/mcperr/mcperr/clients/github"
	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
)

// client is the real go-github client pointed at f, with a token.
func client(f *clienttest.Upstream) *github.Client {
	c := github.NewClient(f.Client()).WithAuthToken(token)
	c.BaseURL, _ = url.Parse(f.URL + "/")
	return c
}

// token is the credential the client sends; it must never reach the agent.
const token = "ghp_16C7e42F292c6912E7710c838347Ae178B4a"

func getIssue(ctx context.Context, c *github.Client) error {
	_, _, err := c.Issues.Get(ctx, "octo-org", "hello-world", 1347)
	return err
}

// The GitHub REST API pages cited below (docs.github.com/en/rest/...):
//
//	troubleshoot: using-the-rest-api/troubleshooting-the-rest-api
//	errors:       using-the-rest-api/getting-started-with-the-rest-api (client errors)
//	limits:       using-the-rest-api/rate-limits-for-the-rest-api
//	stats:        metrics/statistics ("A word about caching")
//	merge:        pulls/pulls#merge-a-pull-request
//	labels:       issues/labels#create-a-label
var cases = []struct {
	name  string
	a     clienttest.Answer
	call  func(context.Context, *github.Client) error // nil: get an issue
	again bool                                        // the second call's error is checked: go-github answers it from memory
	want  errkind.Object
}{
	{
		// troubleshoot: "401 Unauthorized ... Bad credentials".
		name: "bad credentials is authentication_failed",
		a:    clienttest.Answer{Status: 401, Body: `{"message":"Bad credentials","documentation_url":"https://docs.github.com/rest","status":"401"}`},
		want: errkind.Object{Kind: errkind.AuthenticationFailed, Message: "Bad credentials"},
	},
	{
		// errors: a 401 with X-GitHub-OTP: required asks for the
		// two-factor code (go-github's TwoFactorAuthError).
		name: "two-factor code required is authentication_failed",
		a:    clienttest.Answer{Status: 401, Header: map[string]string{"X-GitHub-OTP": "required; app"}, Body: `{"message":"Must specify two-factor authentication OTP code.","documentation_url":"https://docs.github.com/rest/overview/other-authentication-methods#working-with-two-factor-authentication"}`},
		want: errkind.Object{Kind: errkind.AuthenticationFailed, Message: "Must specify two-factor authentication OTP code."},
	},
	{
		// troubleshoot: "403 Forbidden ... Resource not accessible by
		// integration": the token lacks the permission.
		name: "resource not accessible is permission_denied",
		a:    clienttest.Answer{Status: 403, Header: map[string]string{"X-RateLimit-Remaining": "4999"}, Body: `{"message":"Resource not accessible by integration","documentation_url":"https://docs.github.com/rest/issues/issues#get-an-issue","status":"403"}`},
		want: errkind.Object{Kind: errkind.PermissionDenied, Message: "Resource not accessible by integration"},
	},
	{
		// troubleshoot: "404 Not Found": the resource does not exist or
		// the token cannot see it.
		name: "not found is not_found",
		a:    clienttest.Answer{Status: 404, Body: `{"message":"Not Found","documentation_url":"https://docs.github.com/rest/issues/issues#get-an-issue","status":"404"}`},
		want: errkind.Object{Kind: errkind.NotFound, Message: "Not Found"},
	},
	{
		// errors: "Sending invalid JSON will result in a 400 Bad
		// Request response ... Problems parsing JSON".
		name: "problems parsing JSON is invalid_arguments",
		a:    clienttest.Answer{Status: 400, Body: `{"message":"Problems parsing JSON","documentation_url":"https://docs.github.com/rest"}`},
		want: errkind.Object{Kind: errkind.InvalidArguments, Message: "Problems parsing JSON"},
	},
	{
		// errors: "Sending invalid fields will result in a 422
		// Unprocessable Entity response", with an errors list naming the
		// resource, the field and the code (missing_field: "a required
		// field on a resource has not been set").
		name: "validation failed names the field at fault",
		a:    clienttest.Answer{Status: 422, Body: `{"message":"Validation Failed","errors":[{"resource":"Issue","field":"title","code":"missing_field"}],"documentation_url":"https://docs.github.com/rest/issues/issues#create-an-issue"}`},
		call: func(ctx context.Context, c *github.Client) error {
			_, _, err := c.Issues.Create(ctx, "octo-org", "hello-world", &github.IssueRequest{})
			return err
		},
		want: errkind.Object{Kind: errkind.InvalidArguments, Code: "missing_field", Message: "Validation Failed",
			Details: json.RawMessage(`[{"resource":"Issue","field":"title","code":"missing_field"}]`)},
	},
	{
		// errors, labels: already_exists, "another resource has the same
		// value as this field": the state, not the argument's form, is at
		// fault.
		name: "already exists names the field and is conflict",
		a:    clienttest.Answer{Status: 422, Body: `{"message":"Validation Failed","errors":[{"resource":"Label","code":"already_exists","field":"name"}],"documentation_url":"https://docs.github.com/rest/issues/labels#create-a-label"}`},
		call: func(ctx context.Context, c *github.Client) error {
			_, _, err := c.Issues.CreateLabel(ctx, "octo-org", "hello-world", &github.Label{Name: github.Ptr("bug")})
			return err
		},
		want: errkind.Object{Kind: errkind.Conflict, Code: "already_exists", Message: "Validation Failed",
			Details: json.RawMessage(`[{"resource":"Label","field":"name","code":"already_exists"}]`)},
	},
	{
		// merge: "409 Conflict if sha was provided and pull request head
		// did not match".
		name: "head branch modified is conflict",
		a:    clienttest.Answer{Status: 409, Body: `{"message":"Head branch was modified. Review and try the merge again.","documentation_url":"https://docs.github.com/rest/pulls/pulls#merge-a-pull-request"}`},
		call: func(ctx context.Context, c *github.Client) error {
			_, _, err := c.PullRequests.Merge(ctx, "octo-org", "hello-world", 1347, "", &github.PullRequestOptions{SHA: "6dcb09b5b57875f334f61aebed695e2e4193db5e"})
			return err
		},
		want: errkind.Object{Kind: errkind.Conflict, Message: "Head branch was modified. Review and try the merge again."},
	},
	{
		// limits: "If you exceed your primary rate limit, you will
		// receive a 403 or 429 response, and the x-ratelimit-remaining
		// header will be 0. You should not retry your request until
		// after the time specified by the x-ratelimit-reset header."
		name: "primary rate limit at 403 waits until the reset",
		a:    clienttest.Answer{Status: 403, Header: map[string]string{"X-RateLimit-Limit": "5000", "X-RateLimit-Remaining": "0", "X-RateLimit-Used": "5000", "X-RateLimit-Reset": "{reset+1200}", "X-RateLimit-Resource": "core"}, Body: `{"message":"API rate limit exceeded for user ID 1.","documentation_url":"https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting"}`},
		want: errkind.Object{Kind: errkind.RateLimited, RetryAfterSeconds: clienttest.N(1200), Limit: clienttest.N(5000), Remaining: clienttest.N(0), ResetSeconds: clienttest.N(1200)},
	},
	{
		name: "primary rate limit at 429 waits until the reset",
		a:    clienttest.Answer{Status: 429, Header: map[string]string{"X-RateLimit-Limit": "60", "X-RateLimit-Remaining": "0", "X-RateLimit-Used": "60", "X-RateLimit-Reset": "{reset+300}"}, Body: `{"message":"API rate limit exceeded for 203.0.113.7.","documentation_url":"https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting"}`},
		want: errkind.Object{Kind: errkind.RateLimited, RetryAfterSeconds: clienttest.N(300), Limit: clienttest.N(60), Remaining: clienttest.N(0), ResetSeconds: clienttest.N(300)},
	},
	{
		// limits: while the primary limit lasts, go-github does not send
		// the request; the error it makes up (a 403 with no header and no
		// body) must still be the rate limit, with the wait until the
		// reset, not permission_denied.
		name:  "remembered primary rate limit is rate_limited until the reset",
		a:     clienttest.Answer{Status: 403, Header: map[string]string{"X-RateLimit-Limit": "5000", "X-RateLimit-Remaining": "0", "X-RateLimit-Used": "5000", "X-RateLimit-Reset": "{reset+1200}"}, Body: `{"message":"API rate limit exceeded for user ID 1.","documentation_url":"https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting"}`},
		again: true,
		want:  errkind.Object{Kind: errkind.RateLimited, RetryAfterSeconds: clienttest.N(1200), Limit: clienttest.N(5000), Remaining: clienttest.N(0), ResetSeconds: clienttest.N(1200)},
	},
	{
		// limits: "If you exceed a secondary rate limit, you will
		// receive a 403 or 429 response ... If the retry-after response
		// header is present, you should not retry your request until
		// after that many seconds has elapsed."
		name: "secondary rate limit waits its retry-after",
		a:    clienttest.Answer{Status: 403, Header: map[string]string{"Retry-After": "61"}, Body: `{"message":"You have exceeded a secondary rate limit. Please wait a few minutes before you try again.","documentation_url":"https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"}`},
		want: errkind.Object{Kind: errkind.RateLimited, RetryAfterSeconds: clienttest.N(61)},
	},
	{
		// limits: "If the x-ratelimit-remaining header is 0, you should
		// not retry your request until after the time, in UTC epoch
		// seconds, specified by the x-ratelimit-reset header."
		name: "secondary rate limit at 429 without retry-after waits until the reset",
		a:    clienttest.Answer{Status: 429, Header: map[string]string{"X-RateLimit-Reset": "{reset+90}"}, Body: `{"message":"You have exceeded a secondary rate limit.","documentation_url":"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"}`},
		want: errkind.Object{Kind: errkind.RateLimited, RetryAfterSeconds: clienttest.N(90), ResetSeconds: clienttest.N(90)},
	},
	{
		// limits: "Otherwise, wait for at least one minute before
		// retrying."
		name: "secondary rate limit with no wait waits a minute",
		a:    clienttest.Answer{Status: 403, Body: `{"message":"You have exceeded a secondary rate limit.","documentation_url":"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"}`},
		want: errkind.Object{Kind: errkind.RateLimited, RetryAfterSeconds: clienttest.N(60)},
	},
	{
		// limits: a client that keeps sending while the secondary limit
		// lasts "may result in the banning of your integration"; go-github
		// answers from memory, and that answer is the rate limit still.
		name:  "remembered secondary rate limit is rate_limited for what is left",
		a:     clienttest.Answer{Status: 403, Header: map[string]string{"Retry-After": "120"}, Body: `{"message":"You have exceeded a secondary rate limit.","documentation_url":"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"}`},
		again: true,
		want:  errkind.Object{Kind: errkind.RateLimited, RetryAfterSeconds: clienttest.N(120)},
	},
	{
		// stats: "If the data hasn't been cached when you query a
		// repository's statistics, you'll receive a 202 response ... Give
		// the job a few moments to complete, and then submit the request
		// again."
		name: "statistics being compiled is unavailable",
		a:    clienttest.Answer{Status: 202, Body: `{}`},
		call: func(ctx context.Context, c *github.Client) error {
			_, _, err := c.Repositories.ListContributorsStats(ctx, "octo-org", "hello-world")
			return err
		},
		want: errkind.Object{Kind: errkind.Unavailable, Code: "accepted", HTTPStatus: 202, Message: "job scheduled on GitHub side; try again later"},
	},
	{
		// RFC 9110 §15.6.1: the server failed; GitHub's body says only that.
		name: "server error is server_error",
		a:    clienttest.Answer{Status: 500, Body: `{"message":"Server Error"}`},
		want: errkind.Object{Kind: errkind.ServerError, HTTPStatus: 500, Message: "Server Error"},
	},
	{
		// RFC 9110 §15.6.3, §15.6.4: a gateway's page in front of GitHub
		// (the "Unicorn!" page) says the service is not reachable now.
		name: "gateway page is unavailable",
		a:    clienttest.Answer{Status: 502, Header: map[string]string{"Content-Type": "text/html"}, Body: `<!DOCTYPE html><html><head><title>Unicorn! &middot; GitHub</title></head><body><p>No server is currently available to service your request.</p></body></html>`},
		want: errkind.Object{Kind: errkind.Unavailable, HTTPStatus: 502},
	},
	{
		name: "service unavailable page is unavailable",
		a:    clienttest.Answer{Status: 503, Header: map[string]string{"Content-Type": "text/html"}, Body: `<html><body><h1>503 Service Unavailable</h1>No server is available to handle this request.</body></html>`},
		want: errkind.Object{Kind: errkind.Unavailable, HTTPStatus: 503},
	},
}

// callOnce runs the case's call on a fresh client against a fresh fake,
// twice when the case says so, and returns the error of the last call.
func callOnce(t *testing.T, ctx context.Context, tc int) (*clienttest.Upstream, error) {
	c := cases[tc]
	f := clienttest.Serve(t, c.a)
	gh := client(f)
	call := c.call
	if call == nil {
		call = getIssue
	}
	err := call(ctx, gh)
	if c.again {
		err = call(ctx, gh)
	}
	return f, err
}

// TestRead checks that each documented answer of GitHub's, as the real
// go-github client returns it, reaches the agent as the documentation
// says: through Read, and through envelope.ErrorOf (which the import
// registered Read with) and the handlers of a go-sdk and an mcp-go server,
// the error unchanged and wrapped with %w.
func TestRead(t *testing.T) {
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := callOnce(t, context.Background(), i)
			if c.again && f.Hits() != 1 {
				t.Errorf("the fake got %d requests, want 1: the second call was not answered from memory", f.Hits())
			}
			clienttest.CheckRead(t, mcpgithub.Read, err, c.want, token)
		})
	}
}

// TestTimeout checks that a call the upstream does not answer in time is
// network_error, naming the method and the host, never the path.
func TestTimeout(t *testing.T) {
	f := clienttest.Serve(t, clienttest.Answer{Status: 200, Body: `{}`})
	f.Stall(5 * time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	err := getIssue(ctx, client(f))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want a deadline", err)
	}
	err = fmt.Errorf("failed to get issue: %w", err)
	e, ok := envelope.ErrorOf(err)
	if !ok {
		t.Fatal("ErrorOf found nothing")
	}
	got := clienttest.Object(e)
	if got.Kind != errkind.NetworkError || strings.Contains(got.Message, "hello-world") {
		t.Errorf("got %+v, want network_error without the path", got)
	}
	replies, cerr := clienttest.Call(context.Background(), func(context.Context) error { return err })
	if cerr != nil {
		t.Fatal(cerr)
	}
	for _, r := range replies {
		if r.Object == nil || !cmp.Equal(*r.Object, got) {
			t.Errorf("%s: the agent got %+v, want %+v", r.SDK, r.Outcome, got)
		}
	}
}

// TestReadLeavesOthers checks that an error go-github did not make is
// not Read's.
func TestReadLeavesOthers(t *testing.T) {
	for _, err := range []error{errors.New("boom"), context.DeadlineExceeded, &github.RedirectionError{}} {
		if e, ok := mcpgithub.Read(err); ok {
			t.Errorf("Read(%v) = %v, want nothing", err, e)
		}
	}
}

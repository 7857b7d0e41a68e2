package graphql_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/shurcooL/graphql"

	"github.com/mcperr/mcperr/clients/clienttest"
	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
)

// repository is a query for one repository, as githubv4 writes it.
type repository struct {
	Repository struct {
		Name string
	} `graphql:"repository(owner: \"octo-org\", name: \"nope\")"`
}

// The page cited below: docs.github.com/en/graphql/guides/
// forming-calls-with-graphql and .../overview/rate-limits-and-query-limits-
// for-the-graphql-api (the errors' type, and a limit's answer).
var cases = []struct {
	name string
	a    clienttest.Answer
	want errkind.Object
}{
	{
		// A name that resolves to nothing: 200, data.repository null, and
		// an error of type NOT_FOUND.
		name: "NOT_FOUND is not_found",
		a: clienttest.Answer{Status: 200, Body: `{"data":{"repository":null},"errors":[{"type":"NOT_FOUND","path":["repository"],"locations":[{"line":1,"column":7}],` +
			`"message":"Could not resolve to a Repository with the name 'octo-org/nope'."}]}`},
		want: errkind.Object{Kind: errkind.NotFound, Code: "NOT_FOUND", Message: "Could not resolve to a Repository with the name 'octo-org/nope'."},
	},
	{
		// rate limits: "If you exceed your primary rate limit, the
		// response status will still be 200, but you will receive an
		// error message", of type RATE_LIMITED, with x-ratelimit-reset.
		name: "RATE_LIMITED waits until the reset",
		a: clienttest.Answer{Status: 200, Header: map[string]string{"X-RateLimit-Limit": "5000", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "{reset+600}"},
			Body: `{"errors":[{"type":"RATE_LIMITED","message":"API rate limit exceeded for user ID 1."}]}`},
		want: errkind.Object{Kind: errkind.RateLimited, RetryAfterSeconds: clienttest.N(600), Limit: clienttest.N(5000), Remaining: clienttest.N(0), ResetSeconds: clienttest.N(600)},
	},
	{
		// A 401, which the client quotes into prose ("non-200 OK status
		// code: 401 Unauthorized body: ..."), headers dropped.
		name: "bad credentials at 401 is authentication_failed",
		a:    clienttest.Answer{Status: 401, Body: `{"message":"Bad credentials","documentation_url":"https://docs.github.com/graphql"}`},
		want: errkind.Object{Kind: errkind.AuthenticationFailed, Message: "Bad credentials"},
	},
}

// TestTransport checks that a GraphQL failure, of which the client keeps
// only the message, reaches the agent of a go-sdk and an mcp-go server with
// its type as the kind, when envelope.Transport is under the client and the
// handler returns the client's error.
func TestTransport(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u := clienttest.Serve(t, c.a)
			gql := graphql.NewClient(u.URL+"/graphql", &http.Client{Transport: &envelope.Transport{Base: u.Client().Transport}})
			replies, err := clienttest.Call(context.Background(), func(ctx context.Context) error {
				var q repository
				return gql.Query(ctx, &q, nil)
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range replies {
				if r.Object == nil {
					t.Errorf("%s: the agent got %+v", r.SDK, r.Outcome)
					continue
				}
				got := *r.Object
				got.Details = nil // the errors' path and locations, as sent
				if diff := cmp.Diff(c.want, got, clienttest.ApproxWait(2)); diff != "" {
					t.Errorf("%s: kind object (-want +got):\n%s", r.SDK, diff)
				}
			}
		})
	}
}

// TestWithoutTransport checks what the test above is for: without
// envelope.Transport, the client's error holds only the message, and the
// agent gets server_error.
func TestWithoutTransport(t *testing.T) {
	u := clienttest.Serve(t, cases[0].a)
	gql := graphql.NewClient(u.URL+"/graphql", u.Client())
	replies, err := clienttest.Call(context.Background(), func(ctx context.Context) error {
		var q repository
		return gql.Query(ctx, &q, nil)
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range replies {
		var o errkind.Object
		if json.Unmarshal([]byte(r.Outcome.Text), &o) != nil || o.Kind == errkind.NotFound {
			t.Errorf("%s: the agent got %+v, want no not_found", r.SDK, r.Outcome)
		}
	}
}

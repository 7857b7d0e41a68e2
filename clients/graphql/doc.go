// Package graphql shows, and tests, how the failures of a GraphQL API
// reach the agent through a GraphQL client that keeps only the first
// error's message: with envelope.Transport under the client, no code of
// this module's is needed.
//
//	go get github.com/mcperr/mcperr/clients/graphql
//
// GraphQL clients such as github.com/shurcooL/graphql (and
// github.com/shurcooL/githubv4 on it) return errors[0].message alone, so
// the type of the error (NOT_FOUND, RATE_LIMITED, FORBIDDEN) is gone, and
// quote a body of another status than 200 into prose, with the headers
// dropped. envelope.Transport reads each answer before the client does and
// keeps its failure for the tool call, where the adapters' Handle find it:
//
//	client := graphql.NewClient(endpoint, &http.Client{Transport: &envelope.Transport{}})
//
// (Transport watches the 2xx bodies of an endpoint whose path names
// graphql, such as GitHub's /graphql; for another, set Transport.GraphQL.)
// The package has no API: its tests drive the real client against a fake
// of GitHub's GraphQL API, through a go-sdk server and an mcp-go server.
package graphql

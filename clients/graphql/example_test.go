package graphql_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/shurcooL/graphql"

	"github.com/mcperr/mcperr/clients/clienttest"
	"github.com/mcperr/mcperr/envelope"
)

// envelope.Transport under the GraphQL client is all the setup: the tool
// handler returns the client's error, and the agent of a go-sdk or an
// mcp-go server (here both, through clienttest) gets the error's type as
// the kind.
func Example() {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"data":{"repository":null},"errors":[{"type":"NOT_FOUND","path":["repository"],"message":"Could not resolve to a Repository with the name 'octo-org/nope'."}]}`)
	}))
	defer api.Close()
	gql := graphql.NewClient(api.URL+"/graphql", &http.Client{Transport: &envelope.Transport{}})

	getRepo := func(ctx context.Context) error { // the tool handler's body
		var q struct {
			Repository struct{ Name string } `graphql:"repository(owner: \"octo-org\", name: \"nope\")"`
		}
		return gql.Query(ctx, &q, nil)
	}
	replies, err := clienttest.Call(context.Background(), getRepo)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range replies {
		fmt.Println(r.SDK, r.Object.Kind, r.Object.Code)
	}
	// Output:
	// gosdk not_found NOT_FOUND
	// mcpgo not_found NOT_FOUND
}

package gosdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/gosdk"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// An envelope.Transport under an API client keeps each tool call's
// upstream failures, so Handle gives the agent the right kind object even
// when the client dropped them: here a GraphQL client that keeps only the
// first error's message, on GitHub's NOT_FOUND, which reaches the agent as
// not_found beside the operation the handler names.
func ExampleHandle_transport() {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"data":{"repository":null},"errors":[{"type":"NOT_FOUND","path":["repository"],"message":"Could not resolve to a Repository with the name 'o/r'."}]}`)
	}))
	defer api.Close()

	client := &http.Client{Transport: &envelope.Transport{}} // mcperr: keeps the failure for the tool call
	query := func(ctx context.Context, q string) error {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, api.URL+"/graphql", strings.NewReader(q))
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		var out struct{ Errors []struct{ Message string } }
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
			return err
		}
		if len(out.Errors) > 0 {
			return errors.New(out.Errors[0].Message) // all the client keeps
		}
		return nil
	}

	s := mcp.NewServer(&mcp.Implementation{Name: "github", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "get_repository"}, gosdk.Handle(func(ctx context.Context, _ *mcp.CallToolRequest, in struct{}) (struct{}, error) {
		if err := query(ctx, `{"query":"{ repository(owner:\"o\", name:\"r\") { id } }"}`); err != nil {
			return struct{}{}, fmt.Errorf("failed to get repository: %w", err)
		}
		return struct{}{}, nil
	}))
	cs, done := connect(s)
	defer done()
	show(cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_repository", Arguments: map[string]any{}}))
	// Output:
	// isError=true {"kind":"not_found","code":"NOT_FOUND","message":"failed to get repository: Could not resolve to a Repository with the name 'o/r'."}
}

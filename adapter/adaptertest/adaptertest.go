// Package adaptertest checks that an adapter of an MCP SDK, built on package
// adapter, answers failures as mcperr's own adapters (gosdk, mcpgo) do; an
// adapter's tests run its checks against a real server of the SDK.
//
// The checks, each given the adapter's server or handler:
//
//   - a tool call's upstream failures: Server, a fake API that answers
//     documented failures, and Cases, tool handlers' bodies that call it,
//     with the kind object the agent must get (RunCases);
//   - a stateful HTTP endpoint's session bounds (Floods, SessionBytes), its
//     Public paths and Wrap (WrapAndPublic, CheckPublic), its rate limit's
//     code on each revision (LimitCodeByRevision) and its answer to an
//     unknown method (UnknownMethodHTTP);
//   - a stdio transport's bound on calls in flight (BoundClientAnswers,
//     BoundCancel, BoundUnread), the lines it refuses itself
//     (StdioRefusals), and one answer to every request of any input
//     (CheckStdio, a fuzz target's check);
//   - a long call's progress and deadline (HandleLong, with Slow).
//
// The rest are the fixtures those checks and the adapters' own tests share:
// requests (Revisions, Initialize, Initialized, Request, Open, PostModern),
// schemas (ValuesSchema, SearchSchema, MustCompile, Deep, Lookahead),
// errors (Wrapped, Prose), a failure hook (Failures), the form in which two
// adapters' results compare (CanonicalResult), a buffer (SafeBuffer), a
// long call's server for a client in another language (ParseLong, Sleep)
// and a benchmark of a stdio server (Pipeline).
package adaptertest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcperr/mcperr/envelope"
)

// Server starts the fake API. Its paths answer documented failures:
// GitHub's GraphQL NOT_FOUND and RATE_LIMITED at 200 (and a NOT_FOUND
// after 54 KB of data), a 429 with Retry-After, GitHub's 403s (a primary
// rate limit, a permission), a 404, a 409 envelope, a 422 validation, a
// gateway's 502 page, a request that hangs; and successes: a GraphQL
// answer, 64 KiB of text.
func Server() *httptest.Server {
	late := `{"data":{"items":[` + strings.Repeat(`{"id":12345,"name":"item"},`, 2000) + `{"id":0}]},"errors":[{"type":"NOT_FOUND","message":"Could not resolve to a Repository with the name 'o/r'."}]}`
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/graphql/not_found":
			io.WriteString(w, `{"data":{"repository":null},"errors":[{"type":"NOT_FOUND","path":["repository"],"message":"Could not resolve to a Repository with the name 'o/r'."}]}`)
		case "/graphql/rate_limited":
			io.WriteString(w, `{"errors":[{"type":"RATE_LIMITED","message":"API rate limit exceeded for user ID 1."}]}`)
		case "/graphql/late":
			io.WriteString(w, late)
		case "/graphql/ok":
			io.WriteString(w, `{"data":{"repository":{"id":"R_1"}}}`)
		case "/403/limit":
			w.Header().Set("X-RateLimit-Remaining", "0")
			w.Header().Set("X-RateLimit-Reset", fmt.Sprint(time.Now().Add(30*time.Second).Unix()))
			w.WriteHeader(http.StatusForbidden)
			io.WriteString(w, `{"message":"API rate limit exceeded for user ID 1.","documentation_url":"https://docs.github.com/rest/rate-limit"}`)
		case "/403/denied":
			w.WriteHeader(http.StatusForbidden)
			io.WriteString(w, `{"message":"Resource not accessible by integration"}`)
		case "/422":
			w.WriteHeader(http.StatusUnprocessableEntity)
			io.WriteString(w, `{"message":"Validation Failed","errors":[{"resource":"Issue","field":"title","code":"missing_field"}]}`)
		case "/502":
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusBadGateway)
			io.WriteString(w, "<html><body><h1>502 Bad Gateway</h1></body></html>")
		case "/big":
			io.WriteString(w, strings.Repeat("x", 64<<10))
		case "/429":
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(http.StatusTooManyRequests)
			io.WriteString(w, `{"message":"slow down"}`)
		case "/404":
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"message":"Not Found"}`)
		case "/409":
			w.WriteHeader(http.StatusConflict)
			io.WriteString(w, `{"error":{"code":"already_exists","message":"name taken"}}`)
		case "/hang":
			select {
			case <-time.After(5 * time.Second):
			case <-r.Context().Done():
			}
		}
	}))
}

// A Case is a tool handler's body, given the fake API's URL, and the kind
// object the agent gets for the error it returns.
type Case struct {
	// Name says what the handler's error is.
	Name string
	// Call is the handler's body: it calls the fake API at api through an
	// envelope.Transport and returns the error a handler would.
	Call func(ctx context.Context, api string) error
	// Want is the kind object the agent must get, with API for the fake
	// API's host (RunCases puts the host in its place).
	Want string
}

// apiClient is the API client every case's handler uses, with an
// envelope.Transport under it.
var apiClient = &http.Client{Transport: &envelope.Transport{}}

// Cases returns the tool handlers' bodies whose upstream failures an
// adapter's Handle must report, each with the kind object the agent must
// get: a new slice at each call, so that a test may change its copy.
func Cases() []Case {
	return []Case{
		{"a GraphQL client's prose error, wrapped", func(ctx context.Context, api string) error {
			return fmt.Errorf("failed to get repository: %w", graphQL(ctx, apiClient, api+"/graphql/not_found"))
		}, `{"kind":"not_found","code":"NOT_FOUND","message":"failed to get repository: Could not resolve to a Repository with the name 'o/r'."}`},
		{"a GraphQL RATE_LIMITED", func(ctx context.Context, api string) error {
			return graphQL(ctx, apiClient, api+"/graphql/rate_limited")
		}, `{"kind":"rate_limited","retryAfterSeconds":60}`},
		{"a client that dropped the 429's headers", func(ctx context.Context, api string) error {
			resp, _, err := get(ctx, apiClient, api+"/429")
			if err != nil {
				return err
			}
			return fmt.Errorf("search failed with status %d", resp.StatusCode)
		}, `{"kind":"rate_limited","retryAfterSeconds":7}`},
		{"a typed error that kept only its status, among parallel failures", func(ctx context.Context, api string) error {
			var wg sync.WaitGroup
			errs := make([]error, 2)
			for i, path := range []string{"/429", "/404"} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					resp, _, err := get(ctx, apiClient, api+path)
					if err == nil {
						err = statusError(resp.StatusCode)
					}
					errs[i] = err
				}()
			}
			wg.Wait()
			return fmt.Errorf("get issue: %w", errs[1])
		}, `{"kind":"not_found","message":"get issue: Not Found"}`},
		{"an *envelope.Error wrapped with %w", func(ctx context.Context, api string) error {
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, api+"/409", strings.NewReader(`{}`))
			req.Header.Set("Idempotency-Key", "k1")
			return fmt.Errorf("create repository: %w", (&envelope.Reader{Client: apiClient}).Do(req, nil))
		}, `{"kind":"conflict","code":"already_exists","message":"create repository: name taken"}`},
		{"a POST that timed out after it was sent", func(ctx context.Context, api string) error {
			ctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, api+"/hang?api_key=sk-live-0000111122223333", strings.NewReader(`{"amount":100}`))
			_, err := apiClient.Do(req)
			return fmt.Errorf("create loan: %w", err)
		}, `{"kind":"conflict","message":"create loan: POST API: context deadline exceeded; the POST request was sent and may have acted: read the resource back before retrying","details":{"mayHaveActed":true,"method":"POST","failure":"network_error"}}`},
	}
}

// apiHost is how a Case's Want names the fake API's host: replace it with
// the host before comparing.
const apiHost = "API"

// get sends a GET to url with c in ctx and reads the whole body.
func get(ctx context.Context, c *http.Client, url string) (*http.Response, []byte, error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	resp, err := c.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, b, err
}

// graphQL is a GraphQL client of the kind that keeps only the first
// error's message of an answer, through c.
func graphQL(ctx context.Context, c *http.Client, url string) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(`{"query":"{ repository(owner:\"o\", name:\"r\") { id } }"}`))
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var out struct {
		Errors []struct{ Message string } `json:"errors"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return err
	}
	if len(out.Errors) > 0 {
		return errors.New(out.Errors[0].Message)
	}
	return nil
}

// statusError is a typed client error that kept only the status.
type statusError int

func (e statusError) Error() string       { return fmt.Sprintf("HTTP %d", int(e)) }
func (e statusError) HTTPStatusCode() int { return int(e) }

// CaseTool is the name of the tool that runs Cases[i] through an adapter's
// Handle; the tool that runs it through Raw has the name with "_raw" after
// it.
func CaseTool(i int) string { return "tool" + string(rune('a'+i)) }

// RunCases checks, in a subtest of t for each Case and each of its two
// tools (CaseTool), that the call gets the agent the Case's Want, with the
// host of apiURL (Server's) for API, as an error result. call calls the
// tool of the adapter's server named tool, with no arguments, and returns
// its first text block and isError.
func RunCases(t *testing.T, apiURL string, call func(ctx context.Context, tool string) (text string, isError bool, err error)) {
	host := strings.TrimPrefix(apiURL, "http://")
	for i, c := range Cases() {
		for _, name := range []string{CaseTool(i), CaseTool(i) + "_raw"} {
			t.Run(c.Name+"/"+name, func(t *testing.T) {
				got, isError, err := call(t.Context(), name)
				if err != nil {
					t.Fatal(err)
				}
				want := strings.ReplaceAll(c.Want, apiHost, host)
				if !isError || got != want {
					t.Errorf("isError %v\n got %s\nwant %s", isError, got, want)
				}
			})
		}
	}
}

// Package adaptertest is what an SDK adapter's Handle must get right of a
// tool call's upstream failures: a fake upstream API that answers
// documented failures (GraphQL errors at 200, 429s with their wait,
// GitHub's 403s, validation 422s, a gateway's page, a request that hangs),
// and Cases, each a tool handler's body calling it through an
// envelope.Transport with the kind object the agent must get. The gosdk and
// mcpgo adapters run every Case through a real server; an adapter for
// another SDK can run them too.
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
	Name string
	Call func(ctx context.Context, api string) error
	Want string
}

// client is the API client every case's handler uses, with an
// envelope.Transport under it.
var client = &http.Client{Transport: &envelope.Transport{}}

// Cases are the handlers' bodies and what the agent must get.
var Cases = []Case{
	{"a GraphQL client's prose error, wrapped", func(ctx context.Context, api string) error {
		return fmt.Errorf("failed to get repository: %w", GraphQL(ctx, client, api+"/graphql/not_found"))
	}, `{"kind":"not_found","code":"NOT_FOUND","message":"failed to get repository: Could not resolve to a Repository with the name 'o/r'."}`},
	{"a GraphQL RATE_LIMITED", func(ctx context.Context, api string) error {
		return GraphQL(ctx, client, api+"/graphql/rate_limited")
	}, `{"kind":"rate_limited","retryAfterSeconds":60}`},
	{"a client that dropped the 429's headers", func(ctx context.Context, api string) error {
		resp, err := get(ctx, api+"/429")
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
				resp, err := get(ctx, api+path)
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
		return fmt.Errorf("create repository: %w", (&envelope.Reader{Client: client}).Do(req, nil))
	}, `{"kind":"conflict","code":"already_exists","message":"create repository: name taken"}`},
	{"a POST that timed out after it was sent", func(ctx context.Context, api string) error {
		ctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, api+"/hang?api_key=sk-live-0000111122223333", strings.NewReader(`{"amount":100}`))
		_, err := client.Do(req)
		return fmt.Errorf("create loan: %w", err)
	}, `{"kind":"conflict","message":"create loan: POST API: context deadline exceeded; the POST request was sent and may have acted: read the resource back before retrying","details":{"mayHaveActed":true,"method":"POST","failure":"network_error"}}`},
}

// Host is how a Case's Want names the fake API's host: replace it with the
// host before comparing.
const Host = "API"

func get(ctx context.Context, url string) (*http.Response, error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp, nil
}

// GraphQL is a GraphQL client of the kind that keeps only the first
// error's message of an answer, through c.
func GraphQL(ctx context.Context, c *http.Client, url string) error {
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
// host of apiURL (Server's) for Host, as an error result. call calls the
// tool of the adapter's server named tool, with no arguments, and returns
// its first text block and isError.
func RunCases(t *testing.T, apiURL string, call func(ctx context.Context, tool string) (text string, isError bool, err error)) {
	host := strings.TrimPrefix(apiURL, "http://")
	for i, c := range Cases {
		for _, name := range []string{CaseTool(i), CaseTool(i) + "_raw"} {
			t.Run(c.Name+"/"+name, func(t *testing.T) {
				got, isError, err := call(t.Context(), name)
				if err != nil {
					t.Fatal(err)
				}
				want := strings.ReplaceAll(c.Want, Host, host)
				if !isError || got != want {
					t.Errorf("isError %v\n got %s\nwant %s", isError, got, want)
				}
			})
		}
	}
}

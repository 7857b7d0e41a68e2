package openai_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	_ "github.com/mcperr/mcperr/clients/openai" // the OpenAI SDK's errors, for envelope.ErrorOf and the adapters
	"github.com/mcperr/mcperr/envelope"
)

// A handler returns the SDK's error wrapped with %w; the import is all the
// setup. A 429 is rate_limited with OpenAI's Retry-After as the wait.
func Example() {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", "3")
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprint(w, `{"error":{"message":"Rate limit reached for gpt-4o on requests per min (RPM): Limit 500, Used 500, Requested 1.","type":"requests","param":null,"code":"rate_limit_exceeded"}}`)
	}))
	defer api.Close()
	c := openai.NewClient(option.WithBaseURL(api.URL+"/v1/"), option.WithAPIKey("sk-test"), option.WithMaxRetries(0))

	_, err := c.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
		Model:    "gpt-4o",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hello")},
	})
	e, ok := envelope.ErrorOf(fmt.Errorf("failed to complete: %w", err))
	if !ok {
		log.Fatal("no upstream failure")
	}
	b, _ := e.MarshalJSON()
	fmt.Println(string(b))
	// Output:
	// {"kind":"rate_limited","retryAfterSeconds":3}
}

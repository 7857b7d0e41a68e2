package anthropic_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	_ "github.com/mcperr/mcperr/clients/anthropic" // the Anthropic SDK's errors, for envelope.ErrorOf and the adapters
	"github.com/mcperr/mcperr/envelope"
)

// A handler returns the SDK's error wrapped with %w; the import is all the
// setup. The error's type is the code, and the operation stays in front of
// the API's message.
func Example() {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"type":"error","error":{"type":"not_found_error","message":"model: claude-nonexistent"},"request_id":"req_011CSHoEeqs5C35K2UUqR7Fy"}`)
	}))
	defer api.Close()
	c := anthropic.NewClient(option.WithBaseURL(api.URL), option.WithAPIKey("sk-ant-test"), option.WithMaxRetries(0))

	_, err := c.Messages.New(context.Background(), anthropic.MessageNewParams{
		Model:     "claude-nonexistent",
		MaxTokens: 64,
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("hello"))},
	})
	e, ok := envelope.ErrorOf(fmt.Errorf("failed to create message: %w", err))
	if !ok {
		log.Fatal("no upstream failure")
	}
	b, _ := e.MarshalJSON()
	fmt.Println(string(b))
	// Output:
	// {"kind":"not_found","code":"not_found_error","message":"failed to create message: model: claude-nonexistent"}
}

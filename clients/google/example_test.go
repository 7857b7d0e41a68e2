package google_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	"google.golang.org/api/option"
	storage "google.golang.org/api/storage/v1"

	_ "github.com/mcperr/mcperr/clients/google" // googleapi's errors, for envelope.ErrorOf and the adapters
	"github.com/mcperr/mcperr/envelope"
)

// A handler returns the client's error wrapped with %w; the import is all
// the setup. The RetryInfo of a quota error is the agent's wait.
func Example() {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprint(w, `{"error":{"code":429,"message":"Quota exceeded.","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"30s"}]}}`)
	}))
	defer api.Close()
	s, err := storage.NewService(context.Background(), option.WithEndpoint(api.URL+"/storage/v1/"), option.WithoutAuthentication())
	if err != nil {
		log.Fatal(err)
	}

	_, err = s.Objects.Get("my-bucket", "reports/2026.csv").Do()
	e, ok := envelope.ErrorOf(fmt.Errorf("failed to get object: %w", err))
	if !ok {
		log.Fatal("no upstream failure")
	}
	b, _ := e.MarshalJSON()
	fmt.Println(string(b))
	// Output:
	// {"kind":"rate_limited","retryAfterSeconds":30}
}

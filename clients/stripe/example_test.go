package stripe_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/stripe/stripe-go/v82"

	_ "github.com/mcperr/mcperr/clients/stripe" // stripe-go's errors, for envelope.ErrorOf and the adapters
	"github.com/mcperr/mcperr/envelope"
)

// A handler returns stripe-go's error wrapped with %w; the import is all
// the setup. resource_missing is not_found.
func Example() {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"error":{"code":"resource_missing","message":"No such customer: 'cus_NffrFeUfNV2Hib'","param":"id","type":"invalid_request_error"}}`)
	}))
	defer api.Close()
	sc := stripe.NewClient("sk_test_123", stripe.WithBackends(stripe.NewBackendsWithConfig(&stripe.BackendConfig{
		URL:           stripe.String(api.URL),
		LeveledLogger: &stripe.LeveledLogger{Level: stripe.LevelNull},
	})))

	_, err := sc.V1Customers.Retrieve(context.Background(), "cus_NffrFeUfNV2Hib", nil)
	e, ok := envelope.ErrorOf(fmt.Errorf("failed to get customer: %w", err))
	if !ok {
		log.Fatal("no upstream failure")
	}
	b, _ := e.MarshalJSON()
	fmt.Println(string(b))
	// Output:
	// {"kind":"not_found","code":"resource_missing","message":"failed to get customer: No such customer: 'cus_NffrFeUfNV2Hib'"}
}

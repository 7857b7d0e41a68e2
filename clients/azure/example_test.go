package azure_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"

	_ "github.com/mcperr/mcperr/clients/azure" // the Azure SDK's errors, for envelope.ErrorOf and the adapters
	"github.com/mcperr/mcperr/envelope"
)

// A handler returns the SDK's error wrapped with %w; the import is all the
// setup. Azure Resource Manager's code is the code.
func Example() {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"error":{"code":"ResourceGroupNotFound","message":"Resource group 'rg-mcp' could not be found."}}`)
	}))
	defer api.Close()
	pl := runtime.NewPipeline("armresources", "v1.2.0", runtime.PipelineOptions{}, &policy.ClientOptions{Retry: policy.RetryOptions{MaxRetries: -1}})

	get := func(ctx context.Context) error { // what a generated client's Get does
		req, err := runtime.NewRequest(ctx, http.MethodGet, api.URL+"/subscriptions/s/resourcegroups/rg-mcp?api-version=2021-04-01")
		if err != nil {
			return err
		}
		resp, err := pl.Do(req)
		if err != nil {
			return err
		}
		if !runtime.HasStatusCode(resp, http.StatusOK) {
			return runtime.NewResponseError(resp)
		}
		return nil
	}
	e, ok := envelope.ErrorOf(fmt.Errorf("failed to get resource group: %w", get(context.Background())))
	if !ok {
		log.Fatal("no upstream failure")
	}
	b, _ := e.MarshalJSON()
	fmt.Println(string(b))
	// Output:
	// {"kind":"not_found","code":"ResourceGroupNotFound","message":"failed to get resource group: Resource group 'rg-mcp' could not be found."}
}

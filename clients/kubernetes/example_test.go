package kubernetes_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	_ "github.com/mcperr/mcperr/clients/kubernetes" // client-go's errors, for envelope.ErrorOf and the adapters
	"github.com/mcperr/mcperr/envelope"
)

// A handler returns client-go's error wrapped with %w; the import is all
// the setup. The API server's Status gives the kind, its reason the code,
// and its details the resource at fault.
func Example() {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \"web-0\" not found","reason":"NotFound","details":{"name":"web-0","kind":"pods"},"code":404}`)
	}))
	defer api.Close()
	c, err := dynamic.NewForConfig(&rest.Config{Host: api.URL})
	if err != nil {
		log.Fatal(err)
	}
	pods := c.Resource(schema.GroupVersionResource{Version: "v1", Resource: "pods"})

	_, err = pods.Namespace("prod").Get(context.Background(), "web-0", metav1.GetOptions{})
	e, ok := envelope.ErrorOf(fmt.Errorf("failed to get pod: %w", err))
	if !ok {
		log.Fatal("no upstream failure")
	}
	b, _ := e.MarshalJSON()
	fmt.Println(string(b))
	// Output:
	// {"kind":"not_found","code":"NotFound","message":"failed to get pod: pods \"web-0\" not found","details":{"name":"web-0","kind":"pods"}}
}

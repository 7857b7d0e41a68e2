package demoapi_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/mcperr/mcperr/examples/vexlo/demoapi"
)

// The demo API answers errors in its envelope, whatever the status.
func Example() {
	api := demoapi.New(nil)
	srv := httptest.NewServer(api)
	defer srv.Close()
	revoked := api.AddToken(demoapi.RoleRead, "web")
	api.Revoke(revoked.ID)
	for _, c := range []struct{ token, path string }{
		{api.DemoToken().Secret, "/v1/traces/deadbeefdeadbeefdeadbeefdeadbeef"},
		{api.DemoToken().Secret, "/v1/traces/" + demoapi.SampleTraceID + "/values?path=AA&path=AE"},
		{revoked.Secret, "/v1/tags"},
	} {
		req, _ := http.NewRequest("GET", srv.URL+c.path, nil)
		req.Header.Set("Authorization", "Bearer "+c.token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			panic(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Printf("%d %s", resp.StatusCode, body)
	}
	// Output:
	// 404 {"error":{"code":"trace_not_found","message":"no trace with id deadbeefdeadbeefdeadbeefdeadbeef","details":{"trace_id":"deadbeefdeadbeefdeadbeefdeadbeef"}}}
	// 200 {"unknown_paths":["AE"],"values":{"AA":{"args":{"request_id":"req-1000"},"return":{"status":"ok"}}}}
	// 401 {"error":{"code":"unauthenticated","message":"token revoked"}}
}

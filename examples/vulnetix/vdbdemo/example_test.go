package vdbdemo_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/mcperr/mcperr/examples/vulnetix/vdbdemo"
)

// Each demo key selects one behaviour of vdb-api.
func Example() {
	api := httptest.NewServer(vdbdemo.New(nil))
	defer api.Close()
	for _, key := range []string{vdbdemo.KeyCommunity, vdbdemo.KeyInactive, vdbdemo.KeyMaintenance, "wrong"} {
		req, _ := http.NewRequest("GET", api.URL+"/v1/vulns/GHSA-jfh8-c2jp-5v3q", nil)
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			panic(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if len(b) > 60 {
			b = b[:60]
		}
		fmt.Println(resp.StatusCode, resp.Header.Get("X-Maintenance-Mode"), string(b))
	}
	// Output:
	// 200  {"id":"CVE-2021-44228","aliases":["GHSA-jfh8-c2jp-5v3q"],"su
	// 403  {"error":{"code":"organisation_inactive","message":"The orga
	// 503 true {"error":{"code":"maintenance","message":"vdb-api is in main
	// 401  {"error":{"code":"unauthenticated","message":"Missing or inv
}

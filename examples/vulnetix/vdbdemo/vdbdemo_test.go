package vdbdemo

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

type answer struct {
	Status int
	Code   string // the error envelope's code, "" for a success
	Header map[string]string
}

func get(t *testing.T, h http.Handler, key, path string) (answer, []byte) {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	body, _ := io.ReadAll(rec.Body)
	a := answer{Status: rec.Code}
	var env struct {
		Error *struct{ Code, Message string }
	}
	if json.Unmarshal(body, &env) == nil && env.Error != nil {
		a.Code = env.Error.Code
	}
	for _, k := range []string{"X-Maintenance-Mode", "X-RateLimit-Remaining", "X-RateLimit-Reset", HeaderPlan} {
		if v := rec.Header().Get(k); v != "" {
			if a.Header == nil {
				a.Header = map[string]string{}
			}
			a.Header[k] = v
		}
	}
	return a, body
}

func TestRoutes(t *testing.T) {
	now := time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)
	api := New(func() time.Time { return now })
	midnight := strconv.FormatInt(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC).Unix(), 10)
	community := map[string]string{HeaderPlan: "community"}
	tests := []struct {
		name, key, path string
		want            answer
	}{
		{"record", KeyCommunity, "/v1/vulns/CVE-2021-44228", answer{200, "", community}},
		{"alias", KeyCommunity, "/v1/vulns/GHSA-jfh8-c2jp-5v3q", answer{200, "", community}},
		{"unindexed alias", KeyCommunity, "/v1/vulns/" + UnindexedAliasID, answer{404, "vuln_not_found", community}},
		{"ghsa only", KeyCommunity, "/v1/vulns/" + GHSAOnlyID, answer{200, "", community}},
		{"unknown", KeyPro, "/v1/vulns/CVE-1999-0001", answer{404, "vuln_not_found", map[string]string{HeaderPlan: "pro"}}},
		{"exploits", KeyCommunity, "/v1/vulns/CVE-2021-44228/exploits", answer{200, "", community}},
		{"trends", KeyCommunity, "/v1/vendors/apache/trends", answer{200, "", community}},
		{"broken trends", KeyCommunity, "/v1/vendors/tukaani/trends", answer{500, "internal_error", community}},
		{"purl", KeyCommunity, "/v1/purl?purl=pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1", answer{200, "", community}},
		{"no key", "", "/v1/vulns/CVE-2021-44228", answer{401, "unauthenticated", nil}},
		{"bad key", "nope", "/v1/vulns/CVE-2021-44228", answer{401, "unauthenticated", nil}},
		{"inactive", KeyInactive, "/v1/vulns/CVE-2021-44228", answer{403, "organisation_inactive", community}},
		{"maintenance", KeyMaintenance, "/v1/vulns/CVE-2021-44228", answer{503, "maintenance", map[string]string{HeaderPlan: "community", "X-Maintenance-Mode": "true"}}},
		{"flaky first", KeyCommunity, "/v1/vulns/" + FlakyID, answer{502, "bad_gateway", community}},
		{"flaky second", KeyCommunity, "/v1/vulns/" + FlakyID, answer{200, "", community}},
		{"quota 1", KeyQuota, "/v1/vulns/CVE-2021-44228", answer{200, "", map[string]string{HeaderPlan: "community", "X-RateLimit-Remaining": "2", "X-RateLimit-Reset": midnight}}},
		{"quota 2", KeyQuota, "/v1/vulns/CVE-2021-44228", answer{200, "", map[string]string{HeaderPlan: "community", "X-RateLimit-Remaining": "1", "X-RateLimit-Reset": midnight}}},
		{"quota 3", KeyQuota, "/v1/vulns/CVE-2021-44228", answer{200, "", map[string]string{HeaderPlan: "community", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": midnight}}},
		{"quota out", KeyQuota, "/v1/vulns/CVE-2021-44228", answer{429, "daily_quota_exceeded", map[string]string{HeaderPlan: "community", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": midnight}}},
		{"no route", KeyCommunity, "/v2/x", answer{404, "route_not_found", nil}},
	}
	for _, tt := range tests { // in order: the flaky and quota rows depend on it
		got, _ := get(t, api, tt.key, tt.path)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: GET %s (-want +got):\n%s", tt.name, tt.path, diff)
		}
	}
}

func TestRawSizes(t *testing.T) {
	api := New(nil)
	_, big := get(t, api, KeyCommunity, "/v1/vulns/"+HugeRawID+"/raw")
	if len(big) <= 524288 || !json.Valid(big) {
		t.Errorf("raw %s: %d bytes, valid JSON %v; want > 524288 and valid", HugeRawID, len(big), json.Valid(big))
	}
	_, small := get(t, api, KeyCommunity, "/v1/vulns/CVE-2022-22965/raw")
	if len(small) > 524288 || !json.Valid(small) {
		t.Errorf("raw CVE-2022-22965: %d bytes, valid JSON %v; want <= 524288 and valid", len(small), json.Valid(small))
	}
}

func TestMaintenanceSwitch(t *testing.T) {
	api := New(nil)
	api.SetMaintenance(true)
	if a, _ := get(t, api, KeyPro, "/v1/vulns/CVE-2021-44228"); a.Status != 503 || a.Header["X-Maintenance-Mode"] != "true" {
		t.Errorf("maintenance on: %+v", a)
	}
	api.SetMaintenance(false)
	if a, _ := get(t, api, KeyPro, "/v1/vulns/CVE-2021-44228"); a.Status != 200 {
		t.Errorf("maintenance off: %+v", a)
	}
}

func TestDeviceLogin(t *testing.T) {
	api := New(nil)
	a, body := get(t, api, "", "/v1/auth/device")
	var start struct {
		DeviceCode string `json:"device_code"`
	}
	if json.Unmarshal(body, &start); a.Status != 200 || start.DeviceCode == "" {
		t.Fatalf("start: %d %s", a.Status, body)
	}
	want := []string{`{"status":"authorization_pending"}`, `{"organisation":"Demo Org","plan":"community","status":"approved"}`}
	for i, w := range want {
		if _, got := get(t, api, "", "/v1/auth/device/"+start.DeviceCode); string(got) != w {
			t.Errorf("poll %d: %s, want %s", i+1, got, w)
		}
	}
	if a, _ := get(t, api, "", "/v1/auth/device/dc_nope"); a.Status != 404 {
		t.Errorf("unknown device code: %d, want 404", a.Status)
	}
}

func TestQuotaResetsNextDay(t *testing.T) {
	now := time.Date(2026, 11, 30, 23, 59, 0, 0, time.UTC)
	api := New(func() time.Time { return now })
	for range QuotaPerDay {
		get(t, api, KeyQuota, "/v1/vulns/CVE-2021-44228")
	}
	if a, _ := get(t, api, KeyQuota, "/v1/vulns/CVE-2021-44228"); a.Status != 429 {
		t.Fatalf("over quota: %d, want 429", a.Status)
	}
	now = now.Add(2 * time.Minute)
	if a, _ := get(t, api, KeyQuota, "/v1/vulns/CVE-2021-44228"); a.Status != 200 {
		t.Errorf("next day: %d, want 200", a.Status)
	}
}

package demoapi

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// get calls the API in-process and returns the status and the decoded body.
func get(t *testing.T, h http.Handler, token, target string) (int, http.Header, map[string]any) {
	t.Helper()
	req := httptest.NewRequest("GET", target, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var body map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatalf("GET %s: body %q is not JSON: %v", target, rec.Body.String(), err)
	}
	return rec.Code, rec.Header(), body
}

func errorOf(body map[string]any) (code, message string) {
	e, _ := body["error"].(map[string]any)
	code, _ = e["code"].(string)
	message, _ = e["message"].(string)
	return code, message
}

func TestErrorCodes(t *testing.T) {
	clock := time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)
	a := New(func() time.Time { return clock })
	read := a.DemoToken().Secret
	write := a.AddToken(RoleWrite, "web").Secret
	revoked := a.AddToken(RoleRead, "web")
	a.Revoke(revoked.ID)
	many := "/v1/traces/" + SampleTraceID + "/values?" + strings.Repeat("path=AA&", MaxPaths+1)
	tests := []struct {
		name, token, target string
		status              int
		code, message       string
	}{
		{"no token", "", "/v1/services", 401, "unauthenticated", "missing bearer token"},
		{"unknown token", "nope", "/v1/services", 401, "unauthenticated", "unknown token"},
		{"revoked", revoked.Secret, "/v1/services", 401, "unauthenticated", "token revoked"},
		{"write role", write, "/v1/services", 403, "forbidden_role", `token role "write" cannot call read routes`},
		{"trace not found", read, "/v1/traces/deadbeefdeadbeefdeadbeefdeadbeef", 404, "trace_not_found", "no trace with id deadbeefdeadbeefdeadbeefdeadbeef"},
		{"hidden team", read, "/v1/traces/" + HiddenTraceID, 404, "trace_not_found", "no trace with id " + HiddenTraceID},
		{"bad trace id", read, "/v1/traces/0f1a2b3c4d5e6f", 400, "invalid_request", "trace_id must be 32 lowercase hex characters, got 14"},
		{"empty trace id", read, "/v1/traces/", 400, "invalid_request", "trace_id must be 32 lowercase hex characters, got 0"},
		{"bad path", read, "/v1/traces/" + SampleTraceID + "/values?path=!!not-base32!!", 400, "invalid_request", `path: "!!not-base32!!" does not decode`},
		{"too many paths", read, many, 422, "too_many_paths", "at most 8 paths per request, got 9"},
		{"bad cursor", read, "/v1/traces?cursor=zzz", 400, "invalid_cursor", `cursor "zzz" was not issued by this server`},
		{"function not found", read, "/v1/functions/checkout/nope", 404, "function_not_found", "no function nope in service checkout"},
		{"service not found", read, "/v1/tags?service=nope", 404, "service_not_found", "no service named nope"},
		{"dot-dot trace id", read, "/v1/traces/..", 400, "invalid_request", "trace_id must be 32 lowercase hex characters, got 2"},
		{"dot trace id", read, "/v1/traces/./values", 400, "invalid_request", "trace_id must be 32 lowercase hex characters, got 1"},
		{"empty service", read, "/v1/functions//handleCheckout", 404, "service_not_found", "no service named "},
		{"conflicting", read, "/v1/functions/checkout/handleCheckout?environment=prod&environment_unset=true", 400, "conflicting_filters", "environment and environment_unset cannot be combined"},
		{"internal", read, "/v1/traces/" + BrokenTraceID, 500, "internal_error", "trace store shard 3 is unavailable"},
		{"no route", read, "/v2/nothing", 404, "not_found", "no route GET /v2/nothing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, _, body := get(t, a, tt.token, tt.target)
			code, msg := errorOf(body)
			if diff := cmp.Diff([]any{tt.status, tt.code, tt.message}, []any{status, code, msg}); diff != "" {
				t.Errorf("GET %s (-want +got):\n%s", tt.target, diff)
			}
		})
	}
}

func TestRateLimit(t *testing.T) {
	clock := time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)
	a := New(func() time.Time { return clock })
	tok := a.DemoToken().Secret
	for i := range DefaultReadLimit {
		if status, _, _ := get(t, a, tok, "/v1/tags"); status != 200 {
			t.Fatalf("request %d: status %d, want 200", i+1, status)
		}
	}
	status, h, body := get(t, a, tok, "/v1/tags")
	code, _ := errorOf(body)
	got := []any{status, code, h.Get("Retry-After"), h.Get("X-RateLimit-Limit"), h.Get("X-RateLimit-Remaining"), h.Get("X-RateLimit-Reset")}
	if diff := cmp.Diff([]any{429, "rate_limited", "1", "20", "0", "1"}, got); diff != "" {
		t.Errorf("21st request (-want +got):\n%s", diff)
	}
	// The /v1/tokens/self route is not a read route and never limited.
	if status, _, _ := get(t, a, tok, "/v1/tokens/self"); status != 200 {
		t.Errorf("tokens/self under the limit: status %d", status)
	}
	// Another token has its own bucket.
	if status, _, _ := get(t, a, a.AddToken(RoleRead, "web").Secret, "/v1/tags"); status != 200 {
		t.Errorf("second token: status %d", status)
	}
	clock = clock.Add(time.Second)
	if status, _, _ := get(t, a, tok, "/v1/tags"); status != 200 {
		t.Errorf("a second later: status %d", status)
	}
}

func TestNoAuthHasNoLimit(t *testing.T) {
	a := New(nil)
	a.NoAuth = true
	for i := range 3 * DefaultReadLimit {
		status, h, _ := get(t, a, "", "/v1/tags")
		if status != 200 || h.Get("X-RateLimit-Limit") != "" {
			t.Fatalf("request %d: status %d, X-RateLimit-Limit %q", i+1, status, h.Get("X-RateLimit-Limit"))
		}
	}
	_, _, body := get(t, a, "", "/v1/traces/"+HiddenTraceID)
	if body["trace_id"] != HiddenTraceID {
		t.Errorf("no-auth mode hides %s: %v", HiddenTraceID, body)
	}
}

func TestSuccessShapes(t *testing.T) {
	a := New(nil)
	tok := a.DemoToken().Secret
	tests := []struct {
		target string
		status int
		want   map[string]any // members compared; others ignored
	}{
		{"/v1/tokens/self", 200, map[string]any{"id": "tok_1", "role": "read", "teams": []any{"web", "billing"}}},
		{"/v1/health", 200, map[string]any{"status": "ok"}},
		{"/v1/traces/" + SampleTraceID + "/values?path=AA&path=AE&path=", 200, map[string]any{
			"unknown_paths": []any{"AE", ""},
			"values": map[string]any{"AA": map[string]any{
				"args": map[string]any{"request_id": "req-1000"}, "return": map[string]any{"status": "ok"}}},
		}},
		{"/v1/traces/status?id=" + SampleTraceID + "&id=" + HiddenTraceID, 200, map[string]any{
			"statuses":    []any{map[string]any{"trace_id": SampleTraceID, "status": "ok"}},
			"unknown_ids": []any{HiddenTraceID},
		}},
		{"/v1/tags", 200, map[string]any{"tags": []any{"beta", "eu", "mobile"}}},
		{"/v1/traces?limit=2&service=checkout", 200, map[string]any{"next_cursor": "bzoy"}},
		{"/v1/traces?limit=2&service=checkout&cursor=bzoy", 200, map[string]any{"next_cursor": "bzo0"}},
		{"/v1/functions/checkout/handleCheckout?environment_unset=true", 200, map[string]any{
			"environments": []any{map[string]any{"environment": nil, "calls": 1.0, "errors": 0.0, "max_ms": 336.0}}}},
	}
	for _, tt := range tests {
		status, _, body := get(t, a, tok, tt.target)
		got := map[string]any{}
		for k := range tt.want {
			got[k] = body[k]
		}
		if status != tt.status {
			t.Errorf("GET %s: status %d, want %d", tt.target, status, tt.status)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("GET %s (-want +got):\n%s", tt.target, diff)
		}
	}
	a.SetDiskPressure(true)
	status, _, body := get(t, a, tok, "/v1/health")
	if diff := cmp.Diff([]any{503, "degraded", "shape_only"}, []any{status, body["status"], body["mode"]}); diff != "" {
		t.Errorf("degraded health (-want +got):\n%s", diff)
	}
}

func TestAdminRoutes(t *testing.T) {
	a := New(nil)
	srv := httptest.NewServer(a)
	defer srv.Close()
	post := func(path, key string) (int, map[string]any) {
		req, _ := http.NewRequest("POST", srv.URL+path, nil)
		req.Header.Set("X-Demo-Admin", key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		var m map[string]any
		json.Unmarshal(b, &m)
		return resp.StatusCode, m
	}
	if status, _ := post("/_demo/tokens", "wrong"); status != 401 {
		t.Errorf("wrong admin key: status %d", status)
	}
	_, created := post("/_demo/tokens?role=write&team=ops", a.AdminKey())
	_, body := func() (int, map[string]any) {
		s, _, b := get(t, a, created["token"].(string), "/v1/tokens/self")
		return s, b
	}()
	if body["role"] != "write" {
		t.Errorf("created token: %v", body)
	}
	post("/_demo/revoke?id="+created["id"].(string), a.AdminKey())
	if _, _, body := get(t, a, created["token"].(string), "/v1/tokens/self"); !strings.Contains(body["error"].(map[string]any)["message"].(string), "revoked") {
		t.Errorf("revoked token: %v", body)
	}
	post("/_demo/disk?pressure=on", a.AdminKey())
	if !a.pressure() {
		t.Error("disk pressure not switched on")
	}
}

// FuzzAPI: whatever the request target, the API answers JSON and never
// panics.
func FuzzAPI(f *testing.F) {
	for _, s := range []string{"/v1/traces?cursor=bzoy&limit=3", "/v1/traces/" + SampleTraceID + "/values?path=AA&path=%21",
		"/v1/functions/checkout/handleCheckout/examples?environment=prod&limit=9", "/v1/traces//related", "/v1/traces/status?id=x"} {
		f.Add(s)
	}
	a := New(nil)
	a.NoAuth = true
	f.Fuzz(func(t *testing.T, target string) {
		req, err := http.NewRequest("GET", "http://vexlo.test"+target, nil)
		if err != nil || req.URL.Path == "" || req.URL.Path[0] != '/' {
			return
		}
		rec := httptest.NewRecorder()
		a.ServeHTTP(rec, req)
		if !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("GET %s: %d %q is not JSON", target, rec.Code, rec.Body.String())
		}
	})
}

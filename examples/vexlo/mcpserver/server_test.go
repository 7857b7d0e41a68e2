package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/examples/vexlo/demoapi"
)

const seedTrace = demoapi.SampleTraceID

// fixture is a Server in front of an upstream, reached through a real
// go-sdk client over an in-memory transport.
type fixture struct {
	api    *demoapi.API // nil with a fake upstream
	url    string
	hits   atomic.Int64 // requests the upstream saw
	slept  []time.Duration
	mu     sync.Mutex
	cs     *mcp.ClientSession
	authed atomic.Int64 // requests that carried an Authorization header
}

// start serves h as the upstream and connects a client to a Server for it.
// cfg may adjust the configuration; its BaseURL is already set.
func start(t testing.TB, h http.Handler, cfg Config) *fixture {
	t.Helper()
	f := &fixture{}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.hits.Add(1)
		if r.Header.Get("Authorization") != "" {
			f.authed.Add(1)
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(up.Close)
	f.url = up.URL
	if cfg.BaseURL == "" {
		cfg.BaseURL = up.URL
	}
	if cfg.RetrySleep == nil {
		cfg.RetrySleep = func(ctx context.Context, d time.Duration) error {
			f.mu.Lock()
			f.slept = append(f.slept, d)
			f.mu.Unlock()
			return ctx.Err()
		}
	}
	f.cs = connect(t, cfg)
	return f
}

// connect starts a Server for cfg and returns a client session to it.
func connect(t testing.TB, cfg Config) *mcp.ClientSession {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil)
	cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

// startDemo serves a demo API (configured by setup) and connects to it with
// token ("" for no-auth).
func startDemo(t testing.TB, setup func(*demoapi.API) string, cfg Config) *fixture {
	t.Helper()
	frozen := time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)
	api := demoapi.New(func() time.Time { return frozen }) // the read limit never refills
	cfg.Token = api.DemoToken().Secret
	if setup != nil {
		cfg.Token = setup(api)
	}
	f := start(t, api, cfg)
	f.api = api
	return f
}

// call calls a tool and returns its one text block and isError.
func (f *fixture) call(t testing.TB, name string, args string) (string, bool) {
	t.Helper()
	p := &mcp.CallToolParams{Name: name}
	if args != "" {
		p.Arguments = json.RawMessage(args)
	}
	res, err := f.cs.CallTool(context.Background(), p)
	if err != nil {
		t.Fatalf("%s %s: %v", name, args, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s %s: %d content blocks, want 1", name, args, len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("%s %s: content is %T, want text", name, args, res.Content[0])
	}
	return tc.Text, res.IsError
}

const rejected = "MCP error -32602: Input validation error: Invalid arguments for tool "

func TestSchemaRejections(t *testing.T) {
	f := startDemo(t, nil, Config{})
	ids := `"` + strings.Repeat(seedTrace+`","`, 100) + seedTrace + `"`
	tests := []struct{ tool, args, want string }{
		// seed 000's transcript
		{"vexlo_get_values", `{"traceId":"` + seedTrace + `","path":["","AA","AB","AC","AD","AE","AF","AG","AH"]}`,
			rejected + "vexlo_get_values: Too big: expected array to have <=8 items at path"},
		// seed 000's table of endings
		{"vexlo_search_traces", `{"limit":101}`, rejected + "vexlo_search_traces: Too big: expected number to be <=100 at limit"},
		{"vexlo_check_trace_status", `{"traceIds":[` + ids + `]}`, rejected + "vexlo_check_trace_status: Too big: expected array to have <=100 items at traceIds"},
		{"vexlo_find_related_traces", `{"traceId":"` + seedTrace + `","windowHours":169}`, rejected + "vexlo_find_related_traces: Too big: expected number to be <=168 at windowHours"},
		{"vexlo_get_function_examples", `{"service":"checkout","name":"handleCheckout","limit":6}`, rejected + "vexlo_get_function_examples: Too big: expected number to be <=5 at limit"},
		{"vexlo_search_traces", `{"teams":["web"]}`, rejected + `vexlo_search_traces: Unrecognized key: "teams"`},
		{"vexlo_check_trace_status", `{"traceIds":["` + seedTrace + `"],"team":"web"}`, rejected + `vexlo_check_trace_status: Unrecognized key: "team"`},
		{"vexlo_get_function", `{"service":"checkout","name":"handleCheckout","environment":"prod"}`, rejected + "vexlo_get_function: Invalid input at environment"},
		{"vexlo_get_function", `{"service":"checkout","name":"handleCheckout","environment":{"named":["prod"],"unset":true}}`, rejected + "vexlo_get_function: Invalid input at environment"},
		// more of the dialect
		{"vexlo_get_values", `{"traceId":"` + seedTrace + `"}`, rejected + "vexlo_get_values: Invalid input: expected array, received undefined at path"},
		{"vexlo_get_trace", ``, rejected + "vexlo_get_trace: Invalid input: expected string, received undefined at traceId"},
		{"vexlo_search_traces", `{"status":"up"}`, rejected + `vexlo_search_traces: Invalid option: expected one of "ok"|"error" at status`},
		{"vexlo_search_traces", `{"status":5}`, rejected + `vexlo_search_traces: Invalid option: expected one of "ok"|"error" at status`},
		{"vexlo_get_function", `{"service":"s","name":"n","environment":{"named":["a"],"foo":1}}`, rejected + `vexlo_get_function: Unrecognized key: "foo" at environment`},
		{"vexlo_search_traces", `{"limit":1.5}`, rejected + "vexlo_search_traces: Invalid input: expected int, received number at limit"},
		{"vexlo_get_function", `{"service":"checkout","name":"f","environment":{"named":[]}}`, rejected + "vexlo_get_function: Too small: expected array to have >=1 items at environment.named"},
		{"vexlo_list_services", `{"x":1}`, rejected + `vexlo_list_services: Unrecognized key: "x"`},
		// an unknown tool
		{"vexlo_nope", `{}`, "MCP error -32602: Tool vexlo_nope not found"},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			got, isErr := f.call(t, tt.tool, tt.args)
			if diff := cmp.Diff(tt.want, got); diff != "" || !isErr {
				t.Errorf("%s %s: isError %v (-want +got):\n%s", tt.tool, tt.args, isErr, diff)
			}
		})
	}
	if n := f.hits.Load(); n != 0 {
		t.Errorf("rejected calls reached the upstream %d times", n)
	}
}

func TestDemoKinds(t *testing.T) {
	f := startDemo(t, nil, Config{})
	tests := []struct{ name, tool, args, want string }{
		{"not_found", "vexlo_get_trace", `{"traceId":"deadbeefdeadbeefdeadbeefdeadbeef"}`,
			`{"kind":"not_found","code":"trace_not_found","message":"no trace with id deadbeefdeadbeefdeadbeefdeadbeef","details":{"trace_id":"deadbeefdeadbeefdeadbeefdeadbeef"}}`},
		{"not_found on a team the token cannot see", "vexlo_get_trace", `{"traceId":"` + demoapi.HiddenTraceID + `"}`,
			`{"kind":"not_found","code":"trace_not_found","message":"no trace with id ` + demoapi.HiddenTraceID + `","details":{"trace_id":"` + demoapi.HiddenTraceID + `"}}`},
		{"invalid trace id", "vexlo_get_trace", `{"traceId":"0f1a2b3c4d5e6f"}`,
			`{"kind":"invalid_arguments","code":"invalid_request","message":"trace_id must be 32 lowercase hex characters, got 14"}`},
		{"trace id ..", "vexlo_get_trace", `{"traceId":".."}`,
			`{"kind":"invalid_arguments","code":"invalid_request","message":"trace_id must be 32 lowercase hex characters, got 2"}`},
		{"empty trace id", "vexlo_find_related_traces", `{"traceId":""}`,
			`{"kind":"invalid_arguments","code":"invalid_request","message":"trace_id must be 32 lowercase hex characters, got 0"}`},
		{"trace id with a slash", "vexlo_get_trace", `{"traceId":"a/b?c"}`,
			`{"kind":"invalid_arguments","code":"invalid_request","message":"trace_id must be 32 lowercase hex characters, got 5"}`},
		{"invalid path", "vexlo_get_values", `{"traceId":"` + seedTrace + `","path":["!!not-base32!!"]}`,
			`{"kind":"invalid_arguments","code":"invalid_request","message":"path: \"!!not-base32!!\" does not decode"}`},
		{"invalid cursor", "vexlo_search_traces", `{"cursor":"zzz"}`,
			`{"kind":"invalid_arguments","code":"invalid_cursor","message":"cursor \"zzz\" was not issued by this server"}`},
		{"function not found", "vexlo_get_function", `{"service":"checkout","name":"nope"}`,
			`{"kind":"not_found","code":"function_not_found","message":"no function nope in service checkout","details":{"name":"nope","service":"checkout"}}`},
		{"service not found", "vexlo_list_tags", `{"service":"nope"}`,
			`{"kind":"not_found","code":"service_not_found","message":"no service named nope","details":{"service":"nope"}}`},
		{"server_error", "vexlo_get_trace", `{"traceId":"` + demoapi.BrokenTraceID + `"}`,
			`{"kind":"server_error","code":"internal_error","httpStatus":500,"message":"trace store shard 3 is unavailable"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, isErr := f.call(t, tt.tool, tt.args)
			if diff := cmp.Diff(tt.want, got); diff != "" || !isErr {
				t.Errorf("isError %v (-want +got):\n%s", isErr, diff)
			}
		})
	}
}

func TestDemoSuccesses(t *testing.T) {
	f := startDemo(t, nil, Config{})
	got, isErr := f.call(t, "vexlo_get_values", `{"traceId":"`+seedTrace+`","path":["AA","AE",""]}`)
	want := `{"unknown_paths":["AE",""],"values":{"AA":{"args":{"request_id":"req-1000"},"return":{"status":"ok"}}}}`
	if diff := cmp.Diff(want, got); diff != "" || isErr {
		t.Errorf("unknown_paths: isError %v (-want +got):\n%s", isErr, diff)
	}
	for _, tool := range []string{"vexlo_search_traces", "vexlo_list_services", "vexlo_list_tags", "vexlo_check_coverage", "vexlo_check_health"} {
		if got, isErr := f.call(t, tool, `{}`); isErr || !strings.HasPrefix(got, "{") {
			t.Errorf("%s: isError %v, %s", tool, isErr, got)
		}
	}
	calls := [][2]string{
		{"vexlo_get_trace", `{"traceId":"` + seedTrace + `"}`},
		{"vexlo_check_trace_status", `{"traceIds":["` + seedTrace + `"]}`},
		{"vexlo_find_related_traces", `{"traceId":"` + seedTrace + `","windowHours":48,"limit":2}`},
		{"vexlo_find_related_traces", `{"traceId":"` + seedTrace + `","windowHours":4.8e1,"limit":2.0}`},
		{"vexlo_get_function", `{"service":"checkout","name":"handleCheckout","environment":{"named":["prod"]}}`},
		{"vexlo_get_function_examples", `{"service":"checkout","name":"handleCheckout","environment":{"unset":true},"limit":1}`},
	}
	for _, c := range calls {
		if got, isErr := f.call(t, c[0], c[1]); isErr {
			t.Errorf("%s: %s", c[0], got)
		}
	}

	// The degraded body is the tool's answer, not an error.
	f.api.SetDiskPressure(true)
	got, isErr = f.call(t, "vexlo_check_health", "")
	want = `{"disk":{"free_percent":3},"mode":"shape_only","reason":"disk pressure: free space below 5%","status":"degraded"}`
	if diff := cmp.Diff(want, got); diff != "" || isErr {
		t.Errorf("degraded health: isError %v (-want +got):\n%s", isErr, diff)
	}
}

func TestRevokedToken(t *testing.T) {
	f := startDemo(t, nil, Config{})
	if got, isErr := f.call(t, "vexlo_list_services", ""); isErr {
		t.Fatalf("before revocation: %s", got)
	}
	f.api.Revoke(f.api.DemoToken().ID)
	got, isErr := f.call(t, "vexlo_list_services", "")
	if diff := cmp.Diff(`{"kind":"authentication_failed","message":"token revoked"}`, got); diff != "" || !isErr {
		t.Errorf("isError %v (-want +got):\n%s", isErr, diff)
	}
}

// TestWrongRole shows wrong_role, which startup makes unreachable, by
// skipping the startup check with a write token.
func TestWrongRole(t *testing.T) {
	f := startDemo(t, func(a *demoapi.API) string { return a.AddToken(demoapi.RoleWrite, "web").Secret }, Config{})
	got, _ := f.call(t, "vexlo_list_tags", "")
	if diff := cmp.Diff(`{"kind":"wrong_role","message":"token role \"write\" cannot call read routes"}`, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// misbehaving answers every request with status, headers and body.
func misbehaving(status int, header map[string]string, body string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(status)
		fmt.Fprint(w, body)
	})
}

func TestMisbehavingUpstream(t *testing.T) {
	midBody := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "1000")
		w.WriteHeader(200)
		fmt.Fprint(w, `{"tags":["a",`)
		w.(http.Flusher).Flush()
		conn, _, _ := w.(http.Hijacker).Hijack()
		conn.Close()
	})
	tests := []struct {
		name     string
		upstream http.Handler
		want     string
		hits     int64
	}{
		{"too_many_values_requested", misbehaving(422, nil, `{"error":{"code":"too_many_paths","message":"at most 8 paths per request, got 9","details":{"max_paths":8}}}`),
			`{"kind":"too_many_values_requested","message":"at most 8 paths per request, got 9"}`, 1},
		{"wrong_role", misbehaving(403, nil, `{"error":{"code":"forbidden_role","message":"token role \"write\" cannot call read routes"}}`),
			`{"kind":"wrong_role","message":"token role \"write\" cannot call read routes"}`, 1},
		{"unknown code falls back on the status", misbehaving(409, nil, `{"error":{"code":"brand_new_code","message":"something new"}}`),
			`{"kind":"invalid_arguments","code":"brand_new_code","message":"something new"}`, 1},
		{"not valid JSON", misbehaving(502, nil, `<html>Bad Gateway</html>`),
			`{"kind":"malformed_response","httpStatus":502,"message":"response body is not valid JSON (status 502)"}`, 1},
		{"matched neither", misbehaving(200, nil, `{"labels":["a"]}`),
			`{"kind":"malformed_response","httpStatus":200,"message":"response body matched neither the error envelope nor the expected shape (status 200)"}`, 1},
		{"could not read", midBody,
			`{"kind":"malformed_response","httpStatus":200,"message":"could not read the response body (status 200): unexpected EOF"}`, 1},
		{"rate_limited above 2 s: surfaced after one request", misbehaving(429, map[string]string{"Retry-After": "3", "X-RateLimit-Limit": "20", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "3"}, `{"error":{"code":"rate_limited","message":"slow down"}}`),
			`{"kind":"rate_limited","retryAfterSeconds":3,"limit":20,"remaining":0,"resetSeconds":3}`, 1},
		{"rate_limited without Retry-After: 60, one request", misbehaving(429, nil, `{"error":{"code":"rate_limited","message":"slow down"}}`),
			`{"kind":"rate_limited","retryAfterSeconds":60}`, 1},
		{"rate_limited twice: surfaced after two requests", misbehaving(429, map[string]string{"Retry-After": "1", "X-RateLimit-Limit": "20", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1"}, `{"error":{"code":"rate_limited","message":"slow down"}}`),
			`{"kind":"rate_limited","retryAfterSeconds":1,"limit":20,"remaining":0,"resetSeconds":1}`, 2},
		{"server_error without an envelope code", misbehaving(503, nil, `{"error":{"code":"","message":"maintenance"}}`),
			`{"kind":"server_error","httpStatus":503,"message":"maintenance"}`, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := start(t, tt.upstream, Config{Token: "secret-token-xyz"})
			got, isErr := f.call(t, "vexlo_list_tags", "")
			if diff := cmp.Diff(tt.want, got); diff != "" || !isErr {
				t.Errorf("isError %v (-want +got):\n%s", isErr, diff)
			}
			if n := f.hits.Load(); n != tt.hits {
				t.Errorf("upstream saw %d requests, want %d", n, tt.hits)
			}
			if strings.Contains(got, "secret-token-xyz") {
				t.Errorf("the token leaked: %s", got)
			}
		})
	}
}

func TestOneRetry(t *testing.T) {
	var n atomic.Int64
	flaky := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			w.Header().Set("Retry-After", "2")
			w.WriteHeader(429)
			fmt.Fprint(w, `{"error":{"code":"rate_limited","message":"slow down"}}`)
			return
		}
		fmt.Fprint(w, `{"tags":["beta"]}`)
	})
	f := start(t, flaky, Config{})
	got, isErr := f.call(t, "vexlo_list_tags", "")
	if diff := cmp.Diff(`{"tags":["beta"]}`, got); diff != "" || isErr {
		t.Errorf("isError %v (-want +got):\n%s", isErr, diff)
	}
	if diff := cmp.Diff([]any{int64(2), []time.Duration{2 * time.Second}}, []any{f.hits.Load(), f.slept}); diff != "" {
		t.Errorf("requests and waits (-want +got):\n%s", diff)
	}
}

// TestDemoRateLimit: a burst past the demo's read limit; the 21st call is
// retried once (the wait is faked, so the bucket is still empty) and its
// second 429 surfaces as seed 000 shows it.
func TestDemoRateLimit(t *testing.T) {
	f := startDemo(t, nil, Config{})
	for i := range demoapi.DefaultReadLimit {
		if got, isErr := f.call(t, "vexlo_list_tags", ""); isErr {
			t.Fatalf("call %d: %s", i+1, got)
		}
	}
	got, _ := f.call(t, "vexlo_list_tags", "")
	want := `{"kind":"rate_limited","retryAfterSeconds":1,"limit":20,"remaining":0,"resetSeconds":1}`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if n := f.hits.Load(); n != demoapi.DefaultReadLimit+2 {
		t.Errorf("upstream saw %d requests, want %d", n, demoapi.DefaultReadLimit+2)
	}
}

func TestNoAuthSkipsLimit(t *testing.T) {
	f := startDemo(t, func(a *demoapi.API) string { a.NoAuth = true; return "" }, Config{})
	for i := range 3 * demoapi.DefaultReadLimit {
		if got, isErr := f.call(t, "vexlo_list_tags", ""); isErr {
			t.Fatalf("call %d: %s", i+1, got)
		}
	}
	if n := f.authed.Load(); n != 0 {
		t.Errorf("%d requests carried an Authorization header in no-auth mode", n)
	}
}

func TestNetworkError(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + ln.Addr().String()
	ln.Close()
	cs := connect(t, Config{BaseURL: refused, Token: "secret-token-xyz"})
	f := &fixture{cs: cs}
	got, isErr := f.call(t, "vexlo_list_services", "")
	if !isErr || !strings.HasPrefix(got, `{"kind":"network_error","message":"`) || !strings.Contains(got, "connection refused") {
		t.Errorf("refused: isError %v, %s", isErr, got)
	}

	hang := make(chan struct{})
	defer close(hang)
	slow := start(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-hang:
		case <-r.Context().Done():
		}
	}), Config{Timeout: 50 * time.Millisecond})
	begin := time.Now()
	got, isErr = slow.call(t, "vexlo_list_services", "")
	if !isErr || !strings.HasPrefix(got, `{"kind":"network_error","message":"`) || !strings.Contains(got, "deadline exceeded") {
		t.Errorf("deadline: isError %v, %s", isErr, got)
	}
	if d := time.Since(begin); d > 2*time.Second {
		t.Errorf("deadline of 50ms took %v", d)
	}
}

func TestHugeBody(t *testing.T) {
	huge := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(200)
		fmt.Fprint(w, `{"tags":["`)
		chunk := []byte(strings.Repeat("x", 1<<20))
		for range 50 {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
		fmt.Fprint(w, `"]}`)
	})
	f := start(t, huge, Config{})
	got, isErr := f.call(t, "vexlo_list_tags", "")
	want := fmt.Sprintf(`{"kind":"malformed_response","httpStatus":200,"message":"response body is larger than the %d-byte limit (status 200)"}`, 10<<20)
	if diff := cmp.Diff(want, got); diff != "" || !isErr {
		t.Errorf("isError %v (-want +got):\n%s", isErr, diff)
	}
}

func TestCheckToken(t *testing.T) {
	api := demoapi.New(nil)
	up := httptest.NewServer(api)
	defer up.Close()
	revoked := api.AddToken(demoapi.RoleRead, "web")
	api.Revoke(revoked.ID)
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	refused := "http://" + ln.Addr().String()
	ln.Close()
	tests := []struct{ name, url, token, want string }{
		{"read", up.URL, api.DemoToken().Secret, ""},
		{"no-auth", refused, "", ""},
		{"write", up.URL, api.AddToken(demoapi.RoleWrite, "web").Secret, `token role "write" is not allowed; use a read token`},
		{"admin", up.URL, api.AddToken(demoapi.RoleAdmin).Secret, `token role "admin" is not allowed; use a read token`},
		{"unknown", up.URL, "nope", "token rejected by the Vexlo API: unknown token"},
		{"revoked", up.URL, revoked.Secret, "token rejected by the Vexlo API: token revoked"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := New(Config{BaseURL: tt.url, Token: tt.token})
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if err := s.CheckToken(context.Background()); err != nil {
				got = err.Error()
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	s, _ := New(Config{BaseURL: refused, Token: "secret-token-xyz"})
	err := s.CheckToken(context.Background())
	if err == nil || !strings.HasPrefix(err.Error(), "cannot reach the Vexlo API at "+refused+": ") || strings.Contains(err.Error(), "secret-token-xyz") {
		t.Errorf("unreachable: %v", err)
	}
}

func TestToolsList(t *testing.T) {
	f := startDemo(t, nil, Config{})
	res, err := f.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		b, _ := json.Marshal(tool.InputSchema)
		var m map[string]any
		json.Unmarshal(b, &m)
		if m["type"] != "object" || m["additionalProperties"] != false {
			t.Errorf("%s: schema %s", tool.Name, b)
		}
	}
	want := []string{"vexlo_check_coverage", "vexlo_check_health", "vexlo_check_trace_status", "vexlo_find_related_traces",
		"vexlo_get_function", "vexlo_get_function_examples", "vexlo_get_trace", "vexlo_get_values", "vexlo_list_services",
		"vexlo_list_tags", "vexlo_search_traces"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	init := f.cs.InitializeResult()
	got := []any{init.ServerInfo.Name, init.ServerInfo.Version, init.Capabilities.Tools.ListChanged, init.ProtocolVersion}
	if diff := cmp.Diff([]any{"vexlo-mcp", "0.1.0", true, "2025-11-25"}, got); diff != "" {
		t.Errorf("initialize (-want +got):\n%s", diff)
	}
}

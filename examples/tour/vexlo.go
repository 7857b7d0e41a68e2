package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/examples/vexlo/demoapi"
	"github.com/mcperr/mcperr/examples/vexlo/mcpserver"
)

var vexloSection = section{
	name:  "vexlo",
	title: "the Vexlo MCP server against its embedded demo API (and a few upstreams that misbehave on purpose)",
	run:   vexloTour,
}

func vexloTour(ctx context.Context) ([]Line, error) { return vexloRun(ctx, nil) }

// vexloRun is the vexlo section; sleep waits out a Retry-After before the
// server's one retry (nil: a timer), so a test can count the waits.
func vexloRun(ctx context.Context, sleep func(context.Context, time.Duration) error) ([]Line, error) {
	// The demo API's clock stands still, so its read limit never refills
	// and the burst below ends in a 429 even after the one retry.
	frozen := time.Now()
	api := demoapi.New(func() time.Time { return frozen })
	up, err := demoapi.Start(api, "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	defer up.Close()

	connect := func(baseURL, token string, timeout time.Duration) (*mcp.ClientSession, error) {
		s, err := mcpserver.New(mcpserver.Config{BaseURL: baseURL, Token: token, Timeout: timeout, RetrySleep: sleep})
		if err != nil {
			return nil, err
		}
		return Connect(ctx, s.MCP())
	}
	cs, err := connect(up.URL, api.DemoToken().Secret, 0)
	if err != nil {
		return nil, err
	}
	defer cs.Close()

	var lines []Line
	var failed error
	tax := mcpserver.Taxonomy()
	add := func(cs *mcp.ClientSession, shape, tool, args string) {
		if failed != nil {
			return
		}
		l, err := Call(ctx, cs, tax, shape, tool, args)
		lines, failed = append(lines, l), err
	}
	const trace = demoapi.SampleTraceID
	add(cs, "9 paths (one over the limit)", "vexlo_get_values", `{"traceId":"`+trace+`","path":["","AA","AB","AC","AD","AE","AF","AG","AH"]}`)
	add(cs, "an argument it does not take", "vexlo_search_traces", `{"teams":["web"]}`)
	add(cs, "environment: \"prod\"", "vexlo_get_function", `{"service":"checkout","name":"handleCheckout","environment":"prod"}`)
	add(cs, "a tool that does not exist", "vexlo_delete_trace", `{}`)
	add(cs, "a trace that does not exist", "vexlo_get_trace", `{"traceId":"deadbeefdeadbeefdeadbeefdeadbeef"}`)
	add(cs, "a trace of another team", "vexlo_get_trace", `{"traceId":"`+demoapi.HiddenTraceID+`"}`)
	add(cs, "a 14-character trace id", "vexlo_get_trace", `{"traceId":"0f1a2b3c4d5e6f"}`)
	add(cs, "a path that is not base32", "vexlo_get_values", `{"traceId":"`+trace+`","path":["!!not-base32!!"]}`)
	add(cs, "a path that names no step", "vexlo_get_values", `{"traceId":"`+trace+`","path":["AA","AE"]}`)
	add(cs, "a trace on a broken shard", "vexlo_get_trace", `{"traceId":"`+demoapi.BrokenTraceID+`"}`)
	api.SetDiskPressure(true)
	add(cs, "health under disk pressure", "vexlo_check_health", "")
	api.SetDiskPressure(false)

	// A burst past the read limit of 20 a second, on a token of its own
	// (the calls above drew on the demo token's bucket): 20 calls pass,
	// the 21st is retried once after its Retry-After of 1 s, and the
	// second 429 surfaces. That one second is the only wait.
	burst, err := connect(up.URL, api.AddToken(demoapi.RoleRead, "web", "billing").Secret, 0)
	if err != nil {
		return nil, err
	}
	defer burst.Close()
	for range demoapi.DefaultReadLimit {
		if _, err := burst.CallTool(ctx, &mcp.CallToolParams{Name: "vexlo_list_tags"}); err != nil {
			return nil, err
		}
	}
	add(burst, "the 21st call in a second", "vexlo_list_tags", "")

	// A token with the write role (startup refuses one; this server skips
	// the check) and a token revoked mid-session.
	write, err := connect(up.URL, api.AddToken(demoapi.RoleWrite, "web").Secret, 0)
	if err != nil {
		return nil, err
	}
	defer write.Close()
	add(write, "a write token (startup refuses it)", "vexlo_list_services", "")
	readTok := api.AddToken(demoapi.RoleRead, "web")
	revoked, err := connect(up.URL, readTok.Secret, 0)
	if err != nil {
		return nil, err
	}
	defer revoked.Close()
	api.Revoke(readTok.ID)
	add(revoked, "a token revoked mid-session", "vexlo_list_services", "")

	// Upstreams that misbehave on purpose.
	bad, err := demoapi.Start(http.HandlerFunc(misbehave), "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	defer bad.Close()
	// A one-second deadline, so the upstream that hangs takes one second.
	b, err := connect(bad.URL, "", time.Second)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	add(b, "an upstream that answers 422", "vexlo_get_values", `{"traceId":"`+trace+`","path":["AA"]}`)
	add(b, "an HTML error page", "vexlo_list_tags", "")
	add(b, "JSON of another shape", "vexlo_list_services", "")
	add(b, "a body cut short", "vexlo_check_coverage", "")
	add(b, "an upstream that hangs (1 s deadline)", "vexlo_check_health", "")

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	refused := "http://" + ln.Addr().String()
	ln.Close()
	gone, err := connect(refused, "", 0)
	if err != nil {
		return nil, err
	}
	defer gone.Close()
	add(gone, "an API that is not there", "vexlo_list_tags", "")
	return lines, failed
}

// misbehave is an upstream that gets every route wrong in its own way.
func misbehave(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/v1/tags":
		w.WriteHeader(502)
		fmt.Fprint(w, "<html><body>Bad Gateway</body></html>")
	case "/v1/services":
		fmt.Fprint(w, `{"items":[]}`)
	case "/v1/coverage":
		w.Header().Set("Content-Length", "100")
		fmt.Fprint(w, `{"teams":[`)
		w.(http.Flusher).Flush()
		if c, _, err := w.(http.Hijacker).Hijack(); err == nil {
			c.Close()
		}
	case "/v1/health":
		<-r.Context().Done()
	default:
		w.WriteHeader(422)
		fmt.Fprint(w, `{"error":{"code":"too_many_paths","message":"at most 8 paths per request, got 9","details":{"max_paths":8}}}`)
	}
}

// Command hosted is the server of the gosdk package doc served over
// Streamable HTTP, for the hosted rows of the load driver
// (examples/interop/load): get_trace, the doc's tool, which GETs
// TRACES_API/v1/traces/{id}, and trace_link, the same input answered at once
// with no upstream call. Its TypeScript twin is bench/traces.mjs --http.
//
//	hosted -addr 127.0.0.1:8080                  # gosdk.HTTPHandler, stateless (the doc's default)
//	hosted -addr ... -stateful                   # gosdk.HTTPHandler, a session per initialize
//	hosted -addr ... -redis redis://127.0.0.1:6379/0  # a limiter on redisstore
//	hosted -addr ... -server sdk                 # the same tools on the go-sdk alone: mcp.NewStreamableHTTPHandler, no mcperr
//	hosted -addr ... -server mcpgo               # the same tools on mark3labs/mcp-go behind mcpgo.HTTPHandler
//
// A client is named by its bearer key (the limiter's key and the one whose
// sessions MaxSessions bounds), as a hosted server tells its callers apart;
// the limiter allows a million calls a second per key, so it never refuses
// the load and every call pays for its round trip to Redis. Stateless
// servers answer JSON; stateful ones take the SDK's defaults (an SSE stream
// per POST). Go runtime defaults: no GOGC, no GOMEMLIMIT.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	mcpgomcp "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/gosdk"
	"github.com/mcperr/mcperr/mcpgo"
	"github.com/mcperr/mcperr/ratelimit"
	"github.com/mcperr/mcperr/redisstore"
	"github.com/mcperr/mcperr/retry"
)

// TraceIn, Trace and getTrace are the package doc's.
type TraceIn struct {
	ID string `json:"id" jsonschema:"the trace id"`
}

type Trace struct {
	ID    string `json:"id"`
	Spans int    `json:"spans"`
}

// Link is trace_link's answer: where the trace is, computed, not fetched.
type Link struct {
	ID  string `json:"id"`
	URL string `json:"url"`
}

var (
	api      = "https://vexlo.example"
	upstream = &envelope.Reader{Client: &http.Client{Transport: &retry.Transport{}}}
)

func getTrace(ctx context.Context, _ *mcp.CallToolRequest, in TraceIn) (t Trace, err error) {
	req, err := http.NewRequestWithContext(ctx, "GET", api+"/v1/traces/"+url.PathEscape(in.ID), nil)
	if err != nil {
		return t, err
	}
	return t, upstream.Do(req, &t)
}

func traceLink(_ context.Context, _ *mcp.CallToolRequest, in TraceIn) (Link, error) {
	return link(in), nil
}

func link(in TraceIn) Link {
	return Link{ID: in.ID, URL: api + "/traces/" + url.PathEscape(in.ID)}
}

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "the address to serve /mcp at")
	kind := flag.String("server", "gosdk", "gosdk (gosdk.HTTPHandler), sdk (the go-sdk alone) or mcpgo (mcpgo.HTTPHandler)")
	stateful := flag.Bool("stateful", false, "keep a session per initialize")
	redisURL := flag.String("redis", "", "limit each client (bearer key) with a Limiter on redisstore at this URL")
	flag.Parse()
	if u := os.Getenv("TRACES_API"); u != "" {
		api = strings.TrimRight(u, "/")
	}

	var o adapter.HTTP
	o.Key = bearer
	o.MaxSessions = -1 // the driver's clients each hold one session; the bound is not what is measured
	if *redisURL != "" {
		store, err := redisstore.New(context.Background(), *redisURL, redisstore.Options{Prefix: "mcperr-load:"})
		if err != nil {
			log.Fatalf("-redis: %v", err)
		}
		defer store.Close()
		o.Limiter = &ratelimit.Limiter{Rate: 1e6, Burst: 1e6, Store: store}
	}
	h, err := handler(*kind, *stateful, o)
	if err != nil {
		log.Fatal(err)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("listening on http://%s/mcp", ln.Addr())
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(srv.Serve(ln))
}

// handler is the server of kind (gosdk, sdk or mcpgo), with the options o
// of the adapters (which the go-sdk alone has no use for).
func handler(kind string, stateful bool, o adapter.HTTP) (http.Handler, error) {
	switch kind {
	case "gosdk":
		return gosdkHandler(o, stateful), nil
	case "sdk":
		if o.Limiter != nil {
			return nil, errors.New("-redis needs -server gosdk or mcpgo")
		}
		return sdkHandler(stateful), nil
	case "mcpgo":
		return mcpgoHandler(o, stateful), nil
	}
	return nil, fmt.Errorf("-server %q: want gosdk, sdk or mcpgo", kind)
}

// bearer is the caller's bearer key.
func bearer(r *http.Request) string {
	k, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return k
}

// gosdkHandler is the package doc's server, as the doc writes it, behind
// gosdk.HTTPHandler.
func gosdkHandler(o adapter.HTTP, stateful bool) http.Handler {
	s := mcp.NewServer(&mcp.Implementation{Name: "traces", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "get_trace"}, gosdk.Handle(getTrace))
	mcp.AddTool(s, &mcp.Tool{Name: "trace_link"}, gosdk.Handle(traceLink))
	s.AddReceivingMiddleware(gosdk.Validate(nil))
	ho := &gosdk.HTTPOptions{HTTP: o}
	if stateful {
		ho.Streamable = &mcp.StreamableHTTPOptions{}
	}
	return gosdk.HTTPHandler(s, ho)
}

// sdkHandler is the same server as a user of the go-sdk alone writes it:
// typed tools that return an error for a failed GET, and the SDK's
// Streamable HTTP handler (stateless with JSON answers, as HTTPHandler's
// default, or with its defaults when stateful). Its upstream client keeps
// as many idle connections per host as retry.Transport's, so the two
// servers differ by mcperr alone.
func sdkHandler(stateful bool) http.Handler {
	base := http.DefaultTransport.(*http.Transport).Clone()
	base.MaxIdleConnsPerHost = 64
	client := &http.Client{Transport: base}
	get := func(ctx context.Context, _ *mcp.CallToolRequest, in TraceIn) (*mcp.CallToolResult, Trace, error) {
		var t Trace
		req, err := http.NewRequestWithContext(ctx, "GET", api+"/v1/traces/"+url.PathEscape(in.ID), nil)
		if err != nil {
			return nil, t, err
		}
		resp, err := client.Do(req)
		if err != nil {
			return nil, t, err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, t, fmt.Errorf("upstream: %s", resp.Status)
		}
		return nil, t, json.NewDecoder(resp.Body).Decode(&t)
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "traces", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "get_trace"}, get)
	mcp.AddTool(s, &mcp.Tool{Name: "trace_link"}, func(_ context.Context, _ *mcp.CallToolRequest, in TraceIn) (*mcp.CallToolResult, Link, error) {
		return nil, link(in), nil
	})
	so := &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}
	if stateful {
		so = nil
	}
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, so)
}

// mcpgoHandler is the same server on mark3labs/mcp-go, written as the
// mcpgo package doc says, behind mcpgo.HTTPHandler.
func mcpgoHandler(o adapter.HTTP, stateful bool) http.Handler {
	get := func(ctx context.Context, _ mcpgomcp.CallToolRequest, in TraceIn) (t Trace, err error) {
		return getTrace(ctx, nil, in)
	}
	tl := func(_ context.Context, _ mcpgomcp.CallToolRequest, in TraceIn) (Link, error) {
		return link(in), nil
	}
	s := server.NewMCPServer("traces", "1.0.0")
	s.AddTool(mcpgomcp.NewTool("get_trace", mcpgomcp.WithInputSchema[TraceIn]()), mcpgo.Handle(get))
	s.AddTool(mcpgomcp.NewTool("trace_link", mcpgomcp.WithInputSchema[TraceIn]()), mcpgo.Handle(tl))
	v := mcpgo.Validate(s, nil)
	return mcpgo.HTTPHandler(s, &mcpgo.HTTPOptions{Validator: v, HTTP: o, Stateful: stateful})
}

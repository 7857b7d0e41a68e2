// Command demo is a small MCP server on the go-sdk built with the gosdk
// adapter, over a fake upstream it serves itself; the interop suite drives it
// and its mcp-go twin (mcpgo/internal/demo) with the TypeScript SDK's client
// and compares their answers. Its tools, schemas and upstream are the twin's,
// line for line.
//
//	demo -addr 127.0.0.1:8080 [-hint]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/gosdk"
	"github.com/mcperr/mcperr/ratelimit"
)

const (
	traceSchema  = `{"type":"object","properties":{"id":{"type":"string","minLength":3}},"required":["id"],"additionalProperties":false}`
	valuesSchema = `{"type":"object","properties":{"path":{"type":"array","items":{"type":"string"},"maxItems":8},"limit":{"type":"integer","minimum":1,"maximum":100}},"required":["path"],"additionalProperties":false}`
	searchSchema = `{"type":"object","properties":{"query":{"type":"string","minLength":3,"maxLength":20},"order":{"type":"string","enum":["asc","desc"]},"language":{"type":"string"}},"required":["query"],"additionalProperties":false}`
)

type TraceIn struct {
	ID string `json:"id"`
}

type Trace struct {
	ID    string `json:"id"`
	Spans int    `json:"spans"`
}

type server struct {
	api      string
	upstream *envelope.Reader
}

func (s *server) getTrace(ctx context.Context, _ *mcp.CallToolRequest, in TraceIn) (Trace, error) {
	var t Trace
	req, err := http.NewRequestWithContext(ctx, "GET", s.api+"/v1/traces/"+url.PathEscape(in.ID), nil)
	if err != nil {
		return t, err
	}
	return t, s.upstream.Do(req, &t)
}

func echo(ctx context.Context, req *mcp.CallToolRequest) (any, error) {
	var args map[string]any
	if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
		return nil, err
	}
	return map[string]any{"arguments": args}, nil
}

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "listen address")
	hint := flag.Bool("hint", false, "answer refusals in the hint dialect")
	perMinute := flag.Int("calls", 0, "tool calls each client may make in a burst, then one every 30 seconds (0: no limit)")
	flag.Parse()

	s := &server{api: fakeUpstream(), upstream: &envelope.Reader{}}
	srv := mcp.NewServer(&mcp.Implementation{Name: "demo", Version: "1.0.0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "get_trace", Description: "Get a trace", InputSchema: json.RawMessage(traceSchema)}, gosdk.Handle(s.getTrace))
	srv.AddTool(&mcp.Tool{Name: "get_values", Description: "Get values", InputSchema: json.RawMessage(valuesSchema)}, gosdk.Raw(echo))
	srv.AddTool(&mcp.Tool{Name: "search", Description: "Search", InputSchema: json.RawMessage(searchSchema)}, gosdk.Raw(echo))
	opts := &gosdk.Options{}
	if *hint {
		opts.Dialect = gosdk.Hint
	}
	srv.AddReceivingMiddleware(gosdk.Validate(opts))
	h := &gosdk.HTTPOptions{}
	if *perMinute > 0 {
		h.Limiter = ratelimit.NewLimiter(1.0/30, *perMinute)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(os.Stdout, "listening on http://%s/mcp\n", ln.Addr())
	log.Fatal(http.Serve(ln, gosdk.HTTPHandler(srv, h)))
}

// fakeUpstream serves the upstream API on a loopback port and returns its
// base URL: trace "abc" is data; "slow" a 429 with Retry-After: 30; "boom" a
// 500; "odd" a body of neither shape; any other id a 404 error envelope.
func fakeUpstream() string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	go http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch id := strings.TrimPrefix(r.URL.Path, "/v1/traces/"); id {
		case "abc":
			io.WriteString(w, `{"id":"abc","spans":3}`)
		case "slow":
			w.Header().Set("Retry-After", "30")
			w.WriteHeader(http.StatusTooManyRequests)
			io.WriteString(w, `{"error":{"code":"rate_limited","message":"slow down"}}`)
		case "boom":
			w.WriteHeader(http.StatusInternalServerError)
			io.WriteString(w, `{"error":{"code":"internal_error","message":"shard 3 is down"}}`)
		case "odd":
			io.WriteString(w, `[1,2,3]`)
		default:
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprintf(w, `{"error":{"code":"trace_not_found","message":"no trace %s"}}`, id)
		}
	}))
	return "http://" + ln.Addr().String()
}

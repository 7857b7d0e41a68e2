package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mcperr/mcperr/errkind"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TourLine is one failure shape the news server shows: where it travels
// (an HTTP status, a JSON-RPC error, a tool error, an incomplete result),
// its code, the agent's next move, and the raw text the client receives.
type TourLine struct {
	Call  string       // what the call was, such as "a misspelt argument"
	Shape string       // "HTTP 401", "JSON-RPC -32602", "tool error", "REST 400", "result"
	Code  errkind.Kind // the code an agent switches on
	Move  errkind.Move // what the agent does next
	Raw   string       // the body, error or text block as received
}

// String formats the line as the tour prints it: call, shape, code, next
// move and raw text in columns.
func (l TourLine) String() string {
	return fmt.Sprintf("%-40s %-15s %-22s %-15s %s", l.Call, l.Shape, l.Code, l.Move, l.Raw)
}

// Tour starts the news server in-process (hosted on a loopback port, and
// the local server over in-memory transports), makes one call for each of
// the news error contract's failure shapes through a real MCP client and plain HTTP, and
// returns a line for each, in the order of the contract's tables. The clock is
// fixed at 2026-11-26T10:30:00Z, so the figures match the contract's insufficient_credits example.
func Tour(ctx context.Context) ([]TourLine, error) {
	var clock atomic.Int64 // the fixed clock, moved on by hand
	clock.Store(time.Date(2026, 11, 26, 10, 30, 0, 0, time.UTC).UnixNano())
	now := func() time.Time { return time.Unix(0, clock.Load()).UTC() }
	keys := DemoKeys()
	tiny := keys[1]
	tiny.Key, tiny.MessagesPerMinute = "tour-one-message", 1
	broke := keys[1]
	broke.Key = "tour-no-credits"
	keys = append(keys, tiny, broke)
	s, err := New(Config{Now: now, Keys: keys})
	if err != nil {
		return nil, err
	}
	s.spend(ctx, s.account("tour-no-credits"), 1000, false, now())
	tx := Taxonomy()

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	hs := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 5 * time.Second}
	go hs.Serve(ln)
	defer hs.Close()
	base := "http://" + ln.Addr().String()

	var lines []TourLine
	var call string // what the next line's call is
	add := func(shape string, code errkind.Kind, raw string) {
		lines = append(lines, TourLine{call, shape, code, tx.Advise(code).Move, strings.TrimSpace(raw)})
	}
	get := func(key, path string) (int, string, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+path, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"tour","version":"1"}}}`))
		if err != nil {
			return 0, "", err
		}
		if strings.HasPrefix(path, "/v1/") {
			req.Method, req.Body = http.MethodGet, http.NoBody
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		return resp.StatusCode, string(b), err
	}

	// HTTP statuses: no session can open, or the message was not read.
	call = "no API key"
	st, body, err := get("", "/mcp")
	if err != nil {
		return nil, err
	}
	add(fmt.Sprintf("HTTP %d", st), Unauthorized, body)
	if _, _, err := get("tour-one-message", "/mcp"); err != nil {
		return nil, err
	}
	call = "a second message in a minute allowing one"
	st, body, err = get("tour-one-message", "/mcp")
	if err != nil {
		return nil, err
	}
	add(fmt.Sprintf("HTTP %d", st), MessageRateLimited, body)

	connect := func(key string) (*mcp.ClientSession, error) {
		c := mcp.NewClient(&mcp.Implementation{Name: "tour", Version: "1"}, nil)
		hc := &http.Client{Transport: &bearerTransport{key: key}}
		return c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + "/mcp", HTTPClient: hc}, nil)
	}
	sessions := map[string]*mcp.ClientSession{}
	defer func() {
		for _, cs := range sessions {
			cs.Close()
		}
	}()
	callAs := func(key, tool string, args map[string]any) error {
		cs := sessions[key]
		if cs == nil {
			var err error
			if cs, err = connect(key); err != nil {
				return err
			}
			sessions[key] = cs
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		var werr *jsonrpc.Error
		switch {
		case errors.As(err, &werr):
			r := tx.Read(errkind.Outcome{Code: errkind.Code(werr.Code), Message: werr.Message, Data: werr.Data})
			add(fmt.Sprintf("JSON-RPC %d", werr.Code), r.Kind, werr.Message)
		case err != nil:
			return err
		case res.IsError:
			text := res.Content[0].(*mcp.TextContent).Text
			add("tool error", tx.Read(errkind.Outcome{IsError: true, Text: text}).Kind, text)
		default:
			text := res.Content[0].(*mcp.TextContent).Text
			add("result", Partial, text)
		}
		return nil
	}
	steps := []struct {
		call, key, tool string
		args            map[string]any
		before          func()
	}{
		{"a tool that does not exist", "demo-pro", "search_storys", map[string]any{"query": "wind"}, nil},
		{"a misspelt argument", "demo-pro", "search_stories", map[string]any{"query": "wind", "langauge": "en"}, nil},
		{"a signal that is not published", "demo-pro", "search_stories", map[string]any{"query": "wind", "signals": []string{"sentimnt"}}, nil},
		{"limit: 500", "demo-pro", "search_stories", map[string]any{"query": "wind", "limit": 500}, nil},
		{"a suspended account", "demo-suspended", "get_article", map[string]any{"id": "a-00042"}, nil},
		{"no credits left this month", "tour-no-credits", "create_watch", map[string]any{"query": "wind"}, nil},
		{"this minute's credits spent", "demo-free", "get_story", map[string]any{"id": "s-0007"}, func() {
			clock.Add(int64(58 * time.Second)) // two seconds before the minute ends
			s.spend(ctx, s.account("demo-free"), 29, true, now())
		}},
		{"worst case over max_credits", "demo-pro", "search_stories", map[string]any{"query": "wind", "limit": 50, "max_credits": 3}, nil},
		{"a range only failing shards hold", "demo-pro", "search_stories", map[string]any{"query": "harvest", "from": "2026-10-20T00:00:00Z"}, func() { s.FailShards(2) }},
		{"a story the index does not hold", "demo-pro", "get_story", map[string]any{"id": "s-9999"}, nil},
		{"a 4th watch on a plan of 3", "demo-free", "create_watch", map[string]any{"query": "bank"}, func() {
			clock.Add(int64(time.Minute)) // a fresh minute of credits
			a := s.account("demo-free")
			a.mu.Lock()
			for i := range 3 {
				a.watches = append(a.watches, &watch{ID: fmt.Sprintf("w-tour-%d", i)})
			}
			a.mu.Unlock()
		}},
	}
	for _, st := range steps {
		if st.before != nil {
			st.before()
		}
		call = st.call
		if err := callAs(st.key, st.tool, st.args); err != nil {
			return nil, fmt.Errorf("%s: %w", st.tool, err)
		}
	}

	// The local stdio server keeps no watches.
	ct, stt := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, stt, nil)
	if err != nil {
		return nil, err
	}
	defer ss.Close()
	local, err := mcp.NewClient(&mcp.Implementation{Name: "tour", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		return nil, err
	}
	sessions["local"] = local
	call = "a watch on the local stdio server"
	if err := callAs("local", "create_watch", map[string]any{"query": "wind"}); err != nil {
		return nil, err
	}

	// Not an error, and still incomplete: two shards do not answer.
	call = "a search while two shards fail"
	if err := callAs("demo-pro", "search_stories", map[string]any{"query": "harvest", "limit": 1}); err != nil {
		return nil, err
	}
	s.FailShards(0)

	// REST speaks the same codes.
	call = "a misspelt query parameter"
	st, body, err = get("demo-pro", "/v1/search?query=wind&langauge=en")
	if err != nil {
		return nil, err
	}
	add(fmt.Sprintf("REST %d", st), UnknownParameter, body)
	return lines, nil
}

// bearerTransport sends an API key with every request.
type bearerTransport struct{ key string }

func (b *bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if b.key != "" {
		r.Header.Set("Authorization", "Bearer "+b.key)
	}
	return http.DefaultTransport.RoundTrip(r)
}

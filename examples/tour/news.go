package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/examples/news/mcpserver"
)

// newsSection is the news server's part of the tour.
var newsSection = section{
	name:  "news",
	title: "the news index: HTTP statuses where no session can open, JSON-RPC errors for calls that never ran, JSON tool errors with credit figures, results that say they are incomplete",
	run:   newsTour,
}

// newsTour is the news section's lines as the tour shows them: the call
// and where its answer travelled, and an incomplete result's text cut.
func newsTour(ctx context.Context) ([]Line, error) {
	nls, err := newsRun(ctx)
	if err != nil {
		return nil, err
	}
	lines := make([]Line, 0, len(nls))
	for _, l := range nls {
		lines = append(lines, Line{Shape: l.Call + " (" + l.Shape + ")", Kind: string(l.Code), Move: string(l.Move), Text: l.Raw, Clip: l.Code == mcpserver.Partial})
	}
	return lines, nil
}

// newsLine is one failure shape the news server shows: where it travels
// (an HTTP status, a JSON-RPC error, a tool error, an incomplete result),
// its code, the agent's next move, and the raw text the client receives.
type newsLine struct {
	Call  string       // what the call was, such as "a misspelt argument"
	Shape string       // "HTTP 401", "JSON-RPC -32602", "tool error", "REST 400", "result"
	Code  errkind.Kind // the code an agent switches on
	Move  errkind.Move // what the agent does next
	Raw   string       // the body, error or text block as received
}

// String formats the line for the section's golden file: call, shape,
// code, next move and raw text in columns.
func (l newsLine) String() string {
	return fmt.Sprintf("%-40s %-15s %-22s %-15s %s", l.Call, l.Shape, l.Code, l.Move, l.Raw)
}

// newsRun starts the news server in-process (its Handler hosted on a
// loopback port, and its MCP server, the local one, over in-memory
// transports), makes one call for each of the news error contract's
// failure shapes through a real MCP client and plain HTTP, and returns a
// line for each, in the order of the contract's tables. The clock is fixed
// at 2026-11-26T10:30:00Z, so the figures match the contract's
// insufficient_credits example. The credits a line needs spent are spent
// by calls that succeed, before it.
func newsRun(ctx context.Context) ([]newsLine, error) {
	var clock atomic.Int64 // the fixed clock, moved on by hand
	clock.Store(time.Date(2026, 11, 26, 10, 30, 0, 0, time.UTC).UnixNano())
	now := func() time.Time { return time.Unix(0, clock.Load()).UTC() }
	keys := mcpserver.DemoKeys()
	tiny := keys[1]
	tiny.Key, tiny.MessagesPerMinute = "tour-one-message", 1
	// A free plan without limits a minute, so that its month's 1000
	// credits can be spent at once.
	broke := keys[1]
	broke.Key, broke.MessagesPerMinute, broke.CreditsPerMinute = "tour-no-credits", 0, 0
	keys = append(keys, tiny, broke)
	s, err := mcpserver.New(mcpserver.Config{Now: now, Keys: keys})
	if err != nil {
		return nil, err
	}
	tx := mcpserver.Taxonomy()

	hs, addr, err := serveLoopback(s.Handler())
	if err != nil {
		return nil, err
	}
	defer hs.Close()
	base := "http://" + addr

	var lines []newsLine
	var call string // what the next line's call is
	add := func(shape string, code errkind.Kind, raw string) {
		lines = append(lines, newsLine{call, shape, code, tx.Advise(code).Move, strings.TrimSpace(raw)})
	}
	// send makes a plain HTTP request as key: a GET of a REST path
	// (/v1/...), or else an MCP initialize POSTed to path.
	send := func(key, path string) (int, string, error) {
		method, body := http.MethodPost, io.Reader(strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"tour","version":"1"}}}`))
		if strings.HasPrefix(path, "/v1/") {
			method, body = http.MethodGet, http.NoBody
		}
		req, err := http.NewRequestWithContext(ctx, method, base+path, body)
		if err != nil {
			return 0, "", err
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
	st, body, err := send("", "/mcp")
	if err != nil {
		return nil, err
	}
	add(fmt.Sprintf("HTTP %d", st), mcpserver.Unauthorized, body)
	if _, _, err := send("tour-one-message", "/mcp"); err != nil {
		return nil, err
	}
	call = "a second message in a minute allowing one"
	st, body, err = send("tour-one-message", "/mcp")
	if err != nil {
		return nil, err
	}
	add(fmt.Sprintf("HTTP %d", st), mcpserver.MessageRateLimited, body)

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
	session := func(key string) (*mcp.ClientSession, error) {
		cs := sessions[key]
		if cs == nil {
			var err error
			if cs, err = connect(key); err != nil {
				return nil, err
			}
			sessions[key] = cs
		}
		return cs, nil
	}
	callAs := func(key, tool string, args map[string]any) error {
		cs, err := session(key)
		if err != nil {
			return err
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		var werr *jsonrpc.Error
		switch {
		case errors.As(err, &werr):
			r := tx.Read(errkind.Outcome{RPCCode: errkind.RPCCode(werr.Code), Message: werr.Message, Data: werr.Data})
			add(fmt.Sprintf("JSON-RPC %d", werr.Code), r.Kind, werr.Message)
		case err != nil:
			return err
		case res.IsError:
			text := res.Content[0].(*mcp.TextContent).Text
			add("tool error", tx.Read(errkind.Outcome{IsError: true, Text: text}).Kind, text)
		default:
			text := res.Content[0].(*mcp.TextContent).Text
			add("result", mcpserver.Partial, text)
		}
		return nil
	}
	// succeed makes a call as key that must succeed, and returns the
	// credits it was charged.
	succeed := func(key, tool string, args map[string]any) (int64, error) {
		cs, err := session(key)
		if err != nil {
			return 0, err
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			return 0, fmt.Errorf("%s: %w", tool, err)
		}
		out, _ := res.StructuredContent.(map[string]any)
		charged, ok := out["credits_charged"].(float64)
		if res.IsError || !ok {
			return 0, fmt.Errorf("%s: not a success: %+v", tool, res.Content)
		}
		return int64(charged), nil
	}
	// spend spends exactly n credits of key's account with calls that
	// succeed: searches while n is more than one can cost (6 credits),
	// then stories (2) and an article (1).
	spend := func(key string, n int64) error {
		for n > 0 {
			tool, args := "get_article", map[string]any{"id": "a-00001"}
			switch {
			case n >= 6:
				tool, args = "search_stories", map[string]any{"query": "wind", "limit": 50}
			case n >= 2:
				tool, args = "get_story", map[string]any{"id": "s-0007"}
			}
			c, err := succeed(key, tool, args)
			if err != nil {
				return err
			}
			n -= c
		}
		return nil
	}
	// watch creates a watch as key.
	watch := func(key string) error {
		_, err := succeed(key, "create_watch", map[string]any{"query": "bank"})
		return err
	}
	steps := []struct {
		call, key, tool string
		args            map[string]any
		before          func() error
	}{
		{"a tool that does not exist", "demo-pro", "search_storys", map[string]any{"query": "wind"}, nil},
		{"a misspelt argument", "demo-pro", "search_stories", map[string]any{"query": "wind", "langauge": "en"}, nil},
		{"a signal that is not published", "demo-pro", "search_stories", map[string]any{"query": "wind", "signals": []string{"sentimnt"}}, nil},
		{"limit: 500", "demo-pro", "search_stories", map[string]any{"query": "wind", "limit": 500}, nil},
		{"a suspended account", "demo-suspended", "get_article", map[string]any{"id": "a-00042"}, nil},
		{"no credits left this month", "tour-no-credits", "create_watch", map[string]any{"query": "wind"}, func() error {
			return spend("tour-no-credits", 1000)
		}},
		{"this minute's credits spent", "demo-free", "get_story", map[string]any{"id": "s-0007"}, func() error {
			clock.Add(int64(58 * time.Second)) // two seconds before the minute ends
			return spend("demo-free", 29)
		}},
		{"worst case over max_credits", "demo-pro", "search_stories", map[string]any{"query": "wind", "limit": 50, "max_credits": 3}, nil},
		{"a range only failing shards hold", "demo-pro", "search_stories", map[string]any{"query": "harvest", "from": "2026-10-20T00:00:00Z"}, func() error {
			s.FailShards(2)
			return nil
		}},
		{"a story the index does not hold", "demo-pro", "get_story", map[string]any{"id": "s-9999"}, nil},
		{"a 4th watch on a plan of 3", "demo-free", "create_watch", map[string]any{"query": "bank"}, func() error {
			clock.Add(int64(time.Minute)) // a fresh minute of credits
			for range 3 {
				if err := watch("demo-free"); err != nil {
					return err
				}
			}
			return nil
		}},
	}
	for _, st := range steps {
		if st.before != nil {
			if err := st.before(); err != nil {
				return nil, fmt.Errorf("before %s: %w", st.call, err)
			}
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
	st, body, err = send("demo-pro", "/v1/search?query=wind&langauge=en")
	if err != nil {
		return nil, err
	}
	add(fmt.Sprintf("REST %d", st), mcpserver.UnknownParameter, body)
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

package gosdk_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/adapter/adaptertest"
	"github.com/mcperr/mcperr/gosdk"
	"github.com/mcperr/mcperr/wire"
)

// shapesServer is an MCP server whose tools return every shape of answer a
// tool call can have, for comparing the direct path with the SDK's: text
// with characters the SDK's encoder escapes, structuredContent as JSON
// and as a Go value, content other than text, _meta, JSON-RPC errors, a Go
// error, a typed nil; and a middleware that refuses one tool by name and
// answers another itself (a result the SDK's tool dispatch never saw, so
// one without the resultType it sets).
func shapesServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "shapes", Version: "0"}, nil)
	schema := json.RawMessage(`{"type":"object"}`)
	text := func(t string) []mcp.Content { return []mcp.Content{&mcp.TextContent{Text: t}} }
	tools := map[string]func(req *mcp.CallToolRequest) (*mcp.CallToolResult, error){
		"escapes": func(*mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: text("<a href=\"x\">&amp;</a> \u2028\u2029 \x00 \xff end\\u003c")}, nil
		},
		"structured": func(*mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{
				Content:           text(`{"a": "<b>"}`),
				StructuredContent: json.RawMessage("{ \"a\" : \"<b>\\u003c\\u0026\u2028\" ,\n \"n\": [1, 2.50, -0e1] }"),
			}, nil
		},
		"structured value": func(*mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: text("v"), StructuredContent: map[string]any{"b": 1, "a": "<"}}, nil
		},
		"empty raw": func(*mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: text("e"), StructuredContent: json.RawMessage(nil)}, nil
		},
		"no content": func(*mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{IsError: true}, nil
		},
		"two blocks": func(*mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "one"}, &mcp.TextContent{Text: ""}}}, nil
		},
		"image": func(*mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "t"}, &mcp.ImageContent{Data: []byte{1, 2}, MIMEType: "image/png"}}}, nil
		},
		"annotated": func(*mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "t", Meta: mcp.Meta{"k": "v"}}}}, nil
		},
		"meta": func(*mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Meta: mcp.Meta{"trace": "<x>"}, Content: text("m")}, nil
		},
		"rpc error": func(*mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "bad <arg>", Data: json.RawMessage(`{"code":"x"}`)}
		},
		"method not found": func(*mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, fmt.Errorf("wrapped: %w", &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "no such thing"})
		},
		"go error": func(*mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, errors.New("upstream said <no>")
		},
		"echo": func(req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: text(req.Params.Name + " " + string(req.Params.Arguments))}, nil
		},
	}
	for name, fn := range tools {
		s.AddTool(&mcp.Tool{Name: name, InputSchema: schema}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return fn(req)
		})
	}
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if r, ok := req.(*mcp.CallToolRequest); ok && r.Params.Name == "refused" {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "refused by middleware"}
			}
			if r, ok := req.(*mcp.CallToolRequest); ok && r.Params.Name == "answered by middleware" {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "the middleware's own"}}}, nil
			}
			return next(ctx, method, req)
		}
	})
	return s
}

// TestDirectMatchesSDK: every tools/call the direct path serves is
// answered byte for byte as the SDK answers it, and a call it must leave
// to the SDK (before initialization, with _meta or other members in its
// params, with arguments that are not an object) is left to it.
func TestDirectMatchesSDK(t *testing.T) {
	srv := shapesServer()
	direct := countDirect(srv)
	call := func(id int, params string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`, id, params)
	}
	var every []string
	for i, name := range []string{"escapes", "structured", "structured value", "empty raw", "no content", "two blocks", "image", "annotated", "meta", "rpc error", "method not found", "go error", "echo", "refused", "answered by middleware", "no such tool"} {
		every = append(every, call(10+i, `{"name":"`+name+`","arguments":{"q":"<x>"}}`))
	}
	tests := []struct {
		name   string
		input  []string
		direct int64 // calls the direct path must have served
	}{
		{"every shape of answer", every, int64(len(every))},
		{"the protocol revision whose results carry resultType", every, int64(len(every))},
		{"arguments absent, spaced or nested", []string{
			call(2, `{"name":"echo"}`),
			call(3, ` { "arguments" : { "a" : [ 1 , { "b" : "}" } ] , "c":"\"" } , "name" : "echo" } `),
			call(4, `{"name":"echo","arguments":{}}`),
		}, 3},
		{"params left to the SDK", []string{
			call(2, `{"name":"echo","arguments":[1]}`),
			call(3, `{"name":"echo","arguments":null}`),
			call(4, `{"name":"echo","arguments":"s"}`),
			call(5, `{"name":"ec\u0068o","arguments":{}}`),
			call(6, `{"name":"echo","name":"escapes"}`),
			call(7, `{"name":"echo","_meta":{"progressToken":1}}`),
			call(8, `{"name":"echo","task":{}}`),
			call(9, `{"arguments":{}}`),
			call(10, `{}`),
			call(11, `[]`),
			call(12, `{"name":1}`),
			call(13, `{"name":"echo","arguments":{},"arguments":{}}`),
			call(14, `{"Name":"echo"}`),
		}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			init := initLine
			if strings.Contains(tt.name, "resultType") {
				init = strings.Replace(initLine, "2025-11-25", "2026-07-28", 1)
			}
			lines, served := compare(t, srv, direct, init+"\n", strings.Join(append([]string{initialized}, tt.input...), "\n")+"\n")
			if served != tt.direct {
				t.Errorf("the direct path served %d calls, want %d; output:\n%s", served, tt.direct, strings.Join(lines, "\n"))
			}
			if len(lines) != len(tt.input)+1 {
				t.Errorf("%d lines for %d requests and initialize:\n%s", len(lines), len(tt.input), strings.Join(lines, "\n"))
			}
		})
	}
	t.Run("before initialization", func(t *testing.T) {
		input := call(2, `{"name":"echo"}`) + "\n" + initLine + "\n"
		if _, served := compare(t, srv, direct, input, ""); served != 0 {
			t.Errorf("the direct path served %d calls sent before initialize", served)
		}
	})
}

// TestDirectCancel: a direct call cancelled by the client sees its context
// end and gets no answer (a receiver SHOULD NOT answer a cancelled
// request, on every revision); the next request on the same id, sent once
// the handler returned, is answered.
func TestDirectCancel(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "cancel", Version: "0"}, nil)
	started := make(chan struct{})
	srv.AddTool(&mcp.Tool{Name: "wait", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		close(started)
		select {
		case <-ctx.Done():
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "cancelled"}}}, nil
		case <-time.After(5 * time.Second):
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "not cancelled"}}}, nil
		}
	})
	direct := countDirect(srv)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- srv.Run(context.Background(), &gosdk.StdioTransport{In: inR, Out: outW, Server: srv}) }()
	out := bufio.NewReader(outR)
	send := func(line string) { io.WriteString(inW, line+"\n") }
	send(initLine)
	if _, err := out.ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	send(initialized)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"wait"}}`)
	<-started
	send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`)
	var line string
	for {
		send(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)
		l, err := out.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(l, "still in flight") {
			line = l
			break
		}
		time.Sleep(time.Millisecond) // the cancelled handler has not returned yet
	}
	inW.Close()
	go io.Copy(io.Discard, outR)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if want := `{"jsonrpc":"2.0","id":2,"result":{}}` + "\n"; line != want {
		t.Errorf("got %s, want %s", line, want)
	}
	if n := direct.Load(); n != 1 {
		t.Errorf("the direct path served %d calls, want 1", n)
	}
}

// TestCancelledID: a cancelled call gets no answer, and its id stays in
// flight until its handler returns, so a request that reuses it before then
// is refused, and one sent after it is served; every answer carries the id
// exactly as sent. The same lines on the SDK's path and on the direct path.
func TestCancelledID(t *testing.T) {
	for _, path := range []string{"sdk", "direct"} {
		t.Run(path, func(t *testing.T) {
			srv := mcp.NewServer(&mcp.Implementation{Name: "cancel", Version: "0"}, nil)
			started, release := make(chan struct{}, 1), make(chan struct{})
			schema := json.RawMessage(`{"type":"object"}`)
			srv.AddTool(&mcp.Tool{Name: "wait", InputSchema: schema}, func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				started <- struct{}{}
				<-ctx.Done()
				<-release
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "cancelled"}}}, nil
			})
			srv.AddTool(&mcp.Tool{Name: "quick", InputSchema: schema}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "quick"}}}, nil
			})
			direct := countDirect(srv)
			tr, inW, outR := onPath(srv, path)
			done := make(chan error, 1)
			go func() { done <- srv.Run(context.Background(), tr) }()
			out := bufio.NewReader(outR)
			send := func(line string) { io.WriteString(inW, line+"\n") }
			var got []string
			lines := make(chan string)
			go func() {
				defer close(lines)
				for {
					line, err := out.ReadString('\n')
					if err != nil {
						return
					}
					lines <- strings.TrimSuffix(line, "\n")
				}
			}()
			read := func() {
				select {
				case line := <-lines:
					got = append(got, line)
				case <-time.After(5 * time.Second):
					t.Fatalf("no answer within 5 s; so far: %q", got)
				}
			}
			send(initLine)
			read()
			got = got[:0]
			send(initialized)
			send(`{"jsonrpc":"2.0","id":"\u0041b","method":"tools/call","params":{"name":"wait"}}`)
			<-started
			send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"\u0041b"}}`)
			send(`{"jsonrpc":"2.0","id":"Ab","method":"tools/call","params":{"name":"quick"}}`)
			read() // the reuse, refused: the cancelled call is still running
			close(release)
			for { // the cancelled call is not answered: its id is free once its handler returned
				send(`{"jsonrpc":"2.0","id":"Ab","method":"tools/call","params":{"name":"quick"}}`)
				read()
				if !strings.Contains(got[len(got)-1], "still in flight") {
					break
				}
				got = got[:len(got)-1]
				time.Sleep(time.Millisecond)
			}
			inW.Close()
			go func() {
				for range lines {
				}
			}()
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			want := []string{
				`{"jsonrpc":"2.0","id":"Ab","error":{"code":-32600,"message":"Invalid Request: a request with this id is still in flight"}}`,
				`{"jsonrpc":"2.0","id":"Ab","result":{"content":[{"type":"text","text":"quick"}]}}`,
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if wantN := map[string]int64{"sdk": 0, "direct": 2}[path]; direct.Load() != wantN {
				t.Errorf("the direct path served %d calls, want %d", direct.Load(), wantN)
			}
		})
	}
}

// FuzzDirect: whatever the input, the direct path writes the lines the SDK
// writes, in the same order where the protocol fixes one (see differ: an
// initialize in the input is answered before the requests after it), and
// answers every request once with its id as sent. A call a cancellation names may be answered with its result (when
// it ended before the cancellation was read) or not at all, on either path:
// its line is left out of the comparison. Inputs with two requests of the same id
// are skipped (the second is refused only while the first is in flight).
func FuzzDirect(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"escapes"}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"structured","arguments":{"a":1}}}` + "\n" + `{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"echo","arguments":{"<":"\u2028"}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"rpc error"}}` + "\n" + `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"refused"}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"meta","_meta":{}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":"\u0041b","method":"tools/call","params":{"name":"echo"}}` + "\n" + `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"Ab"}}`,
		strings.Replace(initLine, `"id":1`, `"id":9`, 1) + "\n" + `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo"}}` + "\n" + `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"escapes"}}`,
	} {
		f.Add([]byte(s))
	}
	srv := shapesServer()
	direct := countDirect(srv)
	f.Fuzz(func(t *testing.T, in []byte) {
		ids := map[string]bool{idValue([]byte("1")): true} // initialize's
		cancelled := map[string]bool{}
		for l := range bytes.SplitSeq(in, []byte("\n")) {
			m, err := wire.CheckMessage(bytes.TrimSpace(l))
			if err != nil {
				continue
			}
			if m.Method == "notifications/cancelled" {
				var p struct {
					RequestID json.RawMessage `json:"requestId"`
				}
				if json.Unmarshal(m.Params, &p) == nil {
					cancelled[idValue(p.RequestID)] = true
				}
			}
			if m.Type == wire.RequestMessage {
				k := idValue(m.ID)
				if ids[k] {
					t.Skip("a repeated id is refused only while the first is in flight")
				}
				ids[k] = true
			}
		}
		norm := func(line string) string {
			if id, _, ok := wire.AnswerID([]byte(line)); ok && cancelled[idValue(id)] {
				return "" // answered or not, as the race goes
			}
			return line
		}
		compareAs(t, srv, direct, initLine+"\n", initialized+"\n"+string(in)+"\n", norm)
		check(t, srv, []byte(initLine+"\n"+initialized+"\n"+string(in)))
	})
}

// idValue is the value of a JSON-RPC id, whichever way it is written.
func idValue(id []byte) string {
	var v any
	json.Unmarshal(id, &v)
	return fmt.Sprintf("%T %v", v, v)
}

// TestDirectMiddlewareOrder: the direct path runs every receiving
// middleware of the server, whenever it was added: before the transport was
// made, after it (before Run), and while the session runs.
func TestDirectMiddlewareOrder(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "order", Version: "0"}, nil)
	srv.AddTool(&mcp.Tool{Name: "echo", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo"}}}, nil
	})
	var ran adaptertest.SafeBuffer // the names of the middleware each call ran through
	mark := func(name string) mcp.Middleware {
		return func(next mcp.MethodHandler) mcp.MethodHandler {
			return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
				if method == "tools/call" {
					fmt.Fprintf(&ran, "%s ", name)
				}
				return next(ctx, method, req)
			}
		}
	}
	srv.AddReceivingMiddleware(mark("before"))
	tr := &gosdk.StdioTransport{Server: srv}
	srv.AddReceivingMiddleware(mark("after"))
	direct := countDirect(srv)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	tr.In, tr.Out = inR, outW
	done := make(chan error, 1)
	go func() { done <- srv.Run(context.Background(), tr) }()
	out := bufio.NewReader(outR)
	send := func(line string) { io.WriteString(inW, line+"\n") }
	read := func() string {
		line, err := out.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		return line
	}
	send(initLine)
	read()
	send(initialized)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo"}}`)
	read()
	fmt.Fprint(&ran, "| ")
	srv.AddReceivingMiddleware(mark("running"))
	send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo"}}`)
	read()
	inW.Close()
	go io.Copy(io.Discard, outR)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// The last middleware added runs first.
	if got, want := ran.String(), "after before | running after before "; got != want {
		t.Errorf("the calls ran through %q, want %q", got, want)
	}
	if direct.Load() != 2 {
		t.Errorf("the direct path served %d calls, want 2", direct.Load())
	}
}

// TestDirectOtherServer: a transport whose Server is not the server Run is
// called on leaves every call to the SDK, which answers it from the server
// that runs.
func TestDirectOtherServer(t *testing.T) {
	srv, other := shapesServer(), shapesServer()
	direct, otherDirect := countDirect(srv), countDirect(other)
	input := strings.Join([]string{initLine, initialized, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{}}}`}, "\n") + "\n"
	var out adaptertest.SafeBuffer
	srv.Run(context.Background(), &gosdk.StdioTransport{In: strings.NewReader(input), Out: &out, Server: other})
	if !strings.Contains(out.String(), `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"echo {}"}]}}`) {
		t.Errorf("the call was not answered:\n%s", out.String())
	}
	if direct.Load() != 0 || otherDirect.Load() != 0 {
		t.Errorf("%d and %d calls took the direct path, want none", direct.Load(), otherDirect.Load())
	}
}

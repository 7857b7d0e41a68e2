package adaptertest

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/errkind"
)

// A refusal is one line a stdio transport refuses itself, with the code
// of its answer on the revisions before 2026-07-28 and from it on, and
// what the failure hook hears of it.
type refusal struct {
	name           string
	line           string // %s is where a request's params go on
	legacy, modern errkind.RPCCode
	method, tool   string
	kind           errkind.Kind
}

// refusals, in the order StdioRefusals sends them, after the call "w"
// that takes the one slot.
var refusals = []refusal{
	{name: "not JSON", line: `not json`, legacy: -32700, modern: -32700, kind: errkind.InvalidArguments},
	{name: "longer than MaxLine", line: `{"jsonrpc":"2.0","id":"long","method":"ping","params":{"pad":"` + strings.Repeat("x", 600) + `"}}`,
		legacy: -32700, modern: -32700, kind: errkind.InvalidArguments},
	{name: "a batch", line: `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, legacy: -32600, modern: -32600, kind: errkind.InvalidArguments},
	{name: "an id no SDK echoes", line: `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, legacy: -32600, modern: -32600, kind: errkind.InvalidArguments},
	{name: "an id in flight", line: `{"jsonrpc":"2.0","id":"w","method":"tools/call","params":{"name":"wait","arguments":{}%s}}`,
		legacy: -32600, modern: -32600, method: "tools/call", tool: "wait", kind: errkind.InvalidArguments},
	// The legacy range's one code becomes the application code -31000 on
	// 2026-07-28, which says -32000 to -32019 SHOULD NOT be used.
	{name: "past MaxInFlight", line: `{"jsonrpc":"2.0","id":"p","method":"ping","params":{"x":1%s}}`,
		legacy: -32000, modern: -31000, method: "ping", kind: errkind.Unavailable},
}

// meta is a request's _meta member on revision 2026-07-28, which names the
// revision in every request, and nothing before it.
func meta(revision string) string {
	if revision < "2026-07-28" {
		return ""
	}
	return `,"_meta":{"io.modelcontextprotocol/protocolVersion":"` + revision +
		`","io.modelcontextprotocol/clientInfo":{"name":"adaptertest","version":"0"},"io.modelcontextprotocol/clientCapabilities":{}}`
}

// StdioRefusals checks the refusals an adapter's stdio transport writes
// itself, on each protocol revision (2025-06-18 and 2025-11-25 opened with
// initialize, 2026-07-28 with the revision in every request's _meta): a
// line that is not JSON, one longer than MaxLine, a batch, an id no SDK
// echoes, a request whose id is in flight and one past MaxInFlight. Each
// must be answered with the code errkind's code table gives on the
// revision (errkind.RPCCode.On: -32000 for the last before 2026-07-28,
// -31000 from it on), and reach the failure hook once, in order, as Stage
// adapter.Protocol with the method, tool, kind and code the client got. It
// returns an error naming each difference, nil when there is none.
//
// serve serves one stdio session until in ends, and returns once it has
// ended: a server with a tool "wait" that blocks until its call is
// cancelled, on the adapter's stdio transport over in and out, with at most
// one request in flight (MaxInFlight 1), lines of at most 512 bytes
// (MaxLine 512) and hook as the transport's failure hook (OnFailure).
func StdioRefusals(serve func(ctx context.Context, in io.Reader, out io.Writer, hook func(context.Context, adapter.Failure))) error {
	var errs []error
	for _, rev := range Revisions() {
		if err := stdioRefusals(serve, rev); err != nil {
			errs = append(errs, fmt.Errorf("revision %s: %w", rev, err))
		}
	}
	return errors.Join(errs...)
}

// answerLine is what StdioRefusals reads of an answer.
type answerLine struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code errkind.RPCCode `json:"code"`
	} `json:"error"`
}

func stdioRefusals(serve func(ctx context.Context, in io.Reader, out io.Writer, hook func(context.Context, adapter.Failure)), rev string) error {
	var (
		mu    sync.Mutex
		heard []adapter.Failure
	)
	hook := func(_ context.Context, f adapter.Failure) {
		mu.Lock()
		heard = append(heard, f)
		mu.Unlock()
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	served := make(chan struct{})
	go func() {
		defer close(served)
		serve(ctx, inR, outW, hook)
		outW.Close()
	}()
	defer func() {
		inW.Close()
		outR.Close()
		<-served
	}()
	lines := make(chan answerLine)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var a answerLine
			json.Unmarshal(sc.Bytes(), &a)
			if a.Result == nil && a.Error == nil {
				continue // a notification of the server's
			}
			select {
			case lines <- a:
			case <-ctx.Done():
				return
			}
		}
	}()
	send := func(line string) error {
		_, err := io.WriteString(inW, line+"\n")
		return err
	}
	next := func() (answerLine, error) {
		select {
		case a, ok := <-lines:
			if !ok {
				return a, errors.New("the output ended")
			}
			return a, nil
		case <-ctx.Done():
			return answerLine{}, errors.New("no answer within 20 s")
		}
	}
	if rev < "2026-07-28" {
		if err := send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + rev + `","capabilities":{},"clientInfo":{"name":"adaptertest","version":"0"}}}`); err != nil {
			return err
		}
		if a, err := next(); err != nil || a.Result == nil {
			return fmt.Errorf("initialize: %s, %v", a.Error, err)
		}
		if err := send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`); err != nil {
			return err
		}
	}
	m := meta(rev)
	// "w" takes the one slot until it is cancelled. A transport may write
	// an answer before it frees the slot of its request, so "w" may find
	// initialize's still taken: a line that is not JSON, answered at once,
	// tells whether "w" was refused (its answer comes first), and "w" is
	// sent again until it was not. pre counts the refusals this makes.
	pre := 0
	for {
		if err := send(fmt.Sprintf(`{"jsonrpc":"2.0","id":"w","method":"tools/call","params":{"name":"wait","arguments":{}%s}}`, m)); err != nil {
			return err
		}
		if err := send(`not json`); err != nil {
			return err
		}
		a, err := next()
		if err != nil {
			return fmt.Errorf("the call that takes the slot: %w", err)
		}
		pre++
		if string(a.ID) != `"w"` {
			break
		}
		pre++
		if _, err := next(); err != nil {
			return fmt.Errorf("the call that takes the slot: %w", err)
		}
	}
	var errs []error
	var want []adapter.Failure
	for _, r := range refusals {
		line := r.line
		if strings.Contains(line, "%s") {
			line = fmt.Sprintf(line, m)
		}
		if err := send(line); err != nil {
			return err
		}
		a, err := next()
		if err != nil {
			return fmt.Errorf("%s: %w", r.name, err)
		}
		code := r.legacy
		if rev >= "2026-07-28" {
			code = r.modern
		}
		switch {
		case a.Error == nil:
			errs = append(errs, fmt.Errorf("%s: answered with a result, want the error %d", r.name, code))
		case a.Error.Code != code:
			errs = append(errs, fmt.Errorf("%s: code %d, want %d", r.name, a.Error.Code, code))
		}
		want = append(want, adapter.Failure{Stage: adapter.Protocol, Method: r.method, Tool: r.tool,
			Reading: errkind.Reading{Kind: r.kind, RPCCode: code}})
	}
	if err := send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"w"}}`); err != nil {
		return err
	}
	inW.Close()
	select {
	case <-served:
	case <-ctx.Done():
		return errors.New("the session did not end after the input did")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(heard) != pre+len(want) {
		errs = append(errs, fmt.Errorf("the hook heard %d failures, want %d: %+v", len(heard), pre+len(want), heard))
		return errors.Join(errs...)
	}
	for i, f := range heard[pre:] {
		w := want[i]
		got := adapter.Failure{Stage: f.Stage, Method: f.Method, Tool: f.Tool, HTTPStatus: f.HTTPStatus,
			Reading: errkind.Reading{Kind: f.Reading.Kind, RPCCode: f.Reading.RPCCode}}
		if fmt.Sprint(got) != fmt.Sprint(w) {
			errs = append(errs, fmt.Errorf("%s: the hook heard %+v, want %+v", refusals[i].name, got, w))
		}
	}
	return errors.Join(errs...)
}

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/mcperr/mcperr/errkind"
)

// oversize is the size of the oversized body: above the 4 MB the TypeScript
// SDK's transport reads and the 1 MiB of mcperr's front.
const oversize = 5 << 20

// maxAnswer bounds what is read of a probe's answer.
const maxAnswer = 1 << 20

// headerTransport adds the -H headers to every request the audit makes.
type headerTransport struct {
	base    http.RoundTripper
	headers http.Header
}

func (t *headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(t.headers) > 0 {
		r = r.Clone(r.Context())
		for k, v := range t.headers {
			if r.Header.Get(k) == "" {
				r.Header[k] = v
			}
		}
	}
	return t.base.RoundTrip(r)
}

// httpAnswer is what an HTTP probe got back.
type httpAnswer struct {
	status int
	ctype  string
	rpc    *rpcAnswer // the JSON-RPC message of the body, when it held one
	body   string
}

// httpProbe is one request the transport should refuse or answer as JSON-RPC.
type httpProbe struct {
	name   string
	method string
	rpc    string // the JSON-RPC method, for the Mcp-Method header of the revisions that want it
	body   []byte
	edit   func(h http.Header)
}

func (a *auditor) httpProbes(ctx context.Context) error {
	m := a.harmless()
	pingBody := a.request(`"mcperr-audit-ping"`, m, "")
	big := a.request(`"mcperr-audit-big"`, m, `"pad":"`+strings.Repeat("a", oversize)+`"`)
	probes := []httpProbe{
		{name: "unknown method", method: "POST", rpc: "mcperr/noSuchMethod", body: []byte(a.request(`"mcperr-audit-method"`, "mcperr/noSuchMethod", ""))},
		{name: "GET", method: "GET", edit: func(h http.Header) { h.Set("Accept", "text/event-stream"); h.Del("Content-Type") }},
		{name: "wrong Content-Type", method: "POST", rpc: m, body: []byte(pingBody), edit: func(h http.Header) { h.Set("Content-Type", "text/plain") }},
		{name: "missing Accept", method: "POST", rpc: m, body: []byte(pingBody), edit: func(h http.Header) { h.Del("Accept") }},
		{name: "body not JSON", method: "POST", rpc: m, body: []byte(`this body is not JSON {`)},
		{name: "oversized body", method: "POST", rpc: m, body: []byte(big)},
	}
	for _, p := range probes {
		ans, err := a.send(ctx, p)
		survived := a.alive(ctx)
		if !survived {
			if err := a.reconnect(ctx); err != nil {
				return &connectError{fmt.Errorf("the session ended and a new one could not open: %w", err)}
			}
		}
		c := check{Probe: p.name, group: groupProtocol}
		gradeHTTP(&c, p.name, ans, err, survived)
		a.rep.add(c)
	}
	return nil
}

// send makes one probe's request, in the session, and reads its answer.
func (a *auditor) send(ctx context.Context, p httpProbe) (*httpAnswer, error) {
	ctx, cancel := context.WithTimeout(ctx, a.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, p.method, a.target.url, bytes.NewReader(p.body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if id := a.session.ID(); id != "" {
		req.Header.Set("Mcp-Session-Id", id)
	}
	if a.rep.Protocol != "" {
		req.Header.Set("Mcp-Protocol-Version", a.rep.Protocol)
	}
	if a.newProtocol() && p.rpc != "" {
		req.Header.Set("Mcp-Method", p.rpc)
	}
	if p.edit != nil {
		p.edit(req.Header)
	}
	resp, err := a.httpc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	ans := &httpAnswer{status: resp.StatusCode, ctype: resp.Header.Get("Content-Type")}
	if strings.HasPrefix(ans.ctype, "text/event-stream") {
		if p.method == "GET" {
			return ans, nil // a stream that opened is the answer
		}
		// The first message of the stream, if one comes before the timeout.
		sc := bufio.NewScanner(io.LimitReader(resp.Body, maxAnswer))
		sc.Buffer(make([]byte, 0, 64<<10), maxAnswer)
		for sc.Scan() {
			line := sc.Text()
			if data, ok := strings.CutPrefix(line, "data:"); ok {
				var r rpcAnswer
				if json.Unmarshal([]byte(strings.TrimSpace(data)), &r) == nil {
					ans.rpc = &r
					ans.body = strings.TrimSpace(data)
				}
				break
			}
		}
		return ans, nil
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	ans.body = string(body)
	var r rpcAnswer
	if json.Unmarshal(body, &r) == nil && (r.Error != nil || r.Result != nil) {
		ans.rpc = &r
	}
	return ans, nil
}

// gradeHTTP grades the answer to an HTTP probe: a refusal must carry a
// JSON-RPC body, an answer must be JSON-RPC, and the session must survive.
func gradeHTTP(c *check, probe string, ans *httpAnswer, err error, survived bool) {
	switch {
	case err != nil:
		c.Answer = answerNone
		c.Why = "no answer: " + oneLine(err.Error(), 120)
		return
	case !survived:
		c.Answer = answerSessionEnded
		c.Why = fmt.Sprintf("HTTP %d, and the session no longer answers", ans.status)
		c.Status = ans.status
		return
	}
	c.Status = ans.status
	c.Text = ans.body
	rpcErr := ans.rpc != nil && ans.rpc.Error != nil
	if rpcErr {
		c.Code = ans.rpc.Error.Code
	}
	switch {
	case ans.status >= 400:
		c.Answer = answerHTTPError
	case rpcErr:
		c.Answer = answerRPCError
	default:
		c.Answer = answerSuccess
	}
	sse := strings.HasPrefix(ans.ctype, "text/event-stream")
	switch {
	case probe == "unknown method":
		if rpcErr && ans.rpc.Error.Code == int(errkind.MethodNotFound) {
			c.OK, c.Points = true, 100
			c.Why = fmt.Sprintf("HTTP %d with JSON-RPC -32601 method not found", ans.status)
		} else {
			c.Points = 50
			c.Why = fmt.Sprintf("HTTP %d, not JSON-RPC -32601 method not found", ans.status)
		}
	case ans.status >= 500:
		c.Why = fmt.Sprintf("HTTP %d: the server failed on a request it should refuse", ans.status)
	case ans.status >= 400 && rpcErr:
		c.OK, c.Points = true, 100
		c.Why = fmt.Sprintf("HTTP %d with a JSON-RPC error body (%d): the client shows the reason", ans.status, ans.rpc.Error.Code)
	case ans.status >= 400:
		c.Points = 50
		c.Why = fmt.Sprintf("HTTP %d without a JSON-RPC body: the client reports a bare transport failure", ans.status)
	case probe == "GET" && sse:
		c.OK, c.Points = true, 100
		c.Why = "an event stream, as the transport allows"
	case probe == "GET":
		c.Points = 50
		c.Why = fmt.Sprintf("HTTP %d %s: neither an event stream nor 405 with a JSON-RPC body", ans.status, ans.ctype)
	case probe == "oversized body":
		c.Points = 50
		c.Why = fmt.Sprintf("read a %d MiB body and answered HTTP %d: no bound on what one request makes it read", oversize>>20, ans.status)
	case ans.rpc != nil:
		c.OK, c.Points = true, 100
		c.Why = fmt.Sprintf("HTTP %d with a JSON-RPC answer, and the session survived", ans.status)
	default:
		c.Points = 50
		c.Why = fmt.Sprintf("HTTP %d without a JSON-RPC body", ans.status)
	}
}

// maxBody bounds every HTTP body the audit reads, the SDK's included: a
// server that sends more is cut off there, and the audit says so.
const maxBody = 32 << 20

// maxRaw bounds the server's own bytes a check keeps.
const maxRaw = 64 << 10

// errBodyTooLarge is the read of a body past maxBody.
var errBodyTooLarge = fmt.Errorf("the server sent an HTTP body larger than %d MiB: the audit stopped reading it", maxBody>>20)

// tapTransport bounds the bodies of every HTTP answer (maxBody) and keeps
// the first bytes of the last one, the server's own, for the check that
// reads it.
type tapTransport struct {
	base http.RoundTripper

	mu   sync.Mutex
	last []byte
	met  []string // the bounds a body met
}

func (t *tapTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	t.last = nil
	t.mu.Unlock()
	resp.Body = &tapBody{rc: resp.Body, t: t}
	return resp, nil
}

func (t *tapTransport) reset() {
	t.mu.Lock()
	t.last = nil
	t.mu.Unlock()
}

// lastMessage returns the last JSON-RPC response in the last body read.
func (t *tapTransport) lastMessage() []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	return lastResponse(t.last)
}

// bounds returns what the bodies met, once each.
func (t *tapTransport) bounds() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Compact(slices.Clone(t.met))
}

type tapBody struct {
	rc io.ReadCloser
	t  *tapTransport
	n  int64
}

func (b *tapBody) Read(p []byte) (int, error) {
	if b.n >= maxBody {
		return 0, errBodyTooLarge
	}
	if int64(len(p)) > maxBody-b.n {
		p = p[:maxBody-b.n]
	}
	n, err := b.rc.Read(p)
	b.n += int64(n)
	b.t.mu.Lock()
	if room := maxRaw*4 - len(b.t.last); room > 0 {
		b.t.last = append(b.t.last, p[:min(n, room)]...)
	}
	if b.n >= maxBody && err == nil {
		b.t.met = append(b.t.met, errBodyTooLarge.Error())
		err = errBodyTooLarge
	}
	b.t.mu.Unlock()
	return n, err
}

func (b *tapBody) Close() error { return b.rc.Close() }

// lastResponse finds the last JSON-RPC response (a message with a result or
// an error) in a body: the body itself when it is JSON, else the data of an
// event stream's events.
func lastResponse(body []byte) []byte {
	body = bytes.TrimSpace(body)
	isResponse := func(b []byte) bool {
		var m struct {
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		return json.Unmarshal(b, &m) == nil && (m.Result != nil || m.Error != nil)
	}
	if isResponse(body) {
		return body
	}
	var last []byte
	for _, line := range bytes.Split(body, []byte("\n")) {
		if data, ok := bytes.CutPrefix(bytes.TrimSpace(line), []byte("data:")); ok {
			data = bytes.TrimSpace(data)
			if isResponse(data) {
				last = data
			}
		}
	}
	return last
}

package main

import (
	"bufio"
	"cmp"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/gosdk"
)

// The faults the proxy makes of every upstream request, in the order the
// audit tries them.
const (
	faultRefuse  = "refused"   // answered 502: the proxy could not reach the upstream
	faultReset   = "reset"     // the connection reset (RST) before any answer
	faultTimeout = "timed out" // the connection held open, never answered
)

var faultModes = []string{faultRefuse, faultReset, faultTimeout}

// maxFaultTools bounds the tools run under faults: each costs up to three
// calls, one of them the whole call timeout.
const maxFaultTools = 8

// faultProxy is the HTTP proxy a stdio server's upstream requests go to with
// -faults: every request, plain or CONNECT, meets the fault of the moment.
type faultProxy struct {
	ln   net.Listener
	done chan struct{}
	wg   sync.WaitGroup

	mu    sync.Mutex
	mode  string
	conns int // connections accepted since the last reset
	held  []net.Conn
}

func newFaultProxy() (*faultProxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &faultProxy{ln: ln, done: make(chan struct{}), mode: faultRefuse}
	p.wg.Add(1)
	go p.serve()
	return p, nil
}

func (p *faultProxy) url() string { return "http://" + p.ln.Addr().String() }

func (p *faultProxy) serve() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		mode := p.mode
		p.conns++
		p.mu.Unlock()
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			p.fault(c, mode)
		}()
	}
}

// fault does to one connection what mode says.
func (p *faultProxy) fault(c net.Conn, mode string) {
	switch mode {
	case faultRefuse:
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, err := http.ReadRequest(bufio.NewReader(c)); err == nil {
			c.Write([]byte("HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/plain\r\nContent-Length: 29\r\nConnection: close\r\n\r\nupstream connection refused\r\n"))
		}
		c.Close()
	case faultReset:
		if tc, ok := c.(*net.TCPConn); ok {
			tc.SetLinger(0)
		}
		c.Close()
	default: // held open until the mode changes or the proxy closes
		p.mu.Lock()
		p.held = append(p.held, c)
		p.mu.Unlock()
	}
}

// set changes the fault for the connections to come, ends the held ones,
// and restarts the count.
func (p *faultProxy) set(mode string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.held {
		c.Close()
	}
	p.held, p.mode, p.conns = nil, mode, 0
}

// reached reports how many connections came since the last set.
func (p *faultProxy) reached() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.conns
}

func (p *faultProxy) close() {
	p.ln.Close()
	p.set(faultRefuse)
	p.wg.Wait()
}

// proxyEnv is the server's environment with -faults: the audit's own, its
// proxy variables (both cases) pointed at the proxy, NO_PROXY cleared, and
// Node's fetch told to use them.
func proxyEnv(base []string, proxy string) []string {
	var env []string
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		switch strings.ToUpper(name) {
		case "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "NODE_USE_ENV_PROXY":
			continue
		}
		env = append(env, kv)
	}
	for _, name := range []string{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"} {
		env = append(env, name+"="+proxy, strings.ToLower(name)+"="+proxy)
	}
	return append(env, "NO_PROXY=", "no_proxy=", "NODE_USE_ENV_PROXY=1")
}

// secretName matches the names of environment variables whose values are
// secrets.
var secretName = regexp.MustCompile(`(?i)(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL)`)

// secrets returns the environment's secret values worth looking for (six
// bytes or more), by name.
func secrets(env []string) map[string]string {
	out := map[string]string{}
	for _, kv := range env {
		name, val, _ := strings.Cut(kv, "=")
		if secretName.MatchString(name) && len(val) >= 6 {
			out[name] = val
		}
	}
	return out
}

// faultChecks runs each tool with a valid base once per fault, in a session
// of a server whose upstream requests all go to the fault proxy; then looks
// in every answer of the audit for a secret of the server's environment.
func (a *auditor) faultChecks(ctx context.Context, tools []*mcp.Tool) error {
	main, mainConn := a.session, a.conn
	defer func() { a.session, a.conn, a.env = main, mainConn, nil }()
	a.session, a.conn = nil, nil
	a.env = proxyEnv(os.Environ(), a.faults.url())
	if err := a.connect(ctx); err != nil {
		return fmt.Errorf("starting the server with its proxy variables pointed at the fault proxy: %w", err)
	}
	defer a.close()
	var quiet []string
	faulted := 0
	for _, t := range tools {
		if len(a.filter) > 0 && !slices.Contains(a.filter, t.Name) {
			continue
		}
		base, ok := a.bases[t.Name]
		if !ok {
			continue
		}
		if faulted == maxFaultTools {
			a.rep.Limits = append(a.rep.Limits, fmt.Sprintf("-faults: ran the first %d tools that reach the proxy", maxFaultTools))
			break
		}
		for _, mode := range faultModes {
			a.faults.set(mode)
			start := time.Now()
			res, callErr, err := a.call(ctx, t.Name, base)
			if err != nil {
				return err
			}
			took := time.Since(start)
			raw := a.tapLast()
			ans, err := a.answerOf(ctx, res, callErr)
			if err != nil {
				return err
			}
			if a.faults.reached() == 0 {
				quiet = append(quiet, t.Name)
				break // no upstream request went through the proxy: nothing to fault
			}
			if mode == faultModes[0] {
				faulted++
			}
			c := check{Tool: t.Name, Probe: "upstream " + mode, Arguments: base, group: groupFaults, Raw: string(raw)}
			gradeFault(&c, ans, gosdk.Outcome(res, callErr), took, a.timeout)
			a.rep.add(c)
		}
	}
	if len(quiet) > 0 {
		a.rep.Limits = append(a.rep.Limits, fmt.Sprintf("-faults: %d tool(s) sent no request through the proxy (no upstream, or the server ignores HTTP_PROXY, as Node's fetch does before Node 24): %s", len(quiet), oneLine(strings.Join(quiet, ", "), 200)))
	}
	a.faults.set(faultRefuse)
	a.secrets = secrets(a.env)
	return nil
}

// gradeFault grades the answer to a call whose upstream failed: an isError
// result that errkind reads as network_error or unavailable, within the
// call's timeout.
func gradeFault(c *check, answer string, o errkind.Outcome, took, timeout time.Duration) {
	c.Answer = answer
	c.Text = answerText(o)
	if o.RPCCode != 0 {
		c.Code = int(o.RPCCode)
	}
	switch answer {
	case answerSessionEnded:
		c.Why = "the session ended when the upstream failed"
		return
	case answerNone:
		c.Why = fmt.Sprintf("no answer within the call's timeout (%s): the server waits on its upstream without a bound", timeout)
		return
	case answerSuccess:
		c.Why = "answered as a success while every upstream request failed"
		return
	}
	r := errkind.Read(o)
	c.Kind, c.Move = string(r.Kind), string(r.Move)
	readable := r.Kind == errkind.NetworkError || r.Kind == errkind.Unavailable
	switch {
	case answer == answerToolError && readable:
		c.OK, c.Points = true, 100
		c.Why = fmt.Sprintf("an isError result read as %s/%s, in %s", r.Kind, r.Move, took.Round(time.Millisecond))
	case answer == answerToolError:
		c.Points = 50
		c.Why = "an isError result, but errkind reads " + cmp.Or(string(r.Kind), "no kind") + ", not network_error or unavailable: the agent cannot tell to wait and retry"
	case readable:
		c.Points = 50
		c.Why = fmt.Sprintf("a JSON-RPC error (%d) read as %s, not an isError result: many clients keep it from the model", o.RPCCode, r.Kind)
	default:
		c.Why = fmt.Sprintf("a JSON-RPC error (%d) errkind reads as %s: neither reaches the model nor tells it to wait", o.RPCCode, cmp.Or(string(r.Kind), "no kind"))
	}
}

// leaks is a finding per secret of the environment that an answer echoes;
// the value itself is never written, only the variable's name.
func leaks(secret map[string]string, checks []check, controls []control) []string {
	var out []string
	for name, val := range secret {
		n := 0
		for _, c := range checks {
			if strings.Contains(c.Text, val) || strings.Contains(c.Raw, val) {
				n++
			}
		}
		for _, c := range controls {
			if strings.Contains(c.Text, val) {
				n++
			}
		}
		if n > 0 {
			out = append(out, fmt.Sprintf("%d answer(s) echo the value of the server's environment variable %s: a secret reaches the agent", n, name))
		}
	}
	return out
}

package adaptertest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/errkind"
)

// A Flood is what a stateful endpoint's session bounds must hold against:
// one client opens a session, a flood of initialize requests follows, from
// its own address (a shared NAT), from another, from one IPv6 /64 or from
// many addresses, and then the first client's session must still answer.
// The gosdk and mcpgo adapters run every Flood through a real server; an
// adapter for another SDK can run them too.
type Flood struct {
	// Name says who floods and what must hold.
	Name string
	// HTTP is the endpoint's options: the bounds and the Key.
	HTTP adapter.HTTP
	// Live is how many sessions the server holds after the flood.
	Live int

	victim   source      // opens the established session, before the flood
	flood    []source    // each sends one initialize, in order
	statuses map[int]int // how many of the flood's initialize requests get each HTTP status
}

// A source is where a request comes from: its address (host:port) and the
// subject a server's Key reads from the X-Subject header.
type source struct{ addr, subject string }

// A Result is what Run saw.
type Result struct {
	// Statuses is how many of the flood's initialize requests got each
	// HTTP status.
	Statuses map[int]int
	// Ping is the status of the victim's ping in its session after the
	// flood.
	Ping int
	// Refusals is, for each status of 400 and above, the kind errkind.Read
	// gets from its first answer's body as the TypeScript client hands it
	// over, when the answer's Retry-After is the wait Read gets; else what
	// they were.
	Refusals map[int]errkind.Kind
}

// Want is the Result a Flood must give: its statuses, the victim's ping
// answered 200, and each refusal read with its wait, as rate_limited (429:
// the client's own bound) or unavailable (503: the server's total).
func (f Flood) Want() Result {
	r := Result{Statuses: f.statuses, Ping: http.StatusOK, Refusals: map[int]errkind.Kind{}}
	for status := range f.statuses {
		switch status {
		case http.StatusTooManyRequests:
			r.Refusals[status] = errkind.RateLimited
		case http.StatusServiceUnavailable:
			r.Refusals[status] = errkind.Unavailable
		}
	}
	return r
}

// Initialize is an initialize request on revision 2025-06-18, as Open and
// Flood.Run send it.
const Initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`

// bySubject is the Key of a server that trusts the subject a proxy or an
// authentication layer put in X-Subject.
func bySubject(r *http.Request) string { return r.Header.Get("X-Subject") }

// Floods are the floods every stateful adapter must hold against.
func Floods() []Flood {
	victim := source{addr: "192.0.2.1:40000", subject: "bob"}
	return []Flood{
		{Name: "a flood from the victim's own address (a shared NAT) is refused; no session ends", Live: 100, victim: victim,
			flood:    sources(150, func(i int) source { return source{addr: fmt.Sprintf("192.0.2.1:%d", 1000+i)} }),
			statuses: map[int]int{200: 99, 429: 51}},
		{Name: "a flood from another address ends no session of the victim", Live: 101, victim: victim,
			flood:    sources(150, func(i int) source { return source{addr: fmt.Sprintf("192.0.2.2:%d", 1000+i)} }),
			statuses: map[int]int{200: 100, 429: 50}},
		{Name: "20,000 initializes from one IPv6 /64 hold its bound", Live: 101, victim: victim,
			flood:    sources(20000, func(i int) source { return source{addr: fmt.Sprintf("[2001:db8:1:2:%x:%x::1]:443", i>>8, i&0xff)} }),
			statuses: map[int]int{200: 100, 429: 19900}},
		{Name: "the total bound holds across many clients", HTTP: adapter.HTTP{MaxTotalSessions: 50}, Live: 50, victim: victim,
			flood:    sources(100, func(i int) source { return source{addr: fmt.Sprintf("198.51.100.%d:443", i)} }),
			statuses: map[int]int{200: 49, 503: 51}},
		{Name: "the server's Key names the client, whatever the address", HTTP: adapter.HTTP{MaxSessions: 3, Key: bySubject}, Live: 4, victim: victim,
			flood:    sources(10, func(int) source { return source{addr: victim.addr, subject: "alice"} }),
			statuses: map[int]int{200: 3, 429: 7}},
	}
}

// sources is f(0) to f(n-1).
func sources(n int, f func(int) source) []source {
	c := make([]source, n)
	for i := range c {
		c[i] = f(i)
	}
	return c
}

// Run serves f through h, a stateful endpoint built with f.HTTP: the
// victim's initialize, the flood's, and the victim's ping in its session,
// each from its own address and subject. It fails when the victim
// cannot open its session.
func (f Flood) Run(h http.Handler) (Result, error) {
	res := Result{Statuses: map[int]int{}, Refusals: map[int]errkind.Kind{}}
	w := send(h, f.victim, "", Initialize)
	id := w.Header().Get("Mcp-Session-Id")
	if w.Code != http.StatusOK || id == "" {
		return res, fmt.Errorf("the victim's initialize: status %d, session %q, body %s", w.Code, id, w.Body)
	}
	for _, c := range f.flood {
		w := send(h, c, "", Initialize)
		res.Statuses[w.Code]++
		if _, ok := res.Refusals[w.Code]; !ok && w.Code >= 400 {
			res.Refusals[w.Code] = refusedKind(w)
		}
	}
	res.Ping = send(h, f.victim, id, `{"jsonrpc":"2.0","id":2,"method":"ping"}`).Code
	return res, nil
}

// SessionBytes opens n sessions through h, a stateful endpoint, each from
// an address of its own (in 10.0.0.0/8, so that no client's bound refuses
// one), and returns the live heap they added, per session, after a garbage
// collection: what a session costs the server. It fails at the first
// initialize refused.
func SessionBytes(h http.Handler, n int) (float64, error) {
	before := heapAlloc()
	ids := make([]string, 0, n)
	for i := range n {
		c := source{addr: fmt.Sprintf("10.%d.%d.%d:443", i>>16&0xff, i>>8&0xff, i&0xff)}
		w := send(h, c, "", Initialize)
		id := w.Header().Get("Mcp-Session-Id")
		if w.Code != http.StatusOK || id == "" {
			return 0, fmt.Errorf("initialize %d: status %d, session %q, body %s", i, w.Code, id, w.Body)
		}
		ids = append(ids, id) // the ids the client keeps: not the server's
	}
	after := heapAlloc()
	runtime.KeepAlive(h)
	return (float64(after) - float64(before) - float64(cap(ids))*16) / float64(n), nil
}

// heapAlloc is the live heap, after a garbage collection.
func heapAlloc() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// refusedKind reads a refused initialize as the TypeScript client hands it
// over: its kind when Retry-After is the wait the body gives.
func refusedKind(w *httptest.ResponseRecorder) errkind.Kind {
	r := errkind.Read(errkind.Outcome{IsError: true, Text: "Streamable HTTP error: Error POSTing to endpoint: " + w.Body.String()})
	if ra := w.Header().Get("Retry-After"); !r.HasWait || ra != strconv.FormatInt(int64(r.Wait/time.Second), 10) {
		return errkind.Kind(fmt.Sprintf("%s with a wait of %v and Retry-After %q", r.Kind, r.Wait, ra))
	}
	return r.Kind
}

// send serves one POST through h from c, in session id when not "".
func send(h http.Handler, c source, id, body string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodPost, "http://localhost/mcp", strings.NewReader(body))
	r.RemoteAddr = c.addr
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	if c.subject != "" {
		r.Header.Set("X-Subject", c.subject)
	}
	if id != "" {
		r.Header.Set("Mcp-Session-Id", id)
		r.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// Package session keeps the live sessions of a stateful MCP endpoint, by
// client, so that an adapter (modules gosdk and mcpgo, or one for another
// SDK) can end the ones a client leaves idle and bound how many one client,
// and all clients together, hold at once.
//
// The bounds refuse; they never end a session. A client at its bound
// (MaxPerClient) and any client while the endpoint is at its total
// (MaxTotal) are refused a new session by Reserve, with the time until the
// idle timeout can free one; every established session stays live until its
// own client ends it or leaves it idle. So a flood of initialize requests,
// from one client or from many, costs the flood its own sessions and no
// other client's. A session idle for longer than the idle timeout is never
// counted: Reserve ends such sessions before it refuses.
//
// Memory is bounded by the bounds. The table holds 190 to 450 bytes a
// session (its id, its key and their map entries; the most when each
// client holds one); what a session costs is mostly the SDK's state behind
// it: the adapters' BenchmarkSessionMemory measured 5.5 KiB a session in
// all on the go-sdk and 10.5 KiB on mcp-go, so at the default bounds one
// client holds at most about 0.5 or 1 MiB, and all of them about 55 or
// 105 MiB.
package session

import (
	"fmt"
	"sync"
	"time"
)

// IdleTimeout is how long a session of a stateful endpoint may
// stay idle (no request names it) before it ends, when the server sets no
// timeout of its own; the adapters (gosdk, mcpgo) apply it, and their HTTPOptions say so. A client whose
// session ended is answered 404 and starts a new one, as Streamable HTTP
// requires; until then the session holds the server's memory.
const IdleTimeout = 10 * time.Minute

// MaxPerClient is how many sessions of a stateful endpoint one client
// (one key: see adapter.HTTP's Key) may hold at once, when the server sets no bound
// of its own; the adapters (gosdk, mcpgo) apply it, and their HTTPOptions say so. A client at
// the bound is refused a new session until it ends one (a DELETE) or one
// of its sessions ends idle; its established sessions, and every other
// client's, stay live.
const MaxPerClient = 100

// MaxTotal is how many sessions of a stateful endpoint all clients together
// may hold at once, when the server sets no bound of its own; the adapters
// (gosdk, mcpgo) apply it. At the bound every new session is refused until
// one ends; no established session ends for it.
const MaxTotal = 10000

// A Table is the live sessions of an endpoint: for each, the client (key)
// that opened it and when a request last named it. It is safe for
// concurrent use. An adapter asks Reserve before the SDK opens a session,
// records the session the SDK opened with Open, then calls Release; it
// ends in the SDK each session Reserve and Expired return.
type Table struct {
	max   int           // sessions one key may hold; <= 0 means no bound
	total int           // sessions all keys may hold; <= 0 means no bound
	idle  time.Duration // how long a session may stay idle; <= 0 means for ever

	mu      sync.Mutex
	ids     map[string]*entry
	keys    map[string]map[string]*entry // key -> its sessions; the empty key is not kept
	held    map[string]int               // key -> the places Reserve holds for it
	heldAll int                          // the places Reserve holds, for every key
	next    time.Time                    // the earliest next look for idle sessions
	oldest  time.Time                    // no session serving no request was last used before
}

type entry struct {
	id, key string
	last    time.Time
	busy    int // requests in the session still being served
}

// New returns a Table that bounds each key to max sessions and all keys
// together to total (<= 0: no bound), and ends a session idle for longer
// than idle (<= 0: never).
func New(max, total int, idle time.Duration) *Table {
	return &Table{max: max, total: total, idle: idle, ids: map[string]*entry{}, keys: map[string]map[string]*entry{}, held: map[string]int{}}
}

// A Full is Reserve's refusal: the client is at its bound, or the table at
// its total.
type Full struct {
	// Total says the bound is the table's total, not the client's.
	Total bool
	// Max is the bound.
	Max int
	// Wait is how long until the idle timeout can end one of the sessions
	// counted, at the earliest (a request in it puts it off), and at least
	// a second; the idle timeout when each of them is serving a request,
	// and 0 when the table has no idle timeout.
	Wait time.Duration
}

func (f *Full) Error() string {
	if f.Total {
		return fmt.Sprintf("session: the endpoint holds %d sessions, its bound", f.Max)
	}
	return fmt.Sprintf("session: the client holds %d sessions, its bound", f.Max)
}

// Reserve holds a place for one session that key is about to open, until
// Release, or refuses it with a *Full when key already holds its bound
// (sessions and places held; the empty key has no bound of its own) or all
// keys together hold the total. Sessions idle for longer than the idle
// timeout are not counted: Reserve forgets and returns them (end), for the
// adapter to end, before it decides. It never ends a session in use.
func (t *Table) Reserve(key string, now time.Time) (end []string, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if key != "" && t.max > 0 && t.count(key) >= t.max {
		var wait time.Duration
		end, wait = t.expireKey(key, now)
		if t.count(key) >= t.max {
			return end, &Full{Max: t.max, Wait: wait}
		}
	}
	if t.total > 0 && len(t.ids)+t.heldAll >= t.total {
		if t.idle > 0 && now.Sub(t.oldest) > t.idle { // a session may be idle: look
			end = append(end, t.expire(now)...)
		}
		if len(t.ids)+t.heldAll >= t.total {
			var wait time.Duration
			if t.idle > 0 {
				wait = max(t.oldest.Add(t.idle).Sub(now), time.Second)
			}
			return end, &Full{Total: true, Max: t.total, Wait: wait}
		}
	}
	t.held[key]++
	t.heldAll++
	return end, nil
}

// Release gives back the place Reserve held for key, once the session is
// open (Open) or failed to open.
func (t *Table) Release(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.held[key] > 0 {
		t.heldAll--
		if t.held[key]--; t.held[key] == 0 {
			delete(t.held, key)
		}
	}
}

// Open records session id, opened by key, or moves it to key if it is
// already recorded (an SDK that records its sessions as it makes them,
// before the adapter knows the client, records them with the empty key).
// The bounds are Reserve's: Open records whatever it is given.
func (t *Table) Open(id, key string, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e := t.ids[id]
	if e == nil {
		e = &entry{id: id}
		t.ids[id] = e
	} else {
		t.unkey(e)
	}
	e.key, e.last = key, now
	if key == "" {
		return
	}
	ks := t.keys[key]
	if ks == nil {
		ks = map[string]*entry{}
		t.keys[key] = ks
	}
	ks[id] = e
}

// Touch marks session id used at now and reports whether it is live.
func (t *Table) Touch(id string, now time.Time) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	e := t.ids[id]
	if e != nil {
		e.last = now
	}
	return e != nil
}

// Begin marks session id used at now by a request still being served, until
// Done: a session serving a request is never idle.
func (t *Table) Begin(id string, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if e := t.ids[id]; e != nil {
		e.last = now
		e.busy++
	}
}

// Done marks the end at now of a request Begin marked.
func (t *Table) Done(id string, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if e := t.ids[id]; e != nil && e.busy > 0 {
		e.last = now
		e.busy--
	}
}

// End forgets session id.
func (t *Table) End(id string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if e := t.ids[id]; e != nil {
		t.forget(e)
	}
}

// Expired forgets and returns the sessions idle for longer than the
// Table's idle time. It looks at most once every quarter of that time, so
// that its cost, linear in the live sessions, stays small per request.
func (t *Table) Expired(now time.Time) []string {
	if t.idle <= 0 {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if now.Before(t.next) {
		return nil
	}
	return t.expire(now)
}

// Len returns the number of live sessions.
func (t *Table) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.ids)
}

// count returns the sessions key holds and the places held for it.
func (t *Table) count(key string) int {
	return len(t.keys[key]) + t.held[key]
}

// expire forgets and returns every session idle for longer than the idle
// time, and notes when the oldest of the others was last used; idle > 0.
func (t *Table) expire(now time.Time) []string {
	t.next = now.Add(t.idle / 4)
	t.oldest = now
	var ids []string
	for id, e := range t.ids {
		switch {
		case e.busy > 0:
		case now.Sub(e.last) > t.idle:
			ids = append(ids, id)
			t.forget(e)
		case e.last.Before(t.oldest):
			t.oldest = e.last
		}
	}
	return ids
}

// expireKey forgets and returns key's sessions idle for longer than the
// idle time, and reports how long until the idle time can end one of the
// others (see Full.Wait).
func (t *Table) expireKey(key string, now time.Time) (ids []string, wait time.Duration) {
	if t.idle <= 0 {
		return nil, 0
	}
	wait = t.idle
	for id, e := range t.keys[key] {
		switch {
		case e.busy > 0:
		case now.Sub(e.last) > t.idle:
			ids = append(ids, id)
			t.forget(e)
		default:
			wait = min(wait, e.last.Add(t.idle).Sub(now))
		}
	}
	return ids, max(wait, time.Second)
}

func (t *Table) forget(e *entry) {
	delete(t.ids, e.id)
	t.unkey(e)
}

func (t *Table) unkey(e *entry) {
	if ks := t.keys[e.key]; ks != nil {
		delete(ks, e.id)
		if len(ks) == 0 {
			delete(t.keys, e.key)
		}
	}
}

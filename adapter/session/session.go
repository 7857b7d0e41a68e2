// Package session keeps the live sessions of a stateful MCP endpoint, by
// client, so that an adapter (modules gosdk and mcpgo, or one for another
// SDK) can end the ones a client leaves idle and bound how many one client
// holds at once.
package session

import (
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
// (one key of the limits) may hold at once, when the server sets no bound
// of its own; the adapters (gosdk, mcpgo) apply it, and their HTTPOptions say so. A client that opens one
// more ends its least recently used one, so a client that never ends its
// sessions still holds at most this many.
const MaxPerClient = 100

// A Table is the live sessions of an endpoint: for each, the client (key)
// that opened it and when a request last named it. It is safe for
// concurrent use. The adapter ends in the SDK each session Open and
// Expired return.
type Table struct {
	max  int           // sessions one key may hold; <= 0 means no bound
	idle time.Duration // how long a session may stay idle; <= 0 means for ever

	mu   sync.Mutex
	ids  map[string]*entry
	keys map[string]map[string]*entry // key -> its sessions; the empty key is not counted
	next time.Time                    // the earliest next look for idle sessions
}

type entry struct {
	id, key string
	last    time.Time
	busy    int // requests in the session still being served
}

// New returns a Table that bounds each key to max sessions (<= 0: no
// bound) and ends a session idle for longer than idle (<= 0: never).
func New(max int, idle time.Duration) *Table {
	return &Table{max: max, idle: idle, ids: map[string]*entry{}, keys: map[string]map[string]*entry{}}
}

// Open records session id, opened by key, or moves it to key if it is
// already recorded, and returns the sessions that must end for key to stay
// within the bound: its least recently used ones (those serving no request
// first), which Open forgets. The empty key is not bounded.
func (t *Table) Open(id, key string, now time.Time) (end []string) {
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
		return nil
	}
	ks := t.keys[key]
	if ks == nil {
		ks = map[string]*entry{}
		t.keys[key] = ks
	}
	ks[id] = e
	for t.max > 0 && len(ks) > t.max {
		var lru *entry
		for _, o := range ks {
			if o != e && (lru == nil || idler(o, lru)) {
				lru = o
			}
		}
		t.forget(lru)
		end = append(end, lru.id)
	}
	return end
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
// Done: a session serving a request is never idle, and it ends for its
// client's bound only when all of that client's sessions are busy.
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
	t.next = now.Add(t.idle / 4)
	var ids []string
	for id, e := range t.ids {
		if e.busy == 0 && now.Sub(e.last) > t.idle {
			ids = append(ids, id)
			t.forget(e)
		}
	}
	return ids
}

// Len returns the number of live sessions.
func (t *Table) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.ids)
}

// idler reports whether a should end before b: a session serving no
// request before a busy one, then the least recently used.
func idler(a, b *entry) bool {
	if (a.busy == 0) != (b.busy == 0) {
		return a.busy == 0
	}
	return a.last.Before(b.last)
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

package mcpserver

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/mcperr/mcperr/examples/news/newsindex"
)

// watch is a saved query whose matching articles are its events.
type watch struct {
	ID      string    `json:"id"`
	Query   string    `json:"query"`
	Signals []string  `json:"signals"`
	Created time.Time `json:"created"`
}

type watchResult struct {
	Watch watch `json:"watch"`
	charged
}

type deletedResult struct {
	ID      string `json:"id"`
	Deleted bool   `json:"deleted"`
	charged
}

type event struct {
	Article brief    `json:"article"`
	Signals *signals `json:"signals,omitempty"`
}

type eventsResult struct {
	WatchID string `json:"watch_id"`
	completeness
	Events []event `json:"events"`
	charged
}

func (s *Server) createWatch(ctx context.Context, acct *account, a *args) (result, *ToolError) {
	if s.shared != nil {
		w, held, ok, err := s.shared.create(ctx, acct.id, acct.key.WatchCap, watch{Query: a.query, Signals: nonNil(slices.Clone(a.signals)), Created: s.now().UTC()})
		switch {
		case err != nil:
			return nil, watchStoreDown()
		case !ok:
			return nil, watchLimit(acct, held)
		}
		return &watchResult{Watch: w}, nil
	}
	acct.mu.Lock()
	defer acct.mu.Unlock()
	if n := len(acct.watches); n >= acct.key.WatchCap {
		return nil, watchLimit(acct, n)
	}
	w := &watch{ID: fmt.Sprintf("w-%d", s.nextWatch.Add(1)), Query: a.query, Signals: nonNil(slices.Clone(a.signals)), Created: s.now().UTC()}
	acct.watches = append(acct.watches, w)
	return &watchResult{Watch: *w}, nil
}

// watchLimit is the refusal of a watch over the cap of acct, which keeps n.
func watchLimit(acct *account, n int) *ToolError {
	e := newError(WatchLimit, "this account keeps %d watches and its plan (%s) allows %d; delete one with delete_watch, or change plan", n, acct.key.Name, acct.key.WatchCap)
	e.WatchesUsed, e.WatchesLimit = ptr(n), ptr(acct.key.WatchCap)
	return e
}

// watchStoreDown is the answer of a watch tool when the shared watch store
// does not answer.
func watchStoreDown() *ToolError {
	e := newError(UpstreamUnavailable, "the watch store is not answering; retry in a few seconds")
	e.RetryAfterSecs = 5
	return e
}

// sharedWatch returns acct's watch id from the shared store.
func (s *Server) sharedWatch(ctx context.Context, acct *account, id string) (watch, *ToolError) {
	w, ok, err := s.shared.get(ctx, acct.id, id)
	switch {
	case err != nil:
		return watch{}, watchStoreDown()
	case !ok:
		return watch{}, newError(NotFound, "this account has no watch with id '%s'", quoteName(id))
	}
	return w, nil
}

// findWatch returns the account's watch with the given id. acct.mu is held.
func (s *Server) findWatch(acct *account, id string) (int, *ToolError) {
	for i, w := range acct.watches {
		if w.ID == id {
			return i, nil
		}
	}
	return -1, newError(NotFound, "this account has no watch with id '%s'", quoteName(id))
}

func (s *Server) getWatch(ctx context.Context, acct *account, a *args) (result, *ToolError) {
	if s.shared != nil {
		w, e := s.sharedWatch(ctx, acct, a.id)
		if e != nil {
			return nil, e
		}
		return &watchResult{Watch: w}, nil
	}
	acct.mu.Lock()
	defer acct.mu.Unlock()
	i, e := s.findWatch(acct, a.id)
	if e != nil {
		return nil, e
	}
	return &watchResult{Watch: *acct.watches[i]}, nil
}

func (s *Server) deleteWatch(ctx context.Context, acct *account, a *args) (result, *ToolError) {
	if s.shared != nil {
		ok, err := s.shared.remove(ctx, acct.id, a.id)
		switch {
		case err != nil:
			return nil, watchStoreDown()
		case !ok:
			return nil, newError(NotFound, "this account has no watch with id '%s'", quoteName(a.id))
		}
		return &deletedResult{ID: a.id, Deleted: true}, nil
	}
	acct.mu.Lock()
	defer acct.mu.Unlock()
	i, e := s.findWatch(acct, a.id)
	if e != nil {
		return nil, e
	}
	acct.watches = slices.Delete(acct.watches, i, i+1)
	return &deletedResult{ID: a.id, Deleted: true}, nil
}

func (s *Server) watchEvents(ctx context.Context, acct *account, a *args) (result, *ToolError) {
	var (
		w watch
		e *ToolError
	)
	if s.shared != nil {
		w, e = s.sharedWatch(ctx, acct, a.id)
	} else {
		acct.mu.Lock()
		var i int
		i, e = s.findWatch(acct, a.id)
		if e == nil {
			w = *acct.watches[i]
		}
		acct.mu.Unlock()
	}
	if e != nil {
		return nil, e
	}
	since := a.since
	if !a.has("since") {
		since = s.index.Start()
	}
	arts, total, cov := s.index.Since(w.Query, since, eventsPage, s.isDown)
	out := &eventsResult{WatchID: w.ID, Events: []event{}}
	if e := s.complete(&out.completeness, cov, total, len(arts)); e != nil {
		return nil, e
	}
	out.FromClamped = a.has("since") && a.since.Before(s.index.Start())
	for _, art := range arts {
		var sg *signals
		if len(w.Signals) > 0 {
			sg = pick(newsindex.StorySignals([]newsindex.Article{art}), w.Signals)
		}
		out.Events = append(out.Events, event{Article: briefOf(art), Signals: sg})
	}
	return out, nil
}

package schemaerr

import (
	"encoding/json"
	"maps"
	"sync"
	"sync/atomic"
)

// A Set holds the compiled input schemas of a server's tools, by tool name,
// for an SDK adapter that checks every call's arguments: a tool's schema is
// compiled the first time the tool is called, and again only when the tool
// is replaced. V tells one version of a tool from the next: the tool's
// pointer, or a fingerprint of its schema. The zero value is ready to use; a
// Set is safe for concurrent use and must not be copied after first use.
type Set[V comparable] struct {
	// Schemas, by tool name, are schemas to validate with in place of the
	// tool's published input schema; an empty one is not used.
	Schemas map[string]json.RawMessage

	// Bounds bound every call's arguments and the work validating them
	// takes; each schema is compiled with them ([Options].Bounds). Set them
	// before first use.
	Bounds Bounds

	// Patterns runs the patterns RE2 cannot (lookahead, lookbehind,
	// backreferences), such as ecmaregexp.Engine; nil leaves such a schema
	// failing to compile with a *PatternError ([Options].Patterns). Set it before
	// first use.
	Patterns PatternEngine

	// Cache, if set, shares the compiled schemas with every other Set that
	// uses it: a schema another Set compiled with the same Bounds and
	// Patterns is not compiled again. Set it before first use.
	Cache *Cache

	mu    sync.Mutex // serialises changes to tools
	tools atomic.Pointer[map[string]*setEntry[V]]
}

// setEntry is one version of one tool's schema, compiled once.
type setEntry[V comparable] struct {
	version V
	once    sync.Once
	schema  *Schema
	err     error
}

// Schema returns the compiled schema of the tool called name, at version v.
// published returns the tool's published input schema as JSON; Schema calls
// it only to compile, and only when Schemas has no schema for the tool. The
// error is published's or Compile's, and stays the answer for that version
// of the tool: a schema that does not compile is the server's bug.
func (s *Set[V]) Schema(name string, v V, published func() ([]byte, error)) (*Schema, error) {
	e := s.entry(name)
	if e == nil || e.version != v {
		s.mu.Lock()
		if e = s.entry(name); e == nil || e.version != v {
			e = &setEntry[V]{version: v}
			s.change(func(m map[string]*setEntry[V]) { m[name] = e })
		}
		s.mu.Unlock()
	}
	e.once.Do(func() {
		b := []byte(s.Schemas[name])
		if len(b) == 0 {
			if b, e.err = published(); e.err != nil {
				return
			}
		}
		e.schema, e.err = s.Cache.compile(b, s.Bounds, s.Patterns)
	})
	return e.schema, e.err
}

// Retain drops the compiled schemas of the tools keep reports false for,
// such as the tools a server no longer has.
func (s *Set[V]) Retain(keep func(name string) bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.change(func(m map[string]*setEntry[V]) {
		maps.DeleteFunc(m, func(name string, _ *setEntry[V]) bool { return !keep(name) })
	})
}

// entry returns the named tool's entry. It reads without a lock: the map
// is replaced, never changed.
func (s *Set[V]) entry(name string) *setEntry[V] {
	if m := s.tools.Load(); m != nil {
		return (*m)[name]
	}
	return nil
}

// change replaces the map with a copy that f changed. The caller holds mu.
func (s *Set[V]) change(f func(map[string]*setEntry[V])) {
	m := make(map[string]*setEntry[V])
	if old := s.tools.Load(); old != nil {
		maps.Copy(m, *old)
	}
	f(m)
	s.tools.Store(&m)
}

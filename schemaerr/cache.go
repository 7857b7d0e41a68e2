package schemaerr

import (
	"container/list"
	"reflect"
	"sync"
)

// defaultCacheMax is how many compiled schemas a Cache holds when its Max is
// zero.
const defaultCacheMax = 1024

// A Cache shares compiled schemas across Sets, so that servers built anew
// for every request (a new SDK server per HTTP request, each with its own
// validation) compile each distinct schema once, as a long-lived server
// does. Schemas are found by their bytes and the Set's Bounds and Patterns;
// a Set whose Patterns is not a comparable value does not use the Cache. It
// holds at most Max schemas (zero means 1024), dropping the one least
// recently used. The zero value is ready to use; a Cache is safe for
// concurrent use and must not be copied after first use.
type Cache struct {
	// Max bounds how many compiled schemas the Cache holds; zero means
	// 1024. Set it before first use.
	Max int

	mu  sync.Mutex
	m   map[cacheKey]*list.Element
	lru list.List // of *cacheEntry, most recently used first
}

type cacheKey struct {
	schema   string
	bounds   Bounds
	patterns PatternEngine
}

type cacheEntry struct {
	key    cacheKey
	once   sync.Once
	schema *Schema
	err    error
}

// compile returns schema compiled with bounds and patterns, from the cache
// when it holds it.
func (c *Cache) compile(schema []byte, bounds Bounds, patterns PatternEngine) (*Schema, error) {
	if c == nil || (patterns != nil && !reflect.TypeOf(patterns).Comparable()) {
		return Compile(schema, &Options{Bounds: bounds, Patterns: patterns})
	}
	k := cacheKey{string(schema), bounds, patterns}
	c.mu.Lock()
	if c.m == nil {
		c.m = make(map[cacheKey]*list.Element)
	}
	el, ok := c.m[k]
	if ok {
		c.lru.MoveToFront(el)
	} else {
		el = c.lru.PushFront(&cacheEntry{key: k})
		c.m[k] = el
		max := c.Max
		if max <= 0 {
			max = defaultCacheMax
		}
		for c.lru.Len() > max {
			old := c.lru.Back()
			c.lru.Remove(old)
			delete(c.m, old.Value.(*cacheEntry).key)
		}
	}
	e := el.Value.(*cacheEntry)
	c.mu.Unlock()
	// Compiled outside the lock, once: other schemas are served meanwhile.
	e.once.Do(func() { e.schema, e.err = Compile(schema, &Options{Bounds: bounds, Patterns: patterns}) })
	return e.schema, e.err
}

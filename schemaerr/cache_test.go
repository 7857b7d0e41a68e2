package schemaerr

import (
	"fmt"
	"testing"
)

// TestCacheShares: two Sets on one Cache compile a schema once and share
// the compiled value; other Bounds compile it apart; the Cache keeps at most
// Max schemas, dropping the least recently used.
func TestCacheShares(t *testing.T) {
	var c Cache
	schema := []byte(`{"type":"object","properties":{"id":{"type":"string"}}}`)
	a, b, other := &Set[int]{Cache: &c}, &Set[int]{Cache: &c}, &Set[int]{Cache: &c, Bounds: Bounds{MaxIssues: 3}}
	sa, err := a.Schema("get", 1, func() ([]byte, error) { return schema, nil })
	if err != nil {
		t.Fatal(err)
	}
	sb, _ := b.Schema("lookup", 1, func() ([]byte, error) { return schema, nil })
	so, _ := other.Schema("get", 1, func() ([]byte, error) { return schema, nil })
	if sa != sb {
		t.Error("two Sets on one Cache compiled the same schema twice")
	}
	if sa == so {
		t.Error("a Set with other Bounds got a schema compiled with the first Set's")
	}

	small := Cache{Max: 2}
	compile := func(i int) *Schema {
		s, err := small.compile([]byte(fmt.Sprintf(`{"maxLength":%d}`, i)), Bounds{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	first := compile(1)
	compile(2)
	if compile(1) != first {
		t.Error("a schema still in the Cache was compiled again")
	}
	compile(3) // drops 2, the least recently used
	if n := small.lru.Len(); n != 2 {
		t.Errorf("the Cache holds %d schemas, want its Max, 2", n)
	}
	if _, ok := small.m[cacheKey{schema: `{"maxLength":2}`}]; ok {
		t.Error("the least recently used schema was kept")
	}
}

// nonComparable is a PatternEngine that cannot be a map key.
type nonComparable struct{ _ []int }

func (nonComparable) Compile(string, bool) (Matcher, error) { return nil, nil }

// TestCacheNonComparablePatterns: a Set whose Patterns cannot be compared
// compiles its schemas itself, without a panic.
func TestCacheNonComparablePatterns(t *testing.T) {
	var c Cache
	s := &Set[int]{Cache: &c, Patterns: nonComparable{}}
	if _, err := s.Schema("t", 1, func() ([]byte, error) { return []byte(`{"type":"object"}`), nil }); err != nil {
		t.Fatal(err)
	}
	if c.lru.Len() != 0 {
		t.Error("a schema compiled with non-comparable Patterns went into the Cache")
	}
}

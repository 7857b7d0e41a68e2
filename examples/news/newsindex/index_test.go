package newsindex

import (
	"testing"
	"time"
)

func TestNewDeterministic(t *testing.T) {
	a, b := New(4), New(4)
	na, sa := a.Len()
	nb, sb := b.Len()
	if na != nb || sa != sb {
		t.Fatalf("sizes differ: %d/%d vs %d/%d", na, sa, nb, sb)
	}
	if na < 2000 || na > 6000 {
		t.Errorf("articles = %d, want a few thousand", na)
	}
	for _, id := range []string{"a-00001", "a-01000", "a-02000"} {
		x, _ := a.Article(id)
		y, _ := b.Article(id)
		if x.Title != y.Title || !x.Published.Equal(y.Published) {
			t.Errorf("%s differs between builds", id)
		}
	}
}

func TestShardsAndWindow(t *testing.T) {
	ix := New(4)
	seen := map[int]int{}
	n, _ := ix.Len()
	for i := 1; i <= n; i++ {
		a, ok := ix.Article(articleID(i))
		if !ok {
			t.Fatalf("missing %s", articleID(i))
		}
		if a.Published.Before(ix.Start()) || !a.Published.Before(ix.End()) {
			t.Errorf("%s published %v outside the window", a.ID, a.Published)
		}
		from, to := ix.ShardRange(a.Shard)
		if a.Published.Before(from) || !a.Published.Before(to) {
			t.Errorf("%s in shard %d but published %v", a.ID, a.Shard, a.Published)
		}
		seen[a.Shard]++
	}
	if len(seen) != Shards {
		t.Errorf("articles on %d shards, want %d", len(seen), Shards)
	}
}

func articleID(i int) string {
	return "a-" + pad5(i)
}

func pad5(i int) string {
	s := []byte("00000")
	for p := 4; p >= 0 && i > 0; p-- {
		s[p] = byte('0' + i%10)
		i /= 10
	}
	return string(s)
}

func TestSearchCoverage(t *testing.T) {
	ix := New(4)
	all := ix.Search(Query{Text: "wind"}, nil)
	if all.Total == 0 || !all.Coverage.Complete() {
		t.Fatalf("search wind: total %d, coverage %+v", all.Total, all.Coverage)
	}
	down := func(s int) bool { return s >= 4 }
	part := ix.Search(Query{Text: "wind"}, down)
	if part.Coverage.Complete() || len(part.Coverage.Answered) != 4 || part.Total > all.Total {
		t.Errorf("partial: %+v total %d", part.Coverage, part.Total)
	}
	from, _ := ix.ShardRange(5)
	none := ix.Search(Query{Text: "wind", From: from}, down)
	if len(none.Coverage.Answered) != 0 || len(none.Coverage.Needed) != 1 {
		t.Errorf("last shard only: %+v", none.Coverage)
	}
	early := ix.Search(Query{Text: "wind", From: time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)}, nil)
	if early.Total != all.Total {
		t.Errorf("clamped from: total %d, want %d", early.Total, all.Total)
	}
}

package newsindex_test

import (
	"fmt"

	"github.com/mcperr/mcperr/examples/news/newsindex"
)

// A search that reaches only some shards says so: its coverage lists the
// shards it needed and those that answered.
func ExampleIndex_Search() {
	ix := newsindex.New(4)
	down := func(shard int) bool { return shard == 5 }
	res := ix.Search(newsindex.Query{Text: "offshore wind", Limit: 1}, down)
	fmt.Println(res.Total, res.Coverage.Needed, res.Coverage.Answered, res.Coverage.Complete())
	fmt.Println(res.Hits[0].Story.ID, res.Hits[0].Story.Headline)
	// Output:
	// 10 [0 1 2 3 4 5] [0 1 2 3 4] false
	// s-0287 Vantor Foods announces offshore wind tender
}

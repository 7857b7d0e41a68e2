package mcpserver

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/mcperr/mcperr/examples/news/newsindex"
	"github.com/mcperr/mcperr/wire"
)

var benchArgs = json.RawMessage(`{"query":"offshore wind","language":"en","signals":["sentiment","topics"],"from":"2026-08-10T00:00:00Z","to":"2026-10-20T00:00:00Z","limit":20,"max_credits":10}`)

// BenchmarkValidate is the argument check of every call: schemaerr's hint
// dialect and the server's own checks. Anchor: BenchmarkUnmarshalArgs.
func BenchmarkValidate(b *testing.B) {
	s := mustNew(b, Config{})
	tl := s.tool("search_stories")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tl.validate(benchArgs); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUnmarshalArgs is the anchor: a plain json.Unmarshal of the same
// arguments into a map, which checks nothing.
func BenchmarkUnmarshalArgs(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		var m map[string]any
		if err := json.Unmarshal(benchArgs, &m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRefuse is a refused call: an undeclared argument with a hint.
func BenchmarkRefuse(b *testing.B) {
	s := mustNew(b, Config{})
	tl := s.tool("search_stories")
	bad := json.RawMessage(`{"query":"offshore wind","langauge":"en","limit":20}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tl.validate(bad); err == nil {
			b.Fatal("accepted")
		}
	}
}

// BenchmarkSearch is the index read of a search over every shard.
func BenchmarkSearch(b *testing.B) {
	ix := newsindex.New(4)
	q := newsindex.Query{Text: "offshore wind", Limit: 20}
	b.ReportAllocs()
	for b.Loop() {
		ix.Search(q, nil)
	}
}

// BenchmarkCall is a whole priced search for a hosted account: validation,
// the budget, the search, the charge and the envelope.
func BenchmarkCall(b *testing.B) {
	now := time.Date(2026, 11, 26, 10, 30, 0, 0, time.UTC)
	s := mustNew(b, Config{Now: func() time.Time { return now }, Keys: []Key{{Key: "k", Plan: Plan{MonthlyCredits: 1 << 40, MessagesPerMinute: 1, CreditsPerMinute: 1 << 40, WatchCap: 1}}}})
	tl, acct := s.tool("search_stories"), s.account("k")
	b.ReportAllocs()
	for b.Loop() {
		out := s.call(b.Context(), acct, tl, benchArgs)
		if out.ok == nil {
			b.Fatal(out.toolErr, out.argErr)
		}
		if _, err := wire.Success(out.ok); err != nil {
			b.Fatal(err)
		}
	}
}

package wire_test

import (
	"errors"
	"testing"

	"github.com/mcperr/mcperr/wire"
)

// BenchmarkSuccess renders a small search page: one encode, one copy for
// the text block.
func BenchmarkSuccess(b *testing.B) {
	page := map[string]any{"total": 6, "has_more": false, "stories": []string{"a", "b", "c"}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := wire.Success(page); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkErrorResultForeign renders an error that carries no kind.
func BenchmarkErrorResultForeign(b *testing.B) {
	err := errors.New("index offline")
	b.ReportAllocs()
	for b.Loop() {
		wire.ErrorResult(err)
	}
}

package envelope_test

import "testing"

// TestSixthBatchShape keeps the sixth batch (testdata/corpus/batch6.jsonl)
// what its commit says: at least 200 cases from at least 100 APIs, none of
// them an API of the four earlier files, names unique, sources present,
// kinds standard.
func TestSixthBatchShape(t *testing.T) {
	checkBatchShape(t, "batch6.jsonl", "responses.jsonl", "fresh.jsonl", "batch3.jsonl", "batch4.jsonl")
}

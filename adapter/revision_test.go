package adapter

import "testing"

// Revisions from 2026-07-28 on write resultType "complete"; earlier ones
// and an empty revision write none.
func TestResultType(t *testing.T) {
	for v, want := range map[string]string{"2026-07-28": "complete", "2027-01-01": "complete", "2025-11-25": "", "2025-06-18": "", "": ""} {
		if got := ResultType(v); got != want {
			t.Errorf("ResultType(%q) = %q, want %q", v, got, want)
		}
	}
}

package revision

import "testing"

// Revisions from 2026-07-28 on write resultType; earlier ones and an empty
// revision do not.
func TestHasResultType(t *testing.T) {
	for v, want := range map[string]bool{"2026-07-28": true, "2027-01-01": true, "2025-11-25": false, "2025-06-18": false, "": false} {
		if got := HasResultType(v); got != want {
			t.Errorf("HasResultType(%q) = %v, want %v", v, got, want)
		}
	}
}

package adapter

// ResultType is the "resultType" of a final tool result (every result a
// tool handler or mcperr returns) on protocol revision version: "complete"
// from revision 2026-07-28 on, when results carry it, and "" (no member)
// before. Revisions are dates, so a later one compares greater as a string;
// an empty version is an earlier one.
func ResultType(version string) string {
	if version >= "2026-07-28" {
		return "complete"
	}
	return ""
}

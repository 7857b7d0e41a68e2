// Package revision holds what changes with the MCP protocol revision a
// session speaks, so that the packages that write for one revision or
// another (front, the SDK adapters) decide it in one place.
package revision

// ResultTypes is the first protocol revision whose results carry
// "resultType" ("complete" for a tool result that is final). Revisions are
// dates, so a later one compares greater as a string.
const ResultTypes = "2026-07-28"

// Complete is the resultType of a tool result that is final: every result a
// tool handler or mcperr returns.
const Complete = "complete"

// HasResultType reports whether a session on protocol revision v writes
// "resultType" in its results.
func HasResultType(v string) bool { return v >= ResultTypes }

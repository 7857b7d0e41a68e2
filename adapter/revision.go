package adapter

import "encoding/json"

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

// Revision returns the protocol revision a request's params name in their
// _meta ("io.modelcontextprotocol/protocolVersion", which revision
// 2026-07-28 and later carry in every request), or "" when they name none:
// an earlier revision, or a request that leaves it to its session. It
// decodes params: a transport asks it of the requests it refuses, not of
// every request.
func Revision(params json.RawMessage) string {
	var p struct {
		Meta struct {
			Version string `json:"io.modelcontextprotocol/protocolVersion"`
		} `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil {
		return ""
	}
	return p.Meta.Version
}

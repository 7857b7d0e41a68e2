package envelope_test

import "testing"

// This file holds the seventh round of general rules (issue 27), tuned on
// batch6.jsonl, batch5.jsonl, batch3.jsonl, fresh.jsonl and
// responses.jsonl's tuned part, each rule with invented examples that
// state it; batch4.jsonl stays held out.

// TestReadTextOverLines: a 4xx body declared text/plain that runs over
// several short lines is the message, its line breaks as spaces: the
// server wrote it for whoever sent the request. At 5xx such a text is a
// platform's page or a trace and says nothing the status does not; a body
// of several lines that is not declared text stays unread.
func TestReadTextOverLines(t *testing.T) {
	runReadCases(t, []readCase{
		{"a parse error over two lines", 400, "text/plain; charset=utf-8", "Query rejected:\nunexpected token 'FORM' at column 8\n",
			outcome{Kind: "invalid_arguments", Message: "Query rejected: unexpected token 'FORM' at column 8"}},
		{"labelled lines", 422, "text/plain", "Reason: unknown unit\r\nField: length\r\n",
			outcome{Kind: "invalid_arguments", Message: "Reason: unknown unit  Field: length"}},
		{"guard: a 5xx text over lines", 502, "text/plain", "Upstream failed\n\nnode eu-3::a81\n",
			outcome{Kind: "unavailable"}},
		{"guard: lines not declared text", 400, "text/html", "Query rejected:\nunexpected token\n",
			outcome{Kind: "invalid_arguments"}},
	})
}

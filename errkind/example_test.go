package errkind_test

import (
	"fmt"

	"github.com/mcperr/mcperr/errkind"
)

func ExampleStandard() {
	std := errkind.Standard()
	for _, r := range []struct {
		code   string
		status int
	}{
		{"trace_not_found", 404},
		{"invalid_cursor", 400},
		{"unauthenticated", 401},
		{"too_many_paths", 422},
		{"rate_limited", 429},
		{"internal_error", 500},
		{"a_code_from_a_newer_server", 409}, // unknown: falls back on the status
	} {
		k := std.Classify(r.code, r.status)
		fmt.Printf("%d %-27s -> %-25s %s\n", r.status, r.code, k, std.Advise(k).Move)
	}
	// Output:
	// 404 trace_not_found             -> not_found                 try_another_id
	// 400 invalid_cursor              -> invalid_arguments         fix_argument
	// 401 unauthenticated             -> authentication_failed     stop
	// 422 too_many_paths              -> too_many_values_requested fix_argument
	// 429 rate_limited                -> rate_limited              wait_then_retry
	// 500 internal_error              -> server_error              report
	// 409 a_code_from_a_newer_server  -> invalid_arguments         fix_argument
}

// A server with its own codes declares them as rules ahead of the standard
// ones. These are a credits API's tool-error codes.
func ExampleTaxonomy() {
	news := &errkind.Taxonomy{
		Rules: append([]errkind.Rule{
			{Code: "suspended", Kind: "suspended"},
			{Code: "insufficient_credits", Kind: "insufficient_credits"},
			{Code: "credit_rate_limited", Kind: "credit_rate_limited"},
			{Code: "credit_budget_exceeded", Kind: "credit_budget_exceeded"},
			{Code: "upstream_unavailable", Kind: "upstream_unavailable"},
			{Code: "watch_limit", Kind: "watch_limit"},
			{Code: "unsupported", Kind: "unsupported"},
			{Code: "not_found", Kind: errkind.NotFound},
		}, errkind.Standard().Rules...),
		Advice: map[errkind.Kind]errkind.Advice{
			"suspended":              {Move: errkind.Stop, Note: "Not until the account is settled."},
			"insufficient_credits":   {Move: errkind.WaitThenRetry, Retryable: true, Note: "After retry_after_secs, which may be days. A cheaper call may still fit; or upgrade."},
			"credit_rate_limited":    {Move: errkind.WaitThenRetry, Retryable: true, Note: "Yes, after retry_after_secs, usually a second or two."},
			"credit_budget_exceeded": {Move: errkind.FixArgument, Note: "No. Raise max_credits or narrow the call."},
			"upstream_unavailable":   {Move: errkind.WaitThenRetry, Retryable: true, Note: "Yes, with backoff; narrow the time range."},
			"watch_limit":            {Move: errkind.Stop, Note: "No. Delete one with delete_watch, or change plan."},
			"unsupported":            {Move: errkind.Stop, Note: "No. Make the call on the hosted endpoint."},
		},
	}
	for _, code := range []string{"insufficient_credits", "credit_rate_limited", "watch_limit", "not_found"} {
		k := news.Classify(code, 200)
		a := news.Advise(k)
		fmt.Printf("%s: %s (retry: %v) %s\n", k, a.Move, a.Retryable, a.Note)
	}
	// Output:
	// insufficient_credits: wait_then_retry (retry: true) After retry_after_secs, which may be days. A cheaper call may still fit; or upgrade.
	// credit_rate_limited: wait_then_retry (retry: true) Yes, after retry_after_secs, usually a second or two.
	// watch_limit: stop (retry: false) No. Delete one with delete_watch, or change plan.
	// not_found: try_another_id (retry: false) try another id, or accept that it is not there
}

// An agent's client branches on the text's first character: a JSON kind
// object, or the MCP layer's own sentence.
func ExampleParseText() {
	for _, text := range []string{
		`{"kind":"rate_limited","retryAfterSeconds":1,"limit":20,"remaining":0,"resetSeconds":1}`,
		"MCP error -32602: Input validation error: Invalid arguments for tool vexlo_get_values: Too big: expected array to have <=8 items at path",
		`MCP error -32602: Input validation error: Invalid arguments for tool vexlo_search_traces: Unrecognized key: "teams"`,
		"MCP error -32602: Tool vexlo_nope not found",
	} {
		p := errkind.ParseText(text)
		switch {
		case p.JSON:
			fmt.Printf("kind %s: wait %ds\n", p.Kind, *p.RetryAfterSeconds)
		case p.UnknownTool:
			fmt.Printf("%d: no tool %s\n", p.RPCCode, p.Tool)
		default:
			fmt.Printf("%d: %s rejected %q\n", p.RPCCode, p.Tool, p.Args)
		}
	}
	// Output:
	// kind rate_limited: wait 1s
	// -32602: vexlo_get_values rejected ["path"]
	// -32602: vexlo_search_traces rejected ["teams"]
	// -32602: no tool vexlo_nope
}

func ExampleCode() {
	for _, c := range errkind.Codes() {
		fmt.Printf("%d %d %-34s %s\n", c, c.HTTPStatus(), c, c.Retry())
	}
	// Output:
	// -32700 400 parse error                        No. Fix the request.
	// -32600 400 invalid request                    No. Fix the request.
	// -32601 404 method not found                   No. Fix the request.
	// -32602 400 invalid params                     No. Fix the request.
	// -32603 500 internal error                     No. Report it; the same request will fail the same way.
	// -32000 429 implementation-defined             Yes, after a few seconds.
	// -32020 400 header mismatch                    No. Fix the request.
	// -32021 400 missing required client capability No. Declare the capability and start a new session.
	// -32022 400 unsupported protocol version       Once, with a version from data.supported.
}

func ExampleRefusals() {
	for _, r := range errkind.Refusals() {
		fmt.Printf("%d %6d %s\n", r.Status, r.Code, r.Retry)
	}
	// Output:
	// 403      0 No. Fix the request.
	// 404 -32601 No. Fix the request.
	// 405 -32600 No. Fix the request.
	// 415 -32600 No. Fix the request.
	// 400 -32602 No. Fix the request.
	// 400 -32020 No. Fix the request.
	// 400 -32022 Once, with a version from data.supported.
	// 429 -32000 Yes, after a few seconds.
}

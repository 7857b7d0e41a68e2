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
		{"TraceNotFound", 404},
		{"INVALID_ARGUMENT", 400},
		{"invalid_api_key", 401},
		{"", 403},
		{"ALREADY_EXISTS", 409},
		{"rate_limit_exceeded", 403}, // the code beats the status
		{"overloaded_error", 529},
		{"internal_error", 500},
		{"a_code_from_a_newer_server", 422}, // unknown: falls back on the status
	} {
		k := std.Classify(r.code, r.status)
		fmt.Printf("%d %-27s -> %-21s %s\n", r.status, r.code, k, std.Advise(k).Move)
	}
	// Output:
	// 404 TraceNotFound               -> not_found             try_another_id
	// 400 INVALID_ARGUMENT            -> invalid_arguments     fix_argument
	// 401 invalid_api_key             -> authentication_failed stop
	// 403                             -> permission_denied     stop
	// 409 ALREADY_EXISTS              -> conflict              reread_then_retry
	// 403 rate_limit_exceeded         -> rate_limited          wait_then_retry
	// 529 overloaded_error            -> unavailable           wait_then_retry
	// 500 internal_error              -> server_error          report
	// 422 a_code_from_a_newer_server  -> invalid_arguments     fix_argument
}

// A server whose upstream has codes of its own puts rules for them ahead of
// the standard ones, and declares the kinds it adds with their advice.
func ExampleTaxonomy_With() {
	tax := errkind.Standard().With(
		errkind.Rule{Code: "forbidden_role", Kind: "wrong_role"},
		errkind.Rule{Code: "too_many_paths", Kind: "too_many_values_requested"},
	)
	tax.Advice["wrong_role"] = errkind.Advice{Move: errkind.Stop, Note: "stop", Fields: []errkind.Field{errkind.FieldMessage}}
	tax.Advice["too_many_values_requested"] = errkind.Advice{Move: errkind.FixArgument, Note: "ask for fewer paths", Fields: []errkind.Field{errkind.FieldMessage}}
	for _, code := range []string{"forbidden_role", "too_many_paths", "trace_not_found"} {
		k := tax.Classify(code, 403)
		fmt.Printf("%s: %s, %s\n", k, tax.Advise(k).Move, tax.Advise(k).Note)
	}
	// Output:
	// wrong_role: stop, stop
	// too_many_values_requested: fix_argument, ask for fewer paths
	// not_found: try_another_id, try another id, or accept that it is not there
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
		fmt.Printf("%d %d %-34s %s\n", c, c.HTTPStatus(), c, c.Move())
	}
	// Output:
	// -32700 400 parse error                        fix_argument
	// -32600 400 invalid request                    fix_argument
	// -32601 404 method not found                   fix_argument
	// -32602 400 invalid params                     fix_argument
	// -32603 500 internal error                     report
	// -32000 500 implementation-defined             report
	// -32020 400 header mismatch                    fix_argument
	// -32021 400 missing required client capability stop
	// -32022 400 unsupported protocol version       fix_argument
}

package errkind_test

import (
	"encoding/json"
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
	tax.Advice["wrong_role"] = errkind.Advice{Move: errkind.Stop, Note: "stop", Fields: []string{"message"}}
	tax.Advice["too_many_values_requested"] = errkind.Advice{Move: errkind.FixArgument, Note: "ask for fewer paths", Fields: []string{"message"}}
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

// The protocol-error catalogue: each code, the HTTP status it travels with
// on Streamable HTTP, its name and the client's next move.
func ExampleRPCCode() {
	for _, c := range []errkind.RPCCode{
		errkind.ParseError, errkind.InvalidRequest, errkind.MethodNotFound, errkind.InvalidParams,
		errkind.InternalError, errkind.ImplementationDefined, errkind.HeaderMismatch,
		errkind.MissingCapability, errkind.UnsupportedVersion,
	} {
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
	// -32022 400 unsupported protocol version       retry_safe
}

// A client reads whatever a tool call returned, in any dialect, back into
// the kind, the agent's move and the wait.
func ExampleRead() {
	for _, o := range []errkind.Outcome{
		{IsError: true, Text: `{"kind":"rate_limited","retryAfterSeconds":2,"limit":20,"remaining":0,"resetSeconds":2}`},
		{IsError: true, Text: `{"error":"not found","code":"story_not_found","retry_after_secs":0}`},
		{IsError: true, Text: "MCP error -32602: Input validation error: Invalid arguments for tool get_values: Too big: expected array to have <=8 items at path"},
		{IsError: true, Text: "MCP error -32602: Tool delete_trace not found"},
		{RPCCode: errkind.InvalidParams, Message: "Unknown parameter 'langauge'. Did you mean 'language'?", Data: []byte(`{"code":"unknown_parameter"}`)},
		{RPCCode: errkind.MethodNotFound, Message: "Method not found"},
		{Text: `{"traces":[]}`},
	} {
		r := errkind.Read(o)
		fmt.Printf("%-22s %-17s %-15s %v\n", r.Form, r.Kind, r.Move, r.Wait)
	}
	// Output:
	// kind_object            rate_limited      wait_then_retry 2s
	// code_object            not_found         try_another_id  0s
	// invalid_arguments_text invalid_arguments fix_argument    0s
	// unknown_tool_text      invalid_arguments fix_argument    0s
	// jsonrpc_error          invalid_arguments fix_argument    0s
	// jsonrpc_error          invalid_arguments fix_argument    0s
	// data                                                     0s
}

// A server whose failures are prose declares their openings as Text rules,
// so that its clients read them as kinds.
func ExampleTaxonomy_Read() {
	tax := errkind.Standard().With(
		errkind.Rule{Text: "Not found in the VDB: ", Kind: errkind.NotFound},
		errkind.Rule{Text: "VDB returned HTTP *: the body is not JSON", Kind: errkind.MalformedResponse},
		errkind.Rule{Text: "VDB returned HTTP ", Kind: errkind.ServerError},
	)
	for _, text := range []string{
		"Not found in the VDB: CVE-2024-35195. Try an alias.",
		"VDB returned HTTP 200: the body is not JSON (unexpected EOF).",
		"VDB returned HTTP 500: trend store unavailable.",
		"Something else went wrong.",
	} {
		r := tax.Read(errkind.Outcome{IsError: true, Text: text})
		fmt.Printf("%-8s %-18s %s\n", r.Form, r.Kind, r.Move)
	}
	// Output:
	// prose    not_found          try_another_id
	// prose    malformed_response report
	// prose    server_error       report
	// unknown                     report
}

// The kind object of each standard kind carries the members its advice
// declares; a known wait is always written.
func ExampleObject() {
	wait := int64(30)
	for _, o := range []errkind.Object{
		{Kind: errkind.NotFound, Code: "trace_not_found", Message: "no trace with id 42", HTTPStatus: 404},
		{Kind: errkind.Unavailable, Code: "UNAVAILABLE", Message: "back soon", HTTPStatus: 503, RetryAfterSeconds: &wait},
		{Kind: errkind.AuthenticationFailed, Code: "invalid_api_key", Message: "the key was revoked", HTTPStatus: 401},
	} {
		b, _ := o.MarshalJSON()
		fmt.Println(string(b))
	}
	// Output:
	// {"kind":"not_found","code":"trace_not_found","message":"no trace with id 42"}
	// {"kind":"unavailable","code":"UNAVAILABLE","httpStatus":503,"message":"back soon","retryAfterSeconds":30}
	// {"kind":"authentication_failed","message":"the key was revoked"}
}

// A server's own kinds write the members its taxonomy declares for them.
func ExampleObject_AppendJSON() {
	tax := errkind.Standard().With(errkind.Rule{Code: "forbidden_role", Kind: "wrong_role"})
	tax.Advice["wrong_role"] = errkind.Advice{Move: errkind.Stop, Note: "stop", Fields: []string{"message"}}
	o := errkind.Object{Kind: tax.Classify("forbidden_role", 403), Code: "forbidden_role", Message: "read tokens only", HTTPStatus: 403}
	fmt.Println(string(o.AppendJSON(nil, tax.Advise(o.Kind).Fields)))
	// Output:
	// {"kind":"wrong_role","message":"read tokens only"}
}

func ExampleObjectSchema() {
	var s struct {
		Title    string   `json:"title"`
		Required []string `json:"required"`
	}
	json.Unmarshal(errkind.ObjectSchema(), &s)
	fmt.Println(s.Title, s.Required)
	// Output:
	// Kind object [kind]
}

func ExampleKinds() {
	std := errkind.Standard()
	for _, k := range errkind.Kinds() {
		a := std.Advise(k)
		fmt.Printf("%-21s %-17s retry helps: %v\n", k, a.Move, a.Retryable)
	}
	// Output:
	// invalid_arguments     fix_argument      retry helps: false
	// authentication_failed stop              retry helps: false
	// permission_denied     stop              retry helps: false
	// not_found             try_another_id    retry helps: false
	// conflict              reread_then_retry retry helps: false
	// rate_limited          wait_then_retry   retry helps: true
	// unavailable           wait_then_retry   retry helps: true
	// server_error          report            retry helps: false
	// malformed_response    report            retry helps: false
	// network_error         retry_safe        retry helps: true
}

// The refusal of a client over an all-message limit, by the protocol
// revision of the request it answers: the legacy -32000 before 2026-07-28,
// the application code -31000 from it on.
func ExampleRPCCode_On() {
	for _, v := range []string{"2025-06-18", "2025-11-25", "2026-07-28"} {
		fmt.Println(v, errkind.ImplementationDefined.On(v), int(errkind.ImplementationDefined.On(v)), int(errkind.InvalidParams.On(v)))
	}
	// Output:
	// 2025-06-18 implementation-defined -32000 -32602
	// 2025-11-25 implementation-defined -32000 -32602
	// 2026-07-28 code(-31000) -31000 -32602
}

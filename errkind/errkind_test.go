package errkind_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcperr/mcperr/errkind"
)

// TestStandardClassify covers every row of seed 000's kind table, and the
// fall-through of an unknown code to its status.
func TestStandardClassify(t *testing.T) {
	tests := []struct {
		name   string
		code   string
		status int
		want   errkind.Kind
	}{
		{"401 unauthenticated", "unauthenticated", 401, errkind.AuthenticationFailed},
		{"401 with no code", "", 401, errkind.AuthenticationFailed},
		{"403 forbidden_role", "forbidden_role", 403, errkind.WrongRole},
		{"trace_not_found", "trace_not_found", 404, errkind.NotFound},
		{"function_not_found", "function_not_found", 404, errkind.NotFound},
		{"*_not_found on another status", "tag_not_found", 400, errkind.NotFound},
		{"any other 404", "", 404, errkind.NotFound},
		{"unknown code on 404", "gone_away", 404, errkind.NotFound},
		{"invalid_request", "invalid_request", 400, errkind.InvalidArguments},
		{"invalid_cursor", "invalid_cursor", 400, errkind.InvalidArguments},
		{"any other 4xx", "conflicting_filters", 400, errkind.InvalidArguments},
		{"409 no code", "", 409, errkind.InvalidArguments},
		{"499", "", 499, errkind.InvalidArguments},
		{"422 too_many_paths", "too_many_paths", 422, errkind.TooManyValuesRequested},
		{"422 another code", "service_required", 422, errkind.InvalidArguments},
		{"429 rate_limited", "rate_limited", 429, errkind.RateLimited},
		{"429 no code", "", 429, errkind.RateLimited},
		{"internal_error", "internal_error", 500, errkind.ServerError},
		{"internal_error on 400", "internal_error", 400, errkind.ServerError},
		{"500", "", 500, errkind.ServerError},
		{"503", "", 503, errkind.ServerError},
		{"599 unknown code", "newer_code", 599, errkind.ServerError},
		{"envelope on 200", "", 200, errkind.ServerError},
		{"code rule before status rule", "invalid_request", 404, errkind.InvalidArguments},
		{"not_found alone is no *_not_found", "not_found", 400, errkind.InvalidArguments},
	}
	std := errkind.Standard()
	var zero errkind.Taxonomy
	var nilTax *errkind.Taxonomy
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for name, tax := range map[string]*errkind.Taxonomy{"Standard": std, "zero": &zero, "nil": nilTax} {
				if diff := cmp.Diff(tt.want, tax.Classify(tt.code, tt.status)); diff != "" {
					t.Errorf("%s.Classify(%q, %d) (-want +got):\n%s", name, tt.code, tt.status, diff)
				}
			}
		})
	}
}

func TestStandardAdvice(t *testing.T) {
	type row struct {
		Move      errkind.Move
		Retryable bool
		Note      string
	}
	want := map[errkind.Kind]row{
		errkind.AuthenticationFailed:   {errkind.Stop, false, "stop; nothing a call can change. Fix the credential and restart the process"},
		errkind.WrongRole:              {errkind.Stop, false, "stop"},
		errkind.NotFound:               {errkind.TryAnotherID, false, "try another id, or accept that it is not there"},
		errkind.InvalidArguments:       {errkind.FixArgument, false, "fix the argument the message names"},
		errkind.TooManyValuesRequested: {errkind.FixArgument, false, "ask for fewer paths"},
		errkind.RateLimited:            {errkind.WaitThenRetry, true, "wait retryAfterSeconds, then retry"},
		errkind.ServerError:            {errkind.Report, false, "report it; different arguments will not help"},
		errkind.MalformedResponse:      {errkind.Report, false, "report it; not argument-fixable"},
		errkind.NetworkError:           {errkind.RetrySafe, true, "safe to retry; every call here is a GET"},
	}
	got := map[errkind.Kind]row{}
	std := errkind.Standard()
	for _, k := range errkind.Kinds() {
		a := std.Advise(k)
		got[k] = row{a.Move, a.Retryable, a.Note}
		var nilTax *errkind.Taxonomy
		if diff := cmp.Diff(a, nilTax.Advise(k)); diff != "" {
			t.Errorf("nil taxonomy advises %s differently (-std +nil):\n%s", k, diff)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("advice (-want +got):\n%s", diff)
	}
	if a := std.Advise("no_such_kind"); a.Move != errkind.Report || a.Retryable {
		t.Errorf("Advise(unknown) = %+v, want Report without retry", a)
	}
}

func TestStandardIsFresh(t *testing.T) {
	a := errkind.Standard()
	a.Rules[0] = errkind.Rule{Kind: "mutated"}
	a.Advice[errkind.NotFound] = errkind.Advice{Move: errkind.Stop}
	b := errkind.Standard()
	if got := b.Classify("trace_not_found", 404); got != errkind.NotFound {
		t.Errorf("after mutating one copy, a fresh Standard classifies trace_not_found as %q", got)
	}
	if got := b.Advise(errkind.NotFound).Move; got != errkind.TryAnotherID {
		t.Errorf("after mutating one copy, a fresh Standard advises %q for not_found", got)
	}
	var nilTax *errkind.Taxonomy
	if got := nilTax.Classify("trace_not_found", 404); got != errkind.NotFound {
		t.Errorf("after mutating one copy, nil taxonomy classifies trace_not_found as %q", got)
	}
}

func TestRuleMatch(t *testing.T) {
	tests := []struct {
		rule   errkind.Rule
		code   string
		status int
		want   bool
	}{
		{errkind.Rule{}, "", 0, true},
		{errkind.Rule{}, "x", 418, true},
		{errkind.Rule{Code: "a"}, "a", 1, true},
		{errkind.Rule{Code: "a"}, "ab", 1, false},
		{errkind.Rule{CodeSuffix: "_x"}, "a_x", 1, true},
		{errkind.Rule{CodeSuffix: "_x"}, "a_y", 1, false},
		{errkind.Rule{Status: 404}, "", 404, true},
		{errkind.Rule{Status: 404}, "", 403, false},
		{errkind.Rule{StatusMin: 400, StatusMax: 499}, "", 399, false},
		{errkind.Rule{StatusMin: 400, StatusMax: 499}, "", 400, true},
		{errkind.Rule{StatusMin: 400, StatusMax: 499}, "", 499, true},
		{errkind.Rule{StatusMin: 400, StatusMax: 499}, "", 500, false},
		{errkind.Rule{Code: "a", Status: 429}, "a", 400, false},
		{errkind.Rule{Code: "a", Status: 429}, "a", 429, true},
	}
	for _, tt := range tests {
		if got := tt.rule.Match(tt.code, tt.status); got != tt.want {
			t.Errorf("%+v.Match(%q, %d) = %v, want %v", tt.rule, tt.code, tt.status, got, tt.want)
		}
	}
}

// TestCustomTaxonomy declares seed 004's codes the way a server would.
func TestCustomTaxonomy(t *testing.T) {
	news := newsTaxonomy()
	tests := []struct {
		code   string
		status int
		want   errkind.Kind
	}{
		{"insufficient_credits", 402, "insufficient_credits"},
		{"credit_rate_limited", 200, "credit_rate_limited"},
		{"credit_budget_exceeded", 200, "credit_budget_exceeded"},
		{"watch_limit", 200, "watch_limit"},
		{"unsupported", 200, "unsupported"},
		{"suspended", 402, "suspended"},
		{"upstream_unavailable", 503, "upstream_unavailable"},
		{"not_found", 404, errkind.NotFound},
		{"message_rate_limited", 429, errkind.RateLimited},
		{"brand_new_code", 404, errkind.NotFound},
		{"brand_new_code", 418, errkind.InvalidArguments},
		{"brand_new_code", 0, errkind.ServerError},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, news.Classify(tt.code, tt.status)); diff != "" {
			t.Errorf("Classify(%q, %d) (-want +got):\n%s", tt.code, tt.status, diff)
		}
	}
	if diff := cmp.Diff(errkind.Advice{Move: errkind.Stop, Note: "Delete one with delete_watch, or change plan."}, news.Advise("watch_limit")); diff != "" {
		t.Errorf("Advise(watch_limit) (-want +got):\n%s", diff)
	}
	// A custom taxonomy without its own entry for a standard kind advises as
	// the standard does.
	if got := news.Advise(errkind.NotFound).Move; got != errkind.TryAnotherID {
		t.Errorf("Advise(not_found).Move = %q", got)
	}
}

func newsTaxonomy() *errkind.Taxonomy {
	std := errkind.Standard()
	return &errkind.Taxonomy{
		Rules: append([]errkind.Rule{
			{Code: "suspended", Kind: "suspended"},
			{Code: "insufficient_credits", Kind: "insufficient_credits"},
			{Code: "credit_rate_limited", Kind: "credit_rate_limited"},
			{Code: "credit_budget_exceeded", Kind: "credit_budget_exceeded"},
			{Code: "upstream_unavailable", Kind: "upstream_unavailable"},
			{Code: "not_found", Kind: errkind.NotFound},
			{Code: "watch_limit", Kind: "watch_limit"},
			{Code: "unsupported", Kind: "unsupported"},
		}, std.Rules...),
		Advice: map[errkind.Kind]errkind.Advice{
			"watch_limit": {Move: errkind.Stop, Note: "Delete one with delete_watch, or change plan."},
		},
	}
}

func TestCodes(t *testing.T) {
	type row struct {
		Code   errkind.Code
		Status int
		Name   string
		Retry  string
	}
	want := []row{
		{-32700, 400, "parse error", "No. Fix the request."},
		{-32600, 400, "invalid request", "No. Fix the request."},
		{-32601, 404, "method not found", "No. Fix the request."},
		{-32602, 400, "invalid params", "No. Fix the request."},
		{-32603, 500, "internal error", "No. Report it; the same request will fail the same way."},
		{-32000, 429, "implementation-defined", "Yes, after a few seconds."},
		{-32020, 400, "header mismatch", "No. Fix the request."},
		{-32021, 400, "missing required client capability", "No. Declare the capability and start a new session."},
		{-32022, 400, "unsupported protocol version", "Once, with a version from data.supported."},
	}
	var got []row
	for _, c := range errkind.Codes() {
		got = append(got, row{c, c.HTTPStatus(), c.String(), c.Retry()})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("catalogue (-want +got):\n%s", diff)
	}
	if got := errkind.Code(-32050); got.HTTPStatus() != 500 || got.String() != "code(-32050)" {
		t.Errorf("Code(-32050): status %d, name %q", got.HTTPStatus(), got.String())
	}
	if got := errkind.Code(7).HTTPStatus(); got != 400 {
		t.Errorf("Code(7).HTTPStatus() = %d, want 400", got)
	}
}

// TestRefusals is seed 003's protocol-error table, row by row.
func TestRefusals(t *testing.T) {
	type row struct {
		Status int
		Code   errkind.Code
		Retry  string
	}
	want := []row{
		{403, 0, "No. Fix the request."},
		{404, -32601, "No. Fix the request."},
		{405, -32600, "No. Fix the request."},
		{415, -32600, "No. Fix the request."},
		{400, -32602, "No. Fix the request."},
		{400, -32020, "No. Fix the request."},
		{400, -32022, "Once, with a version from data.supported."},
		{429, -32000, "Yes, after a few seconds."},
	}
	var got []row
	for _, r := range errkind.Refusals() {
		got = append(got, row{r.Status, r.Code, r.Retry})
		if r.Cause == "" {
			t.Errorf("refusal %d %d has no cause", r.Status, r.Code)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("refusals (-want +got):\n%s", diff)
	}
}

package mcpserver

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/wire"
)

// TestArgErrors: every argument refusal is a -32602 of the right data.code
// with a message naming the argument, and costs nothing.
func TestArgErrors(t *testing.T) {
	tests := []struct {
		tool, args string
		code       errkind.Kind
		msg        string
	}{
		{"search_stories", `{"query":"wind","langauge":"en"}`, UnknownParameter, "Unknown parameter 'langauge'. Did you mean 'language'?"},
		{"search_stories", `{"query":"wind","xyz":1}`, UnknownParameter, "Unknown parameter 'xyz'."},
		{"search_stories", `{"querry":"wind"}`, UnknownParameter, "Unknown parameter 'querry'. Did you mean 'query'? Missing required parameter 'query'."},
		{"get_article", `{"id":"a-00001","limit":3}`, UnknownParameter, "Unknown parameter 'limit'."},
		{"search_stories", `{"query":"wind","signals":["sentimnt"]}`, UnknownSignal, "Unknown signal 'sentimnt' in 'signals'. Did you mean 'sentiment'? Published signals: sentiment, entities, topics, velocity, languages, dates."},
		{"search_stories", `{"query":"wind","signals":["mood"]}`, UnknownSignal, "Unknown signal 'mood' in 'signals'. Published signals: sentiment, entities, topics, velocity, languages, dates."},
		{"create_watch", `{"query":"wind","signals":["topic"]}`, UnknownSignal, "Unknown signal 'topic' in 'signals'. Did you mean 'topics'? Published signals: sentiment, entities, topics, velocity, languages, dates."},
		{"search_stories", `{"query":"wind","limit":0}`, InvalidParameter, "Invalid value for 'limit': must be between 1 and 50."},
		{"search_stories", `{"query":"wind","limit":500}`, InvalidParameter, "Invalid value for 'limit': must be between 1 and 50."},
		{"search_stories", `{"query":"wind","limit":"5"}`, InvalidParameter, "Invalid value for 'limit': must be an integer."},
		{"search_stories", `{"query":"wind","limit":2.5}`, InvalidParameter, "Invalid value for 'limit': must be an integer."},
		{"find_related", `{"id":"a-00001","limit":99999999999999999999999}`, InvalidParameter, ""},
		{"search_stories", `{"query":"wind","from":"yesterday"}`, InvalidParameter, "Invalid value for 'from': must be an RFC 3339 date-time such as '2026-09-01T00:00:00Z', got 'yesterday'."},
		{"search_stories", `{"query":"wind","to":"2026-13-01T00:00:00Z"}`, InvalidParameter, "Invalid value for 'to': must be an RFC 3339 date-time such as '2026-09-01T00:00:00Z', got '2026-13-01T00:00:00Z'."},
		{"search_stories", `{"query":"wind","from":"2026-10-01T00:00:00Z","to":"2026-09-01T00:00:00Z"}`, InvalidParameter, "Invalid value for 'to': must be a date-time after 'from' (2026-10-01T00:00:00Z), got '2026-09-01T00:00:00Z'."},
		{"search_stories", `{"query":"wind","language":"xx"}`, InvalidParameter, "Invalid value for 'language': must be an ISO 639-1 language code such as 'en', got 'xx'."},
		{"search_stories", `{"query":"wi\udc00nd"}`, InvalidParameter, "Invalid value for 'query': must be valid UTF-8 text, got invalid bytes or a lone surrogate."},
		{"search_stories", "{\"query\":\"w\xffind\"}", InvalidParameter, "Invalid value for 'query': must be valid UTF-8 text, got invalid bytes."},
		{"search_stories", `{"query":""}`, InvalidParameter, "Invalid value for 'query': must be between 1 and 500 characters long."},
		{"search_stories", `{"query":"   "}`, InvalidParameter, "Invalid value for 'query': must be a string of 1 to 500 characters, got '   '."},
		{"search_stories", `{"query":"wind","estimate":"yes"}`, InvalidParameter, "Invalid value for 'estimate': must be true or false."},
		{"search_stories", `{"query":"wind","signals":"sentiment"}`, InvalidParameter, "Invalid value for 'signals': must be an array."},
		{"search_stories", `{"query":"wind","query":"rail"}`, InvalidParameter, "Invalid value for 'query': given more than once."},
		{"search_stories", `[1,2]`, InvalidParameter, ""},
		{"search_stories", `{}`, InvalidParameter, "Missing required parameter 'query'."},
		{"search_stories", ``, InvalidParameter, "Missing required parameter 'query'."},
		{"get_story", `{"id":42}`, InvalidParameter, "Invalid value for 'id': must be a string."},
		{"watch_events", `{"id":"w-1","since":"last week"}`, InvalidParameter, "Invalid value for 'since': must be an RFC 3339 date-time such as '2026-09-01T00:00:00Z', got 'last week'."},
		{"search_stories", `{"query":"wind","max_credits":-1}`, InvalidParameter, "Invalid value for 'max_credits': must be between 0 and 1000000."},
	}
	s, _ := newTestServer(t)
	for _, tc := range tests {
		t.Run(tc.tool+" "+tc.args, func(t *testing.T) {
			before := s.balance(t.Context(), s.account("demo-free"), s.now())
			out := callJSON(t, s, "demo-free", tc.tool, tc.args)
			if out.argErr == nil {
				t.Fatalf("got %+v, want an argument error", out)
			}
			if out.argErr.Code != tc.code {
				t.Errorf("code = %s, want %s (%s)", out.argErr.Code, tc.code, out.argErr.Message)
			}
			if tc.msg != "" && out.argErr.Message != tc.msg {
				t.Errorf("message:\n got %s\nwant %s", out.argErr.Message, tc.msg)
			}
			if !strings.Contains(out.argErr.Message, "'") && !strings.HasPrefix(out.argErr.Message, "Invalid arguments: ") {
				t.Errorf("message names no argument: %s", out.argErr.Message)
			}
			if after := s.balance(t.Context(), s.account("demo-free"), s.now()); after != before {
				t.Errorf("an argument error cost credits: %+v -> %+v", before, after)
			}
		})
	}
}

// TestInsufficientCredits reproduces the seed's example byte for byte.
func TestInsufficientCredits(t *testing.T) {
	s, _ := newTestServer(t)
	free := s.account("demo-free")
	s.spend(t.Context(), free, 1000, false, s.now())
	out := callJSON(t, s, "demo-free", "create_watch", `{"query":"wind"}`)
	if out.toolErr == nil {
		t.Fatalf("got %+v, want insufficient_credits", out)
	}
	res := wire.JSONError(out.toolErr)
	want := `{"error":"insufficient credits","code":"insufficient_credits","detail":"this call can cost up to 3 credits and 0 are left this month; the allocation renews at 2026-12-01T00:00:00Z. A cheaper call may still fit, or upgrade the plan","retry_after_secs":394200,"credits":{"min":3,"max":3},"credits_limit":1000,"credits_used":1000,"credits_remaining":0}`
	if diff := cmp.Diff(want, res.Content[0].Text); diff != "" {
		t.Errorf("tool error text (-want +got):\n%s", diff)
	}
	if !res.IsError || len(res.Content) != 1 {
		t.Errorf("result = %+v, want isError and one text block", res)
	}
	// A free call still fits.
	if out := callJSON(t, s, "demo-free", "get_watch", `{"id":"w-1"}`); out.toolErr == nil || out.toolErr.Code != NotFound {
		t.Errorf("free call at zero balance: %+v, want not_found", out)
	}
	// demo-pro does not stop at its allocation: overage.
	pro := s.account("demo-pro")
	s.spend(t.Context(), pro, 100000, false, s.now())
	out = callJSON(t, s, "demo-pro", "get_article", `{"id":"a-00001"}`)
	if out.ok == nil {
		t.Fatalf("pro over its allocation: %+v, want success", out.toolErr)
	}
	if b := s.balance(t.Context(), pro, s.now()); b.Used != 100001 || b.Remaining != 0 {
		t.Errorf("pro balance = %+v, want used 100001, remaining 0", b)
	}
}

func TestCreditArithmetic(t *testing.T) {
	s, _ := newTestServer(t)
	free := s.account("demo-free")

	// Charged: 1 + 1 per 10 stories returned + 1 per signal.
	out := callJSON(t, s, "demo-free", "search_stories", `{"query":"wind","limit":3,"signals":["sentiment","topics"]}`)
	res := out.ok.(*searchResult)
	if len(res.Stories) != 3 || res.CreditsCharged != 1+1+2 {
		t.Errorf("stories %d, charged %d; want 3 stories, 4 credits", len(res.Stories), res.CreditsCharged)
	}
	if b := s.balance(t.Context(), free, s.now()); b.Used != 4 {
		t.Errorf("used = %d, want 4", b.Used)
	}
	// No results: the search and the signals only.
	out = callJSON(t, s, "demo-free", "search_stories", `{"query":"zzzz-nothing","limit":50,"signals":["dates"]}`)
	if got := out.ok.(*searchResult).CreditsCharged; got != 2 {
		t.Errorf("empty search charged %d, want 2", got)
	}
	// max_credits refuses before running, at no cost.
	out = callJSON(t, s, "demo-free", "search_stories", `{"query":"wind","limit":50,"max_credits":5}`)
	if out.toolErr == nil || out.toolErr.Code != CreditBudgetExceeded {
		t.Fatalf("got %+v, want credit_budget_exceeded", out)
	}
	if diff := cmp.Diff(`{"error":"credit budget exceeded","code":"credit_budget_exceeded","detail":"this call can cost up to 6 credits and max_credits is 5; raise max_credits or narrow the call (estimate: true shows the breakdown)","credits":{"min":1,"max":6},"max_credits":5}`, toJSON(t, out.toolErr)); diff != "" {
		t.Error(diff)
	}
	// max_credits at the worst case runs.
	if out := callJSON(t, s, "demo-free", "find_related", `{"id":"a-00001","limit":20,"max_credits":3}`); out.ok == nil {
		t.Errorf("find_related within max_credits: %+v", out.toolErr)
	}
	before := s.balance(t.Context(), free, s.now())
	// estimate: the breakdown, without running, free.
	out = callJSON(t, s, "demo-free", "search_stories", `{"query":"wind","limit":25,"signals":["velocity"],"estimate":true,"max_credits":1}`)
	est, ok := out.ok.(*estimate)
	if !ok {
		t.Fatalf("estimate: got %+v", out)
	}
	want := &estimate{Estimate: true, Credits: Credits{2, 5}, Breakdown: []priceItem{
		{"search", 1, 1}, {"results: 1 credit per 10 stories returned, up to 25", 0, 3}, {"signals: 1 credit each (velocity)", 1, 1},
	}}
	if diff := cmp.Diff(want, est, cmp.AllowUnexported(estimate{})); diff != "" {
		t.Errorf("estimate (-want +got):\n%s", diff)
	}
	if after := s.balance(t.Context(), free, s.now()); after != before {
		t.Errorf("estimate cost credits: %+v -> %+v", before, after)
	}
}

// The minute's credits refill continuously (30 a minute on demo-free, one
// every 2 seconds): retry_after_secs is the time until this call's worst
// case is back, not the time until the clock's minute ends.
func TestCreditRateLimited(t *testing.T) {
	s, c := newTestServer(t)
	c.Advance(58 * time.Second) // the clock's minute ends in 2 seconds: it does not matter
	// demo-free: 30 credits a minute; get_story costs 2.
	for i := range 15 {
		if out := callJSON(t, s, "demo-free", "get_story", `{"id":"s-0001"}`); out.ok == nil {
			t.Fatalf("call %d: %+v", i, out.toolErr)
		}
	}
	out := callJSON(t, s, "demo-free", "get_story", `{"id":"s-0001"}`)
	if out.toolErr == nil || out.toolErr.Code != CreditRateLimited {
		t.Fatalf("16th call: %+v, want credit_rate_limited", out)
	}
	want := `{"error":"credit rate limited","code":"credit_rate_limited","detail":"this call can cost up to 2 credits and this minute's credits are spent (0 of 30 a minute left); retry after 4 seconds","retry_after_secs":4,"credits":{"min":2,"max":2},"credits_limit":1000,"credits_used":30,"credits_remaining":970}`
	if diff := cmp.Diff(want, toJSON(t, out.toolErr)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	c.Advance(3 * time.Second) // past the clock's minute, 1.5 credits back
	out = callJSON(t, s, "demo-free", "get_story", `{"id":"s-0001"}`)
	if out.toolErr == nil || out.toolErr.Code != CreditRateLimited || out.toolErr.RetryAfterSecs != 1 {
		t.Errorf("after 3s: %+v, want still credit_rate_limited, retry after 1 second", out.toolErr)
	}
	c.Advance(time.Second)
	if out := callJSON(t, s, "demo-free", "get_story", `{"id":"s-0001"}`); out.ok == nil {
		t.Errorf("after retry_after_secs: %+v, want success", out.toolErr)
	}
	if out := callJSON(t, s, "demo-free", "get_story", `{"id":"s-0001"}`); out.toolErr == nil || out.toolErr.RetryAfterSecs != 4 {
		t.Errorf("right after: %+v, want credit_rate_limited, retry after 4 seconds", out.toolErr)
	}
}

func toJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSuspended(t *testing.T) {
	s, _ := newTestServer(t)
	for _, tc := range []struct{ tool, args string }{
		{"search_stories", `{"query":"wind"}`},
		{"get_article", `{"id":"a-00001"}`},
		{"create_watch", `{"query":"wind"}`},
		{"watch_events", `{"id":"w-1"}`},
	} {
		out := callJSON(t, s, "demo-suspended", tc.tool, tc.args)
		if out.toolErr == nil || out.toolErr.Code != Suspended {
			t.Errorf("%s: %+v, want suspended", tc.tool, out)
			continue
		}
		if got := toJSON(t, out.toolErr); !strings.HasPrefix(got, `{"error":"account suspended","code":"suspended","detail":"the subscription for this key was canceled or its payment failed;`) {
			t.Errorf("%s: %s", tc.tool, got)
		}
	}
	// Arguments are still checked first: a bad call is a protocol error.
	if out := callJSON(t, s, "demo-suspended", "search_stories", `{"query":"wind","langauge":"en"}`); out.argErr == nil {
		t.Errorf("bad arguments on a suspended key: %+v, want -32602", out)
	}
}

func TestShards(t *testing.T) {
	s, _ := newTestServer(t)
	full := callJSON(t, s, "demo-pro", "search_stories", `{"query":"energy","limit":50}`).ok.(*searchResult)
	if full.Partial || full.Coverage != "complete" || full.TotalRelation != "exact" || full.Total == 0 {
		t.Fatalf("healthy search: %+v", full.completeness)
	}
	s.FailShards(2)
	part := callJSON(t, s, "demo-pro", "search_stories", `{"query":"energy","limit":50}`).ok.(*searchResult)
	want := completeness{
		Total: part.Total, TotalRelation: "gte", HasMore: part.HasMore, Partial: true,
		Coverage: "partial: 4 of 6 shards answered; not read: shard 4, 2026-10-02 to 2026-10-17; shard 5, 2026-10-17 to 2026-11-01",
		Shards:   shards{6, 4},
	}
	if diff := cmp.Diff(want, part.completeness); diff != "" {
		t.Errorf("partial search (-want +got):\n%s", diff)
	}
	if part.Total >= full.Total {
		t.Errorf("partial total %d, full %d", part.Total, full.Total)
	}
	// A range only failing shards cover: upstream_unavailable, never empty.
	free := s.account("demo-free")
	before := s.balance(t.Context(), free, s.now())
	out := callJSON(t, s, "demo-free", "search_stories", `{"query":"energy","from":"2026-10-20T00:00:00Z"}`)
	if out.toolErr == nil || out.toolErr.Code != UpstreamUnavailable {
		t.Fatalf("got %+v, want upstream_unavailable", out)
	}
	if diff := cmp.Diff(`{"error":"upstream unavailable","code":"upstream_unavailable","detail":"no index shard covering the request answered (shard 5, 2026-10-17 to 2026-11-01); this is not an empty result. Retry with backoff, or narrow the time range","retry_after_secs":30}`, toJSON(t, out.toolErr)); diff != "" {
		t.Error(diff)
	}
	if after := s.balance(t.Context(), free, s.now()); after != before {
		t.Errorf("upstream_unavailable cost credits: %+v -> %+v", before, after)
	}
	// A range the answering shards cover is complete.
	if r := callJSON(t, s, "demo-pro", "search_stories", `{"query":"energy","to":"2026-09-01T00:00:00Z"}`).ok.(*searchResult); r.Partial {
		t.Errorf("range on healthy shards: %+v", r.completeness)
	}
	// An article on a failing shard, and a story with articles there.
	n, _ := s.index.Len()
	last := fmt.Sprintf("a-%05d", n)
	if out := callJSON(t, s, "demo-pro", "get_article", `{"id":"`+last+`"}`); out.toolErr == nil || out.toolErr.Code != UpstreamUnavailable {
		t.Errorf("get_article on a failing shard: %+v", out)
	}
	if out := callJSON(t, s, "demo-pro", "find_related", `{"id":"`+last+`"}`); out.toolErr == nil || out.toolErr.Code != UpstreamUnavailable {
		t.Errorf("find_related on a failing shard: %+v", out)
	}
	if r := callJSON(t, s, "demo-pro", "find_related", `{"id":"a-00001"}`).ok.(*relatedResult); !r.Partial {
		t.Errorf("find_related with failing shards: %+v", r.completeness)
	}
	var spanning string
	for i := 1; i <= 700; i++ {
		st, _ := s.index.Story(fmt.Sprintf("s-%04d", i))
		if !s.isDown(st.Shard) && s.isDown(s.index.ShardOf(st.LastSeen)) {
			spanning = st.ID
			break
		}
	}
	if spanning == "" {
		t.Fatal("no story spans a healthy and a failing shard")
	}
	if r := callJSON(t, s, "demo-pro", "get_story", `{"id":"`+spanning+`"}`).ok.(*storyResult); !r.Partial || !strings.HasPrefix(r.Coverage, "partial: ") {
		t.Errorf("get_story across a failing shard: partial %v, coverage %q", r.Partial, r.Coverage)
	}
	// Every shard failing: upstream_unavailable for a search of everything.
	s.FailShards(6)
	if out := callJSON(t, s, "demo-pro", "search_stories", `{"query":"energy"}`); out.toolErr == nil || out.toolErr.Code != UpstreamUnavailable {
		t.Errorf("all shards down: %+v", out)
	}
	s.FailShards(0)
	if got := s.FailingShards(); len(got) != 0 {
		t.Errorf("after FailShards(0): %v", got)
	}
}

func TestFromClamped(t *testing.T) {
	s, _ := newTestServer(t)
	for _, tc := range []struct {
		args    string
		clamped bool
	}{
		{`{"query":"rail","from":"2019-01-01T00:00:00Z"}`, true},
		{`{"query":"rail","from":"2026-08-03T00:00:00Z"}`, false},
		{`{"query":"rail","from":"2026-09-01T00:00:00+02:00"}`, false},
		{`{"query":"rail"}`, false},
	} {
		r := callJSON(t, s, "", "search_stories", tc.args).ok.(*searchResult)
		if r.FromClamped != tc.clamped {
			t.Errorf("%s: from_clamped %v, want %v", tc.args, r.FromClamped, tc.clamped)
		}
	}
	all := callJSON(t, s, "", "search_stories", `{"query":"rail"}`).ok.(*searchResult)
	early := callJSON(t, s, "", "search_stories", `{"query":"rail","from":"2019-01-01T00:00:00Z"}`).ok.(*searchResult)
	if all.Total != early.Total {
		t.Errorf("clamped search total %d, unclamped %d", early.Total, all.Total)
	}
}

func TestWatches(t *testing.T) {
	s, _ := newTestServer(t)
	var ids []string
	for i := range 3 {
		out := callJSON(t, s, "demo-free", "create_watch", `{"query":"wind","signals":["sentiment"]}`)
		if out.ok == nil {
			t.Fatalf("watch %d: %+v", i, out.toolErr)
		}
		w := out.ok.(*watchResult)
		if w.CreditsCharged != 3 {
			t.Errorf("create_watch charged %d, want 3", w.CreditsCharged)
		}
		ids = append(ids, w.Watch.ID)
	}
	out := callJSON(t, s, "demo-free", "create_watch", `{"query":"rail"}`)
	if out.toolErr == nil || out.toolErr.Code != WatchLimit {
		t.Fatalf("4th watch on free: %+v, want watch_limit", out)
	}
	if diff := cmp.Diff(`{"error":"watch limit reached","code":"watch_limit","detail":"this account keeps 3 watches and its plan (free) allows 3; delete one with delete_watch, or change plan","watches_used":3,"watches_limit":3}`, toJSON(t, out.toolErr)); diff != "" {
		t.Error(diff)
	}
	// Another account does not see them.
	if out := callJSON(t, s, "demo-pro", "get_watch", `{"id":"`+ids[0]+`"}`); out.toolErr == nil || out.toolErr.Code != NotFound {
		t.Errorf("another account's watch: %+v, want not_found", out)
	}
	ev := callJSON(t, s, "demo-free", "watch_events", `{"id":"`+ids[0]+`","since":"2001-01-01T00:00:00Z"}`).ok.(*eventsResult)
	if ev.Total == 0 || !ev.FromClamped || ev.Events[0].Signals == nil || ev.Events[0].Signals.Sentiment == nil {
		t.Errorf("watch_events: %+v", ev)
	}
	if out := callJSON(t, s, "demo-free", "delete_watch", `{"id":"`+ids[1]+`"}`); out.ok == nil {
		t.Fatalf("delete_watch: %+v", out.toolErr)
	}
	if out := callJSON(t, s, "demo-free", "delete_watch", `{"id":"`+ids[1]+`"}`); out.toolErr == nil || out.toolErr.Code != NotFound {
		t.Errorf("second delete: %+v, want not_found", out)
	}
	if out := callJSON(t, s, "demo-free", "create_watch", `{"query":"rail"}`); out.ok == nil {
		t.Errorf("after a delete: %+v", out.toolErr)
	}
}

func TestNotFoundAndUnsupported(t *testing.T) {
	s, _ := newTestServer(t)
	for _, tc := range []struct{ tool, args, detail string }{
		{"get_article", `{"id":"a-99999"}`, "the index holds no article with id 'a-99999'"},
		{"find_related", `{"id":"nope"}`, "the index holds no article with id 'nope'"},
		{"get_story", `{"id":"s-9999"}`, "the index holds no story with id 's-9999'"},
		{"get_watch", `{"id":"w-404"}`, "this account has no watch with id 'w-404'"},
		{"delete_watch", `{"id":"w-404"}`, "this account has no watch with id 'w-404'"},
		{"watch_events", `{"id":"w-404"}`, "this account has no watch with id 'w-404'"},
	} {
		out := callJSON(t, s, "demo-pro", tc.tool, tc.args)
		want := &ToolError{Title: "not found", Code: NotFound, Detail: tc.detail}
		if diff := cmp.Diff(want, out.toolErr); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.tool, diff)
		}
	}
	for _, name := range []string{"create_watch", "get_watch", "delete_watch", "watch_events"} {
		args := `{"id":"w-1"}`
		if name == "create_watch" {
			args = `{"query":"wind"}`
		}
		out := callJSON(t, s, "", name, args)
		if out.toolErr == nil || out.toolErr.Code != Unsupported {
			t.Errorf("local %s: %+v, want unsupported", name, out)
		}
	}
}

// TestSuccessShape: structuredContent and the one text block hold the same
// JSON object, encoded once.
func TestSuccessShape(t *testing.T) {
	s, _ := newTestServer(t)
	out := callJSON(t, s, "", "search_stories", `{"query":"wind","limit":2}`)
	res, err := wire.Success(out.ok)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Content) != 1 || res.Content[0].Type != "text" {
		t.Fatalf("content = %+v, want one text block", res.Content)
	}
	if string(res.StructuredContent) != res.Content[0].Text {
		t.Errorf("structuredContent and text differ")
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(res.Content[0].Text), &m); err != nil {
		t.Fatalf("text is not one JSON object: %v", err)
	}
	for _, k := range []string{"total", "total_relation", "has_more", "partial", "coverage", "from_clamped", "stories", "credits_charged"} {
		if _, ok := m[k]; !ok {
			t.Errorf("structuredContent lacks %s", k)
		}
	}
}

func TestInputSchemas(t *testing.T) {
	s, _ := newTestServer(t)
	for _, tl := range s.tools {
		for _, published := range []bool{true, false} {
			var m map[string]any
			if err := json.Unmarshal(inputSchema(tl.params, published), &m); err != nil {
				t.Fatal(err)
			}
			if m["additionalProperties"] != false || m["type"] != "object" {
				t.Errorf("%s: inputSchema %v", tl.name, m)
			}
		}
		if tl.output == "" {
			t.Errorf("%s has no outputSchema", tl.name)
		}
	}
}

func TestTaxonomy(t *testing.T) {
	tx := Taxonomy()
	for _, tc := range []struct {
		code   string
		status int
		kind   errkind.Kind
		retry  bool
	}{
		{"suspended", 402, Suspended, false},
		{"insufficient_credits", 402, InsufficientCredits, true},
		{"credit_rate_limited", 429, CreditRateLimited, true},
		{"credit_budget_exceeded", 402, CreditBudgetExceeded, false},
		{"upstream_unavailable", 503, UpstreamUnavailable, true},
		{"not_found", 404, NotFound, false},
		{"watch_limit", 409, WatchLimit, false},
		{"unsupported", 501, Unsupported, false},
		{"message_rate_limited", 429, MessageRateLimited, true},
		{"", 401, Unauthorized, false},
		{"", 503, UpstreamUnavailable, true},
	} {
		k := tx.Classify(tc.code, tc.status)
		if k != tc.kind || tx.Advise(k).Retryable != tc.retry {
			t.Errorf("Classify(%q, %d) = %s (retryable %v), want %s (%v)", tc.code, tc.status, k, tx.Advise(k).Retryable, tc.kind, tc.retry)
		}
		if tc.code != "" {
			if got := (&ToolError{Code: k}).Status(); got != tc.status {
				t.Errorf("%s travels with %d, want %d", k, got, tc.status)
			}
		}
	}
}

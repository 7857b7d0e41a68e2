package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mcperr/mcperr/examples/news/newsindex"
	"github.com/mcperr/mcperr/schemaerr"
)

// tool is one of the server's eight tools: its arguments, its output schema,
// its price and what it does.
type tool struct {
	name, desc string
	params     []param
	schema     *schemaerr.Schema // compiled from params, for validation
	output     string            // the outputSchema, JSON
	watch      bool              // needs a watch store
	price      func(a *args) (Credits, []priceItem)
	run        func(s *Server, ctx context.Context, acct *account, a *args) (result, *ToolError)
}

// result is a successful payload and the credits it cost.
type result interface{ setCharged(n int64) }

// charged is embedded in every payload: credits_charged.
type charged struct {
	CreditsCharged int64 `json:"credits_charged"`
}

func (c *charged) setCharged(n int64) { c.CreditsCharged = n }

// priceItem is one line of a price breakdown.
type priceItem struct {
	Item string `json:"item"`
	Min  int64  `json:"min"`
	Max  int64  `json:"max"`
}

func fixed(name string, n int64) func(*args) (Credits, []priceItem) {
	return func(*args) (Credits, []priceItem) { return Credits{n, n}, []priceItem{{name, n, n}} }
}

func per10(n int) int64 { return int64((n + 9) / 10) }

const (
	defaultLimit = 10
	maxLimit     = 50
	eventsPage   = 50
)

var (
	pQuery      = param{name: "query", kind: kString, required: true, min: 1, max: 500, desc: "Words that must all appear in an article's title, summary, source, entities or topics."}
	pLanguage   = param{name: "language", kind: kLanguage, desc: "Only articles in this language (ISO 639-1)."}
	pSignals    = param{name: "signals", kind: kSignals, desc: "Published signals to include with each story (1 credit each): sentiment, entities, topics, velocity, languages, dates."}
	pFrom       = param{name: "from", kind: kDateTime, desc: "Only articles published at or after this instant (RFC 3339). Earlier than the index holds is clamped (from_clamped)."}
	pTo         = param{name: "to", kind: kDateTime, desc: "Only articles published before this instant (RFC 3339)."}
	pLimit      = param{name: "limit", kind: kInteger, min: 1, max: maxLimit, desc: "Most results to return (default 10); 1 credit per 10 returned."}
	pMaxCredits = param{name: "max_credits", kind: kInteger, min: 0, max: 1000000, desc: "Refuse the call before it runs if its worst case costs more (credit_budget_exceeded)."}
	pEstimate   = param{name: "estimate", kind: kBoolean, desc: "Return the price breakdown without running the call (free)."}
	pArticleID  = param{name: "id", kind: kString, required: true, min: 1, max: 64, desc: "An article id, such as a-00042."}
	pStoryID    = param{name: "id", kind: kString, required: true, min: 1, max: 64, desc: "A story id, such as s-0042."}
	pWatchID    = param{name: "id", kind: kString, required: true, min: 1, max: 64, desc: "A watch id, such as w-1."}
	pSince      = param{name: "since", kind: kDateTime, desc: "Only events published at or after this instant (RFC 3339); default the start of the index."}
)

func tools() []*tool {
	ts := toolList()
	for _, t := range ts {
		sc, err := schemaerr.Compile(inputSchema(t.params, false), nil)
		if err != nil {
			panic(fmt.Sprintf("news: the schema of %s does not compile: %v", t.name, err)) // static data
		}
		t.schema = sc
	}
	return ts
}

func toolList() []*tool {
	return []*tool{
		{
			name:   "search_stories",
			desc:   "Search the news index for stories. Results say whether they are complete (partial, coverage) and whether 'from' was clamped. Costs 1 credit, plus 1 per 10 stories returned, plus 1 per signal; estimate: true shows the breakdown for free.",
			params: []param{pQuery, pLanguage, pSignals, pFrom, pTo, pLimit, pMaxCredits, pEstimate},
			output: searchSchema,
			price: func(a *args) (Credits, []priceItem) {
				limit := cmpOr(a.limit, defaultLimit)
				sig := int64(len(a.signals))
				items := []priceItem{
					{"search", 1, 1},
					{fmt.Sprintf("results: 1 credit per 10 stories returned, up to %d", limit), 0, per10(limit)},
				}
				if sig > 0 {
					items = append(items, priceItem{"signals: 1 credit each (" + strings.Join(a.signals, ", ") + ")", sig, sig})
				}
				return Credits{1 + sig, 1 + per10(limit) + sig}, items
			},
			run: (*Server).searchStories,
		},
		{
			name: "get_article", desc: "Get one article by id, with its signals. Costs 1 credit.",
			params: []param{pArticleID}, output: articleSchema, price: fixed("article", 1),
			run: (*Server).getArticle,
		},
		{
			name: "get_story", desc: "Get one story by id, with its articles and signals. Costs 2 credits. Says partial: true when some of its articles' shards did not answer.",
			params: []param{pStoryID}, output: storySchema, price: fixed("story", 2),
			run: (*Server).getStory,
		},
		{
			name:   "find_related",
			desc:   "Find articles related to an article: its story first, then shared entities and topics. Costs 1 credit plus 1 per 10 articles returned.",
			params: []param{pArticleID, pLimit, pMaxCredits},
			output: relatedSchema,
			price: func(a *args) (Credits, []priceItem) {
				limit := cmpOr(a.limit, defaultLimit)
				return Credits{1, 1 + per10(limit)}, []priceItem{{"lookup", 1, 1}, {fmt.Sprintf("results: 1 credit per 10 articles returned, up to %d", limit), 0, per10(limit)}}
			},
			run: (*Server).findRelated,
		},
		{
			name: "create_watch", desc: "Watch the index for articles matching a query (hosted endpoint only). Costs 3 credits. Refused with watch_limit when the plan's watches are all in use.",
			params: []param{pQuery, pSignals}, output: watchSchema, watch: true, price: fixed("watch", 3),
			run: (*Server).createWatch,
		},
		{
			name: "get_watch", desc: "Get one of this account's watches (hosted endpoint only). Free.",
			params: []param{pWatchID}, output: watchSchema, watch: true, price: fixed("watch lookup", 0),
			run: (*Server).getWatch,
		},
		{
			name: "delete_watch", desc: "Delete one of this account's watches (hosted endpoint only). Free.",
			params: []param{pWatchID}, output: deletedSchema, watch: true, price: fixed("watch deletion", 0),
			run: (*Server).deleteWatch,
		},
		{
			name: "watch_events", desc: "List the articles a watch matched (hosted endpoint only), oldest first, 50 at most. Costs 1 credit.",
			params: []param{pWatchID, pSince}, output: eventsSchema, watch: true, price: fixed("events", 1),
			run: (*Server).watchEvents,
		},
	}
}

func cmpOr(n, d int) int {
	if n == 0 {
		return d
	}
	return n
}

// outcome is what a call produced: exactly one of its fields is set.
type outcome struct {
	ok      result
	toolErr *ToolError
	argErr  *ArgError
	balance *usage // the account's figures after the call (hosted only)
}

// call runs a tool for an account: validation, the watch store, the price
// checks, the run and the charge, in that order. A call refused before it
// runs costs nothing.
func (s *Server) call(ctx context.Context, acct *account, t *tool, raw json.RawMessage) outcome {
	a, aerr := t.validate(raw)
	if aerr != nil {
		return outcome{argErr: aerr}
	}
	return s.run(ctx, acct, t, a)
}

// callChecked is call for arguments the tool's schema has accepted already
// (the MCP server's gosdk.Validate checks them against the same schema): it
// makes only the checks the schema cannot (parseArgs), then runs the tool.
func (s *Server) callChecked(ctx context.Context, acct *account, t *tool, raw json.RawMessage) outcome {
	a, aerr := parseArgs(raw, t.params)
	if aerr != nil {
		return outcome{argErr: aerr}
	}
	return s.run(ctx, acct, t, a)
}

// run runs a tool whose arguments are checked: the watch store, the price
// checks, the run and the charge.
func (s *Server) run(ctx context.Context, acct *account, t *tool, a *args) outcome {
	if t.watch && acct.local {
		return outcome{toolErr: newError(Unsupported, "%s needs a watch store; this server has none (the local stdio server keeps no watches). Make the call on the hosted endpoint", t.name)}
	}
	price, items := t.price(a)
	if a.estimate {
		return outcome{ok: &estimate{Estimate: true, Credits: price, Breakdown: items}}
	}
	if a.has("max_credits") && price.Max > a.maxCredits {
		e := newError(CreditBudgetExceeded, "this call can cost up to %d credits and max_credits is %d; raise max_credits or narrow the call (estimate: true shows the breakdown)", price.Max, a.maxCredits)
		e.Credits = &price
		e.MaxCredits = ptr(a.maxCredits)
		return outcome{toolErr: e}
	}
	if acct.key.Suspended {
		return outcome{toolErr: newError(Suspended, "the subscription for this key was canceled or its payment failed; no call that costs credits can run until the account is settled")}
	}
	if perMinute := acct.key.CreditsPerMinute; !acct.local && perMinute > 0 && price.Max > perMinute {
		e := newError(CreditBudgetExceeded, "this call can cost up to %d credits, more than this key's %d credits a minute; narrow the call (estimate: true shows the breakdown)", price.Max, perMinute)
		e.Credits = &price
		return outcome{toolErr: e}
	}
	now := s.now()
	res, e := s.reserve(ctx, acct, price, now)
	if e != nil {
		return outcome{toolErr: e}
	}
	ok, terr := t.run(s, ctx, acct, a)
	var cost int64
	if terr == nil {
		cost = s.cost(a, ok, price)
		ok.setCharged(cost)
	}
	return outcome{ok: ok, toolErr: terr, balance: s.settle(ctx, res, cost, now)}
}

// cost is what a successful call is charged: its price, with the per-10
// results part counted on what it returned.
func (s *Server) cost(a *args, res result, price Credits) int64 {
	switch r := res.(type) {
	case *searchResult:
		return 1 + per10(len(r.Stories)) + int64(len(a.signals))
	case *relatedResult:
		return 1 + per10(len(r.Articles))
	}
	return price.Max
}

// estimate is the payload of estimate: true.
type estimate struct {
	Estimate  bool        `json:"estimate"`
	Credits   Credits     `json:"credits"`
	Breakdown []priceItem `json:"breakdown"`
	charged
}

// completeness is carried by every search-shaped payload.
type completeness struct {
	Total         int    `json:"total"`
	TotalRelation string `json:"total_relation"` // "exact", or "gte" when shards did not answer
	HasMore       bool   `json:"has_more"`
	Partial       bool   `json:"partial"`
	Coverage      string `json:"coverage"` // "complete", or which shards answered
	FromClamped   bool   `json:"from_clamped"`
	Shards        shards `json:"shards"`
}

type shards struct {
	Needed   int `json:"needed"`
	Answered int `json:"answered"`
}

// complete fills the completeness of a read, or refuses it with
// upstream_unavailable when none of the shards it needed answered.
func (s *Server) complete(c *completeness, cov newsindex.Coverage, total, returned int) *ToolError {
	if len(cov.Needed) > 0 && len(cov.Answered) == 0 {
		e := newError(UpstreamUnavailable, "no index shard covering the request answered (%s); this is not an empty result. Retry with backoff, or narrow the time range", s.shardList(cov.Needed))
		e.RetryAfterSecs = 30
		return e
	}
	c.Total, c.TotalRelation = total, "exact"
	c.HasMore = total > returned
	c.Coverage = "complete"
	c.Shards = shards{len(cov.Needed), len(cov.Answered)}
	if !cov.Complete() {
		var missing []int
		for _, n := range cov.Needed {
			if !slices.Contains(cov.Answered, n) {
				missing = append(missing, n)
			}
		}
		c.Partial, c.TotalRelation = true, "gte"
		c.Coverage = fmt.Sprintf("partial: %d of %d shards answered; not read: %s", len(cov.Answered), len(cov.Needed), s.shardList(missing))
	}
	return nil
}

func (s *Server) shardList(ids []int) string {
	var parts []string
	for _, i := range ids {
		f, t := s.index.ShardRange(i)
		parts = append(parts, fmt.Sprintf("shard %d, %s to %s", i, f.Format(time.DateOnly), t.Format(time.DateOnly)))
	}
	return strings.Join(parts, "; ")
}

// brief is an article in a list.
type brief struct {
	ID        string    `json:"id"`
	StoryID   string    `json:"story_id"`
	Title     string    `json:"title"`
	Source    string    `json:"source"`
	URL       string    `json:"url"`
	Language  string    `json:"language"`
	Published time.Time `json:"published"`
}

func briefOf(a newsindex.Article) brief {
	return brief{a.ID, a.StoryID, a.Title, a.Source, a.URL, a.Language, a.Published}
}

// signals is the signals object: only the members asked for are present.
type signals struct {
	Sentiment *float64 `json:"sentiment,omitempty"`
	Entities  []string `json:"entities,omitempty"`
	Topics    []string `json:"topics,omitempty"`
	Velocity  *float64 `json:"velocity,omitempty"`
	Languages []string `json:"languages,omitempty"`
	Dates     []string `json:"dates,omitempty"`
}

func pick(sg newsindex.Signals, names []string) *signals {
	if len(names) == 0 {
		return nil
	}
	out := &signals{}
	for _, n := range names {
		switch n {
		case "sentiment":
			out.Sentiment = ptr(sg.Sentiment)
		case "entities":
			out.Entities = nonNil(sg.Entities)
		case "topics":
			out.Topics = nonNil(sg.Topics)
		case "velocity":
			out.Velocity = ptr(sg.Velocity)
		case "languages":
			out.Languages = nonNil(sg.Languages)
		case "dates":
			out.Dates = nonNil(sg.Dates)
		}
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

type storyHit struct {
	ID              string    `json:"id"`
	Headline        string    `json:"headline"`
	FirstSeen       time.Time `json:"first_seen"`
	LastSeen        time.Time `json:"last_seen"`
	ArticleCount    int       `json:"article_count"`
	MatchedArticles int       `json:"matched_articles"`
	TopArticle      brief     `json:"top_article"`
	Signals         *signals  `json:"signals,omitempty"`
}

type searchResult struct {
	completeness
	Stories []storyHit `json:"stories"`
	charged
}

func (s *Server) searchStories(_ context.Context, _ *account, a *args) (result, *ToolError) {
	q := newsindex.Query{Text: a.query, Language: a.language, From: a.from, To: a.to, Limit: cmpOr(a.limit, defaultLimit)}
	res := s.index.Search(q, s.isDown)
	out := &searchResult{Stories: []storyHit{}}
	if e := s.complete(&out.completeness, res.Coverage, res.Total, len(res.Hits)); e != nil {
		return nil, e
	}
	out.FromClamped = a.has("from") && a.from.Before(s.index.Start())
	for _, h := range res.Hits {
		arts, _ := s.index.StoryArticles(h.Story, s.isDown)
		out.Stories = append(out.Stories, storyHit{
			ID: h.Story.ID, Headline: h.Story.Headline, FirstSeen: h.Story.FirstSeen, LastSeen: h.Story.LastSeen,
			ArticleCount: len(h.Story.Articles), MatchedArticles: len(h.Matched),
			TopArticle: briefOf(h.Matched[0]), Signals: pick(newsindex.StorySignals(arts), a.signals),
		})
	}
	return out, nil
}

type articleOut struct {
	brief
	Summary string  `json:"summary"`
	Shard   int     `json:"shard"`
	Signals signals `json:"signals"`
}

type articleResult struct {
	Article articleOut `json:"article"`
	charged
}

func (s *Server) notFound(what, id string) *ToolError {
	return newError(NotFound, "the index holds no %s with id '%s'", what, quoteName(id))
}

func (s *Server) unavailable(shard int) *ToolError {
	e := newError(UpstreamUnavailable, "the index shard holding this id did not answer (%s); this is not an absence. Retry with backoff", s.shardList([]int{shard}))
	e.RetryAfterSecs = 30
	return e
}

// reach is the error of looking up the what of id, found or not, on
// shard: it is absent, or its shard did not answer; nil when it can be
// read.
func (s *Server) reach(what, id string, found bool, shard int) *ToolError {
	if !found {
		return s.notFound(what, id)
	}
	if s.isDown(shard) {
		return s.unavailable(shard)
	}
	return nil
}

func (s *Server) getArticle(_ context.Context, _ *account, a *args) (result, *ToolError) {
	art, ok := s.index.Article(a.id)
	if e := s.reach("article", a.id, ok, art.Shard); e != nil {
		return nil, e
	}
	return &articleResult{Article: articleOf(art)}, nil
}

func articleOf(art newsindex.Article) articleOut {
	return articleOut{
		brief: briefOf(art), Summary: art.Summary, Shard: art.Shard,
		Signals: signals{Sentiment: ptr(art.Sentiment), Entities: nonNil(art.Entities), Topics: nonNil(art.Topics), Languages: []string{art.Language}, Dates: nonNil(art.Dates)},
	}
}

type storyOut struct {
	ID           string    `json:"id"`
	Headline     string    `json:"headline"`
	FirstSeen    time.Time `json:"first_seen"`
	LastSeen     time.Time `json:"last_seen"`
	ArticleCount int       `json:"article_count"`
	Signals      signals   `json:"signals"`
	Articles     []brief   `json:"articles"`
}

type storyResult struct {
	Story    storyOut `json:"story"`
	Partial  bool     `json:"partial"`
	Coverage string   `json:"coverage"`
	charged
}

func (s *Server) getStory(_ context.Context, _ *account, a *args) (result, *ToolError) {
	st, ok := s.index.Story(a.id)
	if e := s.reach("story", a.id, ok, st.Shard); e != nil {
		return nil, e
	}
	arts, missing := s.index.StoryArticles(st, s.isDown)
	sg := newsindex.StorySignals(arts)
	out := &storyResult{
		Story: storyOut{
			ID: st.ID, Headline: st.Headline, FirstSeen: st.FirstSeen, LastSeen: st.LastSeen, ArticleCount: len(st.Articles),
			Signals:  *pick(sg, newsindex.SignalNames()),
			Articles: []brief{},
		},
		Coverage: "complete",
	}
	for _, art := range arts {
		out.Story.Articles = append(out.Story.Articles, briefOf(art))
	}
	if missing > 0 {
		out.Partial = true
		out.Coverage = fmt.Sprintf("partial: %d of %d articles read; the rest are on shards that did not answer", len(arts), len(st.Articles))
	}
	return out, nil
}

type relatedResult struct {
	ArticleID string `json:"article_id"`
	completeness
	Articles []brief `json:"articles"`
	charged
}

func (s *Server) findRelated(_ context.Context, _ *account, a *args) (result, *ToolError) {
	art, ok := s.index.Article(a.id)
	if e := s.reach("article", a.id, ok, art.Shard); e != nil {
		return nil, e
	}
	arts, total, cov := s.index.Related(art, cmpOr(a.limit, defaultLimit), s.isDown)
	out := &relatedResult{ArticleID: art.ID, Articles: []brief{}}
	if e := s.complete(&out.completeness, cov, total, len(arts)); e != nil {
		return nil, e
	}
	for _, b := range arts {
		out.Articles = append(out.Articles, briefOf(b))
	}
	return out, nil
}

// Package newsindex is the sample news index the news example server serves:
// a few thousand articles grouped into stories, spread over time-partitioned
// shards, each with the published signals (sentiment, entities, topics,
// velocity, languages, dates).
//
// The index is generated from a fixed seed, so every build and every run holds
// the same articles with the same ids: tests and transcripts can name them.
// An Index is immutable once built and safe for concurrent use. Whether a
// shard answers is not the index's business: every read takes the set of
// shards that are down, and reports which shards it could read, so a caller
// can tell "no matches" from "not read".
package newsindex

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"time"
)

// Shards is the number of shards the sample index is spread over. Shard i
// holds the articles published in the i-th equal slice of [Index.Start,
// Index.End).
const Shards = 6

// The window the sample index holds.
var (
	windowStart = time.Date(2026, 8, 3, 0, 0, 0, 0, time.UTC)
	shardSpan   = 15 * 24 * time.Hour
)

// SignalNames returns the published signal names, in their documented order.
// A search or watch may ask for any of them; no other name is a signal.
func SignalNames() []string {
	return []string{"sentiment", "entities", "topics", "velocity", "languages", "dates"}
}

// IsSignal reports whether name is a published signal name.
func IsSignal(name string) bool { return slices.Contains(SignalNames(), name) }

// Article is one published article.
type Article struct {
	ID        string    `json:"id"`
	StoryID   string    `json:"story_id"`
	Title     string    `json:"title"`
	Summary   string    `json:"summary"`
	Source    string    `json:"source"`
	URL       string    `json:"url"`
	Language  string    `json:"language"`
	Published time.Time `json:"published"`
	Shard     int       `json:"shard"`
	Sentiment float64   `json:"sentiment"`
	Entities  []string  `json:"entities"`
	Topics    []string  `json:"topics"`
	Dates     []string  `json:"dates"`

	text string // lower-cased searchable text
}

// Story is a group of articles about one event.
type Story struct {
	ID        string    `json:"id"`
	Headline  string    `json:"headline"`
	FirstSeen time.Time `json:"first_seen"`
	LastSeen  time.Time `json:"last_seen"`
	Shard     int       `json:"shard"` // the home shard: where the story record lives
	Articles  []int     `json:"-"`     // indexes into Index.articles, by publication time
}

// Index is the sample index. Build it with New.
type Index struct {
	articles []Article
	stories  []Story
	byID     map[string]int // article id -> index
	storyIdx map[string]int // story id -> index
}

// Start returns the earliest instant the index holds.
func (ix *Index) Start() time.Time { return windowStart }

// End returns the instant just after the latest the index holds.
func (ix *Index) End() time.Time { return windowStart.Add(Shards * shardSpan) }

// ShardOf returns the shard holding instant t, clamped to the index's shards.
func (ix *Index) ShardOf(t time.Time) int {
	i := int(t.Sub(windowStart) / shardSpan)
	return min(max(i, 0), Shards-1)
}

// ShardRange returns the time range shard i holds.
func (ix *Index) ShardRange(i int) (from, to time.Time) {
	from = windowStart.Add(time.Duration(i) * shardSpan)
	return from, from.Add(shardSpan)
}

// Len returns the number of articles and stories in the index.
func (ix *Index) Len() (articles, stories int) { return len(ix.articles), len(ix.stories) }

var (
	topics   = []string{"energy", "elections", "climate", "markets", "health", "technology", "transport", "space", "agriculture", "housing", "trade", "education"}
	entities = []string{
		"Ardent Grid", "Norvale", "Kestrel Motors", "Lumen Health", "Port Caldera", "Riverside Council",
		"Halden Bank", "Orbis Labs", "Meridian Rail", "Tessaly", "Vantor Foods", "Calder Union",
		"Brightwater", "Quill Systems", "Marisol Airways", "Eastmere", "Juniper Mining", "Solent Ports",
		"Aurel Pharma", "Greyfield", "Nimbus Telecom", "Ostrava Steel", "Pelham Institute", "Westcombe",
	}
	actions = []string{
		"wins contract for", "delays", "announces", "cuts", "expands", "faces inquiry into",
		"unveils", "abandons", "secures funding for", "reports record", "pauses", "doubles",
	}
	objects = map[string][]string{
		"energy":      {"offshore wind tender", "grid upgrade", "solar farm", "gas storage plan"},
		"elections":   {"campaign spending", "ballot reform", "candidate list", "turnout drive"},
		"climate":     {"emissions target", "flood defences", "heat plan", "carbon levy"},
		"markets":     {"share buyback", "bond issue", "quarterly outlook", "merger talks"},
		"health":      {"vaccine rollout", "hospital expansion", "drug trial", "clinic closures"},
		"technology":  {"chip plant", "data centre", "AI assistant", "satellite network"},
		"transport":   {"rail timetable", "airport runway", "bus fleet", "bridge repairs"},
		"space":       {"launch schedule", "lunar lander", "orbital station", "rocket engine test"},
		"agriculture": {"harvest forecast", "water rights", "fertiliser subsidy", "dairy prices"},
		"housing":     {"rent controls", "building permits", "mortgage rates", "social housing"},
		"trade":       {"tariff review", "export quota", "port strike", "customs deal"},
		"education":   {"school funding", "exam reform", "university fees", "teacher pay"},
	}
	sources   = []string{"Daily Ledger", "Wire Point", "The Courier", "Northern Post", "Metro Times", "Global Digest", "Harbour News", "Le Quotidien", "Der Bote", "El Diario"}
	languages = []string{"en", "en", "en", "en", "de", "fr", "es", "it", "nl", "pt"}
)

// New generates the sample index. The same seed gives the same index; the
// server uses New(4).
func New(seed uint64) *Index {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	ix := &Index{byID: map[string]int{}, storyIdx: map[string]int{}}
	end := ix.End()
	const nStories = 700
	type draft struct {
		story Story
		arts  []Article
	}
	var drafts []draft
	for s := range nStories {
		topic := topics[r.IntN(len(topics))]
		topic2 := topics[r.IntN(len(topics))]
		ents := pick(r, entities, 2+r.IntN(3))
		obj := objects[topic][r.IntN(len(objects[topic]))]
		headline := fmt.Sprintf("%s %s %s", ents[0], actions[r.IntN(len(actions))], obj)
		start := windowStart.Add(time.Duration(r.Int64N(int64(end.Sub(windowStart)))))
		span := time.Duration(1+r.IntN(96)) * time.Hour
		n := 1 + r.IntN(4) + r.IntN(4) + r.IntN(3)
		mood := r.Float64()*1.6 - 0.8
		st := Story{ID: fmt.Sprintf("s-%04d", s+1), Headline: headline}
		var arts []Article
		for a := range n {
			pub := start
			if a > 0 {
				pub = start.Add(time.Duration(r.Int64N(int64(span))))
			}
			if !pub.Before(end) {
				pub = end.Add(-time.Duration(1+r.IntN(3600)) * time.Second)
			}
			pub = pub.Truncate(time.Minute)
			src := sources[r.IntN(len(sources))]
			lang := languages[r.IntN(len(languages))]
			tps := []string{topic}
			if topic2 != topic && r.IntN(2) == 0 {
				tps = append(tps, topic2)
			}
			aents := slices.Clone(ents[:1+r.IntN(len(ents))])
			sent := math.Round((mood+r.Float64()*0.4-0.2)*100) / 100
			sent = min(max(sent, -1), 1)
			title := headline
			switch r.IntN(4) {
			case 1:
				title = headline + ", " + strings.ToLower(src) + " reports"
			case 2:
				title = "Analysis: " + headline
			case 3:
				title = fmt.Sprintf("%s: what %s means for %s", headline, aents[0], topic)
			}
			mentioned := pub.Add(time.Duration(r.IntN(30)) * 24 * time.Hour).Format(time.DateOnly)
			summary := fmt.Sprintf("%s. Coverage of %s with %s.", headline, topic, strings.Join(aents, ", "))
			arts = append(arts, Article{
				Title: title, Summary: summary, Source: src, Language: lang,
				Published: pub, Sentiment: sent, Entities: aents, Topics: tps,
				Dates: []string{pub.Format(time.DateOnly), mentioned},
			})
		}
		sort.SliceStable(arts, func(i, j int) bool { return arts[i].Published.Before(arts[j].Published) })
		drafts = append(drafts, draft{st, arts})
	}
	// Number articles by publication order across the whole index.
	type ref struct{ d, a int }
	var refs []ref
	for d := range drafts {
		for a := range drafts[d].arts {
			refs = append(refs, ref{d, a})
		}
	}
	sort.SliceStable(refs, func(i, j int) bool {
		return drafts[refs[i].d].arts[refs[i].a].Published.Before(drafts[refs[j].d].arts[refs[j].a].Published)
	})
	for n, rf := range refs {
		a := drafts[rf.d].arts[rf.a]
		a.ID = fmt.Sprintf("a-%05d", n+1)
		a.StoryID = drafts[rf.d].story.ID
		a.Shard = ix.ShardOf(a.Published)
		a.URL = fmt.Sprintf("https://news.example/%s/%s", a.Published.Format("2006/01/02"), a.ID)
		a.text = strings.ToLower(strings.Join([]string{a.Title, a.Summary, a.Source, strings.Join(a.Entities, " "), strings.Join(a.Topics, " ")}, " "))
		ix.byID[a.ID] = len(ix.articles)
		ix.articles = append(ix.articles, a)
		drafts[rf.d].story.Articles = append(drafts[rf.d].story.Articles, n)
	}
	for _, d := range drafts {
		st := d.story
		st.FirstSeen = ix.articles[st.Articles[0]].Published
		st.LastSeen = ix.articles[st.Articles[len(st.Articles)-1]].Published
		st.Shard = ix.ShardOf(st.FirstSeen)
		ix.storyIdx[st.ID] = len(ix.stories)
		ix.stories = append(ix.stories, st)
	}
	return ix
}

func pick(r *rand.Rand, from []string, n int) []string {
	p := r.Perm(len(from))[:n]
	out := make([]string, n)
	for i, j := range p {
		out[i] = from[j]
	}
	return out
}

// Article returns the article with the given id.
func (ix *Index) Article(id string) (Article, bool) {
	i, ok := ix.byID[id]
	if !ok {
		return Article{}, false
	}
	return ix.articles[i], true
}

// Story returns the story with the given id.
func (ix *Index) Story(id string) (Story, bool) {
	i, ok := ix.storyIdx[id]
	if !ok {
		return Story{}, false
	}
	return ix.stories[i], true
}

// StoryArticles returns the story's articles held by shards that are up,
// and how many it has on shards that are down.
func (ix *Index) StoryArticles(st Story, down func(shard int) bool) (arts []Article, missing int) {
	for _, i := range st.Articles {
		a := ix.articles[i]
		if down != nil && down(a.Shard) {
			missing++
			continue
		}
		arts = append(arts, a)
	}
	return arts, missing
}

// Query is a search over the index. Zero fields do not filter.
type Query struct {
	Text     string    // every word must appear in the article's title, summary, source, entities or topics
	Language string    // ISO 639-1
	From, To time.Time // published in [From, To)
	Limit    int       // stories wanted; 0 means 10
}

// Hit is a story that matched a search, with the articles that matched.
type Hit struct {
	Story   Story
	Matched []Article // the matching articles, by publication time
}

// Coverage says which shards a read needed and which of them answered.
type Coverage struct {
	Needed   []int // shards whose time range the read overlaps
	Answered []int // the needed shards that answered
}

// Complete reports whether every needed shard answered.
func (c Coverage) Complete() bool { return len(c.Needed) == len(c.Answered) }

// Result is the outcome of a search.
type Result struct {
	Hits     []Hit // at most Limit, best first
	Total    int   // matching stories on the shards that answered
	Coverage Coverage
}

// Search returns the stories with an article matching q, best first: most
// matching articles, then most recent, then id. Shards for which down
// reports true are not read.
func (ix *Index) Search(q Query, down func(shard int) bool) Result {
	from, to := q.From, q.To
	if from.IsZero() || from.Before(ix.Start()) {
		from = ix.Start()
	}
	if to.IsZero() || to.After(ix.End()) {
		to = ix.End()
	}
	var res Result
	if !from.Before(to) {
		return res
	}
	for s := range Shards {
		sf, st := ix.ShardRange(s)
		if sf.Before(to) && st.After(from) {
			res.Coverage.Needed = append(res.Coverage.Needed, s)
			if down == nil || !down(s) {
				res.Coverage.Answered = append(res.Coverage.Answered, s)
			}
		}
	}
	words := strings.Fields(strings.ToLower(q.Text))
	hits := map[string]*Hit{}
	for _, a := range ix.articles {
		if a.Published.Before(from) || !a.Published.Before(to) {
			continue
		}
		if down != nil && down(a.Shard) {
			continue
		}
		if q.Language != "" && a.Language != q.Language {
			continue
		}
		if !matches(a.text, words) {
			continue
		}
		h := hits[a.StoryID]
		if h == nil {
			h = &Hit{Story: ix.stories[ix.storyIdx[a.StoryID]]}
			hits[a.StoryID] = h
		}
		h.Matched = append(h.Matched, a)
	}
	all := make([]Hit, 0, len(hits))
	for _, h := range hits {
		all = append(all, *h)
	}
	sort.Slice(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if len(a.Matched) != len(b.Matched) {
			return len(a.Matched) > len(b.Matched)
		}
		la, lb := a.Matched[len(a.Matched)-1].Published, b.Matched[len(b.Matched)-1].Published
		if !la.Equal(lb) {
			return la.After(lb)
		}
		return a.Story.ID < b.Story.ID
	})
	limit := q.Limit
	if limit <= 0 {
		limit = 10
	}
	res.Total = len(all)
	res.Hits = all[:min(limit, len(all))]
	return res
}

func matches(text string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(text, w) {
			return false
		}
	}
	return true
}

// Related returns the articles related to a, best first: the other articles
// of its story, then articles sharing its entities and topics. Shards for
// which down reports true are not read.
func (ix *Index) Related(a Article, limit int, down func(shard int) bool) (arts []Article, total int, cov Coverage) {
	for s := range Shards {
		cov.Needed = append(cov.Needed, s)
		if down == nil || !down(s) {
			cov.Answered = append(cov.Answered, s)
		}
	}
	type scored struct {
		a     Article
		score int
	}
	var all []scored
	for _, b := range ix.articles {
		if b.ID == a.ID || (down != nil && down(b.Shard)) {
			continue
		}
		score := 0
		if b.StoryID == a.StoryID {
			score += 10
		}
		for _, e := range b.Entities {
			if slices.Contains(a.Entities, e) {
				score += 2
			}
		}
		for _, t := range b.Topics {
			if slices.Contains(a.Topics, t) {
				score++
			}
		}
		if score >= 3 {
			all = append(all, scored{b, score})
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].score > all[j].score })
	for _, s := range all[:min(limit, len(all))] {
		arts = append(arts, s.a)
	}
	return arts, len(all), cov
}

// Since returns the articles matching q published at or after since, oldest
// first, at most limit of them, and how many match in all. It is what a
// watch reports as its events.
func (ix *Index) Since(text string, since time.Time, limit int, down func(shard int) bool) (arts []Article, total int, cov Coverage) {
	if since.Before(ix.Start()) {
		since = ix.Start()
	}
	for s := range Shards {
		_, st := ix.ShardRange(s)
		if st.After(since) {
			cov.Needed = append(cov.Needed, s)
			if down == nil || !down(s) {
				cov.Answered = append(cov.Answered, s)
			}
		}
	}
	words := strings.Fields(strings.ToLower(text))
	for _, a := range ix.articles {
		if a.Published.Before(since) || (down != nil && down(a.Shard)) || !matches(a.text, words) {
			continue
		}
		total++
		if len(arts) < limit {
			arts = append(arts, a)
		}
	}
	return arts, total, cov
}

// Signals are a story's published signals, computed over its articles.
type Signals struct {
	Sentiment float64  // mean article sentiment, -1 to 1, two decimals
	Entities  []string // entities named, most mentioned first
	Topics    []string // topics, most mentioned first
	Velocity  float64  // articles per hour over the story's span (at least an hour), two decimals
	Languages []string // languages published in, sorted
	Dates     []string // dates mentioned, sorted (YYYY-MM-DD)
}

// StorySignals computes the signals of a story from the articles given
// (normally the ones its shards returned).
func StorySignals(arts []Article) Signals {
	var sg Signals
	if len(arts) == 0 {
		return Signals{Entities: []string{}, Topics: []string{}, Languages: []string{}, Dates: []string{}}
	}
	var sum float64
	ents, tps := map[string]int{}, map[string]int{}
	langs, dates := map[string]bool{}, map[string]bool{}
	first, last := arts[0].Published, arts[0].Published
	for _, a := range arts {
		sum += a.Sentiment
		for _, e := range a.Entities {
			ents[e]++
		}
		for _, t := range a.Topics {
			tps[t]++
		}
		langs[a.Language] = true
		for _, d := range a.Dates {
			dates[d] = true
		}
		first = minTime(first, a.Published)
		if a.Published.After(last) {
			last = a.Published
		}
	}
	sg.Sentiment = math.Round(sum/float64(len(arts))*100) / 100
	sg.Entities = ranked(ents)
	sg.Topics = ranked(tps)
	sg.Languages = sortedKeys(langs)
	sg.Dates = sortedKeys(dates)
	hours := max(last.Sub(first).Hours(), 1)
	sg.Velocity = math.Round(float64(len(arts))/hours*100) / 100
	return sg
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func ranked(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		if m[out[i]] != m[out[j]] {
			return m[out[i]] > m[out[j]]
		}
		return out[i] < out[j]
	})
	return out
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

package demoapi

import (
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"fmt"
	"time"
)

// pathEncoding is the base32 alphabet step paths use: RFC 4648, upper case,
// no padding. A path is the encoding of the step's position in the trace's
// step tree, one byte per level, so the first top-level step is "AA".
var pathEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// SampleTraceID is the id of the sample trace the examples and the tour
// use. It belongs to the checkout service (team web).
const SampleTraceID = "0f1a2b3c4d5e6f708192a3b4c5d6e7f8"

// BrokenTraceID names a trace whose storage shard is down: every route that
// reads it answers 500 internal_error, so server_error can be shown.
const BrokenTraceID = "00000000000000000000000000000500"

// HiddenTraceID is a sample trace of the inventory service (team ops), which
// the demo read token's team-set does not cover: it answers 404 exactly as a
// trace that does not exist.
const HiddenTraceID = "9a8b7c6d5e4f30211203f4e5d6c7b8a9"

// service is one instrumented service and the team that owns it.
type service struct {
	Name      string   `json:"name"`
	Team      string   `json:"team"`
	Functions []string `json:"functions"`
}

// step is one step of a trace. Values are the arguments and the return
// value captured at the step.
type step struct {
	Path       string         `json:"path"`
	Parent     string         `json:"parent,omitempty"`
	Name       string         `json:"name"`
	Function   string         `json:"function"`
	DurationMS int            `json:"duration_ms"`
	Status     string         `json:"status"`
	values     map[string]any // served by the values route only
}

// trace is one recorded request.
type trace struct {
	ID          string
	Service     string
	Function    string
	Environment string // "" when the call carried none
	Tags        []string
	Status      string
	StartedAt   time.Time
	DurationMS  int
	Steps       []step
}

// summary is the listing form of a trace.
type summary struct {
	TraceID     string   `json:"trace_id"`
	Service     string   `json:"service"`
	Function    string   `json:"function"`
	Environment *string  `json:"environment"`
	Status      string   `json:"status"`
	Tags        []string `json:"tags"`
	StartedAt   string   `json:"started_at"`
	DurationMS  int      `json:"duration_ms"`
}

func (t *trace) summary() summary {
	s := summary{
		TraceID: t.ID, Service: t.Service, Function: t.Function, Status: t.Status,
		Tags: t.Tags, StartedAt: t.StartedAt.Format(time.RFC3339), DurationMS: t.DurationMS,
	}
	if t.Environment != "" {
		env := t.Environment
		s.Environment = &env
	}
	return s
}

// detail is the single-trace form: the summary and its steps.
type detail struct {
	summary
	Steps []step `json:"steps"`
}

// dataset is the demo's sample data. It is built once per API and never
// changed, so it is read without a lock.
type dataset struct {
	services []service
	teams    []string
	traces   []*trace // newest first
	byID     map[string]*trace
}

// baseTime anchors the sample data, so answers are the same on every run.
var baseTime = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

func newDataset() *dataset {
	d := &dataset{
		services: []service{
			{Name: "checkout", Team: "web", Functions: []string{"handleCheckout", "applyCoupon"}},
			{Name: "payments", Team: "billing", Functions: []string{"chargeCard", "refund"}},
			{Name: "inventory", Team: "ops", Functions: []string{"reserveStock"}},
			{Name: "search", Team: "web", Functions: []string{"query"}},
		},
		teams: []string{"billing", "ops", "web"},
		byID:  make(map[string]*trace),
	}
	envs := []string{"prod", "staging", ""}
	tags := [][]string{{"beta"}, {"mobile"}, {"beta", "eu"}, {}, {"eu"}}
	n := 0
	for i := range 30 {
		svc := d.services[i%len(d.services)]
		fn := svc.Functions[(i/len(d.services))%len(svc.Functions)]
		id := SampleTraceID
		switch {
		case i == 0:
		case i == 2:
			id = HiddenTraceID
		default:
			sum := sha256.Sum256(fmt.Appendf(nil, "vexlo-demo-trace-%d", i))
			id = hex.EncodeToString(sum[:16])
		}
		status := "ok"
		if i%4 == 3 {
			status = "error"
		}
		t := &trace{
			ID: id, Service: svc.Name, Function: fn, Environment: envs[i%len(envs)],
			Tags: tags[i%len(tags)], Status: status,
			StartedAt:  baseTime.Add(-time.Duration(i*97) * time.Minute),
			DurationMS: 40 + (i*37)%300,
		}
		t.Steps = demoSteps(t, i)
		d.traces = append(d.traces, t)
		d.byID[id] = t
		n++
	}
	return d
}

// demoSteps builds a small step tree: a root handler with two children, the
// second of which has one child of its own.
func demoSteps(t *trace, i int) []step {
	p := func(pos ...byte) string { return pathEncoding.EncodeToString(pos) }
	status := func(last bool) string {
		if last && t.Status == "error" {
			return "error"
		}
		return "ok"
	}
	return []step{
		{Path: p(0), Name: t.Function, Function: t.Service + "." + t.Function, DurationMS: t.DurationMS, Status: t.Status,
			values: map[string]any{"args": map[string]any{"request_id": fmt.Sprintf("req-%04d", 1000+i)}, "return": map[string]any{"status": t.Status}}},
		{Path: p(0, 0), Parent: p(0), Name: "validate", Function: t.Service + ".validate", DurationMS: 3 + i%5, Status: "ok",
			values: map[string]any{"args": map[string]any{"fields": 4 + i%3}, "return": true}},
		{Path: p(0, 1), Parent: p(0), Name: "store", Function: t.Service + ".store", DurationMS: t.DurationMS / 2, Status: status(true),
			values: map[string]any{"args": map[string]any{"rows": 1 + i%7}, "return": map[string]any{"written": 1 + i%7}}},
		{Path: p(0, 1, 0), Parent: p(0, 1), Name: "db.query", Function: "db.query", DurationMS: t.DurationMS / 3, Status: status(true),
			values: map[string]any{"args": map[string]any{"sql": "UPDATE orders SET state = $1 WHERE id = $2"}, "return": map[string]any{"rows_affected": 1}}},
	}
}

func (d *dataset) service(name string) (service, bool) {
	for _, s := range d.services {
		if s.Name == name {
			return s, true
		}
	}
	return service{}, false
}

package demoapi

import (
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// MaxPaths is the most step paths one values request may name
// (values_max_paths); more is 422 too_many_paths.
const MaxPaths = 8

// MaxStatusIDs is the most trace ids one status request may name.
const MaxStatusIDs = 100

func (a *API) routes() *http.ServeMux {
	m := http.NewServeMux()
	read := func(h func(http.ResponseWriter, *http.Request, caller)) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			if c, ok := a.authenticate(w, r, true); ok {
				h(w, r, c)
			}
		}
	}
	m.HandleFunc("GET /v1/tokens/self", a.tokenSelf)
	m.HandleFunc("GET /v1/health", read(a.health))
	m.HandleFunc("GET /v1/traces", read(a.searchTraces))
	m.HandleFunc("GET /v1/traces/status", read(a.traceStatus))
	m.HandleFunc("GET /v1/traces/{id}", read(a.getTrace))
	m.HandleFunc("GET /v1/traces/{id}/related", read(a.relatedTraces))
	m.HandleFunc("GET /v1/traces/{id}/values", read(a.values))
	m.HandleFunc("GET /v1/functions/{service}/{name}", read(a.function))
	m.HandleFunc("GET /v1/functions/{service}/{name}/examples", read(a.functionExamples))
	m.HandleFunc("GET /v1/tags", read(a.tags))
	m.HandleFunc("GET /v1/services", read(a.services))
	m.HandleFunc("GET /v1/coverage", read(a.coverage))
	m.HandleFunc("POST /_demo/tokens", a.admin(a.adminToken))
	m.HandleFunc("POST /_demo/revoke", a.admin(a.adminRevoke))
	m.HandleFunc("POST /_demo/disk", a.admin(a.adminDisk))
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, &apiError{status: 404, code: "not_found", message: "no route " + r.Method + " " + r.URL.Path})
	})
	return m
}

func invalid(format string, args ...any) *apiError {
	return &apiError{status: 400, code: "invalid_request", message: fmt.Sprintf(format, args...)}
}

func (a *API) tokenSelf(w http.ResponseWriter, r *http.Request) {
	c, ok := a.authenticate(w, r, false)
	if !ok {
		return
	}
	if c.token == nil {
		writeJSON(w, 200, map[string]any{"id": "anonymous", "role": RoleRead, "teams": a.data.teams})
		return
	}
	teams := c.token.Teams
	if teams == nil {
		teams = []string{}
	}
	writeJSON(w, 200, map[string]any{"id": c.token.ID, "role": c.token.Role, "teams": teams})
}

func (a *API) health(w http.ResponseWriter, r *http.Request, c caller) {
	if a.pressure() {
		writeJSON(w, 503, map[string]any{"status": "degraded", "mode": "shape_only",
			"reason": "disk pressure: free space below 5%", "disk": map[string]any{"free_percent": 3}})
		return
	}
	writeJSON(w, 200, map[string]any{"status": "ok", "version": "demo", "disk": map[string]any{"free_percent": 61}})
}

// checkTraceID validates a trace id's format.
func checkTraceID(id string) *apiError {
	if len(id) != 32 || strings.IndexFunc(id, func(r rune) bool { return !('0' <= r && r <= '9' || 'a' <= r && r <= 'f') }) >= 0 {
		return invalid("trace_id must be 32 lowercase hex characters, got %d", len([]rune(id)))
	}
	return nil
}

// lookup finds a trace the caller can see. A trace on a team the caller
// cannot see is not found, exactly as one that does not exist.
func (a *API) lookup(id string, c caller) (*trace, *apiError) {
	if e := checkTraceID(id); e != nil {
		return nil, e
	}
	if id == BrokenTraceID {
		return nil, &apiError{status: 500, code: "internal_error", message: "trace store shard 3 is unavailable"}
	}
	t := a.data.byID[id]
	if t != nil {
		if s, _ := a.data.service(t.Service); c.sees(s.Team) {
			return t, nil
		}
	}
	return nil, &apiError{status: 404, code: "trace_not_found", message: "no trace with id " + id,
		details: map[string]any{"trace_id": id}}
}

func (a *API) visible(c caller, t *trace) bool {
	s, _ := a.data.service(t.Service)
	return c.sees(s.Team)
}

func (a *API) scopeNote(c caller) string {
	if c.token == nil {
		return "no-auth mode: every team's traces are included"
	}
	teams := slices.Clone(c.token.Teams)
	sort.Strings(teams)
	return "covers the teams " + strings.Join(teams, ", ") + "; traces of other teams' services are not included (see /v1/coverage)"
}

// intParam parses an optional integer parameter in [lo, hi].
func intParam(q url.Values, name string, def, lo, hi int) (int, *apiError) {
	s := q.Get(name)
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		return 0, invalid("%s must be an integer from %d to %d, got %q", name, lo, hi, s)
	}
	return n, nil
}

func (a *API) searchTraces(w http.ResponseWriter, r *http.Request, c caller) {
	q := r.URL.Query()
	status := q.Get("status")
	if status != "" && status != "ok" && status != "error" {
		writeError(w, invalid(`status must be "ok" or "error", got %q`, status))
		return
	}
	limit, e := intParam(q, "limit", 20, 1, 100)
	if e != nil {
		writeError(w, e)
		return
	}
	var since time.Time
	if s := q.Get("since"); s != "" {
		if t, err := time.Parse(time.RFC3339, s); err == nil {
			since = t
		} else if d, err := time.ParseDuration(s); err == nil && d > 0 {
			since = baseTime.Add(-d)
		} else {
			writeError(w, invalid("since must be an RFC 3339 time or a duration such as 24h, got %q", s))
			return
		}
	}
	offset := 0
	if cur := q.Get("cursor"); cur != "" {
		b, err := base64.RawURLEncoding.DecodeString(cur)
		n, err2 := strconv.Atoi(strings.TrimPrefix(string(b), "o:"))
		if err != nil || err2 != nil || !strings.HasPrefix(string(b), "o:") || n < 0 {
			writeError(w, &apiError{status: 400, code: "invalid_cursor", message: "cursor " + strconv.Quote(cur) + " was not issued by this server"})
			return
		}
		offset = n
	}
	var hits []summary
	for _, t := range a.data.traces {
		if !a.visible(c, t) ||
			q.Get("service") != "" && t.Service != q.Get("service") ||
			q.Get("function") != "" && t.Function != q.Get("function") ||
			q.Get("tag") != "" && !slices.Contains(t.Tags, q.Get("tag")) ||
			status != "" && t.Status != status ||
			!since.IsZero() && t.StartedAt.Before(since) {
			continue
		}
		hits = append(hits, t.summary())
	}
	if offset > len(hits) {
		writeError(w, &apiError{status: 400, code: "invalid_cursor", message: "cursor " + strconv.Quote(q.Get("cursor")) + " is past the end of the results"})
		return
	}
	page := hits[offset:min(offset+limit, len(hits))]
	var next *string
	if offset+limit < len(hits) {
		s := base64.RawURLEncoding.EncodeToString([]byte("o:" + strconv.Itoa(offset+limit)))
		next = &s
	}
	if page == nil {
		page = []summary{}
	}
	writeJSON(w, 200, map[string]any{"traces": page, "next_cursor": next, "scope_note": a.scopeNote(c)})
}

func (a *API) traceStatus(w http.ResponseWriter, r *http.Request, c caller) {
	ids := r.URL.Query()["id"]
	if len(ids) == 0 {
		writeError(w, invalid("id is required"))
		return
	}
	if len(ids) > MaxStatusIDs {
		writeError(w, invalid("at most %d ids per request, got %d", MaxStatusIDs, len(ids)))
		return
	}
	type status struct {
		TraceID string `json:"trace_id"`
		Status  string `json:"status"`
	}
	statuses, unknown := []status{}, []string{}
	for _, id := range ids {
		t, e := a.lookup(id, c)
		switch {
		case e == nil:
			statuses = append(statuses, status{id, t.Status})
		case e.status == 404:
			unknown = append(unknown, id)
		default:
			writeError(w, e)
			return
		}
	}
	writeJSON(w, 200, map[string]any{"statuses": statuses, "unknown_ids": unknown})
}

func (a *API) getTrace(w http.ResponseWriter, r *http.Request, c caller) {
	t, e := a.lookup(r.PathValue("id"), c)
	if e != nil {
		writeError(w, e)
		return
	}
	writeJSON(w, 200, detail{summary: t.summary(), Steps: t.Steps})
}

func (a *API) relatedTraces(w http.ResponseWriter, r *http.Request, c caller) {
	t, e := a.lookup(r.PathValue("id"), c)
	if e != nil {
		writeError(w, e)
		return
	}
	q := r.URL.Query()
	hours, e := intParam(q, "window_hours", 24, 1, 168)
	if e != nil {
		writeError(w, e)
		return
	}
	limit, e := intParam(q, "limit", 10, 1, 100)
	if e != nil {
		writeError(w, e)
		return
	}
	window := time.Duration(hours) * time.Hour
	related := []summary{}
	for _, o := range a.data.traces {
		if o == t || o.Service != t.Service || !a.visible(c, o) {
			continue
		}
		if d := o.StartedAt.Sub(t.StartedAt); d > window || d < -window {
			continue
		}
		if len(related) < limit {
			related = append(related, o.summary())
		}
	}
	writeJSON(w, 200, map[string]any{"traces": related, "scope_note": a.scopeNote(c)})
}

func (a *API) values(w http.ResponseWriter, r *http.Request, c caller) {
	paths := r.URL.Query()["path"]
	if len(paths) > MaxPaths {
		writeError(w, &apiError{status: 422, code: "too_many_paths",
			message: fmt.Sprintf("at most %d paths per request, got %d", MaxPaths, len(paths)),
			details: map[string]any{"max_paths": MaxPaths}})
		return
	}
	t, e := a.lookup(r.PathValue("id"), c)
	if e != nil {
		writeError(w, e)
		return
	}
	if len(paths) == 0 {
		writeError(w, invalid("path is required"))
		return
	}
	values, unknown := map[string]any{}, []string{}
	for _, p := range paths {
		if _, err := pathEncoding.DecodeString(p); err != nil {
			writeError(w, invalid("path: %q does not decode", p))
			return
		}
		i := slices.IndexFunc(t.Steps, func(s step) bool { return s.Path == p })
		if i < 0 {
			if !slices.Contains(unknown, p) {
				unknown = append(unknown, p)
			}
			continue
		}
		values[p] = t.Steps[i].values
	}
	writeJSON(w, 200, map[string]any{"values": values, "unknown_paths": unknown})
}

// functionScope resolves the service and function a functions route names,
// and its environment filter: named environments, unset, or none.
func (a *API) functionScope(r *http.Request, c caller) (service, string, func(string) bool, *apiError) {
	svcName, name := r.PathValue("service"), r.PathValue("name")
	svc, ok := a.data.service(svcName)
	if !ok || !c.sees(svc.Team) {
		return svc, "", nil, &apiError{status: 404, code: "service_not_found", message: "no service named " + svcName,
			details: map[string]any{"service": svcName}}
	}
	if !slices.Contains(svc.Functions, name) {
		return svc, "", nil, &apiError{status: 404, code: "function_not_found",
			message: "no function " + name + " in service " + svcName,
			details: map[string]any{"service": svcName, "name": name}}
	}
	q := r.URL.Query()
	named, unset := q["environment"], q.Get("environment_unset")
	if unset != "" && unset != "true" && unset != "false" {
		return svc, "", nil, invalid("environment_unset must be true or false, got %q", unset)
	}
	switch {
	case len(named) > 0 && unset == "true":
		return svc, "", nil, &apiError{status: 400, code: "conflicting_filters",
			message: "environment and environment_unset cannot be combined"}
	case len(named) > 0:
		return svc, name, func(env string) bool { return env != "" && slices.Contains(named, env) }, nil
	case unset == "true":
		return svc, name, func(env string) bool { return env == "" }, nil
	}
	return svc, name, func(string) bool { return true }, nil
}

func (a *API) function(w http.ResponseWriter, r *http.Request, c caller) {
	svc, name, match, e := a.functionScope(r, c)
	if e != nil {
		writeError(w, e)
		return
	}
	type envStats struct {
		Environment *string `json:"environment"`
		Calls       int     `json:"calls"`
		Errors      int     `json:"errors"`
		MaxMS       int     `json:"max_ms"`
	}
	var stats []*envStats
	for _, t := range a.data.traces {
		if t.Service != svc.Name || t.Function != name || !match(t.Environment) {
			continue
		}
		i := slices.IndexFunc(stats, func(s *envStats) bool {
			return (s.Environment == nil) == (t.Environment == "") && (s.Environment == nil || *s.Environment == t.Environment)
		})
		if i < 0 {
			s := &envStats{}
			if t.Environment != "" {
				env := t.Environment
				s.Environment = &env
			}
			stats = append(stats, s)
			i = len(stats) - 1
		}
		s := stats[i]
		s.Calls++
		if t.Status == "error" {
			s.Errors++
		}
		s.MaxMS = max(s.MaxMS, t.DurationMS)
	}
	if stats == nil {
		stats = []*envStats{}
	}
	writeJSON(w, 200, map[string]any{
		"service": svc.Name, "name": name, "team": svc.Team,
		"signature":    name + "(ctx context.Context, req *Request) (*Response, error)",
		"environments": stats,
	})
}

func (a *API) functionExamples(w http.ResponseWriter, r *http.Request, c caller) {
	svc, name, match, e := a.functionScope(r, c)
	if e != nil {
		writeError(w, e)
		return
	}
	limit, e := intParam(r.URL.Query(), "limit", 3, 1, 5)
	if e != nil {
		writeError(w, e)
		return
	}
	examples := []map[string]any{}
	for _, t := range a.data.traces {
		if len(examples) == limit {
			break
		}
		if t.Service != svc.Name || t.Function != name || !match(t.Environment) {
			continue
		}
		root := t.Steps[0].values
		examples = append(examples, map[string]any{"trace_id": t.ID, "environment": t.summary().Environment,
			"args": root["args"], "return": root["return"]})
	}
	writeJSON(w, 200, map[string]any{"examples": examples})
}

func (a *API) tags(w http.ResponseWriter, r *http.Request, c caller) {
	name := r.URL.Query().Get("service")
	if name != "" {
		if svc, ok := a.data.service(name); !ok || !c.sees(svc.Team) {
			writeError(w, &apiError{status: 404, code: "service_not_found", message: "no service named " + name,
				details: map[string]any{"service": name}})
			return
		}
	}
	tags := []string{}
	for _, t := range a.data.traces {
		if !a.visible(c, t) || name != "" && t.Service != name {
			continue
		}
		for _, tag := range t.Tags {
			if !slices.Contains(tags, tag) {
				tags = append(tags, tag)
			}
		}
	}
	sort.Strings(tags)
	writeJSON(w, 200, map[string]any{"tags": tags})
}

func (a *API) services(w http.ResponseWriter, r *http.Request, c caller) {
	list := []service{}
	for _, s := range a.data.services {
		if c.sees(s.Team) {
			list = append(list, s)
		}
	}
	writeJSON(w, 200, map[string]any{"services": list})
}

func (a *API) coverage(w http.ResponseWriter, r *http.Request, c caller) {
	type team struct {
		Team     string   `json:"team"`
		Covered  bool     `json:"covered"`
		Services []string `json:"services"`
	}
	teams := []team{}
	for _, name := range a.data.teams {
		t := team{Team: name, Covered: c.sees(name), Services: []string{}}
		for _, s := range a.data.services {
			if s.Team == name {
				t.Services = append(t.Services, s.Name)
			}
		}
		teams = append(teams, t)
	}
	note := "a trace of a service whose team is not covered answers not found, exactly as a trace that does not exist"
	if c.token == nil {
		note = "no-auth mode: every team is covered"
	}
	writeJSON(w, 200, map[string]any{"teams": teams, "note": note})
}

// admin guards the /_demo/ routes with the admin key.
func (a *API) admin(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("X-Demo-Admin")), []byte(a.adminKey)) != 1 {
			writeError(w, &apiError{status: 401, code: "unauthenticated", message: "missing or wrong X-Demo-Admin key"})
			return
		}
		h(w, r)
	}
}

func (a *API) adminToken(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	role := q.Get("role")
	if role == "" {
		role = RoleRead
	}
	t := a.AddToken(role, q["team"]...)
	writeJSON(w, 200, map[string]any{"id": t.ID, "token": t.Secret, "role": t.Role, "teams": t.Teams})
}

func (a *API) adminRevoke(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, 200, map[string]any{"revoked": a.Revoke(r.URL.Query().Get("id"))})
}

func (a *API) adminDisk(w http.ResponseWriter, r *http.Request) {
	on := r.URL.Query().Get("pressure") == "on"
	a.SetDiskPressure(on)
	writeJSON(w, 200, map[string]any{"disk_pressure": on})
}

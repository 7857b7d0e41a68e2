package mcpserver

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/examples/news/newsindex"
	"github.com/mcperr/mcperr/gosdk"
)

// maxBody bounds a REST request body, and the body of a POST to /mcp (the
// front's own default, in place of the SDK's 4 MiB: no news call needs more).
const maxBody = 1 << 20

// Handler returns the hosted endpoint: Streamable HTTP MCP at /mcp
// (protocol 2025-11-25 and 2026-07-28, stateless, JSON responses) and the
// REST API at /v1/... over the same tools and the same code vocabulary.
//
// Every request needs "Authorization: Bearer <key>": a missing or invalid
// key is an HTTP 401 with the JSON error body, before any JSON-RPC is read.
// Every request then takes one of the key's messages this minute, the MCP
// handshake included; when none is left the answer is an HTTP 429 with
// Retry-After and the code message_rate_limited. /mcp accepts only the
// Config's AllowedHosts in its Host and Origin headers, and checks each
// JSON-RPC message before the SDK sees it (gosdk.HTTPHandler, whose front
// bounds a body at 1 MiB and runs the key and message check as its Gate,
// before the body is read): an answer
// carries the request's id exactly as sent, an id no JSON-RPC stack
// carries exactly is refused with -32600 and id null, and a POST without
// "Accept: application/json, text/event-stream" is answered like any other
// (in JSON), never with the go-sdk's plain-text 400.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/mcp", gosdk.HTTPHandler(s.mcpServer(true), &gosdk.HTTPOptions{
		HTTP:       adapter.HTTP{Path: "/mcp", AllowedHosts: s.hosts, Gate: s.gate},
		Streamable: &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true, MaxRequestBodyBytes: maxBody},
	}))
	mux.Handle("/", http.HandlerFunc(s.serveREST))
	return mux
}

// gate refuses a request without a valid key (401) or over its messages
// this minute (429), before its body is read, and lets the rest on.
func (s *Server) gate(w http.ResponseWriter, r *http.Request) bool {
	return s.admit(w, r) != nil
}

// admit checks the key and takes a message token. It returns the account,
// or nil after writing the refusal.
func (s *Server) admit(w http.ResponseWriter, r *http.Request) *account {
	key := bearer(r.Header)
	acct := s.account(key)
	if acct == nil {
		detail := "this request has no API key; send Authorization: Bearer <key>"
		if key != "" {
			detail = "the API key is not valid; send Authorization: Bearer <key> with a key of this server"
		}
		w.Header().Set("WWW-Authenticate", `Bearer realm="news"`)
		writeError(w, newError(Unauthorized, "%s", detail), nil)
		return nil
	}
	if ok, wait := s.takeMessage(r.Context(), acct, s.now()); !ok {
		e := newError(MessageRateLimited, "this key's messages this minute are spent (%d a minute; every HTTP message counts, the MCP handshake included); send the same message again after %s",
			acct.key.MessagesPerMinute, seconds(wait))
		e.RetryAfterSecs = wait
		writeError(w, e, nil)
		return nil
	}
	return acct
}

// writeError writes the JSON error body with the code's status, Retry-After
// when the error has retry_after_secs, and the credit headers.
func writeError(w http.ResponseWriter, e *ToolError, b *usage) {
	if e.RetryAfterSecs > 0 {
		w.Header().Set("Retry-After", strconv.FormatInt(e.RetryAfterSecs, 10))
	}
	if e.CreditsLimit != nil {
		b = &usage{*e.CreditsLimit, *e.CreditsUsed, *e.CreditsRemaining}
	}
	writeJSON(w, e.Status(), e, b)
}

func writeJSON(w http.ResponseWriter, status int, v any, b *usage) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	body := []byte(`{"error":"internal error","code":"internal","detail":"the response could not be encoded"}` + "\n")
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
	} else {
		body = buf.Bytes()
	}
	h := w.Header()
	if b != nil {
		h.Set("X-Credits-Limit", strconv.FormatInt(b.Limit, 10))
		h.Set("X-Credits-Used", strconv.FormatInt(b.Used, 10))
		h.Set("X-Credits-Remaining", strconv.FormatInt(b.Remaining, 10))
	}
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(body)
}

// route is one REST route: a method and a path pattern whose "{id}" segment
// is the tool's id argument.
type route struct {
	method, pattern, tool string
	status                int // on success
}

var routes = []route{
	{"GET", "/v1/search", "search_stories", 200},
	{"GET", "/v1/articles/{id}", "get_article", 200},
	{"GET", "/v1/stories/{id}", "get_story", 200},
	{"GET", "/v1/articles/{id}/related", "find_related", 200},
	{"POST", "/v1/watches", "create_watch", 201},
	{"GET", "/v1/watches/{id}", "get_watch", 200},
	{"DELETE", "/v1/watches/{id}", "delete_watch", 200},
	{"GET", "/v1/watches/{id}/events", "watch_events", 200},
	{"GET", "/v1/admin/shards", "", 200},
	{"POST", "/v1/admin/shards", "", 200},
}

// match reports whether path fits pattern, and the {id} it holds.
func match(pattern, path string) (id string, ok bool) {
	ps, xs := strings.Split(pattern, "/"), strings.Split(path, "/")
	if len(ps) != len(xs) {
		return "", false
	}
	for i := range ps {
		switch {
		case ps[i] == "{id}":
			if xs[i] == "" {
				return "", false
			}
			id = xs[i]
		case ps[i] != xs[i]:
			return "", false
		}
	}
	return id, true
}

func (s *Server) serveREST(w http.ResponseWriter, r *http.Request) {
	var allow []string
	var found *route
	var id string
	for i, rt := range routes {
		if pid, ok := match(rt.pattern, r.URL.Path); ok {
			allow = append(allow, rt.method)
			if rt.method == r.Method {
				found, id = &routes[i], pid
			}
		}
	}
	if allow == nil {
		writeError(w, newError(UnknownRoute, "no route %s; the API serves /mcp and /v1/search, /v1/articles/{id}, /v1/articles/{id}/related, /v1/stories/{id}, /v1/watches, /v1/watches/{id}, /v1/watches/{id}/events", quoteName(r.URL.Path)), nil)
		return
	}
	if found == nil {
		slices.Sort(allow)
		w.Header().Set("Allow", strings.Join(slices.Compact(allow), ", "))
		writeError(w, newError(MethodNotAllowed, "%s does not take %s; use %s", quoteName(r.URL.Path), quoteName(r.Method), strings.Join(allow, " or ")), nil)
		return
	}
	acct := s.admit(w, r)
	if acct == nil {
		return
	}
	if found.tool == "" {
		s.serveAdmin(w, r, acct)
		return
	}
	t := s.tool(found.tool)
	raw, aerr := restArgs(r, t.params, id)
	var out outcome
	if aerr != nil {
		out.argErr = aerr
	} else {
		out = s.call(r.Context(), acct, t, raw)
	}
	switch {
	case out.argErr != nil:
		e := &ToolError{Title: lookup(out.argErr.Code).title, Code: out.argErr.Code, Detail: out.argErr.Message}
		writeError(w, e, nil)
	case out.toolErr != nil:
		writeError(w, out.toolErr, out.balance)
	default:
		var n int64
		switch v := out.ok.(type) {
		case interface{ creditsCharged() int64 }:
			n = v.creditsCharged()
		}
		w.Header().Set("X-Credits-Charged", strconv.FormatInt(n, 10))
		writeJSON(w, found.status, out.ok, out.balance)
	}
}

func (c *charged) creditsCharged() int64 { return c.CreditsCharged }

// restArgs turns a REST request into a tool's JSON arguments: the path's
// id, the query parameters, and for POST the JSON body's members, in that
// order. Query values are typed by the parameter they name: numbers for
// integers, true/false for booleans, a comma-separated or repeated list
// for signals. Anything that does not fit is passed as a string, so the
// tool's validation words the refusal.
func restArgs(r *http.Request, params []param, id string) (json.RawMessage, *ArgError) {
	var fields []string
	add := func(name string, v any) {
		k, _ := json.Marshal(name)
		b, _ := json.Marshal(v)
		fields = append(fields, string(k)+":"+string(b))
	}
	addRaw := func(name string, raw string) {
		k, _ := json.Marshal(name)
		fields = append(fields, string(k)+":"+raw)
	}
	if id != "" {
		add("id", id)
	}
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, invalid("Invalid query string: %s.", strings.ReplaceAll(err.Error(), "'", ""))
	}
	names := make([]string, 0, len(q))
	for n := range q {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		vals := q[n]
		i := slices.IndexFunc(params, func(p param) bool { return p.name == n })
		if i < 0 {
			add(n, vals[0])
			continue
		}
		p := params[i]
		if p.kind == kSignals {
			var list []string
			for _, v := range vals {
				if v == "" {
					continue
				}
				list = append(list, strings.Split(v, ",")...)
			}
			add(n, nonNil(list))
			continue
		}
		if len(vals) > 1 {
			return nil, invalid("Invalid value for '%s': given more than once.", n)
		}
		v := vals[0]
		switch p.kind {
		case kInteger:
			if _, err := strconv.ParseFloat(v, 64); err == nil && json.Valid([]byte(v)) {
				addRaw(n, v)
				continue
			}
		case kBoolean:
			if v == "true" || v == "false" {
				addRaw(n, v)
				continue
			}
		}
		add(n, v)
	}
	if r.Method == http.MethodPost {
		body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
		if err != nil || len(body) > maxBody {
			return nil, invalid("Invalid body: expected a JSON object of at most %d bytes.", maxBody)
		}
		if len(strings.TrimSpace(string(body))) > 0 {
			ff, aerr := objectFields(body)
			if aerr != nil {
				return nil, aerr
			}
			for _, f := range ff {
				addRaw(f.name, string(f.value))
			}
		}
	}
	return json.RawMessage("{" + strings.Join(fields, ",") + "}"), nil
}

// serveAdmin serves /v1/admin/shards: GET reports the failing shards, POST
// {"failing": N} makes the N most recent shards stop answering. Only keys
// whose plan has admin may use it.
func (s *Server) serveAdmin(w http.ResponseWriter, r *http.Request, acct *account) {
	if !acct.key.Admin {
		writeError(w, newError(Forbidden, "this key may not use the admin routes"), nil)
		return
	}
	if r.Method == http.MethodPost {
		body, err := io.ReadAll(io.LimitReader(r.Body, 4096))
		var req struct {
			Failing *int `json:"failing"`
		}
		dec := json.NewDecoder(strings.NewReader(string(body)))
		dec.DisallowUnknownFields()
		if err != nil || dec.Decode(&req) != nil || req.Failing == nil || *req.Failing < 0 || *req.Failing > newsindex.Shards {
			writeError(w, newError(InvalidParameter, "expected a JSON body {\"failing\": N} with N from 0 to %d", newsindex.Shards), nil)
			return
		}
		s.FailShards(*req.Failing)
	}
	writeJSON(w, http.StatusOK, map[string]any{"shards": newsindex.Shards, "failing": s.FailingShards(), "at": s.now().UTC().Format(time.RFC3339)}, nil)
}

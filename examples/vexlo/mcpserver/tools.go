package mcpserver

import (
	"encoding/json"
	"net/url"
	"strconv"
)

// environmentSchema is the environment argument: exactly one of
// {"named": [string, ...]} and {"unset": true}, each a strict object.
const environmentSchema = `{"oneOf":[` +
	`{"type":"object","properties":{"named":{"type":"array","items":{"type":"string"},"minItems":1}},"required":["named"],"additionalProperties":false},` +
	`{"type":"object","properties":{"unset":{"const":true}},"required":["unset"],"additionalProperties":false}` +
	`],"description":"Which environments to include: {\"named\": [\"prod\", ...]} or {\"unset\": true} for calls that carried none."}`

const traceIDSchema = `{"type":"string","description":"A trace id: 32 lowercase hex characters."}`

// toolDef is one tool: its MCP description, its input schema (properties in
// the contract's order, so rejection issues come in that order) and how a
// valid call maps to an upstream route.
type toolDef struct {
	name        string
	title       string
	description string
	schema      string
	// route returns the upstream path and query for decoded arguments.
	route func(a *args) (path string, q url.Values)
	// want lists the top-level members a success body must have, and what
	// JSON type each holds: the tool's expected shape.
	want []member
}

// args is the union of every tool's arguments. The schema has already
// checked them, so decoding cannot fail and absent members are zero.
type args struct {
	Service     string       `json:"service"`
	Function    string       `json:"function"`
	Tag         string       `json:"tag"`
	Status      string       `json:"status"`
	Since       string       `json:"since"`
	Limit       *float64     `json:"limit"`
	Cursor      string       `json:"cursor"`
	TraceID     string       `json:"traceId"`
	TraceIDs    []string     `json:"traceIds"`
	WindowHours *float64     `json:"windowHours"`
	Path        []string     `json:"path"`
	Name        string       `json:"name"`
	Environment *environment `json:"environment"`
}

type environment struct {
	Named []string `json:"named"`
	Unset bool     `json:"unset"`
}

func (e *environment) addTo(q url.Values) {
	if e == nil {
		return
	}
	for _, n := range e.Named {
		q.Add("environment", n)
	}
	if e.Unset {
		q.Set("environment_unset", "true")
	}
}

func setString(q url.Values, k, v string) {
	if v != "" {
		q.Set(k, v)
	}
}

// setInt sets an integer argument. Integers arrive as float64 because JSON
// Schema's integer includes 1e2 and 100.0, which encoding/json will not
// decode into an int.
func setInt(q url.Values, k string, v *float64) {
	if v != nil {
		q.Set(k, strconv.FormatFloat(*v, 'f', -1, 64))
	}
}

// seg escapes one path segment of an upstream route.
func seg(s string) string { return url.PathEscape(s) }

// tools are the eleven tools, in the contract's order.
var tools = []toolDef{
	{
		name:  "vexlo_search_traces",
		title: "Search traces",
		description: "Search recorded traces, newest first, by service, function, tag, status and start time. " +
			"Results are limited to the token's team-set; scope_note says which teams are covered. " +
			"Pass next_cursor back as cursor for the next page.",
		schema: `{"type":"object","properties":{` +
			`"service":{"type":"string","description":"Only traces of this service."},` +
			`"function":{"type":"string","description":"Only traces whose entry function has this name."},` +
			`"tag":{"type":"string","description":"Only traces carrying this tag."},` +
			`"status":{"enum":["ok","error"],"description":"Only traces that ended with this status."},` +
			`"since":{"type":"string","description":"Only traces started at or after this RFC 3339 time, or within this duration (such as 24h)."},` +
			`"limit":{"type":"integer","minimum":1,"maximum":100,"description":"At most this many traces (default 20)."},` +
			`"cursor":{"type":"string","description":"The next_cursor of a previous page."}` +
			`},"additionalProperties":false}`,
		route: func(a *args) (string, url.Values) {
			q := url.Values{}
			setString(q, "service", a.Service)
			setString(q, "function", a.Function)
			setString(q, "tag", a.Tag)
			setString(q, "status", a.Status)
			setString(q, "since", a.Since)
			setInt(q, "limit", a.Limit)
			setString(q, "cursor", a.Cursor)
			return "/v1/traces", q
		},
		want: []member{{"traces", '['}},
	},
	{
		name:        "vexlo_get_trace",
		title:       "Get a trace",
		description: "Get one trace with its steps. Each step has a base32 path to pass to vexlo_get_values.",
		schema:      `{"type":"object","properties":{"traceId":` + traceIDSchema + `},"required":["traceId"],"additionalProperties":false}`,
		route: func(a *args) (string, url.Values) {
			return "/v1/traces/" + seg(a.TraceID), nil
		},
		want: []member{{"trace_id", '"'}, {"steps", '['}},
	},
	{
		name:        "vexlo_check_trace_status",
		title:       "Check trace statuses",
		description: "Check the status of up to 100 traces at once. Ids that name no visible trace come back in unknown_ids.",
		schema: `{"type":"object","properties":{"traceIds":{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":100,` +
			`"description":"Trace ids, 32 lowercase hex characters each."}},"required":["traceIds"],"additionalProperties":false}`,
		route: func(a *args) (string, url.Values) {
			return "/v1/traces/status", url.Values{"id": a.TraceIDs}
		},
		want: []member{{"statuses", '['}, {"unknown_ids", '['}},
	},
	{
		name:        "vexlo_find_related_traces",
		title:       "Find related traces",
		description: "Find traces of the same service started within windowHours of the given trace.",
		schema: `{"type":"object","properties":{"traceId":` + traceIDSchema + `,` +
			`"windowHours":{"type":"integer","minimum":1,"maximum":168,"description":"How many hours either side to look (default 24)."},` +
			`"limit":{"type":"integer","minimum":1,"maximum":100,"description":"At most this many traces (default 10)."}` +
			`},"required":["traceId"],"additionalProperties":false}`,
		route: func(a *args) (string, url.Values) {
			q := url.Values{}
			setInt(q, "window_hours", a.WindowHours)
			setInt(q, "limit", a.Limit)
			return "/v1/traces/" + seg(a.TraceID) + "/related", q
		},
		want: []member{{"traces", '['}},
	},
	{
		name:  "vexlo_get_values",
		title: "Get step values",
		description: "Get the values captured at up to 8 steps of a trace, by their base32 paths. " +
			"A path that decodes but names no step comes back in unknown_paths.",
		schema: `{"type":"object","properties":{"traceId":` + traceIDSchema + `,` +
			`"path":{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":8,"description":"Step paths, as vexlo_get_trace lists them."}` +
			`},"required":["traceId","path"],"additionalProperties":false}`,
		route: func(a *args) (string, url.Values) {
			return "/v1/traces/" + seg(a.TraceID) + "/values", url.Values{"path": a.Path}
		},
		want: []member{{"values", '{'}, {"unknown_paths", '['}},
	},
	{
		name:        "vexlo_get_function",
		title:       "Get a function",
		description: "Get a function's record: its signature and per-environment call statistics.",
		schema: `{"type":"object","properties":{"service":{"type":"string","description":"The service the function belongs to."},` +
			`"name":{"type":"string","description":"The function's name."},"environment":` + environmentSchema +
			`},"required":["service","name"],"additionalProperties":false}`,
		route: func(a *args) (string, url.Values) {
			q := url.Values{}
			a.Environment.addTo(q)
			return "/v1/functions/" + seg(a.Service) + "/" + seg(a.Name), q
		},
		want: []member{{"service", '"'}, {"name", '"'}},
	},
	{
		name:        "vexlo_get_function_examples",
		title:       "Get function examples",
		description: "Get up to 5 recorded calls of a function, with their arguments and return values.",
		schema: `{"type":"object","properties":{"service":{"type":"string","description":"The service the function belongs to."},` +
			`"name":{"type":"string","description":"The function's name."},"environment":` + environmentSchema + `,` +
			`"limit":{"type":"integer","minimum":1,"maximum":5,"description":"At most this many examples (default 3)."}` +
			`},"required":["service","name"],"additionalProperties":false}`,
		route: func(a *args) (string, url.Values) {
			q := url.Values{}
			a.Environment.addTo(q)
			setInt(q, "limit", a.Limit)
			return "/v1/functions/" + seg(a.Service) + "/" + seg(a.Name) + "/examples", q
		},
		want: []member{{"examples", '['}},
	},
	{
		name:        "vexlo_list_tags",
		title:       "List tags",
		description: "List the tags on visible traces, of one service or of all.",
		schema:      `{"type":"object","properties":{"service":{"type":"string","description":"Only tags of this service."}},"additionalProperties":false}`,
		route: func(a *args) (string, url.Values) {
			q := url.Values{}
			setString(q, "service", a.Service)
			return "/v1/tags", q
		},
		want: []member{{"tags", '['}},
	},
	{
		name:        "vexlo_list_services",
		title:       "List services",
		description: "List the services the token's team-set covers, with their teams and functions.",
		schema:      `{"type":"object","properties":{},"additionalProperties":false}`,
		route:       func(*args) (string, url.Values) { return "/v1/services", nil },
		want:        []member{{"services", '['}},
	},
	{
		name:  "vexlo_check_health",
		title: "Check health",
		description: "Check the Vexlo server's health. A server under disk pressure answers " +
			`{"status":"degraded","mode":"shape_only",...}: a fact about the server, not a failed call.`,
		schema: `{"type":"object","properties":{},"additionalProperties":false}`,
		route:  func(*args) (string, url.Values) { return "/v1/health", nil },
		want:   []member{{"status", '"'}},
	},
	{
		name:  "vexlo_check_coverage",
		title: "Check coverage",
		description: "List which teams this token's team-set covers. A 404 is never evidence about the team-set; " +
			"this tool is what answers that question.",
		schema: `{"type":"object","properties":{},"additionalProperties":false}`,
		route:  func(*args) (string, url.Values) { return "/v1/coverage", nil },
		want:   []member{{"teams", '['}},
	},
}

// member is a top-level member a success body must have, and the first byte
// of the JSON value it must hold ('{', '[' or '"').
type member struct {
	name  string
	start byte
}

// body is a success body kept as sent, with its expected shape. It
// implements envelope.Shaper.
type body struct {
	raw  json.RawMessage
	want []member
}

// UnmarshalJSON keeps the body as sent.
func (b *body) UnmarshalJSON(data []byte) error {
	b.raw = append(b.raw[:0], data...)
	return nil
}

// CheckShape reports whether the body is an object holding the members the
// tool expects, each with the expected type (the first byte of its JSON).
func (b *body) CheckShape() error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b.raw, &m); err != nil {
		return errShape("the body is not a JSON object")
	}
	for _, w := range b.want {
		if v := m[w.name]; len(v) == 0 || v[0] != w.start {
			return errShape("the body has no " + strconv.Quote(w.name) + " of the expected type")
		}
	}
	return nil
}

type errShape string

func (e errShape) Error() string { return string(e) }

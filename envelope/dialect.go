package envelope

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/mcperr/mcperr/internal/jsonscan"
)

// This file is the dialect table: where the JSON error bodies public APIs
// send keep their code, message, details and wait. Reading happens only on
// the error path. A dialect is a row; adding one is adding a row here and
// its documented case under testdata/upstream, which the row names as its
// evidence and must read.

// A dialect is one row of the table. when marks a body of the dialect;
// code, message, details and wait are paths (see doc.value) tried in
// order: the first that gives a value wins, except for wait, where the
// longest does.
//
// A code path is read as a string, by the rule of its last member (see
// codeAt); a path ending in "#" is read as a number, written as sent.
type dialect struct {
	name     string
	evidence string // the case of testdata/upstream that documents the row
	when     func(d *doc) bool
	code     []string
	message  []string
	details  []string
	wait     []string

	anyStatus bool // the body is an error at any status, not only at 400 and above
	rpc       bool // the code is a JSON-RPC code, classified through errkind's catalogue
	envelope  bool // the Reader's own envelope, whose row its Shape gives (see envelopeRow)
}

// The members the REST dialects share, relative to the object that holds
// them; the common row reads them at the top level, in the first member
// of an "errors" array and in an "error" object.
var (
	codeMembers = []string{"code", "error_code", "errorCode", "reason", "errors/0/reason", "status", "type", "error",
		"__type", "errorType", "error_type", "extensions/code", "extensions/errorClass", "extensions/errorType"}
	numberCodes    = []string{"code#", "error_code#"}
	messageMembers = []string{"message", "Message", "detail", "error_description", "description", "error_message",
		"errorSummary", "title", "reason", "info", "errorMessages", "errors"}
	firstErrorMessages = []string{"errors/0/message", "errors/0/detail", "errors/0/title", "errors/0/reason"}
	retryInfo          = "details/@google.rpc.RetryInfo/retryDelay"
)

// common is the last row: the members most REST APIs use. It reads
// GitHub's and Notion's {"message"}, RFC 9457 problem details (code
// "type", message "detail" else "title"), OAuth 2 ("error",
// "error_description"), Kubernetes Status ("reason"), Google's AIP-193
// and v1 errors ("status", "errors[0].reason"; RetryInfo's retryDelay),
// Elasticsearch ("type", and "reason" as its message), AWS JSON's
// "__type", Jira's "errorMessages" and "errors" object, JSON:API's and
// Cloudflare's "errors" array, Databricks' "error_code", Telegram's
// "error_code" and "description", Twilio's and Discord's numeric codes,
// apilayer's "info", and "errors" as a list of strings.
var common = dialect{
	name:     "common REST members",
	evidence: "github_404",
	when:     func(*doc) bool { return true },
	code: concat(codeMembers, under("errors/0/", codeMembers[:4]...), under("errors/0/", codeMembers[5:]...),
		under("error/", codeMembers...), numberCodes, under("errors/0/", numberCodes...), under("error/", numberCodes...)),
	message: concat(messageMembers, firstErrorMessages, under("error/", messageMembers...)),
	details: []string{"details", "errors"},
	wait:    []string{"retry_after", "error/" + retryInfo},
}

// dialects is the table, tried in order; the first row whose when holds
// reads the body. The rows before the Reader's own envelope (see Shape)
// are marked by a member of their own, and read the body even when it also
// holds the envelope's key (Dropbox's "error" is an object of tags).
var dialects = []dialect{
	{name: "JSON-RPC 2.0 error", evidence: "jsonrpc_200_invalid_params", when: has("jsonrpc", "error"), anyStatus: true, rpc: true,
		code: []string{"error/code#"}, message: []string{"error/message"}, details: []string{"error/data"}},
	{name: "Dropbox", evidence: "dropbox_409_path_not_found", when: has("error_summary"),
		code: []string{"error_summary"}, message: []string{"user_message/text"}, details: []string{"error"},
		wait: []string{"error/retry_after"}},
	{name: "Discourse", evidence: "discourse_403_errors_strings", when: has("error_type", "errors"),
		code: []string{"error_type"}, message: []string{"errors"}, details: []string{"extras"},
		wait: []string{"extras/wait_seconds"}},
	{name: "Okta", evidence: "okta_404_error_summary", when: has("errorSummary"),
		code: []string{"errorCode"}, message: []string{"errorSummary"}, details: []string{"errorCauses"}},
	{name: "a top-level array of errors (Salesforce)", evidence: "salesforce_404_array", when: has("0/message"),
		code: []string{"0/errorCode", "0/error_code", "0/code"}, message: []string{"0/message"}, details: []string{"0/fields"}},
	{name: "the Reader's envelope", evidence: "envelope_200_vexlo", envelope: true},
	{name: `an error flag: {"ok": false} (Slack, Telegram)`, evidence: "slack_channel_not_found", when: is("ok", "false"), anyStatus: true,
		code: common.code, message: common.message, details: common.details, wait: common.wait},
	{name: `an error flag: {"success": false} (Cloudflare)`, evidence: "cloudflare_403", when: is("success", "false"), anyStatus: true,
		code: common.code, message: common.message, details: common.details, wait: common.wait},
	{name: `an error flag: JSend {"status": "error", "message"}`, evidence: "jsend_200_error", when: jsendError, anyStatus: true,
		code: common.code, message: []string{"message"}, details: []string{"data"}},
	{name: "GraphQL response that failed", evidence: "graphql_apollo_unauthenticated", when: graphQLFailed, anyStatus: true,
		code: []string{"errors/0/extensions/code", "errors/0/extensions/errorClass", "errors/0/extensions/errorType",
			"errors/0/extensions/errorCode", "errors/0/extensions/classification", "errors/0/errorType", "errors/0/type"},
		message: []string{"errors/0/message"}},
	common,
}

// envelopeRow is the row of the Reader's own envelope s.
func envelopeRow(s *resolved) dialect {
	if s.Flat {
		msg := s.Message
		if msg == "" {
			msg = s.Key
		}
		return dialect{name: "the Reader's envelope", code: []string{s.Code, s.Code + "#"}, message: []string{msg},
			details: []string{s.Details}, wait: nonEmpty(s.RetryAfter)}
	}
	k := s.Key + "/"
	return dialect{
		name:    "the Reader's envelope",
		code:    concat([]string{k + s.Code}, under(k, codeMembers...), []string{k + s.Code + "#"}, under(k, numberCodes...)),
		message: concat([]string{k + s.Message}, under(k, messageMembers...), under(k, firstErrorMessages...)),
		details: []string{k + s.Details},
		wait:    concat(nonEmpty(under(k, s.RetryAfter)...), []string{k + retryInfo}),
	}
}

// nestedRow is the zero Reader's envelope row, built once.
var nestedRow = envelopeRow(&nestedResolved)

// read fills e's code, message, details and wait from d, as the row says.
func (row *dialect) read(d *doc, e *Error) {
	for _, p := range row.code {
		if e.Code = codeAt(d, p); e.Code != "" {
			break
		}
	}
	for _, p := range row.message {
		if e.Message = messageAt(d, p); e.Message != "" {
			break
		}
	}
	for _, p := range row.details {
		if v := d.value(p); len(v) > 0 && string(v) != "null" {
			e.Details = v
			break
		}
	}
	for _, p := range row.wait {
		e.RetryAfter = max(e.RetryAfter, waitAt(d, p))
	}
}

// has is a row's when: every path is present.
func has(paths ...string) func(*doc) bool {
	return func(d *doc) bool {
		for _, p := range paths {
			if d.value(p) == nil {
				return false
			}
		}
		return true
	}
}

// is is a row's when: the member at path is the JSON value v, as written.
func is(path, v string) func(*doc) bool {
	return func(d *doc) bool { return string(d.value(path)) == v }
}

// jsendError is JSend's error: "status" is "error" and "message" a string.
func jsendError(d *doc) bool {
	s, _ := stringOf(d.value("status"))
	m, _ := stringOf(d.value("message"))
	return s == "error" && m != ""
}

// graphQLFailed is a GraphQL response that failed as a whole (see
// topSpans.graphQLFailed).
func graphQLFailed(d *doc) bool {
	return d.spans.graphQLFailed()
}

// codeAt reads a code at path (see dialect). A code that only repeats
// the status (Telegram's error_code 400 on a 400) says nothing, and is
// none; the members after it may name one. A string is a code unless
// its member's rule says otherwise: "status" only as a canonical status
// name ("NOT_FOUND", not "404" or Kubernetes' "Failure"); "type" not as
// about:blank, "error" or a type tag such as Intercom's "error.list"; "reason" only as a single word (a sentence there
// is Elasticsearch's message); AWS's "__type" without its namespace and
// suffix.
func codeAt(d *doc, path string) string {
	var s string
	if p, ok := strings.CutSuffix(path, "#"); ok {
		s, _ = numberOf(d.value(p))
	} else {
		s, _ = stringOf(d.value(path))
	}
	if s == "" || repeatsStatus(s, d.status) {
		return ""
	}
	if path[len(path)-1] == '#' {
		return s
	}
	switch lastMember(path) {
	case "status":
		if !isStatusName(s) {
			return ""
		}
	case "type":
		if s == "about:blank" || s == "error" || strings.HasPrefix(s, "error.") {
			return ""
		}
	case "reason":
		if !isWord(s) {
			return ""
		}
	case "__type":
		return awsType(s)
	}
	return s
}

// awsType is AWS's "namespace#Name" (or "Name:extra") as SDKs keep it:
// Name.
func awsType(s string) string {
	if i := strings.LastIndexByte(s, '#'); i >= 0 {
		s = s[i+1:]
	}
	if i := strings.IndexByte(s, ':'); i >= 0 {
		s = s[:i]
	}
	return s
}

// messageAt reads a message at path: a string (a "reason" only when it is
// a sentence, not a code); the first non-empty string of a list; or the
// first field error of an object, written "field: message", whose value is
// a string or a list of strings.
func messageAt(d *doc, path string) string {
	raw := d.value(path)
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '"':
		s, _ := stringOf(raw)
		if lastMember(path) == "reason" && isWord(s) {
			return ""
		}
		return s
	case '[':
		return firstString(raw)
	case '{':
		return fieldError(raw)
	}
	return ""
}

// firstString is the first non-empty string of a JSON list.
func firstString(raw json.RawMessage) string {
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return ""
	}
	for _, v := range list {
		if s, _ := stringOf(v); s != "" {
			return s
		}
	}
	return ""
}

// fieldError is the first member, in document order, of an object of field
// errors whose value is a string or a list of strings: "field: message".
func fieldError(raw json.RawMessage) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return ""
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return ""
		}
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return ""
		}
		s, _ := stringOf(v)
		if len(v) > 0 && v[0] == '[' {
			s = firstString(v)
		}
		if s != "" {
			return k.(string) + ": " + s
		}
	}
	return ""
}

// waitAt reads a wait at path: a number of seconds, or a protobuf Duration
// such as google.rpc.RetryInfo's retryDelay ("30s", "1.5s").
func waitAt(d *doc, path string) time.Duration {
	raw := d.value(path)
	if s, ok := stringOf(raw); ok {
		num, ok := strings.CutSuffix(s, "s")
		if !ok {
			return 0
		}
		raw = json.RawMessage(num)
	}
	n, ok := numberOf(raw)
	if !ok {
		return 0
	}
	f, err := strconv.ParseFloat(n, 64)
	if err != nil || !(f > 0) {
		return 0
	}
	return secondsToDuration(f)
}

// isStatusName reports whether s looks like a canonical status name such
// as AIP-193's "NOT_FOUND", rather than a number ("404") or a word such as
// Kubernetes' "Failure".
func isStatusName(s string) bool {
	letter := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'A' && c <= 'Z':
			letter = true
		case c == '_' || c >= '0' && c <= '9':
		default:
			return false
		}
	}
	return letter
}

// repeatsStatus reports whether s is the status written in decimal.
func repeatsStatus(s string, status int) bool {
	if len(s) != 3 || status < 100 || status > 999 {
		return false
	}
	return int(s[0]-'0') == status/100 && int(s[1]-'0') == status/10%10 && int(s[2]-'0') == status%10
}

// isWord reports whether s is one word, as a code is ("NotFound",
// "rateLimitExceeded"), rather than a sentence.
func isWord(s string) bool {
	return s != "" && !strings.ContainsAny(s, " \t\n")
}

// doc is a JSON error body, decoded as far as the rows' paths reach and
// no further: each object and list on a path is decoded once.
type doc struct {
	root   json.RawMessage
	top    map[string]json.RawMessage // the top-level object, once load decoded it
	status int
	spans  topSpans
	seen   []decoded
}

// decoded is the object or list at a path (its parent's path and a slash).
type decoded struct {
	path string
	obj  map[string]json.RawMessage
	list []json.RawMessage
	err  error
}

// value returns the JSON value at path, nil when there is none. A path is
// member names joined by "/"; "0" is the first element of a list, and
// "@T" the element of a list whose "@type" ends in T (a google.rpc
// detail).
func (d *doc) value(path string) json.RawMessage {
	if d.top != nil {
		// Most paths end, or fail, at a member of the top-level object.
		i := strings.IndexByte(path, '/')
		if i < 0 {
			return d.top[path]
		}
		if d.top[path[:i]] == nil {
			return nil
		}
	}
	raw := d.root
	for start := 0; ; {
		end := strings.IndexByte(path[start:], '/')
		if end < 0 {
			end = len(path)
		} else {
			end += start
		}
		raw = d.step(path[:start], raw, path[start:end])
		if raw == nil || end == len(path) {
			return raw
		}
		start = end + 1
	}
}

// step returns the member seg of raw, the value at parent.
func (d *doc) step(parent string, raw json.RawMessage, seg string) json.RawMessage {
	if len(raw) == 0 || seg == "" {
		return nil
	}
	switch {
	case raw[0] == '{':
		return d.decode(parent, raw).obj[seg]
	case raw[0] == '[' && seg == "0":
		if l := d.decode(parent, raw).list; len(l) > 0 {
			return l[0]
		}
	case raw[0] == '[' && seg[0] == '@':
		for _, el := range d.decode(parent, raw).list {
			var typed struct {
				Type string `json:"@type"`
			}
			if len(el) > 0 && el[0] == '{' && json.Unmarshal(el, &typed) == nil && strings.HasSuffix(typed.Type, seg[1:]) {
				return el
			}
		}
	}
	return nil
}

// load decodes the body's top level, which checks that all of it is JSON.
func (d *doc) load() error {
	i := jsonscan.Space(d.root, 0)
	if i < len(d.root) && (d.root[i] == '{' || d.root[i] == '[') {
		d.root = d.root[i:]
		x := d.decode("", d.root)
		d.top = x.obj
		return x.err
	}
	if !json.Valid(d.root) {
		return errNotJSON
	}
	return nil
}

// decode decodes raw, the value at path, once.
func (d *doc) decode(path string, raw json.RawMessage) *decoded {
	for i := range d.seen {
		if d.seen[i].path == path {
			return &d.seen[i]
		}
	}
	x := decoded{path: path}
	if raw[0] == '{' {
		x.err = json.Unmarshal(raw, &x.obj)
	} else {
		x.err = json.Unmarshal(raw, &x.list)
	}
	d.seen = append(d.seen, x)
	return &d.seen[len(d.seen)-1]
}

func lastMember(path string) string {
	return path[strings.LastIndexByte(path, '/')+1:]
}

func under(prefix string, paths ...string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = prefix + p
	}
	return out
}

func concat(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

func nonEmpty(paths ...string) []string {
	var out []string
	for _, p := range paths {
		if p != "" && !strings.HasSuffix(p, "/") {
			out = append(out, p)
		}
	}
	return out
}

// stringOf decodes raw as a JSON string; ok is false for any other value.
func stringOf(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1]), true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// numberOf returns raw as written when it is a JSON number.
func numberOf(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || (raw[0] != '-' && (raw[0] < '0' || raw[0] > '9')) {
		return "", false
	}
	var n json.Number
	if json.Unmarshal(raw, &n) != nil {
		return "", false
	}
	return n.String(), true
}

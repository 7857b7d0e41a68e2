package envelope

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"net/http"
	"slices"
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

	// The runs of code, message and wait (see runs): a body without a
	// run's first member skips the run.
	codeRuns, messageRuns, waitRuns runIndex

	anyStatus bool // the body is an error at any status, not only at 400 and above
	fields    bool // a body of nothing but field errors gives the first as the message
	find      bool // members the paths miss are found by their names (see doc.find)
	rpc       bool // the code is a JSON-RPC code, classified through errkind's catalogue
	envelope  bool // the Reader's own envelope, whose row its Shape gives (see envelopeRow)
}

// The members the REST dialects share, relative to the object that holds
// them; the common row reads them at the top level, in the first member
// of an "errors" array and in an "error" object, then in the other places
// public APIs put an error object (errorObjects). A member is read by what
// it holds, not only by its name (see codeAt and messageAt): "error" is a
// code when it is one word and the message when it is a sentence, "status"
// a code when it is a code word, "name" and "id" when they are written as
// codes.
var (
	codeMembers = []string{"code", "error_code", "errorCode", "reason", "status", "errors/0/reason", "type", "error",
		"__type", "errorType", "error_type", "extensions/code", "extensions/errorClass", "extensions/errorType",
		"errcode", "err_code", "ECODE", "errorcode", "name", "id", "category", "faultcode"}
	numberCodes    = []string{"code#", "error_code#", "errorCode#", "ErrorCode#"}
	messageMembers = []string{"message", "Message", "detail", "error_description", "description", "error_message",
		"errorSummary", "title", "reason", "info", "errorMessages", "errors",
		sentence("error"), "msg", "err_msg", "errorMessage", "error_text", "err", "faultstring", "messages", "Detail"}
	firstErrorMessages = []string{"errors/0/message", "errors/0/detail", "errors/0/title", "errors/0/reason"}
	retryInfo          = "details/@google.rpc.RetryInfo/retryDelay"
	// errorInfoReasons are google.rpc.ErrorInfo's reason, the most
	// specific code AIP-193 gives ("API_KEY_INVALID" under
	// INVALID_ARGUMENT).
	errorInfoReasons = []string{"error/details/@google.rpc.ErrorInfo/reason", "details/@google.rpc.ErrorInfo/reason"}

	// errorObjects are the other places of an error object, tried after
	// the top level, "errors"[0] and "error": a nested "error", an
	// "errors" object, SOAP-like "fault" objects, an error in "detail",
	// "meta", "status", "data" or "sys", OData's "odata.error", and the
	// first element of a top-level array.
	errorObjects = []string{"error/error/", "error/errors/0/", "error/data/", "errors/", "Fault/Error/0/", "fault/error/0/", "fault/",
		"fault/detail/", "Fault/", "detail/", "meta/", "status/", "data/", "sys/", "odata.error/",
		"0/error/", "0/", "errors/0/extensions/", "finance/error/"}

	// waitMembers name a wait in seconds (in milliseconds when the name
	// ends in "ms"), read in waitObjects; a RetryInfo detail is read in
	// its google.rpc form, its Connect form ({type, value, debug}) and
	// from its value, a protobuf Duration (see waitAt).
	waitMembers = []string{"retry_after", "retryAfter", "retry_after_seconds", "retryAfterSeconds", "retry_in_seconds",
		"backoff_seconds", "wait_seconds", "retry_after_ms", "retryAfterMs"}
	waitObjects = []string{"", "error/", "errors/0/", "parameters/", "details/", "error/data/", "data/", "extensions/",
		"errors/0/extensions/", "detail/"}
	retryInfos = []string{retryInfo, "details/@google.rpc.RetryInfo/debug/retryDelay", "details/@google.rpc.RetryInfo/value" + protoMark}
)

// protoMark ends a wait path whose value is a protobuf RetryInfo in base64.
const protoMark = "%"

// sentenceMark ends a message path read only when it holds a sentence or
// the status written out (see sentence).
const sentenceMark = "?"

// sentence is a message path that reads its member only when it holds a
// sentence, not a code word: "error" is OAuth's code in {"error":
// "invalid_grant"} and the message in {"error": "model not found"}.
func sentence(member string) string { return member + sentenceMark }

// common is the last row: the members most REST APIs use. It reads
// GitHub's and Notion's {"message"}, RFC 9457 problem details (code
// "type", message "detail" else "title"), OAuth 2 ("error",
// "error_description"), Kubernetes Status ("reason"), Google's AIP-193
// and v1 errors ("status", "errors[0].reason"; RetryInfo's retryDelay),
// Elasticsearch ("type", and "reason" as its message), AWS JSON's
// "__type", Jira's "errorMessages" and "errors" object, JSON:API's and
// Cloudflare's "errors" array, Databricks' "error_code", Telegram's
// "error_code" and "description", Twilio's and Discord's numeric codes,
// apilayer's "info", and "errors" as a list of strings; then the same
// members wherever else an error object sits (errorObjects).
var common = dialect{
	name:     "common REST members",
	evidence: "github_404",
	when:     func(*doc) bool { return true },
	code: concat(codeMembers, under("errors/0/", codeMembers[:5]...), under("errors/0/", codeMembers[6:]...),
		under("error/", codeMembers...), inEach(errorObjects, codeMembers), errorInfoReasons, numberCodes, under("errors/0/", numberCodes...),
		under("error/", numberCodes...), inEach(errorObjects, numberCodes)),
	message: concat(messageMembers, firstErrorMessages, under("error/", messageMembers...), inEach(errorObjects, messageMembers)),
	details: []string{"details", "errors", "error/details", "error/data"},
	fields:  true,
	find:    true,
	wait:    concat(inEach(waitObjects, waitMembers), inEach([]string{"error/", "", "0/error/"}, retryInfos)),
}

// inEach is every member under every prefix, prefix by prefix.
func inEach(prefixes, members []string) []string {
	var out []string
	for _, p := range prefixes {
		out = append(out, under(p, members...)...)
	}
	return out
}

// dialects is the table, tried in order; the first row whose when holds
// reads the body. The rows before the Reader's own envelope (see Shape)
// are marked by a member of their own, and read the body even when it also
// holds the envelope's key (Dropbox's "error" is an object of tags).
var dialects = indexed(
	dialect{name: "JSON-RPC 2.0 error", evidence: "jsonrpc_200_invalid_params", when: rpcError, anyStatus: true, rpc: true,
		code: []string{"error/code#"}, message: []string{"error/message"}, details: []string{"error/data"}},
	dialect{name: "Dropbox", evidence: "dropbox_409_path_not_found", when: has("error_summary"),
		code: []string{"error_summary"}, message: []string{"user_message/text"}, details: []string{"error"},
		wait: []string{"error/retry_after"}},
	dialect{name: "Discourse", evidence: "discourse_403_errors_strings", when: has("error_type", "errors"),
		code: []string{"error_type"}, message: []string{"errors"}, details: []string{"extras"},
		wait: []string{"extras/wait_seconds"}},
	dialect{name: "Okta", evidence: "okta_404_error_summary", when: has("errorSummary"),
		code: []string{"errorCode"}, message: []string{"errorSummary"}, details: []string{"errorCauses"}},
	dialect{name: "a top-level array of errors (Salesforce)", evidence: "salesforce_404_array", when: has("0/message"),
		code: []string{"0/errorCode", "0/error_code", "0/code", "0/code#"}, message: []string{"0/message"}, details: []string{"0/fields"}},
	dialect{name: "FHIR OperationOutcome", evidence: "fhir_400_operation_outcome", when: operationOutcome,
		code:    []string{"issue/0/details/coding/0/code", "issue/0/code"},
		message: []string{"issue/0/details/text", "issue/0/details/coding/0/display", "issue/0/diagnostics"},
		details: []string{"issue"}},
	dialect{name: "the Reader's envelope", evidence: "envelope_200_vexlo", envelope: true},
	dialect{name: `an error flag: {"ok": false} (Slack, Telegram)`, evidence: "slack_channel_not_found", when: okFalse, anyStatus: true,
		code: common.code, message: common.message, details: common.details, wait: common.wait, find: true},
	dialect{name: `an error flag: {"success": false} (Cloudflare)`, evidence: "cloudflare_403", when: successFalse, anyStatus: true,
		code: common.code, message: common.message, details: common.details, wait: common.wait, find: true},
	dialect{name: jsendRow, evidence: "jsend_200_error", when: jsendError, anyStatus: true,
		code: common.code, message: concat(common.message, []string{"data"}), details: []string{"data"}, wait: common.wait, find: true},
	dialect{name: graphQLRow, evidence: "graphql_apollo_unauthenticated", when: graphQLFailed, anyStatus: true,
		code: []string{"errors/0/extensions/code", "errors/0/extensions/errorClass", "errors/0/extensions/errorType",
			"errors/0/extensions/errorCode", "errors/0/extensions/classification", "errors/0/errorType", "errors/0/type"},
		message: []string{"errors/0/message"}, wait: common.wait},
	dialect{name: "a list of errors and no data", evidence: "errors_200_no_data", when: errorsWithoutData, anyStatus: true,
		code: common.code, message: common.message, details: common.details, wait: common.wait, find: true},
	dialect{name: `a status word that names a failure ({"status": "REQUEST_DENIED"})`, evidence: "status_word_200_request_denied",
		when: failedStatusWord, anyStatus: true, code: common.code, message: common.message, details: common.details, wait: common.wait, find: true},
	dialect{name: `an OAuth 2 error ({"error", "error_description"})`, evidence: "oauth2_200_error", when: oauthError, anyStatus: true,
		code: common.code, message: common.message, details: common.details, wait: common.wait, find: true},
	dialect{name: `an error flag: "error" true or a number beside a message`, evidence: "error_flag_200_number",
		when: func(d *doc) bool { return d.spans.errorFlag() }, anyStatus: true,
		code: common.code, message: common.message, details: common.details, wait: common.wait, find: true},
	dialect{name: `a code other than 0 beside a message and no data`, evidence: "code_200_failed",
		when: failedCode, anyStatus: true,
		code: common.code, message: common.message, details: common.details, wait: common.wait, find: true},
	dialect{name: `a wrapper whose only member is a failed body, below 400`, evidence: "tencent_200_wrapped_error",
		when: func(d *doc) bool { return d.status < 400 && d.spans.wrappedFailure() }, anyStatus: true,
		code: common.code, message: common.message, details: common.details, wait: common.wait, find: true},
	dialect{name: `a status, a result or an error number that says failed beside a message, below 400`, evidence: "flagged_200_failed",
		when: func(d *doc) bool { return d.status < 400 && flaggedFailure(d.root) }, anyStatus: true,
		code: common.code, message: common.message, details: common.details, wait: common.wait, find: true},
	common,
)

// operationOutcome is HL7 FHIR's error resource: a "resourceType" of
// OperationOutcome with a list of issues, whose first issue's coded
// details say what failed (its "code" only the class: "processing",
// "not-found").
func operationOutcome(d *doc) bool {
	t, _ := stringOf(d.value("resourceType"))
	return t == "OperationOutcome" && d.value("issue/0") != nil
}

// jsendRow names the row of JSend's failures.
const jsendRow = `an error flag: JSend {"status": "error", "message"}`

// graphQLRow names the row of a GraphQL response that failed.
const graphQLRow = "GraphQL response that failed"

// graphQLStatus is the HTTP failure status (400 to 599) that the first
// error's extensions name in a member whose name says an HTTP status
// ("statusCode", "http_status", "status"), or 0.
func graphQLStatus(d *doc) int {
	raw := d.value("errors/0/extensions")
	if len(raw) == 0 || raw[0] != '{' {
		return 0
	}
	var ext map[string]json.RawMessage
	if json.Unmarshal(raw, &ext) != nil {
		return 0
	}
	status, first := 0, ""
	for k, v := range ext {
		switch memberWords([]byte(k)) {
		case "statuscode", "status", "httpstatus", "httpstatuscode", "httpcode":
			if n, ok := numberOf(v); ok && (first == "" || k < first) {
				if c, err := strconv.Atoi(n); err == nil && c >= 400 && c < 600 {
					status, first = c, k // the first name in order, should several say one
				}
			}
		}
	}
	return status
}

// envelopeRow is the row of the Reader's own envelope s. A nested
// envelope's object whose paths hold no message or code is read as any
// error object is (find): its members by what their names say
// ({"error": {"status": 404, "text": "path not found"}}).
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
	row := dialect{
		name: "the Reader's envelope",
		code: concat([]string{k + s.Code}, under(k, codeMembers...), under(k, errorInfoReasons[1]), []string{k + "data/code"},
			[]string{k + s.Code + "#"}, under(k, numberCodes...)),
		message: concat([]string{k + s.Message}, under(k, messageMembers...), under(k, firstErrorMessages...)),
		details: []string{k + s.Details},
		wait:    concat(nonEmpty(under(k, s.RetryAfter)...), under(k, retryInfos...), under(k, waitMembers...)),
		find:    true,
	}
	row.index()
	return row
}

// nestedRow is the zero Reader's envelope row, built once.
var nestedRow = envelopeRow(&nestedResolved)

// indexed fills each row's run index (see runs).
func indexed(rows ...dialect) []dialect {
	for i := range rows {
		rows[i].index()
	}
	return rows
}

func (row *dialect) index() {
	row.codeRuns, row.messageRuns, row.waitRuns = runs(row.code), runs(row.message), runs(row.wait)
}

// runIndex is, for each path of a list, its first member when it goes
// deeper ("" for a member of the top level) and the index of the next
// path whose first member differs.
type runIndex struct {
	first []string
	next  []int
}

// runs indexes paths, so that a body without a member skips every path
// under it at once: the common row holds hundreds of paths, few of which
// a body has.
func runs(paths []string) runIndex {
	x := runIndex{first: make([]string, len(paths)), next: make([]int, len(paths))}
	for i, p := range paths {
		if j := strings.IndexByte(p, '/'); j > 0 {
			x.first[i] = p[:j]
		}
	}
	for i := len(paths) - 1; i >= 0; i-- {
		x.next[i] = i + 1
		if i+1 < len(paths) && x.first[i] != "" && x.first[i] == x.first[i+1] {
			x.next[i] = x.next[i+1]
		}
	}
	return x
}

// skip returns the index of the path to try after the i-th of a list
// whose index is x, when d's top level lacks the member that path goes
// through, or holds no object or list there: the first path past its run;
// else -1.
func (d *doc) skip(x *runIndex, i int) int {
	if i < len(x.first) && d.top != nil {
		if f := x.first[i]; f != "" {
			if v := d.top[f]; len(v) == 0 || v[0] != '{' && v[0] != '[' {
				return x.next[i]
			}
		}
	}
	return -1
}

// read fills e's code, message, details and wait from d, as the row says,
// and returns the codes found after e's, in order (up to three): the
// Reader's taxonomy may prefer one of them (see Reader.classify).
func (row *dialect) read(d *doc, e *Error) (alts codes) {
	for i := 0; i < len(row.code); i++ {
		if j := d.skip(&row.codeRuns, i); j >= 0 {
			i = j - 1
			continue
		}
		c := codeAt(d, row.code[i])
		switch {
		case c == "":
		case e.Code == "":
			e.Code = c
		default:
			alts.add(c, e.Code)
		}
		if alts.n == len(alts.list) {
			break
		}
	}
	for i := 0; i < len(row.message); i++ {
		if j := d.skip(&row.messageRuns, i); j >= 0 {
			i = j - 1
			continue
		}
		if e.Message = messageAt(d, row.message[i]); e.Message != "" {
			break
		}
	}
	// A message that is only a label, an HTTP reason phrase or a code
	// word ({"error": "Unauthorized", "errorDescription": "you need to
	// provide a valid access token"}: Gotify, and the frameworks that put
	// the phrase or the exception's name first), yields to a member that
	// says more, found by its name or in the field errors; it stays when
	// none does.
	label := e.Message
	if label != "" && (row.find || row.fields) && isLabel(label) {
		e.Message = ""
	}
	if (e.Code == "" || e.Message == "") && row.find {
		d.find(e)
	}
	if e.Message == "" && row.fields && d.root[0] == '{' {
		e.Message = fieldError(d.root, true)
	}
	// A label written as a code ({"message": "invalid_app_id",
	// "description": "Invalid App ID provided."}) that yielded to a
	// member saying more is the code, when no member gave one; a label
	// that only says it failed ("NOTOK") is no code.
	if e.Code == "" && e.Message != "" && e.Message != label && isCodeWord(label, false) && !failureWord(label) {
		e.Code = label
	}
	if e.Message == "" {
		e.Message = label
	}
	for _, p := range row.details {
		if v := d.value(p); len(v) > 0 && string(v) != "null" {
			e.Details = v
			break
		}
	}
	for i := 0; i < len(row.wait); i++ {
		if j := d.skip(&row.waitRuns, i); j >= 0 {
			i = j - 1
			continue
		}
		e.RetryAfter = max(e.RetryAfter, waitAt(d, row.wait[i]))
	}
	if e.RetryAfter == 0 && row.find {
		e.RetryAfter = d.findWait()
	}
	if e.Code == "" {
		alts.class = d.class
	}
	return alts
}

// findWait is the wait of a wait member (see waitMembers) in an object
// the body's top level holds, whatever that object's name ({"rate_limit":
// {"type": "BURST_LIMIT", "retry_after": 45}}), else of a top-level
// member named "retry after" with its unit (see waitUnit), where the row's
// paths found none; 0 when none is.
func (d *doc) findWait() time.Duration {
	if len(d.root) == 0 || d.root[0] != '{' || !mentionsWait(d.root) {
		return 0
	}
	obj := d.decode("", d.root).obj
	keys := make([]string, 0, len(obj))
	for k, v := range obj {
		if len(v) > 0 && v[0] == '{' && strings.IndexByte(k, '/') < 0 {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		for _, m := range waitMembers {
			if w := waitAt(d, k+"/"+m); w > 0 {
				return w
			}
		}
	}
	// A top-level member named for a wait with its unit, in any case
	// style ("retryAfterSec", "retry_after_ms"): the longest, should
	// several be.
	var longest time.Duration
	for k := range obj {
		per := waitUnit(k)
		if per == 0 {
			continue
		}
		w := waitAt(d, k) // seconds, or milliseconds when k ends in "ms" or "Ms"
		if per == 1000 && !strings.HasSuffix(k, "ms") && !strings.HasSuffix(k, "Ms") {
			w /= 1000
		}
		longest = max(longest, w)
	}
	return longest
}

// waitUnit reads a member's name as a wait's: "retry after" or "back off"
// and a unit, in any case style ("retryAfterSec", "retry_after_secs",
// "Retry-After-Millis", "BackOffMilliseconds"), and returns how many of the unit make a second: 1
// for seconds, 1000 for milliseconds, 0 for a name that is no such wait's.
func waitUnit(k string) int {
	w := memberWords([]byte(k))
	rest, ok := strings.CutPrefix(w, "retryafter")
	if !ok {
		rest, ok = strings.CutPrefix(w, "backoff") // EWS's BackOffMilliseconds
	}
	if !ok {
		return 0
	}
	switch rest {
	case "s", "sec", "secs", "second", "seconds":
		return 1
	case "ms", "msec", "millis", "millisecond", "milliseconds":
		return 1000
	}
	return 0
}

// codes are the codes a body holds after its first, distinct, in order.
type codes struct {
	list [3]string
	n    int

	// class is the error's class (see foundClass) of a body that named
	// no code: the code, unless the header gives one.
	class string
}

func (c *codes) add(code, first string) {
	if code == first || c.n == len(c.list) {
		return
	}
	for _, x := range c.list[:c.n] {
		if x == code {
			return
		}
	}
	c.list[c.n] = code
	c.n++
}

// rpcError is a JSON-RPC error response: 2.0's, with "jsonrpc", or 1.0's
// (Bitcoin Core's), with "result" and "id" beside the error object.
func rpcError(d *doc) bool {
	e := d.value("error")
	if len(e) == 0 || e[0] != '{' {
		return false
	}
	return d.value("jsonrpc") != nil || d.value("result") != nil && d.value("id") != nil
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

// jsendError is JSend's failure: "status" (or "stat") is "error" (with a
// message or a code) or "fail" (with the data at fault).
func jsendError(d *doc) bool {
	return d.spans.failedWord()
}

// failedCode is a numeric "code" that says a failure beside a message and
// no data (see topSpans.failedCode), in a body that is no resource (with
// an "id"), whose code and message would be its data.
func failedCode(d *doc) bool {
	return d.spans.failedCode() && d.value("id") == nil
}

// okFalse and successFalse are the error flags "ok" and "success" (or
// "Response") written false in any way: false, 0, "false", "False".
func okFalse(d *doc) bool      { return isFalse(d.spans.ok) }
func successFalse(d *doc) bool { return isFalse(d.spans.success) }

// graphQLFailed is a GraphQL response that failed as a whole (see
// topSpans.graphQLFailed).
func graphQLFailed(d *doc) bool {
	return d.spans.graphQLFailed()
}

// errorsWithoutData is a body whose "errors" list holds an error (an object
// or a string) and whose "data" is absent or null: a failure at any status,
// read with the REST members, so the field at fault and the code stay.
func errorsWithoutData(d *doc) bool {
	return d.spans.errorsWithoutData()
}

// knows reports whether the taxonomy (the Reader's, else the standard
// one) gives code a kind of its own.
func (d *doc) knows(code string) bool {
	if d.names == nil {
		return (*Reader)(nil).names(code)
	}
	return d.names(code)
}

// failedStatusWord is a top-level "status" written as a code word
// ("REQUEST_DENIED", "OVER_QUERY_LIMIT") that names a failure: the
// taxonomy gives it a kind, or it says ERROR or ends in an outcome of
// failure (see failureOutcomes). "OK", "ZERO_RESULTS" and any
// status in prose ("active", "Success") are no failure; nor is the status
// of a resource, an object with an "id" ({"id": "job_1", "status":
// "FAILED"} reads a failed job, and succeeds).
func failedStatusWord(d *doc) bool {
	s, ok := stringOf(d.spans.status)
	if !ok || !isStatusName(s) || d.value("id") != nil {
		return false
	}
	if d.knows(s) {
		return true
	}
	// ERROR in it, or an outcome of failure that ends it (BLS's
	// REQUEST_NOT_PROCESSED, beside Google Maps' REQUEST_DENIED and
	// UNKNOWN_ERROR); a word that opens with one names a state
	// (FAILED_PRECONDITION_CHECKED).
	if strings.Contains(s, "ERROR") {
		return true
	}
	for _, w := range failureOutcomes {
		if strings.HasSuffix(s, w) && (len(s) == len(w) || s[len(s)-len(w)-1] == '_') {
			return true
		}
	}
	return false
}

// failureOutcomes are the words that, ending a status code word, say the
// call failed.
var failureOutcomes = []string{"FAILED", "FAILURE", "DENIED", "REJECTED", "NOT_PROCESSED"}

// oauthError is RFC 6749's error response, which some servers send with a
// 200: "error" a code word and "error_description" beside it, or "error"
// alone (the description is optional).
func oauthError(d *doc) bool {
	if d.spans.loneError() {
		return true
	}
	e, _ := stringOf(d.value("error"))
	desc, _ := stringOf(d.value("error_description"))
	return isWord(e) && desc != ""
}

// codeAt reads a code at path (see dialect). A code that only repeats
// the status (Telegram's error_code 400 on a 400, Spring's "error": "Not
// Found" on a 404) says nothing, and is none; the members after it may
// name one. So is a sentence: a code is a word or a short phrase ("not
// found"), at most three words. A string is a code unless its member's
// rule says otherwise: "status" only as a code word ("NOT_FOUND",
// "invalid_api_key", not "404", "error" or Kubernetes' "Failure"); "type"
// not as about:blank, "error" or a type tag such as Intercom's
// "error.list"; "reason" and "error" only as a single word (a sentence
// there is the message); "name", "id" and "category" only as written as
// codes are ("RESOURCE_NOT_FOUND", "not_found", "NotFoundError"), and
// "category" only when the taxonomy knows it (eBay's "REQUEST" is a class
// of errors); a "type" URI that names only the status
// (".../http-status/401") is none; AWS's "__type" without its namespace
// and suffix.
func codeAt(d *doc, path string) string {
	var s string
	if p, ok := strings.CutSuffix(path, "#"); ok {
		s, _ = numberOf(d.value(p))
	} else {
		s, _ = stringOf(d.value(path))
	}
	if s == "" || opensWithStatus(s, d.status) || placeholder(s) {
		return "" // no code, or the status again ("400 BadRequest")
	}
	if path[len(path)-1] == '#' {
		return s
	}
	last := lastMember(path)
	if last != "reason" && (isPhrase(s, d.status, last) || strings.Count(s, " ") > 2) {
		return ""
	}
	switch last {
	case "status":
		if !isStatusName(s) && !(isCodeWord(s, false) && strings.IndexByte(s, '_') > 0) || s == "ERROR" {
			return "" // not a code word, or only a failure's flag
		}
	case "type":
		if s == "about:blank" || strings.EqualFold(s, "error") || strings.HasPrefix(s, "error.") || !isWord(s) {
			return "" // a type written in words ("Invalid Auth") is a title
		}
		if i := strings.LastIndexByte(s, '/'); i >= 0 && repeatsStatus(s[i+1:], d.status) {
			return "" // a URI that names only the status (".../http-status/401")
		}
	case "reason", "error":
		if !isWord(s) {
			return ""
		}
	case "name":
		if !isCodeWord(s, false) {
			return ""
		}
	case "category":
		if !isCodeWord(s, false) || !d.knows(s) {
			return "" // a class of errors ("REQUEST"), unless it names a kind
		}
	case "id":
		if !isCodeWord(s, true) && !namespacedCode(s) {
			return ""
		}
	case "__type":
		return awsType(s)
	}
	return s
}

// placeholder reports whether s stands for no value: a language's nil
// written as text ("None", "null", "undefined", as Python's str(None) and
// JavaScript's String(undefined) write it; LiteLLM, and servers that
// format a missing code so) or the bare word "error", "fail", "failed" or
// "failure" (Vertesia, and the JSend-like bodies whose code or status
// only says that it failed: {"status": "FAILED", "message": ...}).
func placeholder(s string) bool {
	switch len(s) {
	case 3, 4, 5, 6, 7, 9:
		return strings.EqualFold(s, "none") || strings.EqualFold(s, "null") || strings.EqualFold(s, "nil") ||
			strings.EqualFold(s, "error") || strings.EqualFold(s, "undefined") ||
			strings.EqualFold(s, "fail") || strings.EqualFold(s, "failed") || strings.EqualFold(s, "failure")
	}
	return false
}

// isPhrase reports whether s, the value of member, is the status's reason
// phrase as HTTP writes it: in any member when it has several words ("Not
// Found", "Too Many Requests"), in "error" also as one word
// ("Unauthorized"), where frameworks write the phrase; a one-word phrase
// elsewhere is a code (Kubernetes' reason "Conflict").
func isPhrase(s string, status int, member string) bool {
	t := http.StatusText(status)
	return t != "" && s == t && (strings.IndexByte(t, ' ') > 0 || member == "error")
}

// isCodeWord reports whether s is written as codes are: one word of
// letters, digits and separators with an underscore between words, or in
// camel or upper case ("RESOURCE_NOT_FOUND", "not_found", "NotFoundError",
// "Invalid_Key"); kebab reports whether "not-found" (lower case, words
// joined by '-', no digit) counts too.
func isCodeWord(s string, kebab bool) bool {
	if s == "" || !isWord(s) {
		return false
	}
	var under, dash, upper, lower, inner, digit bool
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '_':
			under = true
		case c == '-':
			dash = true
		case c == '.':
		case c >= 'A' && c <= 'Z':
			upper = true
			inner = inner || i > 0 && s[i-1] >= 'a' && s[i-1] <= 'z'
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= '0' && c <= '9':
			digit = true
		default:
			return false
		}
	}
	switch {
	case kebab && dash && !upper && !digit:
		return true
	case under && (upper || lower):
		return !(kebab && digit)
	case inner, upper && !lower && len(s) > 2:
		return !(kebab && digit)
	}
	return false
}

// namespacedCode reports whether s is a code under a namespace, words of
// letters joined by '/' ("auth/unauthorized", "notes/not-found",
// "acme.billing/card-declined") or by "::" ("Client::NotFound"): two or
// three segments, each of letters and '-', '_' or an inner '.' (no digit,
// so no resource's path such as "users/42"; no leading '/', so no URL's
// path).
func namespacedCode(s string) bool {
	s = strings.ReplaceAll(s, "::", "/") // Ruby's and C++'s namespaces: "Client::NotFound"
	n := strings.Count(s, "/")
	if n < 1 || n > 2 {
		return false
	}
	for seg := range strings.SplitSeq(s, "/") {
		if seg == "" || seg[0] == '-' || seg[0] == '_' {
			return false
		}
		for i := 0; i < len(seg); i++ {
			if c := seg[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_' || c == '.' && i > 0) {
				return false
			}
		}
	}
	return true
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
// a sentence, not a code; a path marked sentence only when it is a
// sentence or the status's phrase); the message of the first error of a
// list (see messageOf); or the message of an error object, else the first
// field error of an object of field errors. A message read from an error
// object that names the field at fault ("field", FastAPI's "loc") is
// written "field: message".
func messageAt(d *doc, path string) string {
	sentenceOnly := false
	if p, ok := strings.CutSuffix(path, sentenceMark); ok {
		path, sentenceOnly = p, true
	}
	raw := d.value(path)
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '"':
		s, _ := stringOf(raw)
		if (lastMember(path) == "reason" || sentenceOnly) && isWord(s) && !isPhrase(s, d.status, "error") {
			return ""
		}
		return withField(d.fieldOf(parentOf(path)), s)
	case '[', '{':
		return messageOf(raw, 5)
	}
	return ""
}

// objectMessages are the members that hold an error object's message
// when an object stands where a message should be: an error ({"message"},
// FastAPI's {"loc", "msg"}) or an OData message {"lang", "value"}.
var objectMessages = []string{"message", "msg", "detail", "description", "title", "value", "text", "error", "reason", "details"}

// messageOf is the message raw holds: a string; the first of a list that
// has one; an error object's message (field first, see fieldOf); else the
// first field error of an object of field errors. depth bounds the
// nesting read.
func messageOf(raw json.RawMessage, depth int) string {
	if len(raw) == 0 || depth == 0 {
		return ""
	}
	switch raw[0] {
	case '"':
		s, _ := stringOf(raw)
		return s
	case '[':
		var list []json.RawMessage
		if json.Unmarshal(raw, &list) != nil {
			return ""
		}
		for _, v := range list {
			if s := messageOf(v, depth-1); s != "" {
				return s
			}
		}
	case '{':
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil {
			return ""
		}
		for _, m := range objectMessages {
			// A message member holds a string, an error object or a list of
			// them; a list of strings there is a field's errors (Rails'
			// {"title": ["can't be blank"]}).
			v := obj[m]
			if len(v) == 0 || v[0] != '"' && v[0] != '{' && (v[0] != '[' || listOfStrings(v)) {
				continue
			}
			if m == "details" && v[0] != '"' {
				continue // details other than a sentence are no message (Google's list of details)
			}
			if s := messageOf(v, depth-1); s != "" {
				if v[0] == '"' {
					return withField(fieldIn(obj), s)
				}
				return s
			}
		}
		// An object with a code is an error object, not an object of
		// field errors ({"summary": "You must specify a summary"}): its
		// message member may be named in another case style or with
		// another word ("errorDescription", "ErrorMessage", "info"), as
		// find reads the members of an error object.
		for _, n := range messageNames {
			if !hasCode(obj) {
				break
			}
			for k, v := range obj {
				if len(v) > 0 && v[0] == '"' && sameName(k, n) {
					if s, _ := stringOf(v); s != "" && (n != "error" && n != "reason" && n != "exception" || !isWord(s)) &&
						(n != "name" || strings.Count(s, " ") >= 2) {
						return withField(fieldIn(obj), s)
					}
				}
			}
		}
		// A member whose name ends in "message" ("default_message") holds
		// a message whatever else the object has, and a list of strings
		// named for messages ("messages", "errorMessages") is no field.
		if s := endsInMessageOf(obj); s != "" {
			return withField(fieldIn(obj), s)
		}
		return fieldError(raw, false)
	}
	return ""
}

// endsInMessageOf is the string, or the first string of a list of
// strings, of the first member of obj, in name order, whose name ends in
// "message" or "messages" in any case style (see endsInMessage), or "".
func endsInMessageOf(obj map[string]json.RawMessage) string {
	keys := make([]string, 0, len(obj))
	for k := range obj {
		if endsInMessage(strings.TrimSuffix(strings.TrimSuffix(k, "s"), "S")) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := obj[k]
		var s string
		switch {
		case len(v) > 0 && v[0] == '"':
			s, _ = stringOf(v)
		case len(v) > 0 && v[0] == '[' && listOfStrings(v):
			s = firstString(v)
		}
		if s != "" {
			return s
		}
	}
	return ""
}

// hasCode reports whether obj has a member named as a code, in any case
// style (see codeNames and endsInCode).
func hasCode(obj map[string]json.RawMessage) bool {
	for k := range obj {
		if endsInCode(k) {
			return true
		}
		for _, n := range codeNames {
			if sameName(k, n) {
				return true
			}
		}
	}
	return false
}

// listOfStrings reports whether raw is a list whose first element is a
// string.
func listOfStrings(raw json.RawMessage) bool {
	i := jsonscan.Space(raw, 1)
	return i < len(raw) && raw[i] == '"'
}

// fieldMembers name the field an error object is about, normalized (see
// sameName): "field" ("Field", "field_name"), "loc", "parameter",
// "propertyPath". OpenAI's "param" and JSON:API's "source" stay details:
// the message says what is wrong without them.
var fieldMembers = []string{"field", "fieldname", "loc", "parameter", "propertypath"}

// fieldOf is the field at fault named by the error object at path (see
// fieldIn), "" when there is no object there or it names none.
func (d *doc) fieldOf(path string) string {
	raw := d.root
	if path != "" {
		raw = d.value(path)
	}
	if len(raw) == 0 || raw[0] != '{' {
		return ""
	}
	key := ""
	if path != "" {
		key = path + "/"
	}
	return fieldIn(d.decode(key, raw).obj)
}

// fieldIn is the field at fault an error object names, in a member
// named for a field in any case style: a string, or a location list such
// as FastAPI's ["body", "price"], joined with dots.
func fieldIn(obj map[string]json.RawMessage) string {
	for _, m := range fieldMembers {
		for k, v := range obj {
			if !sameName(k, m) {
				continue
			}
			if f := fieldValue(v); f != "" {
				return f
			}
		}
	}
	return ""
}

// fieldValue is the field a field member's value v names: a string, or
// a location list joined with dots.
func fieldValue(v json.RawMessage) string {
	if len(v) == 0 {
		return ""
	}
	switch {
	case v[0] == '"':
		if s, ok := stringOf(v); ok && len(s) <= maxPlainMessage {
			return s
		}
	case v[0] == '[':
		var loc []any
		if json.Unmarshal(v, &loc) != nil || len(loc) == 0 {
			return ""
		}
		parts := make([]string, 0, len(loc))
		for _, p := range loc {
			switch p := p.(type) {
			case string:
				parts = append(parts, p)
			case float64:
				parts = append(parts, strconv.FormatFloat(p, 'f', -1, 64))
			}
		}
		return strings.Join(parts, ".")
	}
	return ""
}

// withField is msg about the field f, written "f: msg", unless f is
// empty or msg already names it: at its start, as a word ("amount must
// be positive"), or as a word after a colon ("missing parameter: query",
// "Invalid value: amount. Must be positive"). A field named otherwise is
// a word of the sentence ("is not an email").
func withField(f, msg string) string {
	if f == "" || msg == "" {
		return msg
	}
	if rest, ok := strings.CutPrefix(msg, f); ok && (rest == "" || rest[0] == ' ') {
		return msg
	}
	if i := strings.Index(msg, ": "+f); i >= 0 && (i+2+len(f) == len(msg) || !wordByte(msg[i+2+len(f)])) {
		return msg
	}
	return f + ": " + msg
}

// wordByte reports whether c is a letter, a digit or an underscore.
func wordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// parentOf is the path of the object that holds path's member ("" for the
// top level).
func parentOf(path string) string {
	i := strings.LastIndexByte(path, '/')
	if i < 0 {
		return ""
	}
	return path[:i]
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
// errors whose value is a string, a list of strings or an error object
// with a message (Swell's {"errors": {"email": {"code": "REQUIRED",
// "message": "Required"}}}): "field: message".
// A member named as a code is (see codeMembers) is no field when it holds
// a word, and is one when it holds a sentence or a list of messages, whatever its name
// ({"name": ["has already been taken"]}); listsOnly
// takes only lists of strings, as a body that is nothing but field errors
// holds them (Django REST framework's {"email": ["Enter a valid email
// address."]}).
func fieldError(raw json.RawMessage, listsOnly bool) string {
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
		name, _ := k.(string)
		s := ""
		switch {
		case len(v) > 0 && v[0] == '[':
			s = firstString(v)
		case len(v) > 0 && v[0] == '{' && !listsOnly:
			// A field's error object ({"email": {"code": "REQUIRED",
			// "message": "Required"}}): its message.
			var obj map[string]json.RawMessage
			if json.Unmarshal(v, &obj) == nil {
				if m := obj["message"]; len(m) > 0 && m[0] == '"' {
					s, _ = stringOf(m)
				}
			}
		case isCodeMember(name) && !isSentence(v):
			continue // a code; a sentence under a code's name is a field's error (Metabase's {"errors": {"name": "value must be ..."}})
		case !listsOnly:
			s, _ = stringOf(v)
		}
		if s != "" {
			return name + ": " + s
		}
	}
	return ""
}

// isSentence reports whether v, a JSON value as written, is a string of
// at least three words, which no code is.
func isSentence(v json.RawMessage) bool {
	s, ok := stringOf(v)
	return ok && strings.Count(strings.TrimSpace(s), " ") >= 2
}

// isCodeMember reports whether name is a member that holds a code (see
// codeMembers), in any case.
func isCodeMember(name string) bool {
	for _, m := range codeMembers {
		if strings.EqualFold(m, name) {
			return true
		}
	}
	return false
}

// waitAt reads a wait at path: a number of seconds (of milliseconds when
// the member's name ends in "ms"), or a protobuf Duration such as
// google.rpc.RetryInfo's retryDelay ("30s", "1.5s"); a path ending in
// protoMark holds a RetryInfo message in base64, as Connect sends it.
func waitAt(d *doc, path string) time.Duration {
	if p, ok := strings.CutSuffix(path, protoMark); ok {
		s, _ := stringOf(d.value(p))
		return retryInfoDelay(s)
	}
	raw := d.value(path)
	if s, ok := stringOf(raw); ok {
		// A Duration ("30s"), or a number of seconds sent as a string.
		raw = json.RawMessage(strings.TrimSuffix(s, "s"))
	}
	n, ok := numberOf(raw)
	if !ok {
		return 0
	}
	f, err := strconv.ParseFloat(n, 64)
	if err != nil || !(f > 0) {
		return 0
	}
	if last := lastMember(path); strings.HasSuffix(last, "ms") || strings.HasSuffix(last, "Ms") {
		f /= 1000
	}
	return secondsToDuration(f)
}

// retryInfoDelay decodes a google.rpc.RetryInfo in base64 (padded or not)
// and returns its retry_delay, a google.protobuf.Duration: field 1 of
// RetryInfo, whose fields 1 and 2 are its seconds and nanos.
func retryInfoDelay(s string) time.Duration {
	if s == "" || len(s) > 64 {
		return 0
	}
	b, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "="))
	if err != nil {
		return 0
	}
	dur, ok := protoField(b, 1, 2)
	if !ok {
		return 0
	}
	secs, _ := protoField(dur, 1, 0)
	nanos, _ := protoField(dur, 2, 0)
	sec, _ := binaryVarint(secs)
	ns, _ := binaryVarint(nanos)
	if sec <= 0 && ns <= 0 {
		return 0
	}
	return secondsToDuration(float64(sec) + float64(ns)/1e9)
}

// protoField returns the bytes of the first field num of wire type typ (0
// varint, 2 length-delimited) in the protobuf message b.
func protoField(b []byte, num, typ uint64) ([]byte, bool) {
	for len(b) > 0 {
		key, n := binary.Uvarint(b)
		if n <= 0 {
			return nil, false
		}
		b = b[n:]
		switch key & 7 {
		case 0:
			_, m := binary.Uvarint(b)
			if m <= 0 {
				return nil, false
			}
			if key>>3 == num && typ == 0 {
				return b[:m], true
			}
			b = b[m:]
		case 2:
			l, m := binary.Uvarint(b)
			if m <= 0 || l > uint64(len(b)-m) {
				return nil, false
			}
			if key>>3 == num && typ == 2 {
				return b[m : m+int(l)], true
			}
			b = b[m+int(l):]
		default:
			return nil, false
		}
	}
	return nil, false
}

// binaryVarint decodes a varint field's bytes.
func binaryVarint(b []byte) (int64, bool) {
	v, n := binary.Uvarint(b)
	return int64(v), n > 0
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

// isLabel reports whether a message is only a label: an HTTP reason
// phrase ("Unauthorized", "Not Found") or one word written as codes are
// ("ValidationError", "NOT_FOUND").
func isLabel(msg string) bool {
	return isReasonPhrase(msg) || isCodeWord(msg, false) || messageKey(msg)
}

// messageKey reports whether msg is the key of a message catalogue
// rather than its text: words in lower case joined by dots
// ("error.validation", "error.http.404"), as JHipster-generated APIs
// (JHipster's own, Asendia's) and i18n frameworks send the key for the
// client to translate. Such a key says less than a title or a detail
// beside it.
func messageKey(msg string) bool {
	if len(msg) < 3 || msg[0] < 'a' || msg[0] > 'z' || msg[len(msg)-1] == '.' || strings.IndexByte(msg, '.') < 0 {
		return false
	}
	for i := 0; i < len(msg); i++ {
		c := msg[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '.' && msg[i-1] != '.') {
			return false
		}
	}
	return true
}

// opensWithStatus reports whether s is the status written in decimal,
// alone or followed by a space and more ("400 BadRequest").
func opensWithStatus(s string, status int) bool {
	return repeatsStatus(s, status) || len(s) > 4 && s[3] == ' ' && repeatsStatus(s[:3], status)
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
	names  func(code string) bool // whether the taxonomy gives code a kind (see Reader.names); nil: the standard one
	class  string                 // the error's class, found by find where no code is (see foundClass)
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
// "@T" the element of a list whose "@type" (or, in Connect's form, "type")
// ends in T (a google.rpc detail).
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
				Type    string `json:"@type"`
				Connect string `json:"type"` // Connect's detail form
			}
			if len(el) > 0 && el[0] == '{' && json.Unmarshal(el, &typed) == nil &&
				(strings.HasSuffix(typed.Type, seg[1:]) || typed.Type == "" && strings.HasSuffix(typed.Connect, seg[1:])) {
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

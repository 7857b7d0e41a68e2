package envelope

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/mcperr/mcperr/internal/jsonscan"
)

// This file scans JSON without decoding it: the top level of a body, to
// tell an error shape from data before anything is decoded.

// topSpans locates the members of a top-level JSON object that decide
// whether a body is an error at any status: the envelope's key, "ok",
// "success" (or "Response"), "status" (or "stat"), "jsonrpc", "errors",
// "data", "error", "code" (or "errcode", "error_code") and "message" (or
// "msg", "errmsg", "error_msg"). Each span is the
// member's value as written; nil when absent. other records a member
// besides "data", "errors" and "extensions", which a GraphQL response
// never has; members counts the members read.
type topSpans struct {
	env, ok, success, status, jsonrpc, errors, data, desc []byte
	flag, code, msg                                       []byte
	first                                                 []byte // the first member's value
	other                                                 bool
	members                                               int
	ids                                                   int // members named as an id of something ("request_id", "queryId")
}

// errorShape reports whether the spans may mark an error at any status
// other than the envelope: JSON-RPC, an error flag, a GraphQL response
// that failed, a list of errors with no data, a status written as a code
// word (the dialect table decides whether it names a failure), or an
// OAuth 2 error (with its description, or "error" alone).
func (s *topSpans) errorShape() bool {
	return s.jsonrpc != nil || isFalse(s.ok) || isFalse(s.success) || s.failedWord() || s.graphQLFailed() ||
		s.errorsWithoutData() || s.statusWord() || len(s.env) > 1 && s.env[0] == '"' && len(s.desc) > 2 && s.desc[0] == '"' ||
		s.errorFlag() || s.failedCode() || s.loneError()
}

// loneError reports whether the body's only member is "error", a string,
// but for the ids of what failed ("request_id", "queryId"): RFC 6749's
// error response, whose error_description is optional ({"error":
// "invalid_grant"}, which Reddit's token endpoint sends with a 200), or
// the error's sentence ({"error": "daily query limit reached"}). No
// success is only an error's code or its message; an empty string, or one
// that says the call succeeded ("OK"), is none.
func (s *topSpans) loneError() bool {
	if s.members-s.ids != 1 || len(s.flag) <= 2 || s.flag[0] != '"' {
		return false
	}
	m, _ := stringOf(s.flag)
	return strings.TrimSpace(m) != "" && !successWord(m)
}

// namesID reports whether a member's name q, quoted as written, names the
// id of something: a word then "_id" or "Id" ("request_id", "queryId"),
// not a bare "id" (a resource's own).
func namesID(q []byte) bool {
	return len(q) > 5 && (bytes.HasSuffix(q, []byte(`_id"`)) || bytes.HasSuffix(q, []byte(`Id"`)))
}

// isFalse reports whether a flag's value, as written, says no: false, 0,
// or "false" in any case ("ok": 0, "Response": "False").
func isFalse(v []byte) bool {
	switch string(v) {
	case "false", "0":
		return true
	}
	return len(v) == 7 && v[0] == '"' && strings.EqualFold(string(v[1:6]), "false")
}

// failedWord reports whether "status" (or "stat", or "result" when it
// says so) says a failure: JSend's "error" or "fail" ("FAIL" too), or
// the flag false ({"status": false, "message": "Invalid key"}).
func (s *topSpans) failedWord() bool {
	switch string(s.status) {
	case `"error"`, `"fail"`, `"FAIL"`, "false":
		return true
	}
	return false
}

// errorFlag reports whether "error" is a flag that says a failure, true
// or a number other than 0, beside a message ({"error": 6, "message":
// "User not found"}).
func (s *topSpans) errorFlag() bool {
	if len(s.msg) < 3 || s.msg[0] != '"' || len(s.flag) == 0 {
		return false
	}
	if string(s.flag) == "true" {
		return true
	}
	n, ok := numberOf(s.flag)
	return ok && n != "0"
}

// failedCode reports whether a top-level numeric "code" says a failure
// beside a message and no data ({"code": 1100, "message": "invalid
// parameter"}): a code other than 0 and than a status below 400 (200, or
// 0, is a success in the APIs that write their outcome so).
func (s *topSpans) failedCode() bool {
	if len(s.msg) < 3 || s.msg[0] != '"' || !noData(s.data) {
		return false
	}
	n, ok := numberOf(s.code)
	if !ok {
		n, ok = digitsOf(s.code)
	}
	if !ok || strings.Trim(n, "0") == "" {
		return false
	}
	if m, _ := stringOf(s.msg); successWord(m) {
		return false
	}
	if len(n) == 3 && n[0] >= '1' && n[0] <= '3' {
		return false // a success status
	}
	return true
}

// noData reports whether a "data" member, as written, holds nothing:
// absent, null, or an empty string, object or list.
func noData(v []byte) bool {
	switch string(v) {
	case "", "null", `""`, "{}", "[]":
		return true
	}
	return false
}

// digitsOf is the number a JSON string of decimal digits writes
// ("51001"): a code sent as a string.
func digitsOf(v []byte) (string, bool) {
	s, ok := stringOf(v)
	if !ok || s == "" || len(s) > 12 {
		return "", false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return "", false
		}
	}
	return s, true
}

// successWord reports whether a message says only that the call
// succeeded ("OK", "success", "Succeeded").
func successWord(s string) bool {
	switch strings.ToLower(s) {
	case "ok", "success", "succeeded", "successful", "done":
		return true
	}
	return false
}

// successStatus reports whether n, a number as written, is a success
// status HTTP defines (200 to 208, 226).
func successStatus(n string) bool {
	switch n {
	case "200", "201", "202", "203", "204", "205", "206", "207", "208", "226":
		return true
	}
	return false
}

// failureWord reports whether s is only the word for a failure, in any
// case style: "NOTOK", "not_ok", "NOK", "FAILED", "failure".
func failureWord(s string) bool {
	switch memberWords([]byte(s)) {
	case "notok", "nok", "failed", "failure", "fail":
		return true
	}
	return false
}

// saysSuccess reports whether a message says the call succeeded, as a
// word or in a sentence ("query ok", "Operation successful"), so that a
// status number beside it is no failure.
func saysSuccess(s string) bool {
	l := strings.ToLower(s)
	return successWord(s) || strings.Contains(l, "success") || strings.Contains(l, "succeeded") || strings.HasSuffix(l, " ok")
}

// statusWord reports whether "status" is a string written in upper case
// as a code word ("REQUEST_DENIED", "OK").
func (s *topSpans) statusWord() bool {
	if len(s.status) < 3 || s.status[0] != '"' {
		return false
	}
	st, ok := stringOf(s.status)
	return ok && isStatusName(st)
}

// errorsWithoutData reports whether the spans hold a non-empty "errors"
// list whose first element is an error (an object with a message or a
// code, or a string), and no "data" but null.
func (s *topSpans) errorsWithoutData() bool {
	if len(s.errors) == 0 || s.errors[0] != '[' || s.data != nil && string(s.data) != "null" {
		return false
	}
	j := jsonscan.Space(s.errors, 1)
	if j >= len(s.errors) || s.errors[j] == ']' {
		return false
	}
	if s.errors[j] == '"' {
		return true
	}
	first := firstError(s.errors)
	for _, m := range []string{"message", "code", "detail", "title", "error"} {
		if v := first[m]; len(v) > 0 && v[0] != 'n' {
			return true
		}
	}
	return false
}

// scanTop fills the spans of body's top-level object in one pass that
// skips every other value. It stops at the envelope's key when its value
// opens with start ('{' for a nested envelope, '"' for a flat one): the
// envelope decides, whatever follows. A body that is not an object, or not
// JSON as far as the scan reads, gives what was found so far; the decode
// that follows reports what is wrong with it.
func scanTop(body []byte, key string, start byte) topSpans {
	var s topSpans
	i := jsonscan.Space(body, 0)
	if i >= len(body) || body[i] != '{' {
		return s
	}
	i++
	for {
		i = jsonscan.Space(body, i)
		if i >= len(body) || body[i] != '"' {
			return s
		}
		end, _, ok := jsonscan.String(body, i)
		if !ok {
			return s
		}
		q := body[i:end]
		i = jsonscan.Space(body, end)
		if i >= len(body) || body[i] != ':' {
			return s
		}
		i = jsonscan.Space(body, i+1)
		isKey := keyEqual(q, key)
		if isKey && i < len(body) && body[i] == start {
			s.env = body[i:]
			return s
		}
		vend, ok := jsonscan.Value(body, i, 1, nil)
		if !ok {
			return s
		}
		v := body[i:vend]
		s.members++
		if s.members == 1 {
			s.first = v
		}
		if keyEqual(q, "error") {
			s.flag = v
		}
		if namesID(q) {
			s.ids++
		}
		switch {
		case isKey:
			s.env = v
		case keyEqual(q, "ok"):
			s.ok = v
		case keyEqual(q, "success"), (keyEqual(q, "Success") || keyEqual(q, "Response")) && s.success == nil:
			s.success = v
		case keyEqual(q, "status"), keyEqual(q, "stat") && s.status == nil:
			s.status = v
		case keyEqual(q, "result") && s.status == nil && (string(v) == `"error"` || string(v) == `"fail"`):
			s.status = v
		case keyEqual(q, "code"), s.code == nil && (keyEqual(q, "errcode") || keyEqual(q, "error_code")):
			s.code = v
		case keyEqual(q, "message"), s.msg == nil && (keyEqual(q, "msg") || keyEqual(q, "errmsg") || keyEqual(q, "error_msg")):
			s.msg = v
		case keyEqual(q, "jsonrpc"):
			s.jsonrpc = v
		case keyEqual(q, "errors"):
			s.errors = v
		case keyEqual(q, "data"):
			s.data = v
		case keyEqual(q, "error_description"):
			s.desc = v
		}
		if !keyEqual(q, "data") && !keyEqual(q, "errors") && !keyEqual(q, "extensions") && !keyEqual(q, "ok") {
			s.other = true
		}
		i = jsonscan.Space(body, vend)
		if i >= len(body) || body[i] != ',' {
			return s
		}
		i++
	}
}

// graphQLFailed reports whether the spans are a GraphQL response that
// failed as a whole: no top-level member but data, errors and extensions;
// a non-empty errors array whose first error has a message; data absent,
// null or an object holding only nulls; and the marks of GraphQL: data
// present (null), or a first error with GraphQL's own members
// (locations, a path list, extensions). Errors beside real data are a
// partial success, which is data. A REST body with an errors array
// (JSON:API, Cloudflare, GitHub's field errors, {"errors": [{"field",
// "code", "message"}]}) has other members, errors without a message or
// without GraphQL's marks, and is read as a REST error instead, which
// keeps its field and code.
func (s *topSpans) graphQLFailed() bool {
	if s.other || len(s.errors) == 0 || s.errors[0] != '[' {
		return false
	}
	if j := jsonscan.Space(s.errors, 1); j >= len(s.errors) || s.errors[j] == ']' {
		return false
	}
	first := firstError(s.errors)
	if first == nil || len(first["message"]) == 0 || first["message"][0] != '"' {
		return false
	}
	if s.data == nil {
		path, ext := first["path"], first["extensions"]
		if first["locations"] == nil && (len(path) == 0 || path[0] != '[') && (len(ext) == 0 || ext[0] != '{') {
			return false
		}
	}
	switch {
	case s.data == nil, string(s.data) == "null":
		return true
	case s.data[0] != '{':
		return false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(s.data, &m) != nil {
		return false
	}
	for _, v := range m {
		if string(v) != "null" {
			return false
		}
	}
	return true
}

// firstError decodes the first element of an errors array when it is an
// object.
func firstError(raw json.RawMessage) map[string]json.RawMessage {
	if len(raw) == 0 || raw[0] != '[' {
		return nil
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil || len(list) == 0 {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(list[0], &m) != nil {
		return nil
	}
	return m
}

// wrappedFailure reports whether the spans are a wrapper: a body whose
// only member is an object ({"Response": {...}}, {"api-response": {...}})
// that would be an error at any status on its own: one with an error flag
// or a failed status, one that holds an error object ("error" or
// "Error") beside no data ({"Response": {"Error": {"Code", "Message"},
// "RequestId"}}), or one that says failed beside a message as
// flaggedFailure reads it (MiniMax's {"base_resp": {"status_code": 1004,
// "status_msg": "login fail: ..."}}).
func (s *topSpans) wrappedFailure() bool {
	if s.members != 1 || len(s.first) == 0 || s.first[0] != '{' {
		return false
	}
	in := scanTop(s.first, "Error", '{')
	if len(in.env) > 0 && !emptyObject(in.env) && noData(in.data) {
		return true
	}
	if len(in.flag) > 0 && in.flag[0] == '{' && !emptyObject(in.flag) && noData(in.data) {
		return true
	}
	return in.jsonrpc == nil && (isFalse(in.ok) || isFalse(in.success) || in.failedWord() || flaggedFailure(s.first))
}

// keyEqual reports whether the quoted JSON string q equals key.
func keyEqual(q []byte, key string) bool {
	inner := q[1 : len(q)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		return string(inner) == key
	}
	var s string
	return json.Unmarshal(q, &s) == nil && s == key
}

// flaggedFailure reports whether a body below 400 says at its top level
// that the call failed, in a member whose name says what it is, beside a
// message: a status or a result (in any case style: "Status", "stat",
// "result") whose value is a failure word ("Fail", "failed", "ERROR") or
// the number of an HTTP failure (400 to 599), a "code" that is a failure
// word, an error level above 0 ("ErrorLevel": 10), or an error number or
// a return, result or error code ("errno", "RetCode", "result_code") that
// is a number other than 0 and 200 (an OK written as a status). The
// message is a
// string, not a success word, in a member named for a message ("Message",
// "errmsg", "error_msg") or an "error" written as a sentence. A body with
// data ("data" neither null nor empty) or with an "id" (a resource whose
// own status failed) is no failure. It costs one pass over the top level,
// run only on bodies no other shape has claimed.
func flaggedFailure(body []byte) bool {
	i := jsonscan.Space(body, 0)
	if i >= len(body) || body[i] != '{' {
		return false
	}
	var flag, msg, own, success bool
	for i++; ; {
		i = jsonscan.Space(body, i)
		if i >= len(body) || body[i] != '"' {
			return (flag || own && !success) && msg
		}
		end, _, ok := jsonscan.String(body, i)
		if !ok {
			return false
		}
		name := memberWords(body[i+1 : end-1])
		i = jsonscan.Space(body, end)
		if i >= len(body) || body[i] != ':' {
			return false
		}
		i = jsonscan.Space(body, i+1)
		vend, ok := jsonscan.Value(body, i, 1, nil)
		if !ok {
			return false
		}
		v := body[i:vend]
		switch name {
		case "data":
			if !noData(v) {
				return false
			}
		case "id":
			return false
		case "response", "body", "results", "payload":
			if !noData(v) {
				return false // a payload beside the status: data
			}
		case "status", "stat", "result", "code", "statuscode":
			if s, ok := stringOf(v); ok {
				switch strings.ToLower(s) {
				case "fail", "failed", "failure", "error":
					flag = true
				}
			} else if n, ok := numberOf(v); ok && name != "code" && len(n) == 3 && (n[0] == '4' || n[0] == '5') {
				flag = true
			} else if ok && (name == "status" || name == "statuscode") && n != "0" && !successStatus(n) {
				// A status number of the API's own other than its
				// success (0, or a 2xx HTTP defines: {"status": 201,
				// "message": "Created"}), beside a message and no payload:
				// Baidu Maps' {"status": 240, "message"}, Tencent's
				// {"status": 311, "message"}, Viber's {"status": 2,
				// "status_message"}, Pushwoosh's {"status_code": 210,
				// "status_message", "response": null}.
				own = true
			} else if name == "result" && !noData(v) && (v[0] == '{' || v[0] == '[') {
				return false // a result: data
			}
		case "errorlevel":
			// A severity, not a code: any level above 0 is a failure.
			if n, ok := numberOf(v); ok && strings.Trim(n, "0") != "" {
				flag = true
			}
		case "errno", "errcode", "errorcode", "errornumber", "retcode", "returncode", "resultcode":
			if n, ok := numberOf(v); ok && n != "0" && n != "200" {
				flag = true
			} else if c, ok := stringOf(v); ok && (name == "errcode" || name == "errorcode") && isCodeWord(c, true) && !successWord(c) {
				flag = true // an error code written as a code word ("ERR-INVALID-AUTH")
			}
		case "error", "errortext", "errorinfo", "errordescription":
			s, ok := stringOf(v)
			msg = msg || ok && s != "" && (name != "error" || strings.Contains(s, " ")) && !successWord(s)
		default:
			// A member named for a message in any case style ("msg",
			// "errmsg", "retMsg", "status_message").
			if endsInMessage(name) {
				s, ok := stringOf(v)
				msg = msg || ok && s != "" && !successWord(s)
				success = success || ok && saysSuccess(s)
				// A message that is only the word for a failure
				// ("NOTOK") flags it; the cause is in another member
				// (Etherscan's and its kin's {"status": "0", "message":
				// "NOTOK", "result": "Invalid API Key"}, Core Scan,
				// NeonScan).
				flag = flag || ok && failureWord(s)
			}
		}
		i = jsonscan.Space(body, vend)
		if i >= len(body) || body[i] != ',' {
			return (flag || own && !success) && msg
		}
		i++
	}
}

// memberWords is a member's name in lower case with its separators
// dropped, so that every case style of a name is one: "RetCode",
// "ret_code" and "ret-code" are "retcode". A name that holds an escape or
// runs past 32 bytes is returned as "", which names nothing.
func memberWords(q []byte) string {
	if len(q) > 32 {
		return ""
	}
	var b [32]byte
	n := 0
	for _, c := range q {
		switch {
		case c == '\\':
			return ""
		case c == '_' || c == '-' || c == ' ':
		case c >= 'A' && c <= 'Z':
			b[n] = c + 'a' - 'A'
			n++
		default:
			b[n] = c
			n++
		}
	}
	return string(b[:n])
}

// maxBatch bounds the items failedBatch reads.
const maxBatch = 64

// failedBatch is the first item of a batch answer whose every item is an
// error and nothing else, nil for any other body: a body whose only member
// is a list of objects, each of which holds a non-empty "error" object or
// "errors" list and no member but the ids of what it is about. Google
// Cloud Vision's {"responses": [{"error": {"code": 3, "message": "Bad image
// data."}}]} and Australia Post's {"tracking_results": [{"tracking_id",
// "errors": [...]}]} answer a failed batch so at 200; a batch with one item
// that succeeded is a partial success, which is data.
func failedBatch(top *topSpans) []byte {
	if top.members != 1 || len(top.first) < 2 || top.first[0] != '[' {
		return nil
	}
	list := top.first
	var first []byte
	n := 0
	for i := jsonscan.Space(list, 1); i < len(list) && list[i] != ']'; {
		end, ok := jsonscan.Value(list, i, 1, nil)
		if !ok || n == maxBatch {
			return nil
		}
		item := list[i:end]
		if !itemFailed(item) {
			return nil
		}
		if first == nil {
			first = item
		}
		n++
		i = jsonscan.Space(list, end)
		if i < len(list) && list[i] == ',' {
			i = jsonscan.Space(list, i+1)
		}
	}
	return first
}

// itemFailed reports whether a batch's item is an error and nothing else:
// an object that holds a non-empty "error" object or "errors" list and no
// member but the ids of what it is about.
func itemFailed(item []byte) bool {
	if len(item) == 0 || item[0] != '{' {
		return false
	}
	s := scanTop(item, "", 0)
	if s.members-s.ids != 1 {
		return false
	}
	if len(s.flag) > 0 && s.flag[0] == '{' && !emptyObject(s.flag) {
		return true
	}
	if len(s.errors) > 0 && s.errors[0] == '[' {
		j := jsonscan.Space(s.errors, 1)
		return j < len(s.errors) && s.errors[j] != ']'
	}
	return false
}

// statusFailure is the HTTP failure status (400 to 599) that a body below
// 400 names in an object of its own, and that object, where nothing else
// of the body is a payload: a member named for a status ("statusCode",
// "status_code", "statuscode", "status") holding the number, in the body
// or in an object of it (up to three deep), while every member outside
// that object is a scalar or empty ({}, [], ""). MapQuest's {"info":
// {"statuscode": 400, "messages": [...]}, "results": []} and Musixmatch's
// {"message": {"header": {"status_code": 401}, "body": ""}} answer a
// failure so at 200. A status beside a payload describes the payload.
func statusFailure(body []byte) (status int, obj []byte) {
	status, obj, payload := statusIn(body, 3)
	if payload {
		return 0, nil
	}
	return status, obj
}

// statusIn is statusFailure's walk of the object raw: the status and the
// object that names it, and whether a payload sits outside that object.
func statusIn(raw []byte, depth int) (status int, obj []byte, payload bool) {
	i := jsonscan.Space(raw, 0)
	if i >= len(raw) || raw[i] != '{' || depth == 0 {
		return 0, nil, false
	}
	var childStatus int
	var childObj []byte
	children := 0
	for i++; ; {
		i = jsonscan.Space(raw, i)
		if i >= len(raw) || raw[i] != '"' {
			break
		}
		end, _, ok := jsonscan.String(raw, i)
		if !ok {
			return 0, nil, false
		}
		name := memberWords(raw[i+1 : end-1])
		i = jsonscan.Space(raw, end)
		if i >= len(raw) || raw[i] != ':' {
			return 0, nil, false
		}
		i = jsonscan.Space(raw, i+1)
		vend, ok := jsonscan.Value(raw, i, 1, nil)
		if !ok {
			return 0, nil, false
		}
		v := raw[i:vend]
		switch {
		case name == "statuscode" || name == "status":
			if n, ok := numberOf(v); ok && len(n) == 3 && (n[0] == '4' || n[0] == '5') {
				status = int(n[0]-'0')*100 + int(n[1]-'0')*10 + int(n[2]-'0')
			}
		case v[0] == '{' && !emptyObject(v):
			st, o, p := statusIn(v, depth-1)
			if st != 0 {
				childStatus, childObj, children = st, o, children+1
			}
			payload = payload || p || st == 0
		case v[0] == '[' && !noData(v) && string(v) != "[ ]":
			payload = true
		}
		i = jsonscan.Space(raw, vend)
		if i >= len(raw) || raw[i] != ',' {
			break
		}
		i++
	}
	if status != 0 {
		return status, raw, false // the status's object: its own members are the error's
	}
	if children != 1 {
		return 0, nil, payload || children > 1
	}
	return childStatus, childObj, payload
}

package envelope

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
)

// This file finds an error's members by what their names say, in any case
// style, where the dialect table's paths found none: a row's paths name
// the members most APIs use; the next API writes "errorNum",
// "status_message", "err code" or "errorText", or nests its error object
// in "requestError", "detailedError" or "_error".

// messageNames are the names of a member that holds an error's message,
// normalized (see sameName), the more specific first; any other name that
// ends in "message" or "msg" counts after them ("developer-message"),
// where none of them held even a label.
var messageNames = []string{"message", "errormessage", "msg", "errormsg", "errmsg", "text", "errortext", "description",
	"errordescription", "statusmessage", "detail", "errordetail", "details", "errordetails", "summary",
	"errorsummary", "title", "reason", "error", "exception", "info", "errorinfo", "cause", "status", "errors", "result", "name"}

// codeNames are the names of a member that holds an error's code as a
// string, normalized; any other name that ends in "code" counts too
// ("authenticationResultCode"). "messageid" (the id of an error's
// message) counts only as a code word in capitals ("UNAUTHORIZED"), not
// as the id of a message sent. The exception's type is the code too
// (ASP.NET's "ExceptionType", TfL's "exceptionType", Frappe's "exc_type"),
// and so is an "exception" that names its class ("FileNotFoundException":
// not a sentence, nor a qualified name, "java.lang.IllegalStateException",
// which says where the server's code sits, not what failed), and an "error" written as a code word
// ("ledgerIndexMalformed"), as OAuth's is.
var codeNames = []string{"code", "errorcode", "errcode", "errortype", "exceptiontype", "exctype", "errorname", "errorkey", "messageid",
	"exception", "error"}

// numberNames are the names of a member that holds an error's code as a
// number, normalized.
var numberNames = []string{"code", "errorcode", "errcode", "errornum", "errornumber", "errorno", "errno", "errorid",
	"statuscode", "resultcode", "error", "status"}

// maxFindDepth bounds the nesting find descends into.
const maxFindDepth = 3

// find fills e's code and message, where the row's paths left them empty,
// from the members of the error object wherever it sits: the top level;
// then, in turn, each object (or first element of a list of objects) held
// by a member whose name says it holds an error ("requestError",
// "serviceException", "detailedError", "_error", "fault") or that is the
// object's only member (OpenStack's {"itemNotFound": {...}}), each list
// whose first element is an object with a message ("reasons"), and each
// object that holds an "error" or "errors" member ("root"). Names are
// read in any case style. A code must be what codeAt takes; a number that
// repeats the status, or 0, is none. A message that is only a label (see
// isLabel: {"message": "Bad Request", "detail": "no such command"}) yields
// to one beside it that says more, but not to a headline ("title",
// "summary": RFC 9457's title summarizes the type, its detail the
// occurrence); it stays when none does, and the error objects nested
// below do not override it.
func (d *doc) find(e *Error) {
	var label string
	d.findIn(e, "", d.root, maxFindDepth, &label)
}

func (d *doc) findIn(e *Error, path string, raw json.RawMessage, depth int, label *string) {
	if depth == 0 || len(raw) == 0 || raw[0] != '{' || e.Code != "" && e.Message != "" {
		return
	}
	prefix := ""
	if path != "" {
		prefix = path + "/"
	}
	obj := d.decode(prefix, raw).obj
	if len(obj) == 0 {
		return
	}
	// The member names, once, in order: a map is costly to range over.
	keys := make([]string, 0, 16)
	for k := range obj {
		if strings.IndexByte(k, '/') < 0 {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	if e.Message == "" {
		for _, n := range messageNames {
			if k := named(keys, n); k != "" {
				m := d.foundMessage(prefix+k, n)
				switch {
				case m == "":
				case isLabel(m):
					if *label == "" {
						*label = m
					}
				case *label != "" && !messageKey(*label) && (n == "title" || n == "summary"):
					// A headline says no more than the label; it says
					// more than a catalogue's key.
				default:
					e.Message = m
				}
				if e.Message != "" {
					break
				}
			}
		}
		for i := 0; e.Message == "" && *label == "" && i < len(keys); i++ {
			if endsInMessage(keys[i]) {
				if m := d.foundMessage(prefix+keys[i], "message"); m != "" && !isLabel(m) {
					e.Message = m
				}
			}
		}
		if e.Message == "" {
			e.Message = *label
		} else if *label == "" {
			e.Message = withField(fieldIn(obj), e.Message) // the field at fault, as messageAt writes it
		}
	}
	if e.Code == "" {
		e.Code = d.foundCode(prefix, keys)
	}
	// The members that hold an error object or a list of errors, which
	// find reads in turn.
	inner := make([]string, 0, 2)
	for _, k := range keys {
		v := obj[k]
		if len(v) == 0 || v[0] != '{' && v[0] != '[' ||
			!errorName(k) && !(v[0] == '{' && len(keys) == 1) && !(v[0] == '[' && d.listOfErrors(prefix+k)) && !(v[0] == '{' && d.holdsErrors(prefix+k)) {
			continue
		}
		inner = append(inner, k)
	}
	if e.Code == "" && d.class == "" && (len(inner) == 0 || ownMessage(keys)) {
		// The class of the error object, not the type of a document
		// that only wraps errors, with no message of its own (JSON-LD's
		// "@type": "ConstraintViolationList" beside its "violations").
		d.class = d.foundClass(prefix, keys, obj)
	}
	for _, k := range inner {
		v := obj[k]
		switch v[0] {
		case '{':
			d.findIn(e, prefix+k, v, depth-1, label)
		case '[':
			if el := d.value(prefix + k + "/0"); len(el) > 0 && el[0] == '{' {
				d.findIn(e, prefix+k+"/0", el, depth-1, label)
			}
		}
	}
}

// ownMessage reports whether keys, an object's member names, hold one
// named for a message (see listOfErrors): the object is an error, not
// only a wrapper of errors.
func ownMessage(keys []string) bool {
	for _, k := range keys {
		if messageName(k) {
			return true
		}
	}
	return false
}

// named is the first of keys, an object's member names in order, whose
// name normalized (see sameName) is n, "" when none is.
func named(keys []string, n string) string {
	for _, k := range keys {
		if sameName(k, n) {
			return k
		}
	}
	return ""
}

// foundMessage is the message at path, whose member's normalized name is
// n: a string ("reason", "error" and "exception" only as a sentence, not
// a class name), or the first string of a list of strings
// ("errorDetails": ["Access was denied."]).
func (d *doc) foundMessage(path, n string) string {
	raw := d.value(path)
	if len(raw) == 0 {
		return ""
	}
	var s string
	switch raw[0] {
	case '"':
		s, _ = stringOf(raw)
		if (n == "reason" || n == "error" || n == "exception" || n == "result") && isWord(s) && !isPhrase(s, d.status, "error") {
			return "" // a code, unless the status's phrase (a label)
		}
		if (n == "status" || n == "name") && (isWord(s) || strings.Count(s, " ") < 2) {
			// A status's word or phrase ("error", "Bad Request"), or a
			// name ("RESOURCE_NOT_FOUND", "Jane Doe"), not a sentence
			// (Australia Post's {"code": "ESB-10001", "name": "Invalid
			// tracking ID"}).
			return ""
		}
	case '[':
		if !listOfStrings(raw) || n == "name" {
			return "" // a list under "name" is a field's errors (Django's {"name": [...]})
		}
		s = firstString(raw)
	}
	return s
}

// foundCode is the code among the members of the object at prefix, keys
// their names in order: a string named as a code is, then a number.
func (d *doc) foundCode(prefix string, keys []string) string {
	for _, n := range codeNames {
		if k := named(keys, n); k != "" {
			if c := codeAt(d, prefix+k); c != "" && (n != "messageid" || isStatusName(c)) && (n != "error" || isCodeWord(c, false)) &&
				(n != "exception" || isCodeWord(c, false) && !strings.Contains(c, ".")) {
				return c
			}
		}
	}
	for _, k := range keys {
		if endsInCode(k) {
			if c := codeAt(d, prefix+k); c != "" {
				return c
			}
		}
	}
	for _, n := range numberNames {
		if k := named(keys, n); k != "" {
			// A "status" that is an HTTP status is the status, not the
			// API's own code (Baidu's {"status": 302} is one).
			if c := codeAt(d, prefix+k+"#"); c != "" && c != "0" && !(n == "status" && (errorStatus(c) != 0 || c == "200")) {
				return c
			}
		}
	}
	for _, k := range keys {
		if endsInCode(k) {
			if c := codeAt(d, prefix+k+"#"); c != "" && c != "0" {
				return c
			}
		}
	}
	return ""
}

// classNames are the names of a member that holds an error's class (see
// foundClass).
var classNames = []string{"type", "reason", "kind", "tag", "class"}

// foundClass is the error's class among the members of the object obj at
// prefix, keys their names in order: a "type", "reason", "kind", "tag" or
// "class" written as codes are ("IpAddressAlreadyAllocated",
// "ENTITY_NOT_FOUND", a namespaced "acme.billing/card-declined" or
// "Client::NotFound"), not as a word ("vm", "User"). It is the code when nothing else gives one, the
// header's code field included. An object that names the field at fault
// is a field's error, whose type is the rule the field broke
// ("value_error.missing"), not the error's code.
func (d *doc) foundClass(prefix string, keys []string, obj map[string]json.RawMessage) string {
	if fieldIn(obj) != "" {
		return ""
	}
	for _, n := range classNames {
		if k := named(keys, n); k != "" {
			if c, _ := stringOf(d.value(prefix + k)); (isCodeWord(c, true) || namespacedCode(c)) && !placeholder(c) && !opensWithStatus(c, d.status) {
				return c
			}
		}
	}
	return ""
}

// endsInMessage reports whether a member's name ends in "message" or
// "msg", in any case style ("developer-message", "status_msg",
// "userMessage"): a message under a name no list holds.
func endsInMessage(k string) bool {
	return hasSuffixFold(k, "message") || hasSuffixFold(k, "msg")
}

// endsInCode reports whether a member's name ends in "code", in any case
// style ("authenticationResultCode"), and is no status's code
// ("statusCode", "httpCode").
func endsInCode(k string) bool {
	if len(k) < 5 || !strings.EqualFold(k[len(k)-4:], "code") {
		return false
	}
	body := strings.TrimRight(k[:len(k)-4], "_- ")
	return !hasSuffixFold(body, "status") && !hasSuffixFold(body, "http")
}

// holdsErrors reports whether the object at path holds an error object
// or a list of errors, "error" or "errors" ({"root": {"errors": [...]}}):
// the object wraps the error, whatever its name.
func (d *doc) holdsErrors(path string) bool {
	for _, m := range []string{"/errors", "/error"} {
		if v := d.value(path + m); len(v) > 0 && (v[0] == '{' || v[0] == '[') {
			return true
		}
	}
	return false
}

// listOfErrors reports whether the list at path opens with an object that
// holds a message.
func (d *doc) listOfErrors(path string) bool {
	el := d.value(path + "/0")
	if len(el) == 0 || el[0] != '{' {
		return false
	}
	for k := range d.decode(path+"/0/", el).obj {
		if messageName(k) {
			return true
		}
	}
	return false
}

// messageName reports whether a member's name is one of the names most
// error objects give their message, in any case style.
func messageName(k string) bool {
	for _, n := range []string{"message", "msg", "errormessage", "description", "detail"} {
		if sameName(k, n) {
			return true
		}
	}
	return false
}

// errorName reports whether a member's name says it holds an error, in
// any case style: "error", "requestError", "serviceException", "fault".
func errorName(k string) bool {
	return containsFold(k, "error") || containsFold(k, "exception") || containsFold(k, "fault")
}

// sameName reports whether the member name k is n once normalized: in
// lower case, with only its letters and digits ("error_code",
// "errorCode", "Error-Code" and "error code" are all "errorcode").
func sameName(k, n string) bool {
	j := 0
	for i := 0; i < len(k); i++ {
		c := k[i]
		switch {
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		default:
			continue
		}
		if j == len(n) || n[j] != c {
			return false
		}
		j++
	}
	return j == len(n)
}

// innerNames are the names of an error object's more specific error, in
// the casings APIs write: the Microsoft REST API guidelines' "innererror"
// (an object "containing more specific information than the current
// object about the error", whose code is "a more specific error code than
// was provided by the containing error"), as Azure's AI services and
// Microsoft Graph send it.
var innerNames = []string{"innererror", "innerError", "InnerError"}

// mentionsInner reports whether body may hold an inner error (see
// innerNames).
func mentionsInner(body []byte) bool {
	return bytes.Contains(body, []byte("nnererror")) || bytes.Contains(body, []byte("nnerError"))
}

// inner replaces e's code and message with those of the innermost error
// of the body's error object ("error", or the top level) that has its own:
// a code written as a word that is not the status again, beside a
// sentence. An inner error that only carries a request's id and date, or
// repeats the status as its code (Graph's {"code": "429"}), says nothing
// more, and the outer error stands. Azure AI Document Intelligence and
// Azure AI Vision nest the cause so ({"code": "InvalidRequest", "innererror":
// {"code": "InvalidContent", "message": "The file is corrupted ..."}}).
func (d *doc) inner(e *Error) {
	if !mentionsInner(d.root) {
		return
	}
	for _, base := range []string{"error/", ""} {
		path := base
		for depth := 0; depth < maxFindDepth; depth++ {
			next := ""
			for _, n := range innerNames {
				if v := d.value(path + n); len(v) > 0 && v[0] == '{' {
					next = path + n + "/"
					break
				}
			}
			if next == "" {
				break
			}
			path = next
			code := codeAt(d, path+"code")
			msg, _ := stringOf(d.value(path + "message"))
			if isWord(code) && code != e.Code && strings.TrimSpace(msg) != "" && !isWord(msg) {
				e.Code, e.Message = code, msg
			}
		}
	}
}

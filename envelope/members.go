package envelope

import (
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
// normalized (see normalName), the more specific first.
var messageNames = []string{"message", "errormessage", "msg", "errormsg", "text", "errortext", "description",
	"errordescription", "statusmessage", "detail", "errordetail", "details", "errordetails", "summary",
	"errorsummary", "title", "reason", "error"}

// codeNames are the names of a member that holds an error's code as a
// string, normalized; any other name that ends in "code" counts too
// ("authenticationResultCode").
var codeNames = []string{"code", "errorcode", "errcode", "errortype", "errorname", "errorkey"}

// numberNames are the names of a member that holds an error's code as a
// number, normalized.
var numberNames = []string{"code", "errorcode", "errcode", "errornum", "errornumber", "errorno", "errno", "errorid",
	"statuscode", "resultcode", "error"}

// maxFindDepth bounds the nesting find descends into.
const maxFindDepth = 3

// find fills e's code and message, where the row's paths left them empty,
// from the members of the error object wherever it sits: the top level;
// then, in turn, each object (or first element of a list of objects) held
// by a member whose name says it holds an error ("requestError",
// "serviceException", "detailedError", "_error", "fault"), and each list
// whose first element is an object with a message ("reasons"). Names are
// read in any case style. A code must be what codeAt takes; a number that
// repeats the status, or 0, is none.
func (d *doc) find(e *Error) {
	d.findIn(e, "", d.root, maxFindDepth)
}

func (d *doc) findIn(e *Error, path string, raw json.RawMessage, depth int) {
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
	names := make(map[string]string, len(obj))
	for k := range obj {
		if strings.IndexByte(k, '/') < 0 {
			names[normalName(k)] = k
		}
	}
	if e.Message == "" {
		for _, n := range messageNames {
			if k, ok := names[n]; ok {
				if m := d.foundMessage(prefix+k, n); m != "" {
					e.Message = m
					break
				}
			}
		}
	}
	if e.Code == "" {
		e.Code = d.foundCode(prefix, names)
	}
	for _, n := range sortedKeys(names) {
		k := names[n]
		v := obj[k]
		if len(v) == 0 || !errorName(n) && !(v[0] == '[' && d.listOfErrors(prefix+k)) {
			continue
		}
		switch v[0] {
		case '{':
			d.findIn(e, prefix+k, v, depth-1)
		case '[':
			if el := d.value(prefix + k + "/0"); len(el) > 0 && el[0] == '{' {
				d.findIn(e, prefix+k+"/0", el, depth-1)
			}
		}
	}
}

// foundMessage is the message at path, whose member's normalized name is
// n: a string ("reason" and "error" only as a sentence), or the first
// string of a list of strings ("errorDetails": ["Access was denied."]).
func (d *doc) foundMessage(path, n string) string {
	raw := d.value(path)
	if len(raw) == 0 {
		return ""
	}
	var s string
	switch raw[0] {
	case '"':
		s, _ = stringOf(raw)
		if (n == "reason" || n == "error") && isWord(s) {
			return ""
		}
	case '[':
		if !listOfStrings(raw) {
			return ""
		}
		s = firstString(raw)
	}
	return s
}

// foundCode is the code among the members of the object at prefix,
// names mapping their normalized names to the names written: a string
// named as a code is, then a number.
func (d *doc) foundCode(prefix string, names map[string]string) string {
	for _, n := range codeNames {
		if k, ok := names[n]; ok {
			if c := codeAt(d, prefix+k); c != "" {
				return c
			}
		}
	}
	for _, n := range sortedKeys(names) {
		if strings.HasSuffix(n, "code") && !strings.HasSuffix(n, "statuscode") && !strings.HasSuffix(n, "httpcode") {
			if c := codeAt(d, prefix+names[n]); c != "" {
				return c
			}
		}
	}
	for _, n := range numberNames {
		if k, ok := names[n]; ok {
			if c := codeAt(d, prefix+k+"#"); c != "" && c != "0" {
				return c
			}
		}
	}
	return ""
}

// listOfErrors reports whether the list at path opens with an object that
// holds a message.
func (d *doc) listOfErrors(path string) bool {
	el := d.value(path + "/0")
	if len(el) == 0 || el[0] != '{' {
		return false
	}
	for k := range d.decode(path+"/0/", el).obj {
		switch normalName(k) {
		case "message", "msg", "errormessage", "description", "detail":
			return true
		}
	}
	return false
}

// errorName reports whether a normalized name says its member holds an
// error: "error", "requesterror", "serviceexception", "fault".
func errorName(n string) bool {
	return strings.Contains(n, "error") || strings.Contains(n, "exception") || strings.Contains(n, "fault")
}

// sortedKeys is the keys of names in order, so that find reads members
// in the same order every time.
func sortedKeys(names map[string]string) []string {
	keys := make([]string, 0, len(names))
	for n := range names {
		keys = append(keys, n)
	}
	slices.Sort(keys)
	return keys
}

// normalName is name in lower case with only its letters and digits:
// "error_code", "errorCode", "Error-Code" and "error code" are all
// "errorcode".
func normalName(name string) string {
	var b strings.Builder
	b.Grow(len(name))
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			b.WriteByte(c)
		case c >= 'A' && c <= 'Z':
			b.WriteByte(c + 'a' - 'A')
		}
	}
	return b.String()
}

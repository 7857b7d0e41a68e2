package errkind

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/mcperr/mcperr/internal/sdktext"
)

// The texts other MCP implementations write, which Read reads but nothing in
// this module writes.
const (
	// The go-sdk's text for arguments that failed a typed tool's input
	// schema: `validating "arguments": validating root: ...`.
	goValidating = `validating "arguments": `
	// The go-sdk's JSON-RPC -32602 message for a tool it does not have:
	// `unknown tool "<t>"`.
	goUnknownTool = "unknown tool "
	// The go-sdk client's text for a request its HTTP transport refused
	// with a status it retries (429, 500, 502, 503, 504): `calling
	// "tools/call": rejected by transport: sending "tools/call": Too Many
	// Requests`, the status's text last.
	goRejected = "rejected by transport: "

	// mcp-go's text for arguments its input-schema validation refused:
	// "input schema validation failed: /<pointer>: <error>; ...".
	mcpgoValidation = "input schema validation failed: "
	// mcp-go's JSON-RPC -32602 message for a tool it does not have:
	// "tool '<t>' not found: tool not found".
	mcpgoUnknownTool       = "tool '"
	mcpgoUnknownToolSuffix = "' not found"
	// The mcp-go client's text for an HTTP error whose body is not a
	// JSON-RPC response: "request failed with status <status>: <body>".
	mcpgoStatus = "request failed with status "

	// The TypeScript clients' text for an HTTP error: "Error POSTing to
	// endpoint: <body>" (2.x, and 1.x's StreamableHTTPError after its
	// "Streamable HTTP error: "), or "Error POSTing to endpoint (HTTP
	// <status>): <body>" (1.x before).
	tsPosting = "Error POSTing to endpoint"

	// rateLimitedText begins the message of mcperr's own refusal of a
	// client over its limit (adapter.Limit), a JSON-RPC -32000 error (-31000
	// from revision 2026-07-28 on) whose
	// data is the rate_limited kind object: "Rate limited: retry after <n>
	// seconds." A client that drops the data (mcp-go's) keeps the message.
	rateLimitedText = "Rate limited: retry after "
)

// readSDKText reads the validation texts of the TypeScript SDK 2.x, the
// go-sdk and mcp-go, and the 2.x size refusal, as FormInvalidArguments. It
// reports false when text is none of them.
func readSDKText(r *Reading, text string) bool {
	switch {
	case strings.HasPrefix(text, sdktext.InvalidArgumentsPrefix2):
		tool, issues, ok := strings.Cut(text[len(sdktext.InvalidArgumentsPrefix2):], ": ")
		if !ok {
			return false
		}
		r.Tool = tool
		readIssues2(r, issues)
	case strings.HasPrefix(text, sdktext.ArgumentsRefusedPrefix2):
		tool, msg, ok := strings.Cut(text[len(sdktext.ArgumentsRefusedPrefix2):], ": ")
		if !ok {
			return false
		}
		r.Tool = tool
		readRefusal(r, msg)
	case strings.HasPrefix(text, goValidating):
		readGoFault(r, text[len(goValidating):])
	case strings.HasPrefix(text, mcpgoValidation):
		readMCPGoIssues(r, text[len(mcpgoValidation):])
	default:
		return false
	}
	r.Form = FormInvalidArguments
	return true
}

// readRefusal reads what follows "Invalid arguments for tool <t>: ": zod 3's
// issues as a JSON array (the TypeScript SDK before 1.3x), else one
// sentence, such as the size refusal.
func readRefusal(r *Reading, msg string) {
	if strings.HasPrefix(msg, "[") && readZod3(r, msg) {
		return
	}
	r.Issues = []Issue{{Message: msg}}
}

// readZod3 reads zod 3's issues, which the TypeScript SDK before 1.3x sent
// as the JSON array zod's error message is: [{"code":...,"path":["tags",2],
// "message":...,"keys":[...]}, ...]. It reports false when msg is not such
// an array.
func readZod3(r *Reading, msg string) bool {
	var issues []struct {
		Path    []any    `json:"path"`
		Message string   `json:"message"`
		Keys    []string `json:"keys"`
	}
	if json.Unmarshal([]byte(msg), &issues) != nil || len(issues) == 0 {
		return false
	}
	var args argSet
	r.Issues = make([]Issue, 0, len(issues))
	for _, is := range issues {
		var b strings.Builder
		for k, seg := range is.Path {
			switch seg := seg.(type) {
			case string:
				if k > 0 {
					b.WriteByte('.')
				}
				b.WriteString(seg)
			case float64:
				n := strconv.FormatFloat(seg, 'f', -1, 64)
				if k > 0 {
					n = "[" + n + "]"
				}
				b.WriteString(n)
			}
		}
		f := Issue{Message: is.Message, Path: b.String(), Keys: is.Keys}
		r.Issues = append(r.Issues, f)
		args.fault(r, f)
	}
	return true
}

// readIssues2 reads the TypeScript SDK 2.x's issues: one line, the issues
// separated by ", ", each "<path>: <message>" (the path's segments joined by
// ".") or the message alone. An issue starts after a ", " that a path and
// ": " follow, or zod's "Unrecognized key"; a path is written as Issue.Path
// writes it, "tags[2]". The time is linear in len(issues): each candidate
// is checked only up to the next ", " or ": ".
func readIssues2(r *Reading, issues string) {
	var args argSet
	add := func(s string) {
		f := Issue{Message: s}
		if p, msg, ok := strings.Cut(s, ": "); ok && isPath2(p) {
			f.Path, f.Message = dotPath(p), msg
		}
		f.Keys = unrecognized(f.Message)
		r.Issues = append(r.Issues, f)
		args.fault(r, f)
	}
	start, colon := 0, -1
	for i := 0; ; {
		j := strings.Index(issues[i:], ", ")
		if j < 0 {
			break
		}
		j += i
		next := j + len(", ")
		if colon < next {
			colon = strings.Index(issues[next:], ": ")
			if colon < 0 {
				colon = len(issues)
			} else {
				colon += next
			}
		}
		if colon < len(issues) && isPath2(issues[next:colon]) || strings.HasPrefix(issues[next:], "Unrecognized key") {
			add(issues[start:j])
			start = next
		}
		i = next
	}
	add(issues[start:])
}

// isPath2 reports whether s is a path as the TypeScript SDK 2.x writes it:
// segments of letters, digits, '_', '-' and '$' joined by '.'. It stops at
// the first byte that cannot be in one.
func isPath2(s string) bool {
	return isPath(s) && !strings.ContainsAny(s, "[]")
}

// dotPath writes a 2.x path ("tags.2", "filter.window.hours") as
// Issue.Path does: an index after the first segment is "[n]".
func dotPath(p string) string {
	if !strings.Contains(p, ".") {
		return p
	}
	var b strings.Builder
	b.Grow(len(p) + 4)
	for k, seg := range strings.Split(p, ".") {
		switch {
		case k == 0:
			b.WriteString(seg)
		case isIndex(seg):
			b.WriteByte('[')
			b.WriteString(seg)
			b.WriteByte(']')
		default:
			b.WriteByte('.')
			b.WriteString(seg)
		}
	}
	return b.String()
}

func isIndex(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// unrecognized reads the keys of zod 4's `Unrecognized key: "a"` (or
// keys) and zod 3's "Unrecognized key(s) in object: 'a', 'b'".
func unrecognized(msg string) []string {
	if keys, ok := strings.CutPrefix(msg, "Unrecognized key: "); ok {
		return quoted(keys)
	}
	if keys, ok := strings.CutPrefix(msg, "Unrecognized keys: "); ok {
		return quoted(keys)
	}
	if keys, ok := strings.CutPrefix(msg, "Unrecognized key(s) in object: "); ok {
		var ks []string
		names(keys, 0, func(k string) { ks = append(ks, k) })
		return ks
	}
	return nil
}

// readGoFault reads the go-sdk's validation error, one fault: "validating
// root: validating /properties/a: validating /properties/a/properties/b:
// <message>", the last schema location naming the argument; a message
// `required: missing properties: ["x"]` or `unexpected additional
// properties ["x"]` names the keys.
func readGoFault(r *Reading, s string) {
	ptr := ""
	for {
		rest, ok := strings.CutPrefix(s, "validating ")
		if !ok {
			break
		}
		loc, after, ok := strings.Cut(rest, ": ")
		if !ok || loc != "root" && !strings.HasPrefix(loc, "/") {
			break
		}
		if loc != "root" {
			ptr = loc
		}
		s = after
	}
	f := Issue{Message: s, Path: schemaPath(ptr)}
	for _, p := range [...]string{"missing properties: ", "additional properties "} {
		if i := strings.Index(s, p); i >= 0 {
			var keys []string
			if json.Unmarshal([]byte(s[i+len(p):]), &keys) == nil {
				f.Keys = keys
			}
			break
		}
	}
	r.Issues = []Issue{f}
	var args argSet
	args.fault(r, f)
}

// schemaPath turns the go-sdk's schema location ("/properties/filter/
// properties/window") into the argument's path ("filter.window"): the
// names after "properties", JSON Pointer escapes undone.
func schemaPath(ptr string) string {
	var b strings.Builder
	segs := strings.Split(ptr, "/")
	for i := 1; i+1 < len(segs); i++ {
		if segs[i] != "properties" {
			continue
		}
		i++
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(segs[i], "~1", "/"), "~0", "~"))
	}
	return b.String()
}

// readMCPGoIssues reads mcp-go's validation errors: "<pointer>: <error>"
// separated by "; ", the pointer "/filter/hours" or "<root>", the error
// as mcp-go prints its validator's, such as "&{Got:number Want:[string]}" or
// "&{Missing:[query]}" (whose names are the keys).
func readMCPGoIssues(r *Reading, s string) {
	var args argSet
	for part := range strings.SplitSeq(s, "; ") {
		f := Issue{Message: part}
		if ptr, msg, ok := strings.Cut(part, ": "); ok && (ptr == "<root>" || strings.HasPrefix(ptr, "/")) {
			f.Message = msg
			if ptr != "<root>" {
				f.Path = dotPath(strings.ReplaceAll(ptr[1:], "/", "."))
			}
			for _, p := range [...]string{"&{Missing:[", "&{Properties:["} {
				if list, ok := strings.CutPrefix(msg, p); ok {
					if list, _, ok := strings.Cut(list, "]"); ok && list != "" {
						f.Keys = strings.Fields(list)
					}
				}
			}
		}
		r.Issues = append(r.Issues, f)
		args.fault(r, f)
	}
}

// readUnknownTool reads the tool from the go-sdk's and mcp-go's JSON-RPC
// messages for a tool the server does not have.
func readUnknownTool(r *Reading, msg string) bool {
	if q, ok := strings.CutPrefix(msg, goUnknownTool); ok {
		if tool, err := strconv.Unquote(q); err == nil {
			r.Tool = tool
			return true
		}
	}
	if rest, ok := strings.CutPrefix(msg, mcpgoUnknownTool); ok {
		if tool, _, ok := strings.Cut(rest, mcpgoUnknownToolSuffix); ok {
			r.Tool = tool
			return true
		}
	}
	return false
}

// readTransport reads a client's text for a request its HTTP transport
// refused, as FormTransport: the status, and the JSON-RPC error in the body
// when there is one. It reports false when text is none of them.
func (t *Taxonomy) readTransport(r *Reading, text string) bool {
	st, body := 0, ""
	switch {
	case strings.HasPrefix(strings.TrimPrefix(text, "Streamable HTTP error: "), tsPosting):
		rest := strings.TrimPrefix(text, "Streamable HTTP error: ")[len(tsPosting):]
		if s, ok := strings.CutPrefix(rest, " (HTTP "); ok && len(s) > 3 && s[3] == ')' {
			st = httpStatus(s[:3])
			rest = s[4:]
		}
		b, ok := strings.CutPrefix(rest, ": ")
		if !ok {
			return false
		}
		body = b
	case strings.Contains(text, mcpgoStatus):
		rest := text[strings.Index(text, mcpgoStatus)+len(mcpgoStatus):]
		if len(rest) < 3 {
			return false
		}
		if st = httpStatus(rest[:3]); st == 0 {
			return false
		}
		body, _ = strings.CutPrefix(rest[3:], ": ")
	case strings.Contains(text, goRejected):
		i := strings.LastIndex(text, ": ")
		if st = statusOfText(text[i+2:]); st == 0 {
			return false
		}
	default:
		return false
	}
	if code, msg, data, ok := rpcBody(body); ok {
		*r = t.readRPC(Outcome{RPCCode: code, Message: msg, Data: data})
		r.Form = FormTransport
		return true
	}
	r.Form, r.Message = FormTransport, body
	if st == 0 {
		r.Move = Report
		return true
	}
	k, _ := t.classify("", st, "")
	r.Kind, r.Move = k, t.Advise(k).Move
	return true
}

// rpcBody reads a JSON-RPC error response: its error's code, message and
// data.
func rpcBody(body string) (code RPCCode, msg string, data json.RawMessage, ok bool) {
	body = strings.TrimSpace(body)
	if !strings.HasPrefix(body, "{") || !json.Valid([]byte(body)) {
		return 0, "", nil, false
	}
	var e string
	members(body, func(k, v string) {
		if k == "error" {
			e = v
		}
	})
	if !strings.HasPrefix(e, "{") {
		return 0, "", nil, false
	}
	var c string
	members(e, func(k, v string) {
		switch k {
		case "code":
			c = v
		case "message":
			msg, _ = str(v)
		case "data":
			data = json.RawMessage(v)
		}
	})
	n, isNum := num(c)
	if !isNum || n < -1<<31 || n >= 1<<31 {
		return 0, "", nil, false
	}
	return RPCCode(n), msg, data, true
}

// httpStatus reads three digits as an HTTP status; 0 for anything else.
func httpStatus(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 100 || n > 599 {
		return 0
	}
	return n
}

// statusOfText is the status whose text (http.StatusText) the go-sdk
// client ends its "rejected by transport" text with; 0 for any other text.
func statusOfText(s string) int {
	for _, st := range [...]int{http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout} {
		if s == http.StatusText(st) {
			return st
		}
	}
	return 0
}

// argSet collects the arguments at fault into r.Args, in order, without
// repeats. It switches to a set once there are more than a few, so the time
// stays linear in the number of faults; size, when known, is how many
// faults there are.
type argSet struct {
	seen map[string]bool
	size int
}

func (s *argSet) add(r *Reading, a string) {
	if a == "" {
		return
	}
	if s.seen == nil {
		for _, x := range r.Args {
			if x == a {
				return
			}
		}
		r.Args = append(r.Args, a)
		if len(r.Args) > 8 {
			s.seen = make(map[string]bool, max(s.size, 2*len(r.Args)))
			for _, x := range r.Args {
				s.seen[x] = true
			}
		}
		return
	}
	if !s.seen[a] {
		s.seen[a] = true
		r.Args = append(r.Args, a)
	}
}

// fault adds the arguments a fault names: its path, or its keys under its
// path (a missing, an undeclared or an unrecognized property is named by
// its own path, "filter.lang", in every SDK's text).
func (s *argSet) fault(r *Reading, f Issue) {
	if len(f.Keys) == 0 {
		s.add(r, f.Path)
		return
	}
	for _, k := range f.Keys {
		if k == "" {
			continue
		}
		if f.Path != "" {
			k = f.Path + "." + k
		}
		s.add(r, k)
	}
}

package main

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/schemaerr"
)

// The two groups of checks the score weighs.
const (
	groupArguments = "arguments" // a tool called with arguments its schema forbids
	groupProtocol  = "protocol"  // the unknown tool, the unknown method, the transport's probes
	groupFaults    = "faults"    // a tool called while every upstream request fails (-faults)
)

// check is the grade of one answer.
type check struct {
	Tool       string `json:"tool"`  // "" for a protocol probe
	Probe      string `json:"probe"` // "wrong type: limit", "line not JSON"
	Answer     string `json:"answer"`
	Kind       string `json:"kind"` // what errkind.Read read from the answer
	Move       string `json:"move"`
	NamesField bool   `json:"namesField"`
	OK         bool   `json:"ok"`
	Why        string `json:"why"` // one line
	Points     int    `json:"points"`

	Verdict   string          `json:"verdict,omitempty"`   // of an argument check: refused, refused_in_result, accepted, accepted_then_failed, control_refused, malformed_result
	Field     string          `json:"field,omitempty"`     // the argument (or tool) at fault
	KnownText bool            `json:"knownText"`           // the TypeScript SDK's text, byte for byte
	Expected  string          `json:"expected,omitempty"`  // that text
	Arguments json.RawMessage `json:"arguments,omitempty"` // the arguments sent, as sent
	Text      string          `json:"text,omitempty"`      // what the server answered: the text, whole (up to maxText bytes)
	Cut       bool            `json:"textCut,omitempty"`   // the text was longer than maxText and is cut there
	Raw       string          `json:"raw,omitempty"`       // the server's own bytes of the answer (up to maxRaw)
	Code      int             `json:"code,omitempty"`      // the JSON-RPC error code of the answer
	Status    int             `json:"status,omitempty"`    // the HTTP status of an HTTP probe
	Revision  string          `json:"revision,omitempty"`  // the protocol revision a probe ran under, when not the session's

	group string
}

// report is the audit's result.
type report struct {
	Server    string    `json:"server"`
	Version   string    `json:"version"`
	Transport string    `json:"transport"`
	Protocol  string    `json:"protocol"`
	Tools     int       `json:"tools"`
	Grade     string    `json:"grade"`
	Score     int       `json:"score"`
	Arguments int       `json:"argumentsScore"` // the mean of the argument checks' points, -1 without any
	Protocols int       `json:"protocolScore"`  // the mean of the protocol checks' points
	Findings  []string  `json:"findings"`       // what went wrong, counted
	Checks    []check   `json:"checks"`
	Controls  []control `json:"controls,omitempty"` // each tool's call with valid arguments
	Skipped   []string  `json:"skipped,omitempty"`  // tools not audited, and why
	Limits    []string  `json:"limits,omitempty"`   // the bounds the audit met (pages, tools, body sizes)
	Revisions []string  `json:"revisions"`          // the protocol revisions the server accepted
	Seconds   float64   `json:"seconds"`
}

// maxText bounds the text a check keeps.
const maxText = 1 << 20

func (r *report) add(c check) {
	c.Why = oneLine(c.Why, 240)
	if len(c.Text) > maxText {
		c.Text, c.Cut = cut(c.Text, maxText), true
	}
	if len(c.Raw) > maxRaw {
		c.Raw = cut(c.Raw, maxRaw)
	}
	r.Checks = append(r.Checks, c)
}

// cut shortens s to at most n bytes, on a UTF-8 boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// grade computes the score and the letter: the mean points of the argument
// checks weigh 60%, those of the protocol checks 40% (all of it when a group
// has no check); A from 90, B from 80, C from 70, D from 60, F below.
func (r *report) grade() {
	mean := func(group string) (int, bool) {
		sum, n := 0, 0
		for _, c := range r.Checks {
			if c.group == group || group == groupProtocol && c.group == groupFaults {
				sum += c.Points
				n++
			}
		}
		if n == 0 {
			return -1, false
		}
		return int(math.Round(float64(sum) / float64(n))), true
	}
	args, hasArgs := mean(groupArguments)
	proto, hasProto := mean(groupProtocol)
	r.Arguments, r.Protocols = args, proto
	switch {
	case hasArgs && hasProto:
		r.Score = int(math.Round(0.6*float64(args) + 0.4*float64(proto)))
	case hasArgs:
		r.Score = args
	case hasProto:
		r.Score = proto
	}
	r.Grade = letter(r.Score)

	count := func(f func(c check) bool) int {
		n := 0
		for _, c := range r.Checks {
			if f(c) {
				n++
			}
		}
		return n
	}
	r.Findings = []string{}
	finding := func(n int, format string) {
		if n > 0 {
			r.Findings = append(r.Findings, fmt.Sprintf(format, n))
		}
	}
	r.Findings = append(r.Findings, r.Limits...)
	finding(count(func(c check) bool { return c.Answer == answerSessionEnded }), "the session ended %d time(s)")
	finding(count(func(c check) bool { return c.Verdict == verdictAccepted }),
		"%d call(s) with arguments the schema forbids succeeded: the server may act on invalid arguments")
	finding(count(func(c check) bool { return c.Verdict == verdictFailed }),
		"%d call(s) with arguments the schema forbids were accepted, then failed (upstream or in the handler): the server acts on arguments its schema forbids")
	finding(count(func(c check) bool { return c.Verdict == verdictInResult }),
		"%d refusal(s) of arguments came in a result without isError: the model does not see them as errors")
	finding(count(func(c check) bool { return c.Verdict == verdictMalformed }),
		"%d answer(s) are not a valid CallToolResult (no content array): a client may drop them")
	finding(count(func(c check) bool { return c.Verdict == verdictControl }),
		"%d refusal(s) are the same as the control call's, whose arguments the schema allows: the server refuses what its schema allows")
	for _, ctl := range r.Controls {
		if ctl.Kind == string(errkind.InvalidArguments) {
			r.Findings = append(r.Findings, fmt.Sprintf("%s answered invalid_arguments to arguments its schema allows (the control call %s): the schema does not say all the server checks", ctl.Tool, ctl.Arguments))
		}
	}
	finding(count(func(c check) bool {
		return c.group == groupArguments && c.Verdict == verdictRefused && c.Answer == answerRPCError
	}), "%d refusal(s) of arguments came as a JSON-RPC error, which many clients keep from the model")
	finding(count(func(c check) bool {
		return c.group == groupArguments && (c.Verdict == verdictRefused || c.Verdict == verdictInResult) && !c.NamesField
	}), "%d refusal(s) of arguments name no field")
	finding(count(func(c check) bool {
		return c.group == groupArguments && c.Verdict == verdictRefused && c.Answer == answerToolError && c.NamesField && !c.KnownText
	}), "%d refusal(s) of arguments are not the text agents know")
	finding(count(func(c check) bool { return c.Answer == answerNone }), "%d probe(s) got no answer")
	finding(count(func(c check) bool {
		return c.group == groupProtocol && !c.OK && c.Answer != answerSessionEnded && c.Answer != answerNone
	}),
		"%d protocol probe(s) answered in a way an agent or client cannot use")
	finding(count(func(c check) bool { return c.group == groupFaults && !c.OK }),
		"%d call(s) under upstream faults answered in a way an agent cannot use")
	r.Findings = append(r.Findings, codeFindings(r.Protocol, r.Checks)...)
}

// letter is the grade of a score.
func letter(score int) string {
	switch {
	case score >= 90:
		return "A"
	case score >= 80:
		return "B"
	case score >= 70:
		return "C"
	case score >= 60:
		return "D"
	}
	return "F"
}

// grades are the letters, best first.
var grades = []string{"A", "B", "C", "D", "F"}

// below reports whether grade g is lower than min.
func below(g, min string) bool {
	return slices.Index(grades, g) > slices.Index(grades, min)
}

// Points of a refusal of arguments.
const (
	pointsReached = 40 // an isError tool result: it reaches the model
	pointsField   = 25 // it names the argument at fault
	pointsKind    = 20 // errkind.Read reads invalid_arguments / fix_argument from it
	pointsText    = 15 // it is the TypeScript SDK's text, which agents know
)

// The verdicts of an argument check.
const (
	verdictRefused   = "refused"              // refused, in a way only the forbidden argument explains
	verdictInResult  = "refused_in_result"    // refused inside a result without isError
	verdictAccepted  = "accepted"             // a result: the server took the arguments
	verdictFailed    = "accepted_then_failed" // taken, then failed upstream or in the handler
	verdictControl   = "control_refused"      // refused as the control call, with valid arguments, was
	verdictMalformed = "malformed_result"     // an answer that is not a valid CallToolResult
)

// gradeArgument grades the answer to arguments the schema forbids, against
// the control call's answer to the valid base (ctl; nil when there was
// none) and the server's own bytes (raw; nil when not kept).
//
// A refusal is an answer the control did not get, that only the forbidden
// argument explains: errkind reads invalid_arguments or arguments at fault
// from it, or an error the control did not get that reads as no upstream or
// handler failure. An answer that reads as one (a kind other than
// invalid_arguments, such as network_error, unavailable or server_error; a
// network, HTTP or crash text; the control's own failure) was accepted, then
// failed: no argument points.
func gradeArgument(c *check, answer string, o errkind.Outcome, ctl *control, raw []byte) {
	c.Answer = answer
	if raw != nil {
		c.Raw = string(raw)
	}
	if o.RPCCode != 0 {
		c.Code = int(o.RPCCode)
	}
	switch answer {
	case answerSessionEnded:
		c.Why = "the session ended: the server exited or stopped answering on arguments its schema forbids"
		return
	case answerNone:
		c.Why = "no answer the client could read (" + oneLine(c.Text, 120) + "): the agent learns nothing"
		return
	}
	c.Text = answerText(o)
	if answer == answerSuccess {
		if malformed(raw) {
			c.Verdict = verdictMalformed
			c.Why = "the result is not a valid CallToolResult (no content array): a client may drop it, and the server took the arguments"
			return
		}
		r := errkind.Read(errkind.Outcome{IsError: true, Text: o.Text})
		if !inResultError(o.Text, r) {
			c.Verdict = verdictAccepted
			c.Why = "accepted arguments its own schema forbids: the server may act on invalid arguments"
			return
		}
		if why, failed := failure(o.Text, r, ctl); failed {
			c.Verdict = verdictFailed
			c.Kind, c.Move = string(r.Kind), string(r.Move)
			c.Why = "accepted, then failed in a result without isError (" + why + "): the server acts on arguments its schema forbids"
			return
		}
		if ctl != nil && ctl.Answer == answerSuccess && strings.TrimSpace(ctl.Text) == strings.TrimSpace(o.Text) {
			c.Verdict = verdictAccepted
			c.Why = "the control's own result: the server took arguments its own schema forbids"
			return
		}
		c.Verdict = verdictInResult
		c.Kind, c.Move = string(r.Kind), string(r.Move)
		c.NamesField = namesField(c.Field, r, o.Text)
		kindOK := r.Kind == errkind.InvalidArguments && r.Move == errkind.FixArgument
		if c.NamesField {
			c.Points += pointsField
		}
		if kindOK {
			c.Points += pointsKind
		}
		c.Why = "a refusal inside a result without isError: it does not reach the model as an error"
		if !c.NamesField {
			c.Why += "; names no field (" + c.Field + ")"
		}
		return
	}
	r := errkind.Read(o)
	c.Kind, c.Move = string(r.Kind), string(r.Move)
	if ctl != nil && ctl.failed() && sameFailure(ctl, o, r) && (r.Kind == errkind.InvalidArguments || len(r.Args) > 0) {
		c.Verdict = verdictControl
		c.Why = "the same refusal as the control call's, whose arguments the schema allows: not explained by the forbidden argument"
		return
	}
	if r.Kind != errkind.InvalidArguments && len(r.Args) == 0 {
		if why, failed := failure(answerText(o), r, ctl); failed {
			c.Verdict = verdictFailed
			c.Why = "accepted, then failed (" + why + "): the server acts on arguments its schema forbids"
			return
		}
	}
	c.Verdict = verdictRefused
	c.NamesField = namesField(c.Field, r, answerText(o))
	c.KnownText = answer == answerToolError && strings.TrimSpace(o.Text) == c.Expected
	kindOK := r.Kind == errkind.InvalidArguments && r.Move == errkind.FixArgument
	var why []string
	if answer == answerToolError {
		c.Points += pointsReached
	} else {
		why = append(why, fmt.Sprintf("a JSON-RPC error (%d), not an isError result: many clients keep it from the model", o.RPCCode))
	}
	if c.NamesField {
		c.Points += pointsField
	} else {
		why = append(why, "names no field ("+c.Field+")")
	}
	if kindOK {
		c.Points += pointsKind
	} else if r.Kind == "" {
		why = append(why, "errkind reads no kind from it")
	} else {
		why = append(why, fmt.Sprintf("errkind reads %s/%s, not invalid_arguments/fix_argument", r.Kind, r.Move))
	}
	if c.KnownText {
		c.Points += pointsText
	} else if answer == answerToolError {
		why = append(why, "not the TypeScript SDK's text agents know")
	}
	c.OK = answer == answerToolError && c.NamesField && kindOK
	switch {
	case len(why) == 0:
		c.Why = "isError result in the TypeScript SDK's text, naming " + c.Field + ": the model fixes the argument"
	case c.OK:
		c.Why = "isError result naming " + c.Field + ", read as fix_argument; " + strings.Join(why, "; ")
	default:
		c.Why = strings.Join(why, "; ")
	}
}

// malformed reports whether the server's bytes of an answer are a result
// that is not a CallToolResult: no content array.
func malformed(raw []byte) bool {
	if raw == nil {
		return false
	}
	var m struct {
		Result *struct {
			Content json.RawMessage `json:"content"`
		} `json:"result"`
	}
	if json.Unmarshal(raw, &m) != nil || m.Result == nil {
		return false
	}
	return len(m.Result.Content) == 0 || m.Result.Content[0] != '['
}

// inResultError reports whether a result without isError carries an
// error: errkind reads invalid_arguments or arguments at fault from its
// text, or the text is an error object ({"error": ...}) or opens with
// "Error" or "Invalid".
func inResultError(text string, r errkind.Reading) bool {
	if r.Kind == errkind.InvalidArguments || len(r.Args) > 0 {
		return true
	}
	t := strings.TrimSpace(text)
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(t), &obj) == nil {
		_, e1 := obj["error"]
		_, e2 := obj["errors"]
		return e1 || e2
	}
	low := strings.ToLower(t)
	return strings.HasPrefix(low, "error") || strings.HasPrefix(low, "invalid ")
}

// upstreamText matches the texts of failures past validation: a network
// failure as Node, Go or Python name it, an HTTP status an upstream
// answered, a crash of the handler, a file or command the handler needed.
var upstreamText = regexp.MustCompile(`(?i)\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNRESET|ENETUNREACH|EHOSTUNREACH|EPIPE|fetch failed|getaddrinfo|socket hang up|network ?error|connection refused|connection reset|no such host|dial tcp|i/o timeout|timed? ?out|proxy|certificate|TLS handshake|rate limit(ed)?|too many requests|quota)\b` +
	`|\b(status( code)?|HTTP|response)[: ]+(4[0-9][0-9]|5[0-9][0-9])\b|\b(401|403|404|429|500|502|503|504) (Unauthorized|Forbidden|Not Found|Too Many Requests|Internal Server Error|Bad Gateway|Service Unavailable|Gateway Timeout)\b` +
	`|\b(TypeError|ReferenceError|RangeError|SyntaxError|Traceback|NullPointerException|nil pointer|panic:|Cannot read properties|is not a function|is not defined|undefined is not|ENOENT|EACCES|spawn \S+|command not found|kubectl|browser)\b`)

// refusalText matches the words of a refusal of arguments.
var refusalText = regexp.MustCompile(`(?i)missing required|required (argument|parameter|field|property|properties)|(argument|parameter|field|property)s? (is|are) required|is required\b|invalid (argument|parameter|input|value|type|arguments|params)|must be (a|an|one of|at least|at most|between|greater|less|non-empty|provided|specified)|expected [a-z]+,? (but )?(received|got)|not allowed|unrecognized key|unknown (argument|parameter|property|field|key)`)

// failure reports whether an error answer reads as a failure past
// validation, and why: a kind other than invalid_arguments, a text of a
// network, HTTP or handler failure, or the control's own failure.
func failure(text string, r errkind.Reading, ctl *control) (string, bool) {
	if r.Code == "" && refusalText.MatchString(text) && !(ctl != nil && ctl.failed() && mask(ctl.Text) == mask(text)) {
		return "", false // a refusal in words, whatever kind a codeless object reads as
	}
	switch {
	case r.Kind != "" && r.Kind != errkind.InvalidArguments:
		return "reads as " + string(r.Kind), true
	case ctl != nil && (ctl.failed() || inResultError(ctl.Text, errkind.Reading{})) && sameFailure(ctl, errkind.Outcome{IsError: true, Text: text}, r):
		return "the control call, with valid arguments, fails the same way", true
	}
	if m := upstreamText.FindString(text); m != "" {
		return "the text reads as an upstream or handler failure: " + m, true
	}
	return "", false
}

// sameFailure reports whether an answer is the control's failure: the same
// text once the numbers and the values sent are masked, or the same
// arguments at fault.
func sameFailure(ctl *control, o errkind.Outcome, r errkind.Reading) bool {
	if len(r.Args) > 0 && len(ctl.reading.Args) > 0 {
		return slices.Equal(r.Args, ctl.reading.Args)
	}
	a, b := mask(ctl.Text), mask(answerText(o))
	if a == b {
		return true
	}
	// The same opening, where a text echoes the values sent (an URL, a query).
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n >= 48 && n*2 >= max(len(a), len(b))
}

var (
	quoted = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|'[^']*'`)
	digits = regexp.MustCompile(`[0-9]+`)
)

// mask blanks what differs between two failures of the same cause: quoted
// values and numbers; and makes it one line.
func mask(s string) string {
	s = quoted.ReplaceAllString(s, `""`)
	s = digits.ReplaceAllString(s, "0")
	return strings.Join(strings.Fields(s), " ")
}

// gradeUnknownTool grades the answer to a call of a tool the server does
// not have: an error (a tool result or JSON-RPC) naming the tool, with a kind
// and move.
func gradeUnknownTool(c *check, answer string, o errkind.Outcome) {
	c.Answer = answer
	switch answer {
	case answerSessionEnded:
		c.Why = "the session ended on a call of a tool the server does not have"
		return
	case answerNone:
		c.Why = "no answer within the timeout"
		return
	case answerSuccess:
		c.Why = "a tool the server does not have answered as a success"
		c.Text = o.Text
		return
	}
	r := errkind.Read(o)
	c.Text = o.Text
	if answer == answerRPCError {
		c.Text = strings.TrimSpace(fmt.Sprintf("%d %s %s", o.RPCCode, o.Message, o.Data))
	}
	c.Kind, c.Move = string(r.Kind), string(r.Move)
	c.NamesField = r.Tool == noSuchTool || strings.Contains(c.Text, noSuchTool)
	c.KnownText = strings.TrimSpace(o.Text) == schemaerr.TypeScript.RefuseTool(noSuchTool, nil).Text
	readable := r.Kind != "" && r.Move != "" && r.Move != errkind.Report
	switch {
	case c.NamesField && readable:
		c.OK, c.Points = true, 100
		c.Why = fmt.Sprintf("an error naming the tool, read as %s/%s", r.Kind, r.Move)
	case c.NamesField:
		c.Points = 50
		c.Why = "names the tool, but errkind reads no move but report from it"
	default:
		c.Points = 50
		c.Why = "an error that does not name the tool"
	}
}

// gradeLine grades the answer to a raw stdio line: the session must survive,
// and the line be answered (a refusal with its id, or with a null id when
// the id could not be read; for a ping, the ping's answer).
func gradeLine(c *check, p stdioProbe, got *rpcAnswer, survived bool) {
	switch {
	case !survived:
		c.Answer = answerSessionEnded
		c.Why = "the session ended: one bad line cost the agent every tool"
		return
	case got == nil:
		c.Answer = answerNone
		c.Points = 50
		c.Why = "the session survived, but the line got no answer: a client waits out its timeout"
		return
	}
	c.Text = string(got.raw)
	if got.Error != nil {
		c.Answer = answerRPCError
		c.Code = got.Error.Code
	} else {
		c.Answer = answerSuccess
	}
	nullID := len(got.ID) == 0 || string(got.ID) == "null"
	idOK := p.id != "" && sameID(got.ID, p.id) || nullID && got.Error != nil
	if p.name == "unknown method" {
		if got.Error != nil && got.Error.Code == int(errkind.MethodNotFound) && idOK {
			c.OK, c.Points = true, 100
			c.Why = "JSON-RPC -32601 method not found, and the session survived"
		} else {
			c.Points = 50
			c.Why = "the session survived, but the answer is not -32601 method not found with the request's id"
		}
		return
	}
	switch {
	case !idOK:
		c.Points = 50
		c.Why = fmt.Sprintf("the session survived, but the answer's id %s is not the request's: the client cannot match it", got.ID)
	case got.Error != nil:
		c.OK, c.Points = true, 100
		c.Why = fmt.Sprintf("refused with JSON-RPC %d, and the session survived", got.Error.Code)
	default:
		c.OK, c.Points = true, 100
		c.Why = "answered with the request's id, and the session survived"
	}
}

// namesField reports whether an answer names the argument at fault as the
// fault: errkind read it among the arguments at fault (Reading.Args, which
// holds the field in the position an SDK's validation text gives it), or the
// text gives it in a validation text's position errkind does not read
// (positionArgs). A word elsewhere in the text (an echo, a URL, a command
// line) does not count.
func namesField(field string, r errkind.Reading, text string) bool {
	if field == "" {
		return false
	}
	want := normPath(field)
	leaf := want
	if i := strings.LastIndex(leaf, "."); i >= 0 {
		leaf = leaf[i+1:]
	}
	for _, a := range append(slices.Clone(r.Args), positionArgs(text)...) {
		a = normPath(a)
		if a == want || a == leaf && !strings.Contains(a, ".") || strings.HasSuffix(want, "."+a) {
			return true
		}
	}
	return false
}

// zodIssue is an issue of zod's own error text: a JSON array of issues,
// each with its path (what a server that calls schema.parse itself answers,
// "Invalid input: [{...,"path":["owner"],...}]").
type zodIssue struct {
	Path []any  `json:"path"`
	Code string `json:"code"`
}

// fieldFirst is a field named where a validation text puts it: first in a
// clause, before a colon and the words of a refusal ("title: Required",
// "description: Expected string, received number").
var fieldFirst = regexp.MustCompile(`(?:^|: |; |, |\n)([A-Za-z_$][\w$]*(?:(?:\.|\[)[\w$]+\]?)*): (?:Required|Expected |Invalid |Too (?:small|big|short|long)|String must|Number must|Array must|must |should |is required|is not allowed|Unrecognized)`)

// positionArgs returns the fields a validation text names in the position
// its format gives them, where errkind reads none: the paths of zod's
// issues, and a field first in a clause of a refusal.
func positionArgs(text string) []string {
	var out []string
	if i := strings.Index(text, "[{"); i >= 0 {
		if j := strings.LastIndex(text, "}]"); j > i {
			var issues []zodIssue
			if json.Unmarshal([]byte(text[i:j+2]), &issues) == nil {
				for _, is := range issues {
					if is.Code == "" || len(is.Path) == 0 {
						continue
					}
					parts := make([]string, len(is.Path))
					for k, p := range is.Path {
						parts[k] = fmt.Sprint(p)
					}
					out = append(out, strings.Join(parts, "."))
				}
			}
		}
	}
	for _, m := range fieldFirst.FindAllStringSubmatch(text, 8) {
		out = append(out, m[1])
	}
	if m := missingList.FindStringSubmatch(text); m != nil {
		for _, f := range listSep.Split(m[1], 16) {
			if f = strings.Trim(f, " .;`'\"{}()[]"); f != "" {
				out = append(out, f)
			}
		}
	}
	return out
}

// missingList is a refusal that lists the arguments it misses, and
// listSep the separators of that list: "Missing required arguments:
// channel_id and text".
var (
	missingList = regexp.MustCompile(`(?i)missing required (?:arguments?|parameters?|fields?|properties|property)\s*:?\s*((?:[\w.$\[\]` + "`" + `'"]+(?:,\s*|,?\s+and\s+|\s*$|\s*[.;)}]))+)`)
	listSep     = regexp.MustCompile(`,\s*(?:and\s+)?|\s+and\s+`)
)

// normPath writes a path one way: "a.b.0.c" for a.b[0].c, /a/b/0/c and
// $.a.b[0].c.
func normPath(p string) string {
	p = strings.TrimPrefix(strings.TrimPrefix(p, "$"), "/")
	p = strings.NewReplacer("/", ".", "[", ".", "]", "").Replace(p)
	return strings.Trim(p, ".")
}

// oneLine makes s one line of at most n bytes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		cut := n
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

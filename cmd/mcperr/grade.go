package main

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/schemaerr"
)

// The two groups of checks the score weighs.
const (
	groupArguments = "arguments" // a tool called with arguments its schema forbids
	groupProtocol  = "protocol"  // the unknown tool, the unknown method, the transport's probes
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

	Field     string `json:"field,omitempty"`    // the argument (or tool) at fault
	KnownText bool   `json:"knownText"`          // the TypeScript SDK's text, byte for byte
	Expected  string `json:"expected,omitempty"` // that text
	Text      string `json:"text,omitempty"`     // what the server answered, shortened
	Status    int    `json:"status,omitempty"`   // the HTTP status of an HTTP probe

	group string
}

// report is the audit's result.
type report struct {
	Server    string   `json:"server"`
	Version   string   `json:"version"`
	Transport string   `json:"transport"`
	Protocol  string   `json:"protocol"`
	Tools     int      `json:"tools"`
	Grade     string   `json:"grade"`
	Score     int      `json:"score"`
	Arguments int      `json:"argumentsScore"` // the mean of the argument checks' points, -1 without any
	Protocols int      `json:"protocolScore"`  // the mean of the protocol checks' points
	Findings  []string `json:"findings"`       // what went wrong, counted
	Checks    []check  `json:"checks"`
	Skipped   []string `json:"skipped,omitempty"` // tools not audited, and why
	Seconds   float64  `json:"seconds"`
}

func (r *report) add(c check) {
	c.Why = oneLine(c.Why, 240)
	c.Text = oneLine(c.Text, 240)
	r.Checks = append(r.Checks, c)
}

// grade computes the score and the letter: the mean points of the argument
// checks weigh 60%, those of the protocol checks 40% (all of it when a group
// has no check); A from 90, B from 80, C from 70, D from 60, F below.
func (r *report) grade() {
	mean := func(group string) (int, bool) {
		sum, n := 0, 0
		for _, c := range r.Checks {
			if c.group == group {
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
	finding(count(func(c check) bool { return c.Answer == answerSessionEnded }), "the session ended %d time(s)")
	finding(count(func(c check) bool { return c.group == groupArguments && c.Answer == answerSuccess }),
		"%d call(s) with arguments the schema forbids succeeded: the server may act on invalid arguments")
	finding(count(func(c check) bool { return c.group == groupArguments && c.Answer == answerRPCError }),
		"%d refusal(s) of arguments came as a JSON-RPC error, which many clients keep from the model")
	finding(count(func(c check) bool {
		return c.group == groupArguments && (c.Answer == answerToolError || c.Answer == answerRPCError) && !c.NamesField
	}), "%d refusal(s) of arguments name no field")
	finding(count(func(c check) bool {
		return c.group == groupArguments && c.Answer == answerToolError && c.NamesField && !c.KnownText
	}), "%d refusal(s) of arguments are not the text agents know")
	finding(count(func(c check) bool { return c.Answer == answerNone }), "%d probe(s) got no answer")
	finding(count(func(c check) bool {
		return c.group == groupProtocol && !c.OK && c.Answer != answerSessionEnded && c.Answer != answerNone
	}),
		"%d protocol probe(s) answered in a way an agent or client cannot use")
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

// gradeArgument grades the answer to arguments the schema forbids.
func gradeArgument(c *check, answer string, o errkind.Outcome) {
	c.Answer = answer
	switch answer {
	case answerSessionEnded:
		c.Why = "the session ended: the server exited or stopped answering on arguments its schema forbids"
		return
	case answerNone:
		c.Why = "no answer the client could read (" + oneLine(c.Text, 120) + "): the agent learns nothing"
		return
	case answerSuccess:
		c.Why = "accepted arguments its own schema forbids: the server may act on invalid arguments"
		c.Text = o.Text
		return
	}
	r := errkind.Read(o)
	if answer == answerRPCError {
		// errkind.Outcome with a zero code reads as a result; an error it is.
		c.Text = strings.TrimSpace(fmt.Sprintf("%d %s %s", o.RPCCode, o.Message, o.Data))
	} else {
		c.Text = o.Text
	}
	c.Kind, c.Move = string(r.Kind), string(r.Move)
	c.NamesField = namesField(c.Field, c.Text, r)
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
	c.KnownText = strings.TrimSpace(o.Text) == schemaerr.UnknownTool(noSuchTool)
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
	c.Text = oneLine(string(mustJSON(got)), 240)
	if got.Error != nil {
		c.Answer = answerRPCError
		r := errkind.Read(got.outcome())
		c.Kind, c.Move = string(r.Kind), string(r.Move)
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

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// namesField reports whether an answer names the argument at fault: errkind
// read it among the arguments at fault, or its name appears as a word.
func namesField(field, text string, r errkind.Reading) bool {
	if field == "" {
		return false
	}
	if slices.Contains(r.Args, field) {
		return true
	}
	leaf := field
	for strings.HasSuffix(leaf, "]") && strings.LastIndex(leaf, "[") > 0 {
		leaf = leaf[:strings.LastIndex(leaf, "[")]
	}
	if i := strings.LastIndex(leaf, "."); i >= 0 {
		leaf = leaf[i+1:]
	}
	for _, a := range r.Args {
		if a == leaf || strings.HasSuffix(a, "."+leaf) {
			return true
		}
	}
	return containsWord(text, leaf)
}

// containsWord reports whether w occurs in s with no letter, digit or _ on
// either side.
func containsWord(s, w string) bool {
	word := func(b byte) bool {
		return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
	}
	for i := 0; w != ""; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(w)
		if (j == 0 || !word(s[j-1])) && (end == len(s) || !word(s[end])) {
			return true
		}
		i = j + 1
	}
	return false
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

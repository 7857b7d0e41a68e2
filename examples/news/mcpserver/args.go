package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/examples/news/newsindex"
	"github.com/mcperr/mcperr/schemaerr"
	"github.com/mcperr/mcperr/wire"
)

// paramKind is the type of a tool argument.
type paramKind int

const (
	kString   paramKind = iota // a non-empty string
	kInteger                   // an integer in [min, max]
	kBoolean                   // true or false
	kSignals                   // an array of published signal names
	kDateTime                  // an RFC 3339 date-time
	kLanguage                  // an ISO 639-1 code
)

// param declares one argument of a tool. The tool's inputSchema and its
// validation both come from the declaration.
type param struct {
	name     string
	kind     paramKind
	required bool
	min, max int64 // integers: the range; strings: the length in characters
	desc     string
}

// args holds a call's validated arguments.
type args struct {
	set        map[string]bool
	query, id  string
	language   string
	signals    []string
	from, to   time.Time
	since      time.Time
	limit      int
	maxCredits int64
	estimate   bool
}

func (a *args) has(name string) bool { return a.set[name] }

// inputSchema returns the JSON Schema of a tool's arguments. The published
// schema lists the signal names as an enum, so a schema-aware host can refuse
// an unknown one before the call leaves the process; the schema the server
// validates with leaves them to its own check, which answers unknown_signal
// rather than a generic invalid_parameter.
func inputSchema(params []param, published bool) json.RawMessage {
	props := map[string]any{}
	var required []string
	for _, p := range params {
		var s map[string]any
		switch p.kind {
		case kString:
			s = map[string]any{"type": "string", "minLength": p.min, "maxLength": p.max}
		case kInteger:
			s = map[string]any{"type": "integer", "minimum": p.min, "maximum": p.max}
		case kBoolean:
			s = map[string]any{"type": "boolean"}
		case kSignals:
			items := map[string]any{"type": "string"}
			if published {
				items["enum"] = newsindex.SignalNames()
			}
			s = map[string]any{"type": "array", "items": items}
			if published {
				s["maxItems"] = len(newsindex.SignalNames())
			}
		case kDateTime:
			s = map[string]any{"type": "string", "format": "date-time"}
		case kLanguage:
			s = map[string]any{"type": "string", "pattern": "^[a-z]{2}$"}
		}
		s["description"] = p.desc
		props[p.name] = s
		if p.required {
			required = append(required, p.name)
		}
	}
	schema := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if required != nil {
		schema["required"] = required
	}
	b, err := json.Marshal(schema)
	if err != nil {
		panic(err) // static data
	}
	return b
}

// validate checks a call's raw arguments: first against the tool's schema
// in schemaerr's hint dialect (unknown_parameter with its did-you-mean,
// invalid_parameter), then, on arguments the schema accepted, with the
// server's own checks (parseArgs).
func (t *tool) validate(raw json.RawMessage) (*args, *ArgError) {
	var a *args
	var aerr *ArgError
	check := func(r json.RawMessage) error {
		a, aerr = parseArgs(r, t.params)
		if aerr != nil {
			return schemaerr.Invalid(string(aerr.Code), aerr.Message)
		}
		return nil
	}
	if err := t.schema.Check(raw, check); err != nil {
		e := hint(err)
		code := InvalidParameter
		if c := e.DataCode(); c != "" {
			code = errkind.Kind(c)
		}
		return nil, &ArgError{Code: code, Message: e.Message}
	}
	return a, nil
}

// hint returns the JSON-RPC error schemaerr's hint dialect answers with.
func hint(err error) *wire.RPCError {
	var e *wire.RPCError
	if errors.As(err, &e) {
		return e
	}
	return &wire.RPCError{Code: errkind.InvalidParams, Message: err.Error()}
}

// parseArgs decodes arguments the schema accepted, and checks what the schema
// does not say: the signal names (unknown_signal), RFC 3339 dates, ISO 639-1
// codes, valid UTF-8, a repeated name, and from before to. Absent or null
// arguments are {}. The first problem found is reported.
func parseArgs(raw json.RawMessage, params []param) (*args, *ArgError) {
	fields, err := objectFields(raw)
	if err != nil {
		return nil, err
	}
	declared := make([]string, len(params))
	for i, p := range params {
		declared[i] = p.name
	}
	for _, f := range fields {
		if !slices.Contains(declared, f.name) {
			return nil, &ArgError{Code: UnknownParameter, Message: hint(schemaerr.Unknown(schemaerr.UnknownParameter, "parameter", f.name, declared)).Message}
		}
	}
	a := &args{set: map[string]bool{}}
	for _, p := range params {
		var v json.RawMessage
		for _, f := range fields {
			if f.name == p.name {
				v = f.value
			}
		}
		if v == nil {
			if p.required {
				return nil, invalid("Missing required parameter '%s': expected %s.", p.name, p.want())
			}
			continue
		}
		if err := a.assign(p, v); err != nil {
			return nil, err
		}
		a.set[p.name] = true
	}
	if a.has("from") && a.has("to") && !a.from.Before(a.to) {
		return nil, invalid("Invalid value for 'to': must be a date-time after 'from' (%s), got '%s'.", a.from.Format(time.RFC3339), a.to.Format(time.RFC3339))
	}
	return a, nil
}

type field struct {
	name  string
	value json.RawMessage
}

// objectFields splits a JSON object into its members, in order, refusing
// anything else, repeated names and invalid UTF-8.
func objectFields(raw json.RawMessage) ([]field, *ArgError) {
	raw = bytes.Trim(raw, jsonSpace)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	notObject := func() *ArgError {
		return invalid("Invalid arguments: must be a JSON object of named arguments, got %s.", describe(raw))
	}
	if raw[0] != '{' || !json.Valid(raw) {
		return nil, notObject()
	}
	// raw is a valid JSON object: split its members without decoding them.
	var fields []field
	i := skipSpace(raw, 1)
	for raw[i] != '}' {
		ks := i
		i = skipString(raw, i)
		key := raw[ks:i]
		name := string(key[1 : len(key)-1])
		if bytes.IndexByte(key, '\\') >= 0 {
			json.Unmarshal(key, &name)
		}
		i = skipSpace(raw, skipSpace(raw, i)+1) // past ':'
		vs := i
		i = skipValue(raw, i)
		v := json.RawMessage(raw[vs:i])
		if !utf8.Valid(key) || !utf8.Valid(v) {
			return nil, invalid("Invalid value for '%s': must be valid UTF-8 text, got invalid bytes.", quoteName(name))
		}
		for _, f := range fields {
			if f.name == name {
				return nil, invalid("Invalid value for '%s': given more than once.", quoteName(name))
			}
		}
		fields = append(fields, field{name, v})
		i = skipSpace(raw, i)
		if raw[i] == ',' {
			i = skipSpace(raw, i+1)
		}
	}
	return fields, nil
}

// jsonSpace is JSON's whitespace (RFC 8259): bytes.TrimSpace would also
// take \f, \v and Unicode spaces, which make a body invalid JSON.
const jsonSpace = " \t\n\r"

// The scanners below walk JSON already known to be valid (json.Valid): each
// returns the index just past what it skips.

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

func skipString(b []byte, i int) int {
	for i++; b[i] != '"'; i++ {
		if b[i] == '\\' {
			i++
		}
	}
	return i + 1
}

func skipValue(b []byte, i int) int {
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for ; ; i++ {
			switch b[i] {
			case '"':
				i = skipString(b, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
	}
	for i < len(b) && !strings.ContainsRune(",}] \t\n\r", rune(b[i])) {
		i++
	}
	return i
}

func invalid(format string, args ...any) *ArgError {
	return &ArgError{Code: InvalidParameter, Message: fmt.Sprintf(format, args...)}
}

// quoteName makes a caller's name safe to quote: printable and short.
func quoteName(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == '\'' {
			return '?'
		}
		return r
	}, s)
	if utf8.RuneCountInString(s) > 40 {
		s = string([]rune(s)[:40]) + "…"
	}
	return s
}

// want says what a parameter allows, for messages.
func (p param) want() string {
	switch p.kind {
	case kString:
		return fmt.Sprintf("a string of %d to %d characters", p.min, p.max)
	case kInteger:
		return fmt.Sprintf("an integer from %d to %d", p.min, p.max)
	case kBoolean:
		return "true or false"
	case kSignals:
		return "an array of signal names (" + strings.Join(newsindex.SignalNames(), ", ") + ")"
	case kDateTime:
		return "an RFC 3339 date-time such as '2026-09-01T00:00:00Z'"
	case kLanguage:
		return "an ISO 639-1 language code such as 'en'"
	}
	return "a value"
}

// describe renders a received JSON value for a message: short, and never
// more than 40 characters of it.
func describe(v json.RawMessage) string {
	v = bytes.Trim(v, jsonSpace)
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 'n':
		return "null"
	case '"':
		var s string
		if json.Unmarshal(v, &s) == nil {
			return "'" + quoteName(s) + "'"
		}
		return "a string"
	}
	return quoteName(string(v))
}

func (a *args) assign(p param, v json.RawMessage) *ArgError {
	bad := func() *ArgError {
		return invalid("Invalid value for '%s': must be %s, got %s.", p.name, p.want(), describe(v))
	}
	switch p.kind {
	case kString, kDateTime, kLanguage:
		s, ok := jsonString(v)
		if !ok {
			return bad()
		}
		if strings.ContainsRune(s, utf8.RuneError) || strings.ContainsRune(s, 0) {
			return invalid("Invalid value for '%s': must be valid UTF-8 text, got invalid bytes or a lone surrogate.", p.name)
		}
		switch p.kind {
		case kString:
			if n := int64(utf8.RuneCountInString(s)); n < p.min || n > p.max || strings.TrimSpace(s) == "" {
				return bad()
			}
			if p.name == "id" {
				a.id = s
			} else {
				a.query = s
			}
		case kDateTime:
			t, err := time.Parse(time.RFC3339, s)
			if err != nil {
				return bad()
			}
			switch p.name {
			case "from":
				a.from = t
			case "to":
				a.to = t
			default:
				a.since = t
			}
		case kLanguage:
			if !isoLanguage[s] {
				return bad()
			}
			a.language = s
		}
	case kInteger:
		var n json.Number
		if len(v) == 0 || (v[0] != '-' && (v[0] < '0' || v[0] > '9')) || json.Unmarshal(v, &n) != nil {
			return bad()
		}
		i, err := strconv.ParseInt(n.String(), 10, 64)
		if err != nil {
			f, ferr := strconv.ParseFloat(n.String(), 64)
			if ferr != nil || f != math.Trunc(f) || f < float64(p.min) || f > float64(p.max) {
				return bad()
			}
			i = int64(f)
		}
		if i < p.min || i > p.max {
			return bad()
		}
		if p.name == "limit" {
			a.limit = int(i)
		} else {
			a.maxCredits = i
		}
	case kBoolean:
		switch string(v) {
		case "true":
			a.estimate = true
		case "false":
		default:
			return bad()
		}
	case kSignals:
		var raw []json.RawMessage
		if len(v) == 0 || v[0] != '[' || json.Unmarshal(v, &raw) != nil {
			return bad()
		}
		if len(raw) > len(newsindex.SignalNames()) {
			return invalid("Invalid value for 'signals': must have at most %d distinct signal names (%s), got %d.", len(newsindex.SignalNames()), strings.Join(newsindex.SignalNames(), ", "), len(raw))
		}
		for _, r := range raw {
			s, ok := jsonString(r)
			if !ok {
				return invalid("Invalid value for 'signals': must be %s, got an array holding %s.", p.want(), describe(r))
			}
			if !newsindex.IsSignal(s) {
				msg := fmt.Sprintf("Unknown signal '%s' in 'signals'.", quoteName(s))
				if hint, ok := schemaerr.Suggest(s, newsindex.SignalNames()); ok {
					msg += fmt.Sprintf(" Did you mean '%s'?", hint)
				}
				msg += " Published signals: " + strings.Join(newsindex.SignalNames(), ", ") + "."
				return &ArgError{Code: UnknownSignal, Message: msg}
			}
			if slices.Contains(a.signals, s) {
				return invalid("Invalid value for 'signals': must be distinct signal names, got '%s' twice.", s)
			}
			a.signals = append(a.signals, s)
		}
	}
	return nil
}

// jsonString decodes a JSON string value, without encoding/json when it
// holds no escape.
func jsonString(v json.RawMessage) (string, bool) {
	if len(v) < 2 || v[0] != '"' {
		return "", false
	}
	if bytes.IndexByte(v, '\\') < 0 && v[len(v)-1] == '"' {
		return string(v[1 : len(v)-1]), true
	}
	var s string
	return s, json.Unmarshal(v, &s) == nil
}

// isoLanguage is the set of ISO 639-1 codes (read only).
var isoLanguage = func() map[string]bool {
	m := map[string]bool{}
	for _, c := range strings.Fields(`aa ab ae af ak am an ar as av ay az ba be bg bi bm bn bo br bs ca ce ch co cr cs cu cv cy
da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik
io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt
my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so
sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu`) {
		m[c] = true
	}
	return m
}()

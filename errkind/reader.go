package errkind

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/mcperr/mcperr/internal/sdktext"
)

// Outcome is what a tool call returned, as its client received it: a tool
// result (IsError and the text of its content), or, when RPCCode is not 0 or
// Message or Data is set, a JSON-RPC error (RPCCode, Message and Data; the
// go-sdk sends code 0 for a tool handler's Go error). A client whose call
// failed without an answer (its transport refused the request) passes the
// error's text as a failed result's: IsError and Text.
type Outcome struct {
	IsError bool   // the result's isError
	Text    string // the result's text blocks, joined by "\n"

	RPCCode RPCCode         // the JSON-RPC error's code; 0 when the call returned a result, or for code 0
	Message string          // the JSON-RPC error's message
	Data    json.RawMessage // the JSON-RPC error's data, as sent; nil when it had none
}

// Form names the shape in which an outcome reached the client.
type Form string

// The forms [Taxonomy.Read] tells apart.
const (
	// FormData: a result that is not an error.
	FormData Form = "data"
	// FormKindObject: a JSON kind object, {"kind":"not_found",...}.
	FormKindObject Form = "kind_object"
	// FormCodeObject: a JSON object naming a code but no kind, such as
	// {"error":"not found","code":"not_found","retry_after_secs":3}, an
	// envelope {"error":{"code":...,"message":...}}, a JSON-RPC error
	// object or response as a result's text (read as FormRPCError is), or
	// an object with only a message ({"error":"Unknown tool: x"}, read by
	// what the message says).
	FormCodeObject Form = "code_object"
	// FormInvalidArguments: an MCP SDK's text for arguments that failed
	// the tool's input schema, or were refused for their size: the
	// TypeScript SDK's (1.x's "MCP error -32602: ..." with one issue a line
	// or zod 3's JSON array; 2.x's "Input validation error: ..." on one
	// line, each issue's path first), the go-sdk's (`validating
	// "arguments": ...`) and mcp-go's ("input schema validation failed:
	// ..."), zod 3's issues alone, and any other text that refuses
	// arguments by what it says (see [Taxonomy.Read]).
	FormInvalidArguments Form = "invalid_arguments_text"
	// FormUnknownTool: a text for a tool the server does not have: the
	// TypeScript SDK's, or any SDK's ("Unknown tool: x", "Tool x not
	// found", "Invalid tool name: x").
	FormUnknownTool Form = "unknown_tool_text"
	// FormMCPError: any other "MCP error <code>: ..." text.
	FormMCPError Form = "mcp_error_text"
	// FormRPCError: a JSON-RPC error, with or without data.code.
	FormRPCError Form = "jsonrpc_error"
	// FormTransport: a client's text for a request its HTTP transport
	// refused: the TypeScript client's "Error POSTing to endpoint" with the
	// response's body (and its status, in 1.x before StreamableHTTPError),
	// the go-sdk client's "rejected by transport" ending with the status's
	// text, mcp-go's "request failed with status <status>: <body>". A
	// JSON-RPC error in the body is read as FormRPCError is; otherwise the
	// status decides the kind.
	FormTransport Form = "transport_text"
	// FormProse: a failure text that a Text rule of the taxonomy names, or
	// that says an HTTP status ("returned 429"), a rate limit, a wait
	// ("retry after 30s"), that no answer came (a timeout, a
	// cancellation, a closed connection), or that the tool's result failed
	// its own output schema (server_error).
	FormProse Form = "prose"
	// FormUnknown: a failure text in none of the shapes above.
	FormUnknown Form = "unknown"
)

// Reading is what [Taxonomy.Read] read out of an outcome: the kind, the
// agent's move and the wait, and what the outcome's dialect carried.
type Reading struct {
	Form Form

	// Kind is what happened; "" for data, and for a failure in no shape the
	// taxonomy knows (FormUnknown).
	Kind Kind
	// Move is the agent's next move; "" for data, Report for FormUnknown.
	Move Move
	// Wait is how long the outcome says to wait before retrying, when
	// HasWait. A wait that is negative or beyond a year is treated as
	// absent. A wait beyond a day is kept, but the move is Stop: an agent
	// does not sleep on it (tell the user when to come back instead).
	Wait    time.Duration
	HasWait bool

	// Code is the server's own code: a kind or code object's "code", or a
	// JSON-RPC error's data.code; "" when it sent none.
	Code string
	// Message is the object's message (or a flat object's "error"), or the
	// JSON-RPC error's message.
	Message string
	// Object is the kind object, or the code object read onto one (its Kind
	// empty), when the text was one; nil otherwise.
	Object *Object

	RPCCode RPCCode // the JSON-RPC code: the error's, or the one an "MCP error" text names
	Tool    string  // the tool an SDK's validation or unknown-tool text or message names
	Issues  []Issue // one per issue of an input-validation text
	// Args are the arguments at fault, in order, without repeats, each as
	// a path from the arguments object: property names joined by ".",
	// array indexes as "[n]" ("filter.lang", "tags[2]", "items[0].id").
	// The same fault gives the same path whatever the SDK: an unknown,
	// missing or undeclared property is named by its own path
	// ("filter.lang", not "filter"), a JSON Pointer ("/filter/lang") or a
	// JSONPath ("$.filter.lang") or pydantic's loc ("tags.2") is written so.
	// A kind object's details fill it too (details.field, details.fields,
	// details.pointer, details.path).
	Args []string
	// Supported lists the protocol versions a -32022 (UnsupportedVersion)
	// error's data.supported names: the client sends its request again
	// with one of them (the move is RetrySafe: the request never reached a
	// tool).
	Supported []string
}

// maxWait bounds a wait read from an outcome; anything longer is treated as
// absent, as a reset beyond a year is.
const maxWait = 366 * 24 * time.Hour

// longestSleep is the longest wait Read gives a move that sleeps on it (a
// day); beyond it the wait is kept as a figure and the move is Stop.
const longestSleep = 24 * time.Hour

// Read reads an outcome with the standard taxonomy; see [Taxonomy.Read].
func Read(o Outcome) Reading {
	var t *Taxonomy
	return t.Read(o)
}

// Read reads what a tool call returned back into a kind, the agent's move
// and the wait, in whichever dialect the server spoke:
//
//   - a result that is not an error is FormData;
//   - a text that starts with "{" is a JSON object: a kind object gives its
//     kind; an object with a code but no kind ({"error":...,"code":...},
//     or {"error":{"code":...}}) is classified by its code and status. The
//     wait is retryAfterSeconds, retry_after_secs or retry_after;
//   - an SDK's text for arguments that failed the tool's input schema, or
//     were refused for their size, is invalid_arguments with the move
//     fix_argument (FormInvalidArguments), its issues and the arguments at
//     fault read out: the TypeScript SDK's ("MCP error -32602: Input
//     validation error: ...", one issue a line; 2.x's "Input validation
//     error: ..." on one line, each issue's path first; zod 3's issues as a
//     JSON array), the go-sdk's (`validating "arguments": ...`) and
//     mcp-go's ("input schema validation failed: ..."). "MCP error -32602:
//     Tool <t> not found" likewise, with Tool set (FormUnknownTool);
//   - a JSON-RPC error (code 0 included: the go-sdk's for a handler's Go
//     error) whose data is a kind object ("kind" set, as in mcperr's own
//     refusals) is read as that object; else it is classified by its
//     data.code when a rule knows it, else by a Text rule matching its
//     message, else by its code (see [RPCCode.Move]); the wait is data's
//     retry-after member. A -32602 whose message is an SDK's words for a
//     tool it does not have (the TypeScript SDK's "Tool <t> not found", the
//     go-sdk's `unknown tool "<t>"`, mcp-go's "tool '<t>' not found: ...")
//     or for refused arguments gives the tool and issues too;
//   - a client's text for a request its HTTP transport refused
//     (FormTransport) is read as the JSON-RPC error in its body, else by its
//     status;
//   - any other failure text is classified by the first Text rule that
//     matches it (FormProse), else by what it says, in any SDK's or
//     framework's words: a tool the server does not have
//     (FormUnknownTool); arguments refused (FormInvalidArguments): a
//     required property missing, a wrong type, a value out of range or
//     not allowed, an unknown property, the argument named by a quoted
//     key, a JSON Pointer, a JSONPath or a pydantic loc (a pydantic error
//     of a model other than the tool's arguments is the server's own
//     failure); an HTTP status it carries, a rate limit or a wait in
//     words, a timeout, a cancellation or a closed connection (FormProse;
//     no answer is network_error). Else it is FormUnknown, reported.
//
// A JSON-RPC error whose code does not decide (-32603, a code of the
// server range, 0, a code outside JSON-RPC's such as the Python client's
// 408) is read by what its message, and a data that is a string, says;
// -32022 is retry_safe, with data.supported in Reading.Supported; a -32601
// for a tool that must run as a task ("requires task augmentation") is
// stop. A network_error whose kind object says the call may have acted
// ("mayHaveActed": true, in the object or in its details) is
// reread_then_retry, not retry_safe. A wait beyond a day is kept in Wait,
// and the move is Stop.
//
// The move is the taxonomy's advice for the kind, except where the JSON-RPC
// code alone decides it. Read never fails, and its time is linear in the
// size of the outcome.
func (t *Taxonomy) Read(o Outcome) Reading {
	var r Reading
	switch {
	case o.RPCCode != 0 || o.Message != "" || len(o.Data) > 0:
		r = t.readRPC(o)
	case !o.IsError:
		return Reading{Form: FormData}
	default:
		r = t.readText(o.Text)
	}
	if r.HasWait && r.Wait > longestSleep && (r.Move == WaitThenRetry || r.Move == RetrySafe || r.Move == RereadThenRetry) {
		r.Move = Stop
	}
	return r
}

func (t *Taxonomy) readText(text string) Reading {
	var r Reading
	trimmed := strings.TrimLeft(text, " \t\r\n")
	if strings.HasPrefix(trimmed, "{") {
		t.readObject(&r, trimmed)
		return r
	}
	if strings.HasPrefix(text, sdktext.MCPErrorPrefix) && readMCPText(&r, text) {
		switch r.Form {
		case FormInvalidArguments, FormUnknownTool:
			r.Kind, r.Move = InvalidArguments, FixArgument
		default:
			r = t.readRPC(Outcome{RPCCode: r.RPCCode, Message: text})
			r.Form = FormMCPError
		}
		return r
	}
	if readSDKText(&r, text) || strings.HasPrefix(trimmed, "[") && readZod3(&r, trimmed) {
		// zod 3's issues alone: a framework's text for a ZodError
		// (mcp-framework's).
		r.Form, r.Kind, r.Move = FormInvalidArguments, InvalidArguments, FixArgument
		return r
	}
	if t.readTransport(&r, text) {
		return r
	}
	if k, ok := t.classify("", 0, text); ok {
		r.Form, r.Kind, r.Move = FormProse, k, t.Advise(k).Move
		r.Wait, r.HasWait = proseWait(lower(text))
		return r
	}
	if t.readGeneral(&r, text) {
		return r
	}
	r.Form, r.Move = FormUnknown, Report
	return r
}

// readGeneral reads a failure text by what it says (see reader_general.go):
// a tool the server does not have (FormUnknownTool), arguments refused
// (FormInvalidArguments, with the arguments it names), a status, a rate
// limit, a wait or no answer (FormProse). It reports false when the text
// says none of them.
func (t *Taxonomy) readGeneral(r *Reading, text string) bool {
	low := lower(text)
	if ownOutput(low) {
		// The tool's result failed its own output schema: the server's
		// failure, whatever code it came with.
		r.Form, r.Kind, r.Move = FormProse, ServerError, Report
		return true
	}
	if tool, ok := unknownTool(text, low); ok {
		r.Form, r.Kind, r.Move, r.Tool = FormUnknownTool, InvalidArguments, FixArgument, tool
		return true
	}
	if readRefused(r, text, low) {
		r.Form, r.Kind, r.Move = FormInvalidArguments, InvalidArguments, FixArgument
		return true
	}
	if t.readStatus(r, text, low) {
		r.Form = FormProse
		return true
	}
	return false
}

// rpcKind is the kind of a protocol error with code c: a request the client
// can fix is invalid_arguments; the server's failures, and the codes of
// its own range, are server_error.
func rpcKind(c RPCCode) Kind {
	switch c {
	case ParseError, InvalidRequest, MethodNotFound, InvalidParams, HeaderMismatch, MissingCapability, UnsupportedVersion:
		return InvalidArguments
	}
	return ServerError
}

// object is the JSON kind object as Read finds it, each member as its raw
// JSON text, with the spellings of the code objects servers send.
type object struct {
	kind, code, message, details, httpStatus          string
	retryAfterSeconds, limit, remaining, resetSeconds string

	err, detail, status, retryAfterSecs, retryAfter string
	typ                                             string // an envelope's inner "type"
	data, mayHaveActed                              string
}

func (o *object) set(key, value string) {
	switch key {
	case "kind":
		o.kind = value
	case "code":
		o.code = value
	case "message":
		o.message = value
	case "details":
		o.details = value
	case "httpStatus":
		o.httpStatus = value
	case "retryAfterSeconds":
		o.retryAfterSeconds = value
	case "limit":
		o.limit = value
	case "remaining":
		o.remaining = value
	case "resetSeconds":
		o.resetSeconds = value
	case "error":
		o.err = value
	case "detail":
		o.detail = value
	case "status":
		o.status = value
	case "retry_after_secs":
		o.retryAfterSecs = value
	case "retry_after":
		o.retryAfter = value
	case "type":
		o.typ = value
	case "data":
		o.data = value
	case "mayHaveActed":
		o.mayHaveActed = value
	}
}

// readObject reads a text that starts with "{": a kind object, a code
// object or an envelope. A member of the wrong type counts as absent.
func (t *Taxonomy) readObject(r *Reading, text string) {
	r.Form = FormUnknown
	r.Move = Report
	var o object
	if !json.Valid([]byte(text)) || !members(text, o.set) {
		return
	}
	kind, _ := str(o.kind)
	if code, isNum := num(o.code); kind == "" && isNum && code >= -32768 && code <= -32000 && strings.HasPrefix(o.message, `"`) {
		// A JSON-RPC error object as a result's text (mcpgo's fallback
		// over mcp-go's own stdio server): read by its code.
		*r = t.readRPC(Outcome{RPCCode: RPCCode(code), Message: mustStr(o.message), Data: rawJSON(o.data)})
		r.Form = FormCodeObject
		return
	}
	if c, msg, data, ok := rpcBody(text); ok && kind == "" && c >= -32768 && c <= -32000 {
		// A JSON-RPC error response as a result's text.
		*r = t.readRPC(Outcome{RPCCode: c, Message: msg, Data: data})
		r.Form = FormCodeObject
		return
	}
	obj := &Object{Kind: Kind(kind), Details: rawJSON(o.details),
		RetryAfterSeconds: numPtr(o.retryAfterSeconds), Limit: numPtr(o.limit), Remaining: numPtr(o.remaining), ResetSeconds: numPtr(o.resetSeconds)}
	obj.Code, _ = str(o.code)
	obj.Message, _ = str(o.message)
	obj.HTTPStatus = status(o.httpStatus)
	if obj.RetryAfterSeconds == nil {
		obj.RetryAfterSeconds = numPtr(o.retryAfterSecs)
	}
	if obj.RetryAfterSeconds == nil {
		obj.RetryAfterSeconds = numPtr(o.retryAfter)
	}
	if obj.Details == nil {
		obj.Details = rawJSON(o.detail)
	}
	if obj.HTTPStatus == 0 {
		obj.HTTPStatus = status(o.status)
	}
	if msg, ok := str(o.err); ok && obj.Message == "" {
		obj.Message = msg
	} else if strings.HasPrefix(o.err, "{") && obj.Code == "" {
		readEnvelope(obj, o.err)
	}
	r.Object, r.Code, r.Message = obj, obj.Code, obj.Message
	r.Wait, r.HasWait = wait(obj.RetryAfterSeconds)
	acted := detailArgs(r, obj.Details) || o.mayHaveActed == "true"
	switch {
	case obj.Kind != "":
		r.Form, r.Kind = FormKindObject, obj.Kind
	case obj.Code == "" && obj.HTTPStatus == 0 && obj.Message != "":
		// Only a message ({"error":"Unknown tool: x"}): read by what it
		// says.
		var g Reading
		if !t.readGeneral(&g, obj.Message) {
			r.Form, r.Kind = FormCodeObject, t.Classify("", 0)
			break
		}
		r.Form, r.Kind, r.Move, r.Tool, r.Args = FormCodeObject, g.Kind, g.Move, g.Tool, g.Args
		if !r.HasWait {
			r.Wait, r.HasWait = g.Wait, g.HasWait
		}
		return
	case obj.Code != "" || obj.HTTPStatus != 0:
		r.Form, r.Kind = FormCodeObject, t.Classify(obj.Code, obj.HTTPStatus)
	default:
		return
	}
	r.Move = t.Advise(r.Kind).Move
	if acted && r.Move == RetrySafe {
		r.Move = RereadThenRetry // the call may have acted: read back before retrying
	}
}

func mustStr(raw string) string { s, _ := str(raw); return s }

// detailArgs adds to r.Args the arguments a kind object's details name:
// "field", "path" or "parameter" (a name or a dotted path), "pointer" (a
// JSON Pointer), "fields" (a list of either). It reports whether details
// says the call may have acted ("mayHaveActed": true).
func detailArgs(r *Reading, details json.RawMessage) (acted bool) {
	if len(details) == 0 || details[0] != '{' {
		return false
	}
	var args argSet
	members(string(details), func(k, v string) {
		switch k {
		case "field", "path", "parameter", "pointer":
			if s, ok := str(v); ok {
				args.add(r, argPath(s))
			}
		case "fields":
			var fs []string
			if json.Unmarshal([]byte(v), &fs) == nil {
				for _, f := range fs {
					args.add(r, argPath(f))
				}
			}
		case "mayHaveActed":
			acted = v == "true"
		}
	})
	return acted
}

// readEnvelope reads the object an envelope {"error":{...}} holds onto obj:
// its code (a string, or a number that is not an HTTP status), else its
// status name, else its type; a numeric HTTP status; its message and
// details. Google's {"code":404,"status":"NOT_FOUND"} gives the code
// NOT_FOUND and the status 404.
func readEnvelope(obj *Object, text string) {
	var in object
	members(text, in.set)
	code, ok := str(in.code)
	if !ok {
		if st := status(in.code); st != 0 {
			if obj.HTTPStatus == 0 {
				obj.HTTPStatus = st
			}
		} else if _, isNum := num(in.code); isNum && !strings.ContainsAny(in.code, ".eE") {
			code = in.code
		}
	}
	if code == "" {
		code, _ = str(in.status)
	}
	if code == "" {
		code, _ = str(in.typ)
	}
	obj.Code = code
	if obj.Message == "" {
		obj.Message, _ = str(in.message)
	}
	if obj.Details == nil {
		obj.Details = rawJSON(in.details)
	}
}

// wait reads a wait in seconds; a negative one, or one beyond maxWait, is
// absent.
func wait(sec *int64) (time.Duration, bool) {
	if sec == nil || *sec < 0 || *sec > int64(maxWait/time.Second) {
		return 0, false
	}
	return time.Duration(*sec) * time.Second, true
}

// status reads an HTTP status from a raw JSON integer; 0 for anything
// else.
func status(raw string) int {
	if len(raw) != 3 {
		return 0
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 100 || n > 999 {
		return 0
	}
	return n
}

// rpcData is the data of a JSON-RPC error, as Read reads it.
type rpcData struct {
	kind, code, retryAfterSeconds, retryAfterSecs, retryAfter string
	supported, validationErrors                               string
}

func (d *rpcData) set(key, value string) {
	switch key {
	case "kind":
		d.kind = value
	case "code":
		d.code = value
	case "retryAfterSeconds":
		d.retryAfterSeconds = value
	case "retry_after_secs":
		d.retryAfterSecs = value
	case "retry_after":
		d.retryAfter = value
	case "supported":
		d.supported = value
	case "validation_errors":
		d.validationErrors = value
	}
}

func (t *Taxonomy) readRPC(o Outcome) Reading {
	r := Reading{Form: FormRPCError, RPCCode: o.RPCCode, Message: o.Message}
	msg := mcpMessage(o.Message)
	if o.RPCCode == InvalidParams {
		readSDKMessage(&r, msg)
	}
	var d rpcData
	dataText := ""
	if len(o.Data) > 0 && json.Valid(o.Data) {
		dataText, _ = str(string(o.Data)) // data as a sentence (the Java and Ruby SDKs' unknown tool)
	}
	if len(o.Data) > 0 && json.Valid(o.Data) && members(string(o.Data), d.set) {
		if k, _ := str(d.kind); k != "" {
			// data is a kind object (mcperr's own refusals): its kind,
			// move and wait.
			var obj Reading
			t.readObject(&obj, string(o.Data))
			r.Kind, r.Move, r.Code, r.Object = obj.Kind, obj.Move, obj.Code, obj.Object
			r.Wait, r.HasWait = obj.Wait, obj.HasWait
			for _, a := range obj.Args {
				r.Args = appendNew(r.Args, a)
			}
			return r
		}
		if d.supported != "" {
			json.Unmarshal([]byte(d.supported), &r.Supported)
		}
		pointers(&r, d.validationErrors)
		r.Code, _ = str(d.code)
		w := numPtr(d.retryAfterSeconds)
		if w == nil {
			w = numPtr(d.retryAfterSecs)
		}
		if w == nil {
			w = numPtr(d.retryAfter)
		}
		r.Wait, r.HasWait = wait(w)
	}
	if r.Code != "" {
		if k, ok := t.classify(normalizeCode(r.Code), 0, ""); ok {
			r.Kind, r.Move = k, t.Advise(k).Move
			if k == InvalidArguments && len(r.Args) == 0 {
				readRefused(&r, msg, lower(msg)) // the arguments mcperr's hint dialect names
			}
			return r
		}
	}
	if k, ok := t.classify("", 0, msg); ok && msg != "" {
		r.Kind, r.Move = k, t.Advise(k).Move
		if !r.HasWait {
			r.Wait, r.HasWait = proseWait(lower(msg))
		}
		return r
	}
	r.Kind, r.Move = rpcKind(o.RPCCode), o.RPCCode.Move()
	switch o.RPCCode {
	case ParseError, InvalidRequest, HeaderMismatch, MissingCapability, UnsupportedVersion:
		return r // the code decides
	case MethodNotFound:
		if strings.Contains(lower(msg), "task augmentation") {
			// The tool runs only as a task (taskSupport "required"): the
			// client must call it as one, which the agent cannot.
			r.Move = Stop
		}
		return r
	}
	text := msg
	if dataText != "" {
		text = msg + "\n" + dataText
	}
	if r.Issues != nil {
		return r // an SDK's own refusal, read above
	}
	g := Reading{Args: r.Args, Wait: r.Wait, HasWait: r.HasWait}
	if !t.readGeneral(&g, text) {
		return r
	}
	if r.Tool == "" {
		r.Tool = g.Tool
	}
	r.Args = g.Args
	if o.RPCCode != InvalidParams || g.Kind == InvalidArguments || g.Kind == ServerError {
		r.Kind, r.Move = g.Kind, g.Move
		r.Wait, r.HasWait = g.Wait, g.HasWait
	}
	return r
}

// appendNew appends a to list unless it holds it.
func appendNew(list []string, a string) []string {
	for _, x := range list {
		if x == a {
			return list
		}
	}
	return append(list, a)
}

// pointers adds the arguments of the PHP SDK's data.validation_errors:
// [{"pointer":"/a","keyword":"type","message":...}, ...].
func pointers(r *Reading, raw string) {
	if raw == "" || raw[0] != '[' {
		return
	}
	var errs []struct {
		Pointer string `json:"pointer"`
	}
	if json.Unmarshal([]byte(raw), &errs) != nil {
		return
	}
	for _, e := range errs {
		if a := argPath(e.Pointer); a != "" {
			r.Args = appendNew(r.Args, a)
		}
	}
}

// mcpMessage is a JSON-RPC error's message without the "MCP error <code>: "
// that an McpError's text begins with: the TypeScript SDK before 1.3x sent
// its McpError's text as the message, and the TypeScript client puts one
// more before every message it receives.
func mcpMessage(msg string) string {
	for {
		rest, ok := strings.CutPrefix(msg, sdktext.MCPErrorPrefix)
		if !ok {
			return msg
		}
		num, after, ok := strings.Cut(rest, ": ")
		if !ok || len(num) > 11 {
			return msg
		}
		if _, err := strconv.Atoi(num); err != nil {
			return msg
		}
		msg = after
	}
}

// readMCPText reads "MCP error <code>: <message>", and within it the
// TypeScript SDK's validation, refusal and unknown-tool texts. It reports
// false when text is not of that form.
func readMCPText(r *Reading, text string) bool {
	rest := text[len(sdktext.MCPErrorPrefix):]
	num, _, ok := strings.Cut(rest, ": ")
	if !ok {
		return false
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < math.MinInt32 || n > math.MaxInt32 {
		return false
	}
	r.RPCCode, r.Form = RPCCode(n), FormMCPError
	if n != int(InvalidParams) {
		return true
	}
	// The TypeScript client puts its own "MCP error <code>: " before the
	// message of a JSON-RPC error, which an older server's McpError had
	// already begun so.
	head := text[:len(sdktext.MCPErrorPrefix)+len(num)+len(": ")] // "MCP error -32602: "
	for strings.HasPrefix(text[len(head):], head) {
		text = text[len(head):]
	}
	if tool, ok := strings.CutPrefix(text, sdktext.UnknownToolPrefix); ok {
		if tool, ok := strings.CutSuffix(tool, sdktext.UnknownToolSuffix); ok && !strings.Contains(tool, "\n") {
			r.Tool, r.Form = tool, FormUnknownTool
			return true
		}
	}
	if rest, ok := strings.CutPrefix(text, sdktext.InvalidArgumentsPrefix); ok {
		tool, issues, ok := strings.Cut(rest, ": ")
		if !ok {
			return true
		}
		r.Tool, r.Form = tool, FormInvalidArguments
		readIssues(r, issues)
		return true
	}
	if rest, ok := strings.CutPrefix(text, sdktext.ArgumentsRefusedPrefix); ok {
		if tool, msg, ok := strings.Cut(rest, ": "); ok {
			r.Tool, r.Form = tool, FormInvalidArguments
			readRefusal(r, msg)
		}
	}
	return true
}

// readSDKMessage reads the tool and the issues from the message of a
// JSON-RPC -32602 error: the TypeScript SDK's words without the "MCP error
// -32602: " of their text form ("Tool <t> not found", "Input validation
// error: Invalid arguments for tool <t>: <issues>", "Invalid arguments for
// tool <t>: <zod 3's issues>"), and the go-sdk's and mcp-go's unknown-tool
// messages.
func readSDKMessage(r *Reading, msg string) {
	if tool, ok := strings.CutPrefix(msg, sdktext.UnknownToolPrefix2); ok {
		if tool, ok := strings.CutSuffix(tool, sdktext.UnknownToolSuffix); ok && !strings.Contains(tool, "\n") {
			r.Tool = tool
		}
		return
	}
	if rest, ok := strings.CutPrefix(msg, sdktext.InvalidArgumentsPrefix2); ok {
		if tool, issues, ok := strings.Cut(rest, ": "); ok {
			r.Tool = tool
			readIssues(r, issues)
		}
		return
	}
	if rest, ok := strings.CutPrefix(msg, sdktext.ArgumentsRefusedPrefix2); ok {
		if tool, issues, ok := strings.Cut(rest, ": "); ok {
			r.Tool = tool
			readRefusal(r, issues)
		}
		return
	}
	readUnknownTool(r, msg)
}

// readIssues reads the issue lines of a validation text, or zod 3's JSON
// array of issues, which the TypeScript SDK 1.2x sends inside the same
// frame.
func readIssues(r *Reading, issues string) {
	if strings.HasPrefix(issues, "[") && readZod3(r, issues) {
		return
	}
	lines := strings.Count(issues, "\n") + 1
	r.Issues = make([]Issue, 0, lines)
	args := argSet{size: lines}
	for line := range strings.SplitSeq(issues, "\n") {
		f := parseIssue(line)
		r.Issues = append(r.Issues, f)
		args.fault(r, f)
	}
}

package mcpserver

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/wire"
)

// ProtocolVersion is the one protocol revision this server serves.
const ProtocolVersion = "2026-07-28"

// The per-request _meta keys 2026-07-28 requires of every call.
const (
	MetaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	MetaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
)

// The 2026-07-28 request headers.
const (
	headerMethod  = "Mcp-Method"
	headerName    = "Mcp-Name"
	headerVersion = "Mcp-Protocol-Version"
)

// methods are the JSON-RPC methods this server answers; any other is -32601.
var methods = []string{
	"server/discover",
	"tools/list", "tools/call",
	"resources/list", "resources/templates/list", "resources/read",
	"subscriptions/listen",
}

// notifications are the client notifications the SDK accepts.
var notifications = []string{"notifications/cancelled", "notifications/progress"}

// refusal is a protocol error: the HTTP status and the JSON-RPC error.
type refusal struct {
	method string // the request's method, when it was read (for the log)
	status int
	id     json.RawMessage // nil: null
	err    wire.RPCError
}

func refuse(id json.RawMessage, code errkind.RPCCode, msg string, data any) *refusal {
	return &refusal{status: code.HTTPStatus(), id: id, err: wire.RPCError{Code: code, Message: msg, Data: data}}
}

func (r *refusal) write(w http.ResponseWriter) {
	wire.WriteRPCError(w, r.status, r.id, &r.err)
}

// admitted is a request that passed every check: what the SDK is given.
type admitted struct {
	id      json.RawMessage // nil for a notification
	method  string
	name    string // decoded Mcp-Name, for tools/call and resources/read
	version string
}

// UnsupportedVersionData is the data of a -32022 error.
type UnsupportedVersionData struct {
	Supported []string `json:"supported"`
	Requested string   `json:"requested"`
}

// admit checks one JSON-RPC message, which the front (package front) has
// already read and checked by the rule every transport shares (JSON
// -32700, a single message with an echoable id -32600), in the contract's
// order: a request or a notification (-32600), the _meta envelope
// (-32602), the Mcp-Method and Mcp-Name headers (-32020), the protocol
// version (-32022), the method (-32601). The Mcp-Protocol-Version header,
// when sent, must equal the _meta version (-32020) before the version
// itself is judged.
func admit(h http.Header, m *wire.Message) (*admitted, *refusal) {
	a, r := check(h, m)
	if r != nil && a != nil {
		r.method, a = a.method, nil
	}
	return a, r
}

// check is admit; on a refusal it also returns what it had read.
func check(h http.Header, m *wire.Message) (*admitted, *refusal) {
	id := m.ID
	if m.Type == wire.ResponseMessage {
		return nil, refuse(id, errkind.InvalidRequest, "Invalid Request: this server sends no requests, so it takes no responses.", nil)
	}
	method := m.Method
	if method == "" {
		return nil, refuse(id, errkind.InvalidRequest, `Invalid Request: "method" must be a non-empty string.`, nil)
	}
	var params map[string]json.RawMessage
	if m.Params != nil {
		if err := json.Unmarshal(m.Params, &params); err != nil {
			return nil, refuse(id, errkind.InvalidParams, `Invalid params: "params" must be an object.`, nil)
		}
	}
	a := &admitted{id: id, method: method}

	if m.Type == wire.NotificationMessage { // no _meta envelope, no version
		if r := checkMethodHeader(h, nil, method); r != nil {
			return a, r
		}
		if !slices.Contains(notifications, method) {
			return a, refuse(nil, errkind.MethodNotFound, "Method not found: "+quote(method), nil)
		}
		return a, nil
	}

	// _meta: every required key present, with the right type.
	var meta map[string]json.RawMessage
	if mv, ok := params["_meta"]; ok && string(mv) != "null" {
		if err := json.Unmarshal(mv, &meta); err != nil {
			return a, refuse(id, errkind.InvalidParams, "Invalid _meta envelope: params._meta must be an object.", nil)
		}
	}
	var missing []string
	for _, k := range []string{MetaProtocolVersion, MetaClientCapabilities} {
		if v, ok := meta[k]; !ok || string(v) == "null" {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return a, refuse(id, errkind.InvalidParams,
			fmt.Sprintf("Invalid _meta envelope: missing required %s %s.", plural(len(missing), "key", "keys"), quoteAll(missing)),
			map[string]any{"missing": missing})
	}
	if err := json.Unmarshal(meta[MetaProtocolVersion], &a.version); err != nil {
		return a, refuse(id, errkind.InvalidParams, fmt.Sprintf("Invalid _meta envelope: %q must be a string.", MetaProtocolVersion), nil)
	}
	if c := meta[MetaClientCapabilities]; c[0] != '{' {
		return a, refuse(id, errkind.InvalidParams, fmt.Sprintf("Invalid _meta envelope: %q must be an object.", MetaClientCapabilities), nil)
	}

	if r := checkMethodHeader(h, id, method); r != nil {
		return a, r
	}
	if r := checkNameHeader(h, id, method, params, a); r != nil {
		return a, r
	}

	if v := h.Get(headerVersion); v != "" && v != a.version {
		return a, refuse(id, errkind.HeaderMismatch,
			fmt.Sprintf("Header mismatch: %s header %s does not match _meta %s %s.", headerVersion, quote(v), MetaProtocolVersion, quote(a.version)), nil)
	}
	if a.version != ProtocolVersion {
		v := wire.Printable(a.version) // the version as sent, unless it is long or holds control characters
		return a, refuse(id, errkind.UnsupportedVersion, "Unsupported protocol version: "+v,
			UnsupportedVersionData{Supported: []string{ProtocolVersion}, Requested: v})
	}

	if !slices.Contains(methods, method) {
		return a, refuse(id, errkind.MethodNotFound, "Method not found: "+quote(method), nil)
	}
	// The SDK's template match would call a badly encoded URI variable
	// merely "not found"; say what is wrong with it.
	if method == "resources/read" && strings.HasPrefix(a.name, vulnPrefix) {
		if _, problem := vulnID(a.name); problem != "" {
			return a, refuse(id, errkind.InvalidParams, problem, map[string]string{"uri": wire.Printable(a.name)})
		}
	}
	// The SDK writes its "Resource not found" data with Go's %q, which is
	// not JSON for a URI with a control character (but \b \f \n \r \t),
	// DEL or an unprintable rune beyond U+FFFF: its answer was an empty
	// 200. No resource here has such a URI, so the answer is the SDK's,
	// written as JSON.
	if method == "resources/read" && !json.Valid([]byte(strconv.Quote(a.name))) {
		return a, refuse(id, errkind.InvalidParams, "Resource not found", map[string]string{"uri": wire.Printable(a.name)})
	}
	return a, nil
}

func checkMethodHeader(h http.Header, id json.RawMessage, method string) *refusal {
	v, ok := headerValue(h, headerMethod)
	if !ok {
		return refuse(id, errkind.HeaderMismatch, fmt.Sprintf("Header mismatch: the %s header is required, with one value; the body's method is %s.", headerMethod, quote(method)), nil)
	}
	if v != method {
		return refuse(id, errkind.HeaderMismatch, fmt.Sprintf("Header mismatch: %s header %s does not match the body's method %s.", headerMethod, quote(v), quote(method)), nil)
	}
	return nil
}

// checkNameHeader checks Mcp-Name against params.name (tools/call,
// prompts/get) or params.uri (resources/read). The header may carry the
// value as a =?base64?...?= sentinel.
func checkNameHeader(h http.Header, id json.RawMessage, method string, params map[string]json.RawMessage, a *admitted) *refusal {
	field := ""
	switch method {
	case "tools/call", "prompts/get":
		field = "name"
	case "resources/read":
		field = "uri"
	default:
		return nil
	}
	var want string
	if err := json.Unmarshal(params[field], &want); err != nil {
		return refuse(id, errkind.InvalidParams, fmt.Sprintf("Invalid params: params.%s must be a string.", field), nil)
	}
	v, ok := headerValue(h, headerName)
	if !ok {
		return refuse(id, errkind.HeaderMismatch, fmt.Sprintf("Header mismatch: the %s header is required for %s, with one value; the body's %s is %s.", headerName, method, field, quote(want)), nil)
	}
	got, ok := decodeSentinel(v)
	if !ok {
		return refuse(id, errkind.HeaderMismatch, fmt.Sprintf("Header mismatch: the %s header's =?base64?...?= value is not valid base64.", headerName), nil)
	}
	if got != want {
		return refuse(id, errkind.HeaderMismatch, fmt.Sprintf("Header mismatch: %s header %s does not match the body's %s %s.", headerName, quote(got), field, quote(want)), nil)
	}
	a.name = want
	return nil
}

// headerValue returns the value of a header (names in any case). A header
// sent twice with different values has no single value: it reports false,
// so the request is refused rather than judged by one of them.
func headerValue(h http.Header, name string) (string, bool) {
	vs := h.Values(name)
	if len(vs) == 0 || vs[0] == "" {
		return "", false
	}
	for _, v := range vs[1:] {
		if v != vs[0] {
			return "", false
		}
	}
	return vs[0], true
}

// decodeSentinel decodes a =?base64?<standard base64>?= header value; any
// other value is returned as it is.
func decodeSentinel(v string) (string, bool) {
	inner, ok := strings.CutPrefix(v, "=?base64?")
	if !ok {
		return v, true
	}
	inner, ok = strings.CutSuffix(inner, "?=")
	if !ok {
		return v, true
	}
	b, err := base64.StdEncoding.DecodeString(inner)
	if err != nil {
		return "", false
	}
	return string(b), true
}

// quote returns s as a JSON string, cut and escaped by printable.
func quote(s string) string { return `"` + wire.Printable(s) + `"` }

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = quote(s)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

package errkind

import (
	"net/http"
	"strconv"
)

// Code is a JSON-RPC error code: the "code" member of a JSON-RPC error
// response. A protocol error means the request never reached a tool; it
// travels as an HTTP status other than 200 with a JSON-RPC error body.
type Code int

// The protocol-error catalogue: JSON-RPC 2.0's codes, the implementation-
// defined code the legacy server range uses, and the 2026-07-28 transport
// codes. Each comment gives the HTTP status the code travels with on
// Streamable HTTP (see [Code.HTTPStatus]) and when to raise it.
const (
	// ParseError (-32700, HTTP 400): the body is not valid JSON.
	ParseError Code = -32700
	// InvalidRequest (-32600, HTTP 400): the body is JSON but not a valid
	// JSON-RPC request. The transport also sends it for a method other than
	// POST (405, with Allow: POST) and a Content-Type other than
	// application/json (415); see [MethodNotAllowed] and
	// [UnsupportedMediaType].
	InvalidRequest Code = -32600
	// MethodNotFound (-32601, HTTP 404): the JSON-RPC method is unknown, or
	// the path is not the MCP endpoint. An unknown tool in a hint-dialect
	// server is also -32601.
	MethodNotFound Code = -32601
	// InvalidParams (-32602, HTTP 400): the params are wrong, such as an
	// incomplete _meta envelope, an argument the tool does not declare, or
	// an unknown resource.
	InvalidParams Code = -32602
	// InternalError (-32603, HTTP 500): the server failed while handling a
	// valid request.
	InternalError Code = -32603
	// ImplementationDefined (-32000, HTTP 429 on the edge): the first code
	// of the implementation-defined server range (-32000 to -32099). Its
	// common use is an edge flood guard refusing the source; it then travels
	// with HTTP 429 and the client retries after a few seconds.
	ImplementationDefined Code = -32000
	// HeaderMismatch (-32020, HTTP 400): an Mcp-Method or Mcp-Name header
	// disagrees with the body.
	HeaderMismatch Code = -32020
	// MissingCapability (-32021, HTTP 400): the request needs a client
	// capability the client did not declare.
	MissingCapability Code = -32021
	// UnsupportedVersion (-32022, HTTP 400): the protocol version is not
	// served; data.supported lists what is.
	UnsupportedVersion Code = -32022
)

// Codes returns the catalogue's codes in the order of their constants.
func Codes() []Code {
	return []Code{
		ParseError, InvalidRequest, MethodNotFound, InvalidParams,
		InternalError, ImplementationDefined, HeaderMismatch,
		MissingCapability, UnsupportedVersion,
	}
}

// HTTPStatus returns the HTTP status the code travels with on Streamable
// HTTP: 400 for the request errors, 404 for MethodNotFound, 500 for
// InternalError and 429 for ImplementationDefined (the edge rate limit). A
// code outside the catalogue reports 500 when it is in the server range
// (-32099 to -32000) and 400 otherwise.
func (c Code) HTTPStatus() int {
	switch c {
	case ParseError, InvalidRequest, InvalidParams, HeaderMismatch, MissingCapability, UnsupportedVersion:
		return http.StatusBadRequest
	case MethodNotFound:
		return http.StatusNotFound
	case InternalError:
		return http.StatusInternalServerError
	case ImplementationDefined:
		return http.StatusTooManyRequests
	}
	if c >= -32099 && c <= -32000 {
		return http.StatusInternalServerError
	}
	return http.StatusBadRequest
}

// String returns the code's name, such as "invalid params", or "code(N)"
// for a code outside the catalogue.
func (c Code) String() string {
	switch c {
	case ParseError:
		return "parse error"
	case InvalidRequest:
		return "invalid request"
	case MethodNotFound:
		return "method not found"
	case InvalidParams:
		return "invalid params"
	case InternalError:
		return "internal error"
	case ImplementationDefined:
		return "implementation-defined"
	case HeaderMismatch:
		return "header mismatch"
	case MissingCapability:
		return "missing required client capability"
	case UnsupportedVersion:
		return "unsupported protocol version"
	}
	return "code(" + strconv.Itoa(int(c)) + ")"
}

// Retry returns the retry guidance for the code, as a sentence: whether
// re-sending can help, and what to change first.
func (c Code) Retry() string {
	switch c {
	case UnsupportedVersion:
		return "Once, with a version from data.supported."
	case ImplementationDefined:
		return "Yes, after a few seconds."
	case InternalError:
		return "No. Report it; the same request will fail the same way."
	case MissingCapability:
		return "No. Declare the capability and start a new session."
	}
	return "No. Fix the request."
}

// Refusal is one row of the Streamable HTTP protocol-error table: a transport-level
// refusal, the HTTP status it travels with, its JSON-RPC code (0 when the
// response carries no JSON-RPC body, as for 403), its cause and whether a
// retry can help.
type Refusal struct {
	Status int
	Code   Code
	Cause  string
	Retry  string
}

// MethodNotAllowed is the refusal of an HTTP method other than POST on the
// MCP path: 405 with -32600 and an Allow: POST header.
func MethodNotAllowed() Refusal {
	return Refusal{Status: http.StatusMethodNotAllowed, Code: InvalidRequest,
		Cause: "Method other than POST on the MCP path. The response carries Allow: POST.", Retry: "No. Fix the request."}
}

// UnsupportedMediaType is the refusal of a Content-Type other than
// application/json: 415 with -32600.
func UnsupportedMediaType() Refusal {
	return Refusal{Status: http.StatusUnsupportedMediaType, Code: InvalidRequest,
		Cause: "Content-Type is not application/json", Retry: "No. Fix the request."}
}

// Refusals returns the protocol-error table of an MCP server on Streamable
// HTTP, one Refusal per row: 403, 404 -32601, 405 -32600, 415 -32600,
// 400 -32602, 400 -32020, 400 -32022 and 429 -32000.
func Refusals() []Refusal {
	return []Refusal{
		{Status: http.StatusForbidden, Cause: "Host or Origin header not on the allowlist (DNS-rebinding protection)", Retry: "No. Fix the request."},
		{Status: http.StatusNotFound, Code: MethodNotFound, Cause: "Path is not the MCP path (and not one of the public endpoints), or the JSON-RPC method is unknown", Retry: MethodNotFound.Retry()},
		MethodNotAllowed(),
		UnsupportedMediaType(),
		{Status: http.StatusBadRequest, Code: InvalidParams, Cause: "Invalid _meta envelope: a required io.modelcontextprotocol/* key is missing", Retry: InvalidParams.Retry()},
		{Status: http.StatusBadRequest, Code: HeaderMismatch, Cause: "Mcp-Method or Mcp-Name header disagrees with the body", Retry: HeaderMismatch.Retry()},
		{Status: http.StatusBadRequest, Code: UnsupportedVersion, Cause: "Unsupported protocol version. data.supported lists what is served.", Retry: UnsupportedVersion.Retry()},
		{Status: http.StatusTooManyRequests, Code: ImplementationDefined, Cause: "The zone rate-limit rule blocked the source", Retry: ImplementationDefined.Retry()},
	}
}

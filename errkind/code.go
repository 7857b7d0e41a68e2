package errkind

import (
	"net/http"
	"strconv"
)

// RPCCode is a JSON-RPC error code: the "code" member of a JSON-RPC error
// response. A protocol error means the request never reached a tool; it
// travels as an HTTP status other than 200 with a JSON-RPC error body.
type RPCCode int

// The protocol-error catalogue: JSON-RPC 2.0's codes, the implementation-
// defined code the legacy server range uses, and the 2026-07-28 transport
// codes. Each comment gives the HTTP status the code travels with on
// Streamable HTTP (see [RPCCode.HTTPStatus]) and when to raise it.
const (
	// ParseError (-32700, HTTP 400): the body is not valid JSON.
	ParseError RPCCode = -32700
	// InvalidRequest (-32600, HTTP 400): the body is JSON but not a valid
	// JSON-RPC request. The transport also sends it for a method other than
	// POST (HTTP 405, with Allow: POST) and a Content-Type other than
	// application/json (HTTP 415).
	InvalidRequest RPCCode = -32600
	// MethodNotFound (-32601, HTTP 404): the JSON-RPC method is unknown, or
	// the path is not the MCP endpoint. An unknown tool in a hint-dialect
	// server is also -32601.
	MethodNotFound RPCCode = -32601
	// InvalidParams (-32602, HTTP 400): the params are wrong, such as an
	// incomplete _meta envelope, an argument the tool does not declare, or
	// an unknown resource.
	InvalidParams RPCCode = -32602
	// InternalError (-32603, HTTP 500): the server failed while handling a
	// valid request.
	InternalError RPCCode = -32603
	// ImplementationDefined (-32000, HTTP 500 unless the sender says
	// otherwise): the first code of the implementation-defined server range
	// (-32000 to -32099), whose meaning is the server's. It has no status of
	// its own: a sender that uses it for a flood guard's refusal writes HTTP
	// 429 (with Retry-After) itself.
	ImplementationDefined RPCCode = -32000
	// HeaderMismatch (-32020, HTTP 400): an Mcp-Method or Mcp-Name header
	// disagrees with the body.
	HeaderMismatch RPCCode = -32020
	// MissingCapability (-32021, HTTP 400): the request needs a client
	// capability the client did not declare.
	MissingCapability RPCCode = -32021
	// UnsupportedVersion (-32022, HTTP 400): the protocol version is not
	// served; data.supported lists what is.
	UnsupportedVersion RPCCode = -32022
)

// rpcCodes returns the catalogue's codes in the order of their constants.
func rpcCodes() []RPCCode {
	return []RPCCode{
		ParseError, InvalidRequest, MethodNotFound, InvalidParams,
		InternalError, ImplementationDefined, HeaderMismatch,
		MissingCapability, UnsupportedVersion,
	}
}

// HTTPStatus returns the HTTP status the code travels with on Streamable
// HTTP: 400 for the request errors, 404 for MethodNotFound and 500 for
// InternalError. Every other code of the server range (-32099 to -32000),
// ImplementationDefined among them, reports 500: a sender that means
// something else by it, such as an edge guard's 429, passes its status
// explicitly. Any other code reports 400.
func (c RPCCode) HTTPStatus() int {
	switch c {
	case ParseError, InvalidRequest, InvalidParams, HeaderMismatch, MissingCapability, UnsupportedVersion:
		return http.StatusBadRequest
	case MethodNotFound:
		return http.StatusNotFound
	case InternalError:
		return http.StatusInternalServerError
	}
	if c >= -32099 && c <= -32000 {
		return http.StatusInternalServerError
	}
	return http.StatusBadRequest
}

// String returns the code's name, such as "invalid params", or "code(N)"
// for a code outside the catalogue.
func (c RPCCode) String() string {
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

// Move returns the client's next move after a protocol error with this
// code: [FixArgument] for the request errors (fix the request),
// [RetrySafe] for UnsupportedVersion (the request never reached a tool:
// send it again with a version from data.supported),
// [Stop] for MissingCapability (the client must declare the capability and
// start a new session, which an agent's call cannot do), and [Report] for
// InternalError and every code of the implementation-defined server range,
// whose meaning only the server knows.
func (c RPCCode) Move() Move {
	switch c {
	case ParseError, InvalidRequest, MethodNotFound, InvalidParams, HeaderMismatch:
		return FixArgument
	case UnsupportedVersion:
		return RetrySafe
	case MissingCapability:
		return Stop
	}
	return Report
}

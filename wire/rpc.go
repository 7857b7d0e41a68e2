package wire

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/mcperr/mcperr/errkind"
)

// RPCError is the error object of a JSON-RPC error response: a protocol
// error, meaning the request never reached a tool. It marshals to
//
//	{"code":-32602,"message":"...","data":...}
//
// leaving out data when Data is nil. It is an error, so a function can
// return it as one; errors.As finds it through any wrapping.
type RPCError struct {
	Code    errkind.RPCCode `json:"code"`
	Message string          `json:"message"`
	// Data is any JSON value: an [ErrorData] for the hint dialect's
	// machine-readable code, or a server's own object, such as
	// {"supported":[...],"requested":"..."} for an unsupported version.
	// Unmarshalling leaves whatever encoding/json decodes into an any.
	Data any `json:"data,omitempty"`
}

// ErrorData is the data member of a JSON-RPC error in the hint dialect:
// the machine-readable code a client switches on, such as
// {"code":"unknown_parameter"}.
type ErrorData struct {
	Code string `json:"code"`
}

// Error returns "jsonrpc <code>: <message>", with the data's code in
// parentheses after the number when Data holds one:
// "jsonrpc -32602 (unknown_parameter): Unknown parameter 'x'.".
func (e *RPCError) Error() string {
	s := "jsonrpc " + strconv.Itoa(int(e.Code))
	if c := e.DataCode(); c != "" {
		s += " (" + c + ")"
	}
	return s + ": " + e.Message
}

// DataCode returns the code member of Data: the machine-readable code of
// the hint dialect, whether Data is an [ErrorData] (or a pointer to one) a
// server built, or the map encoding/json decoded from a response. It is ""
// when Data holds no string code.
func (e *RPCError) DataCode() string {
	switch d := e.Data.(type) {
	case ErrorData:
		return d.Code
	case *ErrorData:
		if d != nil {
			return d.Code
		}
	case map[string]any:
		s, _ := d["code"].(string)
		return s
	case map[string]string:
		return d["code"]
	}
	return ""
}

// WriteRPCError writes the JSON-RPC error response
//
//	{"jsonrpc":"2.0","id":<id>,"error":{"code":...,"message":...,"data":...}}
//
// and a newline, with Content-Type: application/json and the given status (0
// means e.Code.HTTPStatus()). An id that is nil or not valid JSON is written
// as null, as JSON-RPC requires when the request's id is unknown. Data that
// does not marshal is left out rather than fail the response. A nil e is
// written as an internal error. The message and data are encoded as results
// are, without HTML escaping: a rejection's "<=8 items" reads as the text
// says it, as the SDKs write it.
//
// The front's refusals, the limits' and the adapters' are all written by
// it.
func WriteRPCError(w http.ResponseWriter, status int, id json.RawMessage, e *RPCError) {
	if e == nil {
		e = &RPCError{Code: errkind.InternalError, Message: "Internal error"}
	}
	if status == 0 {
		status = e.Code.HTTPStatus()
	}
	var ib bytes.Buffer
	if len(id) == 0 || json.Compact(&ib, id) != nil {
		ib.Reset()
		ib.WriteString("null")
	}
	id = ib.Bytes()
	eb, err := encode(e)
	if err != nil {
		eb, _ = encode(&RPCError{Code: e.Code, Message: e.Message})
	}
	// The id is written as the request sent it, only compacted: encoding/json
	// would also escape &, < and > inside a string id, and a client matches
	// ids byte for byte.
	b := make([]byte, 0, len(`{"jsonrpc":"2.0","id":,"error":}`)+len(id)+len(eb)+1)
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"error":`...)
	b = append(b, eb...)
	b = append(b, "}\n"...)
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	w.Write(b)
}

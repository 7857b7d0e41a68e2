package envelope

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/mcperr/mcperr/errkind"
)

// RPCError is the error member of a JSON-RPC error response: a protocol
// error, meaning the request never reached a tool.
type RPCError struct {
	Code    errkind.Code `json:"code"`
	Message string       `json:"message"`
	Data    any          `json:"data,omitempty"`
}

// Error returns "jsonrpc <code>: <message>".
func (e *RPCError) Error() string {
	return "jsonrpc " + strconv.Itoa(int(e.Code)) + ": " + e.Message
}

// rpcResponse is a JSON-RPC error response.
type rpcResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   *RPCError       `json:"error"`
}

var null = json.RawMessage("null")

// WriteRPCError writes the JSON-RPC error response
//
//	{"jsonrpc":"2.0","id":<id>,"error":{"code":...,"message":...,"data":...}}
//
// with Content-Type: application/json and the given status (0 means
// e.Code.HTTPStatus()). An id that is nil or not valid JSON is written as
// null, as JSON-RPC requires when the request's id is unknown.
func WriteRPCError(w http.ResponseWriter, status int, id json.RawMessage, e *RPCError) {
	if status == 0 {
		status = e.Code.HTTPStatus()
	}
	if len(id) == 0 || !json.Valid(id) {
		id = null
	}
	b, err := json.Marshal(rpcResponse{JSONRPC: "2.0", ID: id, Error: e})
	if err != nil {
		// Data did not marshal; send the error without it.
		b, _ = json.Marshal(rpcResponse{JSONRPC: "2.0", ID: id, Error: &RPCError{Code: e.Code, Message: e.Message}})
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(b)+1))
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

package wire_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"

	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/wire"
)

// A success is structuredContent and one text block of the same JSON,
// encoded once; isError is absent.
func ExampleSuccess() {
	res, err := wire.Success(map[string]any{"total": 6, "has_more": false})
	if err != nil {
		fmt.Println(err)
		return
	}
	res.Meta = map[string]any{"vulnetix/plan": "community"}
	json.NewEncoder(os.Stdout).Encode(res)
	// Output:
	// {"_meta":{"vulnetix/plan":"community"},"content":[{"type":"text","text":"{\"has_more\":false,\"total\":6}"}],"structuredContent":{"has_more":false,"total":6}}
}

// An error that carries a kind, such as an *envelope.Error, renders as its
// JSON kind object; any other error is server_error with its text.
func ExampleErrorResult() {
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	enc.Encode(wire.ErrorResult(&envelope.Error{Kind: errkind.AuthenticationFailed, Message: "token revoked"}))
	enc.Encode(wire.ErrorResult(fmt.Errorf("search: %w", errors.New("index <offline>"))))
	// Output:
	// {"content":[{"type":"text","text":"{\"kind\":\"authentication_failed\",\"message\":\"token revoked\"}"}],"isError":true}
	// {"content":[{"type":"text","text":"{\"kind\":\"server_error\",\"message\":\"search: index <offline>\"}"}],"isError":true}
}

func ExampleTextError() {
	json.NewEncoder(os.Stdout).Encode(wire.TextError("Not found in the Vulnetix VDB: CVE-2099-0001"))
	// Output:
	// {"content":[{"type":"text","text":"Not found in the Vulnetix VDB: CVE-2099-0001"}],"isError":true}
}

// A server with its own error object sends it as the text of an isError
// result.
func ExampleJSONError() {
	json.NewEncoder(os.Stdout).Encode(wire.JSONError(map[string]any{
		"error": "insufficient credits", "code": "insufficient_credits", "retry_after_secs": 394200,
	}))
	// Output:
	// {"content":[{"type":"text","text":"{\"code\":\"insufficient_credits\",\"error\":\"insufficient credits\",\"retry_after_secs\":394200}"}],"isError":true}
}

func ExampleWriteRPCError() {
	rec := httptest.NewRecorder()
	wire.WriteRPCError(rec, 0, json.RawMessage(`1`), &wire.RPCError{
		Code:    errkind.UnsupportedVersion,
		Message: "Unsupported protocol version: 1900-01-01",
		Data:    map[string]any{"supported": []string{"2026-07-28"}, "requested": "1900-01-01"},
	})
	fmt.Print(rec.Code, " ", rec.Body.String())
	// Output:
	// 400 {"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version: 1900-01-01","data":{"requested":"1900-01-01","supported":["2026-07-28"]}}}
}

// The hint dialect's error carries its machine-readable code as data; the
// *RPCError is an error, and a client reading one back gets the same code.
func ExampleRPCError() {
	var err error = &wire.RPCError{
		Code:    errkind.InvalidParams,
		Message: "Unknown parameter 'langauge'. Did you mean 'language'?",
		Data:    wire.ErrorData{Code: "unknown_parameter"},
	}
	b, _ := json.Marshal(err)
	fmt.Println(string(b))
	fmt.Println(err)

	var back wire.RPCError
	json.Unmarshal(b, &back)
	fmt.Println(back.Code == errkind.InvalidParams, back.DataCode())
	// Output:
	// {"code":-32602,"message":"Unknown parameter 'langauge'. Did you mean 'language'?","data":{"code":"unknown_parameter"}}
	// jsonrpc -32602 (unknown_parameter): Unknown parameter 'langauge'. Did you mean 'language'?
	// true unknown_parameter
}

// quotaError is a server's own error type: it writes its kind object with
// errkind.Object, so ErrorResult renders it wherever it is wrapped.
type quotaError struct{ left int64 }

func (e *quotaError) Error() string { return "quota exhausted" }

func (e *quotaError) AppendKindObject(b []byte) []byte {
	wait := int64(3600)
	o := errkind.Object{Kind: "quota_exhausted", Message: e.Error(), Remaining: &e.left, RetryAfterSeconds: &wait}
	return o.AppendJSON(b, []string{"message", "remaining"})
}

func ExampleKindError() {
	err := fmt.Errorf("search: %w", &quotaError{left: 0})
	fmt.Println(wire.ErrorResult(err).Content[0].Text)
	// Output:
	// {"kind":"quota_exhausted","message":"quota exhausted","remaining":0,"retryAfterSeconds":3600}
}

// Text a client sent, echoed in an error message: control characters are
// escaped, so it stays one line, and a byte that is not UTF-8 becomes U+FFFD.
func ExamplePrintable() {
	fmt.Println(wire.Printable("get_trace\nlevel=ERROR msg=forged\xff"))
	// Output: get_trace\nlevel=ERROR msg=forged�
}

// creditsError is a server's own error object, rendered as it is.
type creditsError struct{ Needed int }

func (e *creditsError) Error() string { return "insufficient credits" }
func (e *creditsError) ToolResult() *wire.ToolResult {
	return wire.JSONError(map[string]any{"error": "insufficient credits", "needed": e.Needed})
}

// A handler's error renders as the Renderer in its chain says, else as the
// kind object.
func ExampleErrorResult_renderer() {
	for _, err := range []error{
		fmt.Errorf("search: %w", &creditsError{Needed: 3}),
		&envelope.Error{Kind: errkind.NotFound, Message: "no such trace"},
	} {
		b, _ := json.Marshal(wire.ErrorResult(err))
		fmt.Println(string(b))
	}
	// Output:
	// {"content":[{"type":"text","text":"{\"error\":\"insufficient credits\",\"needed\":3}"}],"isError":true}
	// {"content":[{"type":"text","text":"{\"kind\":\"not_found\",\"message\":\"no such trace\"}"}],"isError":true}
}

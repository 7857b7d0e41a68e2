package envelope_test

import (
	"encoding/json"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
)

func TestWriteRPCError(t *testing.T) {
	tests := []struct {
		name   string
		status int
		id     json.RawMessage
		err    *envelope.RPCError
		want   string
		code   int
	}{
		{"seed 003 version", 0, json.RawMessage(`1`),
			&envelope.RPCError{Code: errkind.UnsupportedVersion, Message: "Unsupported protocol version: 1900-01-01",
				Data: map[string]any{"supported": []string{"2026-07-28"}, "requested": "1900-01-01"}},
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version: 1900-01-01","data":{"requested":"1900-01-01","supported":["2026-07-28"]}}}`, 400},
		{"seed 003 edge", 429, nil,
			&envelope.RPCError{Code: errkind.ImplementationDefined, Message: "Rate limited at the edge. Slow down and retry after a few seconds."},
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Rate limited at the edge. Slow down and retry after a few seconds."}}`, 429},
		{"seed 004 hint", 0, json.RawMessage(`"2"`),
			&envelope.RPCError{Code: errkind.InvalidParams, Message: "Unknown parameter 'langauge'. Did you mean 'language'?", Data: map[string]string{"code": "unknown_parameter"}},
			`{"jsonrpc":"2.0","id":"2","error":{"code":-32602,"message":"Unknown parameter 'langauge'. Did you mean 'language'?","data":{"code":"unknown_parameter"}}}`, 400},
		{"bad id is null", 0, json.RawMessage(`{`),
			&envelope.RPCError{Code: errkind.InternalError, Message: "x"},
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"x"}}`, 500},
		{"unencodable data dropped", 0, nil,
			&envelope.RPCError{Code: errkind.ParseError, Message: "bad", Data: make(chan int)},
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad"}}`, 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			envelope.WriteRPCError(rec, tt.status, tt.id, tt.err)
			if rec.Code != tt.code {
				t.Errorf("status %d, want %d", rec.Code, tt.code)
			}
			if diff := cmp.Diff(tt.want+"\n", rec.Body.String()); diff != "" {
				t.Errorf("body (-want +got):\n%s", diff)
			}
			if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q", ct)
			}
		})
	}
	if got := (&envelope.RPCError{Code: -32601, Message: "Tool x not found"}).Error(); got != "jsonrpc -32601: Tool x not found" {
		t.Errorf("Error() = %q", got)
	}
}

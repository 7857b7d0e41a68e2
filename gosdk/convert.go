package gosdk

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/wire"
)

// This file is the only place that converts mcperr's wire values to the
// SDK's types: one function for each.

// Result converts an mcperr tool result to the SDK's: each text block,
// isError, _meta, and structuredContent as it was encoded once (a
// json.RawMessage the SDK writes unchanged). Result(nil) is nil.
func Result(r *wire.ToolResult) *mcp.CallToolResult {
	if r == nil {
		return nil
	}
	out := &mcp.CallToolResult{IsError: r.IsError, Content: make([]mcp.Content, 0, len(r.Content))}
	for _, c := range r.Content {
		out.Content = append(out.Content, &mcp.TextContent{Text: c.Text})
	}
	if r.StructuredContent != nil {
		out.StructuredContent = r.StructuredContent
	}
	if r.Meta != nil {
		out.Meta = r.Meta
	}
	return out
}

// textResult is schemaerr's refusal as the SDK's result: isError and one
// text block.
func textResult(text string) *mcp.CallToolResult {
	r := wire.TextError(text)
	out := &mcp.CallToolResult{IsError: r.IsError, Content: make([]mcp.Content, 0, len(r.Content))}
	for _, c := range r.Content {
		out.Content = append(out.Content, &mcp.TextContent{Text: c.Text})
	}
	return out
}

// rpcError is a hint-dialect refusal as the SDK's JSON-RPC error, which the
// SDK sends with its code, message and data unchanged.
func rpcError(e *wire.RPCError) *jsonrpc.Error {
	we := &jsonrpc.Error{Code: int64(e.Code), Message: e.Message}
	if e.Data != nil {
		we.Data, _ = json.Marshal(e.Data) // a struct of one string: it marshals
	}
	return we
}

// latest is the go-sdk's latest protocol revision, which it assumes for a
// session that has not sent initialize.
const latest = "2026-07-28"

// resultType is the "resultType" the SDK writes in the final results of
// session ss, as its protocol revision decides it (adapter.ResultType): the
// one place the adapter decides it.
func resultType(ss *mcp.ServerSession) string {
	v := latest
	if ss != nil {
		if p := ss.InitializeParams(); p != nil {
			v = p.ProtocolVersion
		}
	}
	return adapter.ResultType(v)
}

// complete marks r as the SDK marks a result its tool handler returned:
// "resultType":"complete" for a client on protocol revision 2026-07-28 or
// later (the SDK's setter is unexported; its decoder sets it). A result the
// middleware answers itself would lack it otherwise.
func complete(ss *mcp.ServerSession, r *mcp.CallToolResult) *mcp.CallToolResult {
	rt := resultType(ss)
	if rt == "" || r == nil {
		return r
	}
	b, err := json.Marshal(r)
	if err != nil || len(b) < 2 || b[len(b)-1] != '}' {
		return r
	}
	b = append(append(b[:len(b)-1], `,"resultType":"`+rt...), `"}`...)
	if b[1] == ',' { // r marshaled to {}
		b = append(b[:1], b[2:]...)
	}
	out := new(mcp.CallToolResult)
	if json.Unmarshal(b, out) != nil {
		return r
	}
	return out
}

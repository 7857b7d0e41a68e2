package main

import (
	"errors"
	"strings"

	"github.com/mcperr/mcperr/errkind"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// outcome is what the go-sdk client returned for a tool call, as
// errkind.Read takes it: the result's isError and text, or the JSON-RPC
// error's code, message and data. An error that is not a JSON-RPC error (the
// connection failed, the context ended) gives the zero Outcome.
func outcome(res *mcp.CallToolResult, err error) errkind.Outcome {
	if err != nil {
		var we *jsonrpc.Error
		if errors.As(err, &we) {
			return errkind.Outcome{RPCCode: errkind.RPCCode(we.Code), Message: we.Message, Data: we.Data}
		}
		return errkind.Outcome{}
	}
	if res == nil {
		return errkind.Outcome{}
	}
	var text []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			text = append(text, t.Text)
		}
	}
	return errkind.Outcome{IsError: res.IsError, Text: strings.Join(text, "\n")}
}

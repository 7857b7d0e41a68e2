// Command longserver serves, over stdio (mcpgo.ServeStdio), one tool
// "slow" that sleeps for its "millis" argument or until its context ends,
// through mcpgo.Handle with a Long set from the flags: the server the
// TypeScript client of examples/interop/long.mjs calls (TestLongNode).
package main

import (
	"context"
	"log"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcperr/mcperr/adapter/adaptertest"
	"github.com/mcperr/mcperr/mcpgo"
)

type in struct {
	Millis int `json:"millis"`
}

type out struct {
	Slept int `json:"slept"`
}

func main() {
	l := adaptertest.ParseLong()
	s := server.NewMCPServer("longserver", "1")
	s.AddTool(mcp.NewTool("slow", mcp.WithInputSchema[in]()), mcpgo.Handle(func(ctx context.Context, _ mcp.CallToolRequest, a in) (out, error) {
		if err := adaptertest.Sleep(ctx, a.Millis); err != nil {
			return out{}, err
		}
		return out{Slept: a.Millis}, nil
	}, l))
	v := mcpgo.Validate(s, nil)
	if err := mcpgo.ServeStdio(context.Background(), s, &mcpgo.StdioOptions{Validator: v}); err != nil {
		log.Fatal(err)
	}
}

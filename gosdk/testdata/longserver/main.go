// Command longserver serves, over stdio (gosdk.StdioTransport), one tool
// "slow" that sleeps for its "millis" argument or until its context ends,
// through gosdk.Handle with a Long set from the flags: the server the
// TypeScript client of examples/interop/long.mjs calls (TestLongNode).
package main

import (
	"context"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/adapter/adaptertest"
	"github.com/mcperr/mcperr/gosdk"
)

type in struct {
	Millis int `json:"millis"`
}

type out struct {
	Slept int `json:"slept"`
}

func main() {
	l := adaptertest.ParseLong()
	s := mcp.NewServer(&mcp.Implementation{Name: "longserver", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "slow"}, gosdk.Handle(func(ctx context.Context, _ *mcp.CallToolRequest, a in) (out, error) {
		if err := adaptertest.Sleep(ctx, a.Millis); err != nil {
			return out{}, err
		}
		return out{Slept: a.Millis}, nil
	}, l))
	if err := s.Run(context.Background(), &gosdk.StdioTransport{Server: s}); err != nil {
		log.Fatal(err)
	}
}

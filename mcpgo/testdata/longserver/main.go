// Command longserver serves, over stdio (mcpgo.ServeStdio), one tool
// "slow" that sleeps for its "millis" argument or until its context ends,
// through mcpgo.Handle with a Long set from the flags: the server the
// TypeScript client of examples/interop/long.mjs calls (TestLongNode).
package main

import (
	"context"
	"flag"
	"log"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcperr/mcperr/mcpgo"
)

type in struct {
	Millis int `json:"millis"`
}

type out struct {
	Slept int `json:"slept"`
}

func main() {
	var l mcpgo.Long
	flag.DurationVar(&l.Interval, "interval", 0, "time between progress notifications")
	flag.DurationVar(&l.Deadline, "deadline", 0, "the call's deadline")
	flag.DurationVar(&l.Wait, "wait", 0, "the wait the deadline's answer asks for")
	flag.Parse()
	s := server.NewMCPServer("longserver", "1")
	s.AddTool(mcp.NewTool("slow", mcp.WithInputSchema[in]()), mcpgo.Handle(func(ctx context.Context, _ mcp.CallToolRequest, a in) (out, error) {
		select {
		case <-time.After(time.Duration(a.Millis) * time.Millisecond):
			return out{Slept: a.Millis}, nil
		case <-ctx.Done():
			log.Printf("slow: cancelled: %v", ctx.Err()) // on stderr, for the test to see
			return out{}, ctx.Err()
		}
	}, l))
	v := mcpgo.Validate(s, nil)
	if err := mcpgo.ServeStdio(context.Background(), s, &mcpgo.StdioOptions{Validator: v}); err != nil {
		log.Fatal(err)
	}
}

// Command longserver serves, over stdio (gosdk.StdioTransport), one tool
// "slow" that sleeps for its "millis" argument or until its context ends,
// through gosdk.Handle with a Long set from the flags: the server the
// TypeScript client of examples/interop/long.mjs calls (TestLongNode).
package main

import (
	"context"
	"flag"
	"log"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/gosdk"
)

type in struct {
	Millis int `json:"millis"`
}

type out struct {
	Slept int `json:"slept"`
}

func main() {
	var l gosdk.Long
	flag.DurationVar(&l.Interval, "interval", 0, "time between progress notifications")
	flag.DurationVar(&l.Deadline, "deadline", 0, "the call's deadline")
	flag.DurationVar(&l.Wait, "wait", 0, "the wait the deadline's answer asks for")
	flag.Parse()
	s := mcp.NewServer(&mcp.Implementation{Name: "longserver", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "slow"}, gosdk.Handle(func(ctx context.Context, _ *mcp.CallToolRequest, a in) (out, error) {
		select {
		case <-time.After(time.Duration(a.Millis) * time.Millisecond):
			return out{Slept: a.Millis}, nil
		case <-ctx.Done():
			log.Printf("slow: cancelled: %v", ctx.Err()) // on stderr, for the test to see
			return out{}, ctx.Err()
		}
	}, l))
	if err := s.Run(context.Background(), &gosdk.StdioTransport{Server: s}); err != nil {
		log.Fatal(err)
	}
}

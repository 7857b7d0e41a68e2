package gosdk

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/adapter"
)

// Long bounds a tool call that takes long and keeps its client informed
// while it runs (adapter.Long): pass one to Handle.
type Long = adapter.Long

// progress returns what sends req's client notifications/progress, or nil
// when its request carried no progressToken (or has no session to send
// on).
func progress(req *mcp.CallToolRequest) func(context.Context, float64) {
	if req == nil || req.Session == nil || req.Params == nil {
		return nil
	}
	token := req.Params.GetProgressToken()
	if token == nil {
		return nil
	}
	return func(ctx context.Context, n float64) {
		// A notification that cannot be sent (the client went away) is
		// not the call's failure: the call's own answer reports that.
		_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: n})
	}
}

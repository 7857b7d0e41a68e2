package mcpgo

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcperr/mcperr/adapter"
)

// Long bounds a tool call that takes long and keeps its client informed
// while it runs (adapter.Long): pass one to Handle.
type Long = adapter.Long

// progress returns what sends req's client notifications/progress on the
// session in ctx, or nil when the request carried no progressToken or no
// server is in ctx.
func progress(ctx context.Context, req mcp.CallToolRequest) func(context.Context, float64) {
	if req.Params.Meta == nil || req.Params.Meta.ProgressToken == nil {
		return nil
	}
	s := server.ServerFromContext(ctx)
	if s == nil {
		return nil
	}
	token := req.Params.Meta.ProgressToken
	return func(ctx context.Context, n float64) {
		// A notification that cannot be sent (the client went away) is
		// not the call's failure: the call's own answer reports that.
		_ = s.SendNotificationToClient(ctx, "notifications/progress", map[string]any{"progressToken": token, "progress": n})
	}
}

package adapter

import (
	"context"
	"encoding/json"

	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/schemaerr"
)

// Validation is what the validation options of every adapter share,
// whatever the SDK: how refusals are worded, what the tools' schemas are
// compiled with, and the failure hook. gosdk.Options and mcpgo.Options embed
// it; an adapter for another SDK compiles its tools' schemas in a [NewSet]
// and hands its failures to [Validation.Report]. The zero value is the
// TypeScript dialect with schemaerr's default bounds.
type Validation struct {
	// Dialect words the refusals of arguments and of calls to a tool the
	// server does not have (schemaerr.Dialect, whose doc gives each
	// dialect's answers); the zero value is schemaerr.TypeScript.
	Dialect schemaerr.Dialect

	// Bounds bound one call's arguments and the work validating them takes
	// (schemaerr.Bounds; the zero value is its defaults). Arguments over a
	// bound get the dialect's refusal.
	Bounds schemaerr.Bounds

	// Patterns runs the schema patterns Go's RE2 cannot (lookahead,
	// lookbehind, backreferences): pass ecmaregexp.Engine{} from module
	// github.com/mcperr/mcperr/ecmaregexp. Nil leaves a tool whose schema
	// uses one refusing every call as the server's bug (its schema does not
	// compile).
	Patterns schemaerr.PatternEngine

	// Schemas, by tool name, are schemas to validate with in place of the
	// tool's published input schema: for a server that publishes a
	// stricter schema (an enum a host can check) than it validates with,
	// leaving a value to a check of its own that answers with its own
	// data.code.
	Schemas map[string]json.RawMessage

	// Cache, if set, shares the compiled schemas with every other
	// validation that uses it, so that a server built anew for each request
	// (a new server per HTTP request) compiles each distinct schema once, as
	// a long-lived server does: create one Cache and pass it to every
	// server's options. Nil compiles each server's schemas anew.
	Cache *schemaerr.Cache

	// OnFailure, if set, hears every failed answer to a tools/call, after
	// the answer is made: a refusal of the arguments (Stage Arguments), a
	// call to a tool the server does not have (UnknownToolCall, where the
	// adapter answers it: mcp-go answers it itself unless the adapter sees
	// the message first) and a tool that failed (Handler, with the
	// handler's Go error in Err), each read as the agent reads it. Set the
	// same hook on HTTP.OnFailure to hear the front's and the limits'
	// refusals too; Log(nil) logs them all.
	OnFailure func(ctx context.Context, f Failure)
}

// NewSet returns the set a validation compiles its tools' schemas in: with
// v's Schemas in place of the published ones, its Bounds and Patterns, and
// its Cache. V tells one version of a tool from the next (see
// schemaerr.Set).
func NewSet[V comparable](v *Validation) *schemaerr.Set[V] {
	return &schemaerr.Set[V]{Schemas: v.Schemas, Bounds: v.Bounds, Patterns: v.Patterns, Cache: v.Cache}
}

// Report hands OnFailure, when it is set, the failed answer o to a
// tools/call of tool, read as the agent reads it: a Failure of stage, with
// err, the handler's Go error of a tool that failed (Stage Handler).
func (v *Validation) Report(ctx context.Context, stage Stage, tool string, o errkind.Outcome, err error) {
	if v.OnFailure != nil {
		v.OnFailure(ctx, Failure{Stage: stage, Method: "tools/call", Tool: tool, Reading: errkind.Read(o), Err: err})
	}
}

// UnknownTool is the hint dialect's data.code for a call to a tool the
// server does not have, the code schemaerr.Hint.RefuseTool answers with.
const UnknownTool = "unknown_tool"

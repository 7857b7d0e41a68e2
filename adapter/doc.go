// Package adapter is the core every MCP SDK adapter of mcperr shares,
// without an SDK of its own: the options and wiring of the HTTP front an
// adapter's HTTPHandler serves its SDK behind ([HTTP], [Backend]), the
// limits of each client behind it ([Limit]), the validation options and
// their failure hook ([Validation], with [NewSet] and [Validation.Report];
// the dialects that word refusals are schemaerr.Dialect's), and what the
// protocol revision changes in a tool result ([ResultType]).
//
// The adapters, modules github.com/mcperr/mcperr/gosdk (the official Go
// SDK) and github.com/mcperr/mcperr/mcpgo (mark3labs/mcp-go), are built on
// it: gosdk.HTTPOptions and mcpgo.HTTPOptions embed [HTTP], and
// gosdk.Options and mcpgo.Options embed [Validation]. An adapter for
// another SDK builds on it too, with the stdio line rules of package
// [github.com/mcperr/mcperr/adapter/stdio] and the session table of package
// [github.com/mcperr/mcperr/adapter/session].
package adapter
